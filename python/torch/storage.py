"""torch.storage: the storages of PyTorch 2.15.

`t.untyped_storage()` is a `torch.UntypedStorage`, the bytes of the tensor's storage (the class
comes from torch._C). `t.storage()` is a `TypedStorage`: the same storage seen as elements of
the tensor's dtype. PyTorch 2.x deprecates TypedStorage: the first use in a process warns with
a UserWarning attributed to the caller's line, as `_warn_typed_storage_removal` does in 2.15.
"""
import warnings

import torch
from torch import _C

__all__ = ["TypedStorage", "UntypedStorage"]

UntypedStorage = _C.UntypedStorage
UntypedStorage.__module__ = "torch.storage"

_always_warn_typed_storage_removal = False


def _get_always_warn_typed_storage_removal():
    return _always_warn_typed_storage_removal


def _set_always_warn_typed_storage_removal(always_warn):
    global _always_warn_typed_storage_removal
    if not isinstance(always_warn, bool):
        raise AssertionError(f"always_warn must be bool, got {type(always_warn)}")
    _always_warn_typed_storage_removal = always_warn


def _warn_typed_storage_removal(stacklevel=2):
    """Warns once per process (every time after _set_always_warn_typed_storage_removal(True)).
    stacklevel counts from the caller of this function, as warnings.warn's does."""
    if _get_always_warn_typed_storage_removal() or not _warn_typed_storage_removal.__dict__.get("has_warned", False):
        message = (
            "TypedStorage is deprecated. It will be removed in the future and "
            "UntypedStorage will be the only storage class. This should only matter "
            "to you if you are using storages directly.  To access UntypedStorage "
            "directly, use tensor.untyped_storage() instead of tensor.storage()"
        )
        warnings.warn(message, UserWarning, stacklevel=stacklevel + 1)
        _warn_typed_storage_removal.__dict__["has_warned"] = True


def _reset_warn_typed_storage_removal():
    _warn_typed_storage_removal.__dict__["has_warned"] = False


class TypedStorage:
    """A storage seen as elements of `dtype` (deprecated in PyTorch 2.x)."""

    is_sparse = False

    def __init__(self, *, wrap_storage, dtype, _internal=False):
        if not _internal:
            _warn_typed_storage_removal()
        if not isinstance(wrap_storage, UntypedStorage):
            raise TypeError(f"expected a torch.UntypedStorage for wrap_storage, but got {type(wrap_storage)}")
        self._untyped_storage = wrap_storage
        self.dtype = dtype

    @property
    def device(self):
        _warn_typed_storage_removal()
        return self._untyped_storage.device

    @property
    def is_cuda(self):
        _warn_typed_storage_removal()
        return self._untyped_storage.device.type == "cuda"

    def untyped(self):
        _warn_typed_storage_removal()
        return self._untyped_storage

    def size(self):
        _warn_typed_storage_removal()
        return self._size()

    def _size(self):
        return self._untyped_storage.nbytes() // self._element_size()

    def __len__(self):
        _warn_typed_storage_removal()
        return self._size()

    def element_size(self):
        _warn_typed_storage_removal()
        return self._element_size()

    def _element_size(self):
        return torch.empty((), dtype=self.dtype, device="meta").element_size()

    def nbytes(self):
        _warn_typed_storage_removal()
        return self._untyped_storage.nbytes()

    def data_ptr(self):
        _warn_typed_storage_removal()
        return self._untyped_storage.data_ptr()

    def tolist(self):
        _warn_typed_storage_removal()
        return self._untyped_storage._typed_tolist()

    def __getitem__(self, idx):
        _warn_typed_storage_removal()
        n = self._size()
        if not isinstance(idx, int):
            raise RuntimeError(f"can't index a {type(self)} with {type(idx)}")
        if idx < -n or idx >= n:
            raise IndexError(f"index {idx} out of range for storage of size {n}")
        if self._untyped_storage.device.type == "meta":
            raise NotImplementedError("Not available for 'meta' device type")
        return self._untyped_storage._typed_getitem(idx % n if n else idx)

    def __iter__(self):
        _warn_typed_storage_removal()
        return iter(self[i] for i in range(self._size()))

    def type(self, dtype=None, non_blocking=False):
        _warn_typed_storage_removal()
        if dtype is None:
            return "torch." + _STORAGE_TYPES.get(str(self.dtype), "TypedStorage")
        raise NotImplementedError("TypedStorage.type(dtype) is not supported")

    def __str__(self):
        _warn_typed_storage_removal()
        info_str = f"[{torch.typename(self)}(dtype={self.dtype}, device={self.device}) of size {len(self)}]"
        if self.device.type == "meta":
            return "...\n" + info_str
        data_str = " " + "\n ".join(str(self[i]) for i in range(self.size()))
        return data_str + "\n" + info_str

    def __repr__(self):
        _warn_typed_storage_removal()
        return str(self)


_STORAGE_TYPES = {"torch.float32": "FloatStorage", "torch.float64": "DoubleStorage", "torch.float16": "HalfStorage",
                  "torch.bfloat16": "BFloat16Storage", "torch.int64": "LongStorage", "torch.int32": "IntStorage",
                  "torch.int16": "ShortStorage", "torch.int8": "CharStorage",
                  "torch.uint8": "ByteStorage", "torch.bool": "BoolStorage"}


class _LegacyStorage(TypedStorage):
    """torch.FloatStorage and the other per-dtype storage classes: here they name a dtype in saved
    files (a saved tensor's storage is recorded as ("storage", torch.FloatStorage, key, ...))."""

    dtype = None

    def __init__(self, *args, **kwargs):
        raise RuntimeError(f"torch.{type(self).__name__} cannot be constructed here; use torch.empty(..., "
                           "dtype=...).untyped_storage()")


def _legacy_storage_classes():
    import torch
    classes = {}
    for dtype_name, class_name in _STORAGE_TYPES.items():
        cls = type(class_name, (_LegacyStorage,), {"dtype": getattr(torch, dtype_name.split(".")[1])})
        cls.__module__ = "torch"
        classes[class_name] = cls
    return classes
