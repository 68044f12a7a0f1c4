"""torch.compile's front door: the wrapper that calls a function with the frame hook installed
(torch._C._dynamo.call_with_capture), so the frame of its code is captured and cached."""
import functools
import types
import inspect

import torch
from torch._C import _dynamo as _C_dynamo
from torch._dynamo import convert_frame

_C_dynamo.set_callback(convert_frame.callback)


def _code_of(fn):
    if isinstance(fn, torch.nn.Module):
        return type(fn).forward.__code__
    fn = inspect.unwrap(fn)
    if hasattr(fn, "__func__"):
        fn = fn.__func__
    code = getattr(fn, "__code__", None)
    if code is None:
        raise TypeError("torch.compile expects a Python function or an nn.Module, got {}".format(type(fn).__name__))
    return code


def _call_compiled(cfg, fn, args, kwargs):
    """fn(*args, **kwargs) with the frame hook installed and `cfg` as the settings of the call."""
    convert_frame.config_stack.append(cfg)
    try:
        return _C_dynamo.call_with_capture(fn, *args, **kwargs)
    finally:
        convert_frame.config_stack.pop()


class OptimizedFunction:
    """What torch.compile(fn) returns: calling it runs fn's frame through the cache."""

    def __init__(self, fn, cfg):
        self._torchdynamo_orig_callable = fn
        self._config = cfg
        convert_frame.register(_code_of(fn), cfg)
        functools.update_wrapper(self, fn)

    def __call__(self, *args, **kwargs):
        return _call_compiled(self._config, self._torchdynamo_orig_callable, args, kwargs)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return functools.partial(self.__call__, obj)


class OptimizedModule(torch.nn.Module):
    """What torch.compile(model) returns: calls go through the model's compiled forward."""

    def __init__(self, mod, cfg):
        super().__init__()
        self._orig_mod = mod
        self._config = cfg
        convert_frame.register(_code_of(mod), cfg)

    def forward(self, *args, **kwargs):
        return _call_compiled(self._config, self._orig_mod, args, kwargs)

    def __getattr__(self, name):
        try:
            return super().__getattr__(name)
        except AttributeError:
            return getattr(self._modules["_orig_mod"], name)


def optimize(backend="inductor", fullgraph=False, dynamic=None):
    cfg = convert_frame.CompileConfig(backend, fullgraph, dynamic)
    convert_frame.reset_graph_break_dup_checker()  # Note [Duplicate graph breaks]
    torch._dynamo.backends.lookup_backend(backend)  # an unknown backend is an error now, not at the first call

    def wrap(fn):
        if isinstance(fn, torch.nn.Module):
            return OptimizedModule(fn, cfg)
        return OptimizedFunction(fn, cfg)
    return wrap


class CompileId:
    """Which compile of which frame: frame 0's second compile is "0/1"; a compile that broke the
    graph and was captured again is "0/0_1" (torch._guards.CompileId's str)."""

    def __init__(self, text):
        frame, _, rest = text.partition("/")
        compile_, _, attempt = rest.partition("_")
        self.frame_id, self.frame_compile_id = int(frame), int(compile_)
        self.attempt = int(attempt) if attempt else 0
        self.compiled_autograd_id = None

    def __str__(self):
        return "{}/{}".format(self.frame_id, self.frame_compile_id) + ("_{}".format(self.attempt) if self.attempt else "")

    def __repr__(self):
        return "CompileId(frame_id={}, frame_compile_id={}, compiled_autograd_id=None)".format(
            self.frame_id, self.frame_compile_id)

    def __eq__(self, other):
        return isinstance(other, CompileId) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))


class GuardManagerWrapper:
    """A cache entry's guards (torch._C._dynamo.guards.GuardManagerWrapper): printed as
    TORCH_LOGS=guards prints the tree, after an empty line."""

    def __init__(self, root):
        self.root = root

    def check(self, f_locals, f_globals=None):
        return self.root.check(f_locals, f_globals if f_globals is not None else {})

    def __str__(self):
        return "\n" + str(self.root)


class CacheEntry:
    """One compiled version of a code object (torch._C._dynamo.eval_frame._CacheEntry): its
    compile id, its guards (guard_manager) and the code it was compiled for."""

    def __init__(self, code, compile_id, guard_manager, hits):
        self.code = code
        self.compile_id = CompileId(compile_id)
        self.guard_manager = GuardManagerWrapper(guard_manager)
        self.hits = hits


def _debug_get_cache_entry_list(code):
    """The cache entries of a code object (or of a function's code), most recently compiled first,
    as PyTorch 2.15's torch._dynamo.eval_frame._debug_get_cache_entry_list returns them."""
    if callable(code) and not isinstance(code, types.CodeType):
        code = _code_of(code)
    if not isinstance(code, types.CodeType):
        raise TypeError("_debug_get_cache_entry_list() expects a code object or a function, got {}".format(
            type(code).__name__))
    return [CacheEntry(code, cid, guards, hits) for cid, guards, hits in _C_dynamo.cache_entries(code)]
