"""torch._dynamo: capture of Python frames into graphs, as PyTorch 2.15's TorchDynamo does it.

torch.compile(fn) returns a wrapper that calls fn with CPython's frame-evaluation hook
installed (core/dynamo/eval_frame_hook.c); the hook looks fn's frame up in a cache of compiled
versions whose guards are checked in C++ (core/dynamo/guard_manager.cpp). On a miss the frame's
bytecode is evaluated symbolically (symbolic_convert.py) into an FX graph over fake tensors,
guards are built from what the capture assumed, and a backend compiles the graph."""
from torch._dynamo import config  # noqa: F401
from torch._dynamo.decorators import graph_break  # noqa: F401
from torch._dynamo import exc  # noqa: F401
from torch._dynamo import backends  # noqa: F401
from torch._dynamo.backends import list_backends  # noqa: F401
from torch._dynamo.eval_frame import OptimizedFunction, OptimizedModule, optimize  # noqa: F401
from torch._dynamo.convert_frame import reset  # noqa: F401
from torch._dynamo.explain import explain, ExplainOutput  # noqa: F401
