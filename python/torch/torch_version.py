"""torch.torch_version: TorchVersion, the str that torch.__version__ is.

As in PyTorch 2.15, `torch.__version__` is a str subclass whose ordering comparisons (<, <=, >,
>=, ==) compare PEP 440 versions: with a string ("2.0"), a tuple or list of numbers ((2, 16) is
"2.16") or a version object (anything whose str() is a version, such as packaging's Version).
Something that is not a version ("parrot") falls back to plain string comparison; `!=` stays
str's own, as in PyTorch.

Note [PEP 440 versions without packaging]
PyTorch compares through its vendored `packaging`. This package cannot count on `packaging`
being installed, so `Version` below parses and orders PEP 440 versions itself: epoch, release
(trailing zeros do not count: 2.15 == 2.15.0), pre-release (a < b < rc), post-release,
development release and local label, ordered as PEP 440 orders them (2.15.0.dev1 < 2.15.0a1 <
2.15.0 < 2.15.0+local < 2.15.0.post1).
"""
import re
from collections.abc import Iterable

from torch.version import __version__ as internal_version

__all__ = ["TorchVersion"]


class InvalidVersion(ValueError):
    """A string that is not a PEP 440 version."""


_VERSION = re.compile(
    r"""^\s*v?
    (?:(?P<epoch>[0-9]+)!)?
    (?P<release>[0-9]+(?:\.[0-9]+)*)
    (?:[-_.]?(?P<pre_l>alpha|beta|preview|pre|rc|a|b|c)[-_.]?(?P<pre_n>[0-9]+)?)?
    (?:-(?P<post_n1>[0-9]+)|[-_.]?(?P<post_l>post|rev|r)[-_.]?(?P<post_n2>[0-9]+)?)?
    (?P<dev>[-_.]?dev[-_.]?(?P<dev_n>[0-9]+)?)?
    (?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?
    \s*$""",
    re.VERBOSE | re.IGNORECASE,
)
_PRE_LETTER = {"a": "a", "alpha": "a", "b": "b", "beta": "b", "c": "rc", "rc": "rc", "pre": "rc", "preview": "rc"}
_PRE_RANK = {"a": 0, "b": 1, "rc": 2}


class Version:
    """A PEP 440 version, ordered as PEP 440 orders versions (Note [PEP 440 versions without
    packaging])."""

    def __init__(self, text):
        m = _VERSION.match(str(text))
        if m is None:
            raise InvalidVersion(f"Invalid version: '{text}'")
        self.epoch = int(m.group("epoch") or 0)
        self.release = tuple(int(p) for p in m.group("release").split("."))
        self.pre = None
        if m.group("pre_l"):
            self.pre = (_PRE_LETTER[m.group("pre_l").lower()], int(m.group("pre_n") or 0))
        post = m.group("post_n1") or m.group("post_n2")
        self.post = int(post) if post else (0 if m.group("post_l") else None)
        self.dev = int(m.group("dev_n") or 0) if m.group("dev") else None
        local = m.group("local")
        self.local = tuple(int(p) if p.isdigit() else p.lower() for p in re.split(r"[-_.]", local)) if local else None

    def _key(self):
        release = list(self.release)
        while len(release) > 1 and release[-1] == 0:
            release.pop()
        # Each part is a (rank, value) pair so that "absent" sorts where PEP 440 puts it.
        if self.pre is not None:
            pre = (1, _PRE_RANK[self.pre[0]], self.pre[1])
        elif self.post is None and self.dev is not None:
            pre = (0, 0, 0)  # 1.0.dev0 comes before 1.0a0
        else:
            pre = (2, 0, 0)  # a final release comes after its pre-releases
        post = (0, 0) if self.post is None else (1, self.post)
        dev = (1, 0) if self.dev is None else (0, self.dev)
        # A local label sorts after none; numeric parts after alphanumeric ones.
        local = (0,) if self.local is None else (1,) + tuple((1, p, "") if isinstance(p, int) else (0, 0, p)
                                                             for p in self.local)
        return (self.epoch, tuple(release), pre, post, dev, local)

    def __str__(self):
        s = (f"{self.epoch}!" if self.epoch else "") + ".".join(str(p) for p in self.release)
        if self.pre is not None:
            s += f"{self.pre[0]}{self.pre[1]}"
        if self.post is not None:
            s += f".post{self.post}"
        if self.dev is not None:
            s += f".dev{self.dev}"
        if self.local is not None:
            s += "+" + ".".join(str(p) for p in self.local)
        return s

    def __repr__(self):
        return f"<Version('{self}')>"

    def __hash__(self):
        return hash(self._key())

    def _other(self, other):
        return other if isinstance(other, Version) else None

    def __eq__(self, other):
        o = self._other(other)
        return NotImplemented if o is None else self._key() == o._key()

    def __ne__(self, other):
        o = self._other(other)
        return NotImplemented if o is None else self._key() != o._key()

    def __lt__(self, other):
        o = self._other(other)
        return NotImplemented if o is None else self._key() < o._key()

    def __le__(self, other):
        o = self._other(other)
        return NotImplemented if o is None else self._key() <= o._key()

    def __gt__(self, other):
        o = self._other(other)
        return NotImplemented if o is None else self._key() > o._key()

    def __ge__(self, other):
        o = self._other(other)
        return NotImplemented if o is None else self._key() >= o._key()


class TorchVersion(str):
    """torch.__version__: a str that compares as a version with strings, tuples and versions."""

    __slots__ = ()

    def _convert_to_version(self, other):
        if isinstance(other, Version):
            return other
        if isinstance(other, str):
            return Version(other)
        if isinstance(other, Iterable):
            return Version(".".join(str(item) for item in other))  # (2, 16) is "2.16"
        if hasattr(other, "release") and hasattr(other, "epoch"):
            return Version(str(other))  # another library's version object
        raise InvalidVersion(other)

    def _compare(self, other, method):
        try:
            return getattr(Version(self), method)(self._convert_to_version(other))
        except InvalidVersion:
            return getattr(str, method)(self, other)


# Set after the class is made, so that TorchVersion keeps str's __hash__ (as PyTorch's does).
for _method in ("__gt__", "__lt__", "__eq__", "__ge__", "__le__"):
    setattr(TorchVersion, _method, lambda self, other, method=_method: self._compare(other, method))
del _method

__version__ = TorchVersion(internal_version)
