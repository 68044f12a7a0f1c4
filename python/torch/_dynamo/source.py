"""Sources: where a value of a compiled frame comes from (L['x'], G['torch'], L['self'].lin.weight).

A source names the value in guards and graph inputs, reads it again for each call of the
compiled code, and finds its node in the C++ guard tree (torch._C._dynamo.RootGuardManager)."""
import re


class Source:
    def name(self):
        raise NotImplementedError

    def get(self, f_locals, f_globals):
        raise NotImplementedError

    def guard_node(self, root):
        raise NotImplementedError

    def placeholder_name(self):
        """The graph input's name for this source: L['x'] -> L_x_ (TorchDynamo's rule)."""
        return re.sub(r"[^a-zA-Z0-9]+", "_", self.name())

    def __eq__(self, other):
        return type(self) is type(other) and self.name() == other.name()

    def __hash__(self):
        return hash(self.name())

    def __repr__(self):
        return self.name()


class LocalSource(Source):
    def __init__(self, local_name):
        self.local_name = local_name

    def name(self):
        return "L[{!r}]".format(self.local_name)

    def get(self, f_locals, f_globals):
        return f_locals[self.local_name]

    def guard_node(self, root):
        return root.local(self.local_name)


class GlobalSource(Source):
    def __init__(self, global_name):
        self.global_name = global_name

    def name(self):
        return "G[{!r}]".format(self.global_name)

    def get(self, f_locals, f_globals):
        return f_globals[self.global_name]

    def guard_node(self, root):
        return root.global_(self.global_name)


class AttrSource(Source):
    def __init__(self, base, member):
        self.base = base
        self.member = member

    def name(self):
        return "{}.{}".format(self.base.name(), self.member)

    def get(self, f_locals, f_globals):
        return getattr(self.base.get(f_locals, f_globals), self.member)

    def guard_node(self, root):
        return self.base.guard_node(root).attr(self.member, self.name())


class ItemSource(Source):
    def __init__(self, base, index):
        self.base = base
        self.index = index

    def name(self):
        return "{}[{!r}]".format(self.base.name(), self.index)

    def get(self, f_locals, f_globals):
        return self.base.get(f_locals, f_globals)[self.index]

    def guard_node(self, root):
        return self.base.guard_node(root).item(self.index, self.name())


class DictGetItemSource(ItemSource):
    """An item of a dict reached by key, as TorchDynamo reaches a builtin through the frame's
    builtins dict, which it installs in the globals (G['__builtins_dict___1']['print'])."""

    def guard_node(self, root):
        return self.base.guard_node(root).dict_item(self.index, self.name())
