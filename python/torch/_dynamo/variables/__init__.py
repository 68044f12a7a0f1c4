"""Variable trackers: what the symbolic evaluation of a frame knows about each value.

Note [Values during capture]
A frame's bytecode is evaluated over trackers instead of values. A TensorVariable is a node of
the graph with a fake tensor (on the meta device: sizes, strides and dtype, no data) that ops
propagate; a ConstantVariable is a Python value that does not depend on a tensor and is folded
into the graph, guarded where it came from the frame; the others stand for Python objects the
capture understands (torch functions, the user's functions, which are inlined, nn.Modules,
lists, tuples, ranges). Each can rebuild its real value when a graph break hands control back
to Python (reconstruct)."""
from torch._dynamo.variables.base import _python_type_name, vt_class_repr, VariableTracker, ValueVariable  # noqa: F401
from torch._dynamo.variables.constant import ConstantVariable  # noqa: F401
from torch._dynamo.variables.tensor import TensorVariable, SymNodeVariable  # noqa: F401
from torch._dynamo.variables.lists import (  # noqa: F401
    SizeVariable,
    BaseListVariable,
    ListVariable,
    ListAppendVariable,
    TupleVariable,
    SliceVariable,
    RangeVariable)
from torch._dynamo.variables.dicts import DictVariable  # noqa: F401
from torch._dynamo.variables.iter import IteratorVariable  # noqa: F401
from torch._dynamo.variables.misc import (  # noqa: F401
    NullVariable,
    ConstantMethodVariable,
    TensorMethodVariable,
    PythonModuleVariable)
from torch._dynamo.variables.torch import TorchVariable  # noqa: F401
from torch._dynamo.variables.builtin import BuiltinVariable  # noqa: F401
from torch._dynamo.variables.functions import UserFunctionVariable  # noqa: F401
from torch._dynamo.variables.nn_module import NNModuleVariable  # noqa: F401
from torch._dynamo.variables.user_defined import UserDefinedObjectVariable  # noqa: F401
from torch._dynamo.exc import unimplemented  # noqa: F401  (V.unimplemented)
