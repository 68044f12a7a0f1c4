"""torch.Tensor: the Python class of every tensor, over torch._C._TensorBase (as in PyTorch,
whose Tensor also subclasses a C base). Operators and metadata come from the base; here are
the Python-level parts: printing, reflected operators, backward(), conversions."""
import collections

import torch
from torch import _C

_DTYPE_TYPES = {"float32": "torch.FloatTensor", "float64": "torch.DoubleTensor", "float16": "torch.HalfTensor",
                "bfloat16": "torch.BFloat16Tensor",
                "int64": "torch.LongTensor", "int32": "torch.IntTensor", "int16": "torch.ShortTensor",
                "int8": "torch.CharTensor", "uint8": "torch.ByteTensor", "bool": "torch.BoolTensor"}


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, torch.Tensor)


_LEGACY_NEW_SIGNATURES = (" * (*, torch.device device = None)\n * (torch.Storage storage)\n * (Tensor other)\n"
                          " * (tuple of ints size, *, torch.device device = None)\n"
                          " * (object data, *, torch.device device = None)\n")


def _legacy_base_ctor(args, kwargs):
    """torch.Tensor(...): PyTorch's legacy base constructor (legacy_tensor_generic_ctor_new with
    BASE_CTOR), in the default dtype: Tensor() is empty, Tensor(2, 3) / Tensor(torch.Size) are
    uninitialized of those sizes, Tensor(sequence or ndarray) copies the values converted to the
    default dtype, Tensor(tensor) aliases the tensor whatever its dtype."""
    def name(a):
        t = type(a)
        return t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__name__}"

    device = kwargs.pop("device", None)
    if kwargs:
        got = ", ".join(name(a) for a in args)
        keywords = [f"{k}={name(v)}" for k, v in kwargs.items()]
        got = f"{got}, {', '.join(keywords)}" if args else "".join(k + ", " for k in keywords)
        raise TypeError(f"new() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                        + _LEGACY_NEW_SIGNATURES)
    if device is not None:
        dev = torch.device(device)
        if dev.type != "cpu":
            raise RuntimeError(f"legacy constructor expects device type: cpu but device type: {dev.type} was passed")
    dtype = torch.get_default_dtype()
    if not args:
        return torch.empty(0, dtype=dtype)
    if len(args) == 1:
        data = args[0]
        if isinstance(data, Tensor):
            return data.alias()
        if isinstance(data, torch.Size):
            return torch.empty(data, dtype=dtype)
        if isinstance(data, bool) or not hasattr(data, "__index__") or hasattr(type(data), "__len__"):  # the data
            if isinstance(data, str):
                raise TypeError("new(): invalid data type 'str'")
            if isinstance(data, (bool, dict)) or not (hasattr(type(data), "__len__") and hasattr(type(data), "__getitem__")):
                raise TypeError(f"new(): data must be a sequence (got {name(data)})")
            if not isinstance(data, (list, tuple)) and not hasattr(data, "__array__"):
                data = list(data)  # range and other sequences
            return torch.tensor(data, dtype=dtype)
    try:
        return torch.empty(args, dtype=dtype)
    except TypeError as e:
        msg = str(e)
        if msg.startswith("empty():"):
            raise TypeError("new():" + msg[len("empty():"):]) from None
        raise


class Tensor(_C._TensorBase):
    __module__ = "torch"
    __array_priority__ = 1000

    def __new__(cls, *args, **kwargs):
        # torch.Tensor(...) and subclasses without a __new__ of their own: the legacy constructor
        # (the runtime's own tensors are made in C++, without calling __new__).
        t = _legacy_base_ctor(args, kwargs)
        return t if cls is Tensor else Tensor._make_subclass(cls, t)

    def __repr__(self):
        return _C._tensor_repr(self)

    def __format__(self, format_spec):
        if self.dim() == 0 and not self.is_meta:
            return self.item().__format__(format_spec)
        return object.__format__(self, format_spec)

    def __hash__(self):
        return id(self)

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        with torch.no_grad():
            new = self.clone()
        new.requires_grad_(self.requires_grad)
        memo[id(self)] = new
        return new

    # ---- autograd --------------------------------------------------------------------------
    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        torch.autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def resize_(self, *sizes, memory_format=None):
        """As PyTorch's autograd refuses it first: a tensor that requires grad is not resized."""
        if self.requires_grad:
            raise RuntimeError("cannot resize variables that require grad")
        return super().resize_(*sizes, memory_format=memory_format)

    def register_hook(self, hook):
        """Registers a backward hook: hook(grad) runs when this tensor's gradient is computed and
        may return a replacement. Returns a handle whose remove() unregisters it."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        hooks = getattr(self, "_backward_hooks", None)
        if hooks is None:
            hooks = self._backward_hooks = collections.OrderedDict()
            _C._register_hook_dict(self, hooks)
        handle = torch.utils.hooks.RemovableHandle(hooks)
        hooks[handle.id] = hook
        return handle

    # ---- reflected operators (number op tensor) -------------------------------------------
    def __radd__(self, other):
        return self.add(other) if _is_number(other) else NotImplemented

    def __rmul__(self, other):
        return self.mul(other) if _is_number(other) else NotImplemented

    def __rsub__(self, other):
        return _C._VariableFunctions.rsub(self, other) if _is_number(other) else NotImplemented

    def __rtruediv__(self, other):
        return self.reciprocal() * other if _is_number(other) else NotImplemented

    __rdiv__ = __rtruediv__

    def __rfloordiv__(self, other):
        return torch.floor_divide(_C._wrap_number(other), self) if _is_number(other) else NotImplemented

    def __rpow__(self, other):
        return torch.pow(_C._wrap_number(other), self) if _is_number(other) else NotImplemented

    def __rmatmul__(self, other):
        return NotImplemented

    def __pos__(self):
        return self

    # number & tensor, number | tensor, number ^ tensor: the op is symmetric.
    def __rand__(self, other):
        return self.bitwise_and(other)

    def __ror__(self, other):
        return self.bitwise_or(other)

    def __rxor__(self, other):
        return self.bitwise_xor(other)

    def is_complex(self):
        return self.dtype.is_complex  # no complex dtypes in this runtime yet

    def new(self, *args, device=None):
        """The legacy constructor: an empty tensor of this one's dtype (and device) of the given
        sizes (ints or a torch.Size), or a copy of a sequence's values in this dtype."""
        device = self.device if device is None else device
        if not args:
            return torch.empty(0, dtype=self.dtype, device=device)
        if len(args) == 1 and isinstance(args[0], torch.Size):
            return torch.empty(args[0], dtype=self.dtype, device=device)
        if len(args) == 1 and isinstance(args[0], Tensor):
            if args[0].dtype != self.dtype:
                raise TypeError(f"expected {self.dtype} (got {args[0].dtype})")
            return args[0].detach()
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            return torch.tensor(args[0], dtype=self.dtype, device=device)
        return torch.empty(args, dtype=self.dtype, device=device)

    def split(self, split_size, dim=0):
        # an int: split.Tensor (equal chunks); a list of sizes: split_with_sizes
        if isinstance(split_size, Tensor):
            try:
                split_size = int(split_size)
            except ValueError:
                pass
        if isinstance(split_size, int):
            return _C._VariableFunctions.split(self, split_size, dim)
        return _C._VariableFunctions.split_with_sizes(self, split_size, dim)

    # number << tensor, number >> tensor
    def __rlshift__(self, other):
        return torch.bitwise_left_shift(other, self)

    def __rrshift__(self, other):
        return torch.bitwise_right_shift(other, self)

    def __invert__(self):
        # ~x is bitwise_not, for integer and bool tensors only (the TypeError is PyTorch's).
        if self.dtype.is_floating_point or self.dtype.is_complex:
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return self.bitwise_not()

    # ---- sequences ---------------------------------------------------------------------------
    def __iter__(self):
        if self.dim() == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter([self.select(0, i) for i in range(self.size(0))])

    def __reversed__(self):
        if self.dim() == 0:
            return self
        return iter([self.select(0, i) for i in reversed(range(self.size(0)))])

    def __contains__(self, element):
        if isinstance(element, (Tensor, int, float, bool)):
            return bool((self == element).any().item()) if hasattr(self, "any") else element in self.tolist()
        raise RuntimeError("Tensor.__contains__ only supports Tensor or scalar, but you passed in a {}.".format(type(element)))

    # ---- shapes like another tensor ---------------------------------------------------------
    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        return torch.functional.norm(self, p, dim, keepdim, dtype=dtype)

    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
        return torch.functional.unique(self, sorted=sorted, return_inverse=return_inverse,
                                       return_counts=return_counts, dim=dim)

    def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
        return torch.functional.unique_consecutive(self, return_inverse=return_inverse,
                                                   return_counts=return_counts, dim=dim)

    def expand_as(self, other):
        return self.expand(other.size())

    def view_as(self, other):
        return self.view(other.size())

    def reshape_as(self, other):
        return self.reshape(other.size())

    def type_as(self, other):
        return self.to(other.dtype)

    # ---- conversions -----------------------------------------------------------------------
    def type(self, dtype=None, non_blocking=False):
        if dtype is None:
            name = _DTYPE_TYPES[str(self.dtype)[len("torch."):]]
            return name.replace("torch.", "torch.cuda.") if self.is_cuda else name
        if isinstance(dtype, str):
            for key, value in _DTYPE_TYPES.items():
                if value == dtype:
                    dtype = getattr(torch, key)
        return self.to(dtype)

    def to(self, *args, **kwargs):
        """to(dtype, non_blocking=False, copy=False), to(device=None, dtype=None, non_blocking=False,
        copy=False) or to(other, non_blocking=False, copy=False), plus memory_format=: PyTorch's three
        signatures, read as its argument parser reads them (a bool after the dtype is non_blocking,
        never a device index)."""
        args = list(args)
        dtype, device = kwargs.pop("dtype", None), kwargs.pop("device", None)
        if args and isinstance(args[0], Tensor):
            other = args.pop(0)
            dtype, device = other.dtype, other.device
        elif args and isinstance(args[0], torch.dtype):
            dtype = args.pop(0)
        elif args:
            first = args.pop(0)
            if first is not None and (isinstance(first, bool) or not isinstance(first, (str, torch.device, int))):
                raise TypeError(f"to() received an invalid combination of arguments - got ({type(first).__name__}, ...)")
            device = first
            if args and (args[0] is None or isinstance(args[0], torch.dtype)):
                dtype = args.pop(0)
        if len(args) > 2:
            raise TypeError(f"to() takes at most 4 positional arguments but {len(args) + 2} were given")
        non_blocking = args[0] if args else kwargs.pop("non_blocking", False)
        copy = args[1] if len(args) > 1 else kwargs.pop("copy", False)
        memory_format = kwargs.pop("memory_format", None)
        if kwargs:
            raise TypeError(f"to() got an unexpected keyword argument '{next(iter(kwargs))}'")
        dtype = self.dtype if dtype is None else dtype
        device = self.device if device is None else torch.device(device)
        if dtype == self.dtype and device == self.device and not copy and (
                memory_format is None or memory_format is torch.preserve_format):
            return self
        return _C._VariableFunctions._to_copy(self, dtype=dtype, device=device, non_blocking=bool(non_blocking),
                                              memory_format=memory_format)

    def float(self):
        return self.to(torch.float32)

    def double(self):
        return self.to(torch.float64)

    def half(self):
        return self.to(torch.float16)

    def bfloat16(self):
        return self.to(torch.bfloat16)

    def long(self):
        return self.to(torch.int64)

    def int(self):
        return self.to(torch.int32)

    def short(self):
        return self.to(torch.int16)

    def char(self):
        return self.to(torch.int8)

    def byte(self):
        return self.to(torch.uint8)

    def bool(self):
        return self.to(torch.bool)

    def storage(self):
        """The deprecated TypedStorage view of this tensor's storage (warns once per process, at
        the caller's line, as PyTorch 2.15 does); untyped_storage() is the storage itself."""
        torch.storage._warn_typed_storage_removal(stacklevel=2)
        return self._typed_storage()

    def _typed_storage(self):
        return torch.storage.TypedStorage(wrap_storage=self.untyped_storage(), dtype=self.dtype, _internal=True)

    def cpu(self):
        return self.to("cpu")

    def cuda(self, device=None, non_blocking=False):
        return self.to("cuda" if device is None else torch.device("cuda", device) if isinstance(device, int) else device,
                       non_blocking=non_blocking)

    def pin_memory(self):
        """A copy of this CPU tensor in page-locked memory, which a non_blocking copy to the GPU
        reads without the host waiting."""
        return _C._pin_memory(self)

    def is_pinned(self):
        return _C._is_pinned(self)

    def record_stream(self, stream):
        """Marks this tensor's memory as used by work on `stream`: when it is freed, the caching
        allocator reuses it only once that stream's work queued so far has completed."""
        _C._cuda_recordStream(self, stream.stream_id)
