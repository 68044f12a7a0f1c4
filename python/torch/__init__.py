"""Inside PyTorch's `torch`: PyTorch's Python front end over this project's runtime.

As in PyTorch, the package is plain Python over the extension module torch._C (pybind11
bindings of the C++ runtime; its operator bindings are generated at build time from
core/ops/native_functions.yaml). torch.add, torch.zeros, ... come from
torch._C._VariableFunctions; Tensor methods from torch._C._TensorBase.
"""
import builtins as _builtins
import math as _math

from torch import _C
from torch._C import (DispatchKey, DispatchKeySet, Generator, default_generator, device, dtype, is_grad_enabled,
                      is_inference_mode_enabled, layout, memory_format)

# 2.15.0+insidepytorch, a TorchVersion (Note [The version string] in torch/version.py).
from torch import version  # noqa: E402
from torch.torch_version import __version__ as __version__  # noqa: E402

# ---- dtypes, layouts, memory formats (singletons: `t.dtype is torch.float32`) -------------
float32 = float = _C._dtype_float32
float64 = double = _C._dtype_float64
float16 = half = _C._dtype_float16
bfloat16 = _C._dtype_bfloat16
int64 = long = _C._dtype_int64
int32 = int = _C._dtype_int32
int16 = short = _C._dtype_int16
int8 = _C._dtype_int8
uint8 = _C._dtype_uint8
bool = _C._dtype_bool
strided = _C._strided

import math as _math  # noqa: E402

inf, nan, e, pi = _math.inf, _math.nan, _math.e, _math.pi  # torch.inf ... as in PyTorch
del _math
contiguous_format = _C._contiguous_format
preserve_format = _C._preserve_format

for _cls in (dtype, device, layout, memory_format):
    _cls.__module__ = "torch"
del _cls

from torch._size import Size  # noqa: E402
from torch._type_info import finfo, iinfo  # noqa: E402
from torch._C import can_cast, promote_types, result_type  # noqa: E402
from torch._tensor import Tensor  # noqa: E402
from torch.storage import TypedStorage, UntypedStorage  # noqa: E402
from torch.storage import _legacy_storage_classes  # noqa: E402

globals().update(_legacy_storage_classes())  # torch.FloatStorage ...
del _legacy_storage_classes

_C._set_size_class(Size)
_C._set_tensor_class(Tensor)

# ---- operators: every function variant of the schema YAML ----------------------------------
for _name in dir(_C._VariableFunctions):
    if not _name.startswith("__"):
        globals()[_name] = getattr(_C._VariableFunctions, _name)
del _name
tensor = _C.tensor
get_num_threads = _C.get_num_threads
set_num_threads = _C.set_num_threads
from_numpy = _C.from_numpy
from torch.functional import (atleast_1d, atleast_2d, atleast_3d, block_diag, broadcast_shapes,  # noqa: E402
                              broadcast_tensors, cartesian_prod, cdist, einsum, meshgrid, norm, split, tensordot, unique,
                              unique_consecutive)


from torch.random import get_rng_state, initial_seed, manual_seed, seed, set_rng_state  # noqa: E402
from torch._tensor_str import set_printoptions  # noqa: E402


def as_tensor(data, dtype=None, device=None):
    """data as a tensor, sharing memory where it can: a tensor of that dtype and device is
    returned as it is, a NumPy array is viewed (torch.from_numpy) and converted only if asked;
    anything else is copied, as torch.tensor copies it."""
    if isinstance(data, Tensor):
        return data.to(dtype=dtype, device=device)
    if type(data).__module__ == "numpy" and type(data).__name__ == "ndarray" and data.ndim > 0:
        return from_numpy(data).to(dtype=dtype, device=device)
    return tensor(data, dtype=dtype, device=device)


def is_tensor(obj):
    return isinstance(obj, Tensor)


def is_complex(input):
    return input.is_complex()


def is_floating_point(input):
    return input.is_floating_point()


def numel(input):
    return input.numel()


def get_default_dtype():
    return float32


def typename(o):
    """The type name PyTorch's torch.typename gives (used in error messages)."""
    if isinstance(o, Tensor):
        type_fn = getattr(o, 'type', None)
        if type_fn is not None:
            try:
                return type_fn()
            except Exception:
                pass
    module = ''
    mod_name = getattr(o, '__module__', None)
    if mod_name is not None and mod_name not in ('builtins', '__builtin__'):
        module = mod_name + '.'
    if hasattr(o, '__qualname__'):
        class_name = o.__qualname__
    elif hasattr(o, '__name__'):
        class_name = o.__name__
    else:
        class_name = o.__class__.__name__
    return module + class_name


from torch.autograd.grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled  # noqa: E402
from torch import autograd  # noqa: E402
from torch import nn  # noqa: E402
from torch import linalg  # noqa: E402
from torch import optim  # noqa: E402
from torch import return_types  # noqa: E402
from torch import utils  # noqa: E402
from torch import _utils  # noqa: E402,F401
from torch.serialization import load, save  # noqa: E402
from torch._C import (autocast_decrement_nesting, autocast_increment_nesting, clear_autocast_cache,  # noqa: E402
                      get_autocast_cpu_dtype, get_autocast_dtype, get_autocast_gpu_dtype,
                      is_autocast_cache_enabled, is_autocast_cpu_enabled, is_autocast_enabled,
                      set_autocast_cache_enabled, set_autocast_cpu_dtype, set_autocast_cpu_enabled,
                      set_autocast_dtype, set_autocast_enabled, set_autocast_gpu_dtype)
from torch import amp, cpu, cuda  # noqa: E402
from torch import accelerator  # noqa: E402  (after cuda, which it uses)
from torch import backends  # noqa: E402
from torch._ops import ops  # noqa: E402
from torch import testing  # noqa: E402
from torch._deterministic import (use_deterministic_algorithms, are_deterministic_algorithms_enabled,  # noqa: E402,F401
                                 is_deterministic_algorithms_warn_only_enabled, set_deterministic_debug_mode,
                                 get_deterministic_debug_mode)

_float32_matmul_precision = "highest"


def set_float32_matmul_precision(precision):
    """'highest': float32 matmuls in float32; 'high' and 'medium': TF32 tensor cores allowed."""
    global _float32_matmul_precision
    if precision not in ("highest", "high", "medium"):
        raise RuntimeError("Invalid precision {}".format(precision))
    _float32_matmul_precision = precision
    backends.cuda.matmul.allow_tf32 = precision != "highest"


def get_float32_matmul_precision():
    return _float32_matmul_precision
from torch.amp import autocast  # noqa: E402


# ---- legacy tensor types: torch.FloatTensor(2, 3), torch.LongTensor([1, 2]) ----------------
class _LegacyTensorMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype and not obj.is_cuda

    def __call__(cls, *args):
        if len(args) == 1 and isinstance(args[0], (list, tuple)) and not isinstance(args[0], Size):
            return tensor(args[0], dtype=cls.dtype)
        if len(args) == 1 and isinstance(args[0], Tensor):
            return args[0].to(cls.dtype)
        return empty(*args, dtype=cls.dtype)

    def __repr__(cls):
        return "<class 'torch.{}'>".format(cls.__name__)


FloatTensor = _LegacyTensorMeta("FloatTensor", (), {"dtype": float32})
DoubleTensor = _LegacyTensorMeta("DoubleTensor", (), {"dtype": float64})
HalfTensor = _LegacyTensorMeta("HalfTensor", (), {"dtype": float16})
BFloat16Tensor = _LegacyTensorMeta("BFloat16Tensor", (), {"dtype": bfloat16})
LongTensor = _LegacyTensorMeta("LongTensor", (), {"dtype": int64})
IntTensor = _LegacyTensorMeta("IntTensor", (), {"dtype": int32})
ShortTensor = _LegacyTensorMeta("ShortTensor", (), {"dtype": int16})
CharTensor = _LegacyTensorMeta("CharTensor", (), {"dtype": int8})
ByteTensor = _LegacyTensorMeta("ByteTensor", (), {"dtype": uint8})
BoolTensor = _LegacyTensorMeta("BoolTensor", (), {"dtype": bool})


# ---- torch.compile (TorchDynamo: torch/_dynamo) --------------------------------------------
def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None,
            disable=False):
    """Optimizes `model` (a function or an nn.Module) with TorchDynamo and `backend`; usable as
    @torch.compile or @torch.compile(backend="eager", fullgraph=True)."""
    import torch._dynamo

    def wrap(m):
        if disable:
            return m
        return torch._dynamo.optimize(backend=backend, fullgraph=fullgraph, dynamic=dynamic)(m)
    if model is None:
        return wrap
    return wrap(model)


def __getattr__(name):
    # torch._dynamo, torch._inductor, torch.fx, torch._logging load on first use, as in PyTorch 2.
    if name in ("_dynamo", "_inductor", "fx", "_logging"):
        import importlib
        return importlib.import_module("torch." + name)
    raise AttributeError("module 'torch' has no attribute '{}'".format(name))
