"""Lowering a captured graph: which nodes are pointwise, and how a kernel indexes its tensors.

Which nodes run fused in one kernel is the scheduler's decision (scheduler.py, Note [What is
fused]); this module holds the operator tables and the index arithmetic the code generators
share."""
import operator

import torch

# op name -> (arity, C++ expression template over a, b)
POINTWISE = {
    "add": (2, "{a} + {b}"), "sub": (2, "{a} - {b}"), "mul": (2, "{a} * {b}"), "div": (2, "{a} / {b}"),
    "neg": (1, "decltype({a})(-{a})"), "relu": (1, "std::max({a}, decltype({a})(0))"),
    "sigmoid": (1, "decltype({a})(1) / (decltype({a})(1) + std::exp(-{a}))"), "tanh": (1, "std::tanh({a})"),
    "exp": (1, "std::exp({a})"), "log": (1, "std::log({a})"), "sqrt": (1, "std::sqrt({a})"),
    "abs": (1, "std::abs({a})"), "sin": (1, "std::sin({a})"), "cos": (1, "std::cos({a})"),
    "pow": (2, "std::pow({a}, {b})"), "rsub": (2, "{b} - {a}"),
}
# aten overloads (AOTAutograd's graphs) that are these pointwise operations or reductions.
_ATEN = {("add", "Tensor"), ("sub", "Tensor"), ("mul", "Tensor"), ("div", "Tensor"), ("rsub", "Scalar"),
         ("pow", "Tensor_Scalar"), ("sum", "default"), ("mean", "default")} | \
    {(n, "default") for n in ("neg", "relu", "sigmoid", "tanh", "exp", "log", "sqrt", "abs", "sin", "cos")}
REDUCTIONS = ("sum", "mean")
_ALIASES = {operator.add: "add", operator.sub: "sub", operator.mul: "mul", operator.truediv: "div",
            operator.neg: "neg", operator.pow: "pow", torch.add: "add", torch.sub: "sub", torch.mul: "mul",
            torch.div: "div", torch.neg: "neg", torch.relu: "relu", torch.sigmoid: "sigmoid", torch.tanh: "tanh",
            torch.exp: "exp", torch.log: "log", torch.sqrt: "sqrt", torch.abs: "abs", torch.sin: "sin",
            torch.cos: "cos", torch.pow: "pow", torch.sum: "sum", torch.mean: "mean"}
try:
    import torch.nn.functional as F
    _ALIASES[F.relu] = "relu"
except Exception:
    pass


def op_name(node):
    if node.op == "call_method":
        name = {"truediv": "div", "__add__": "add", "__mul__": "mul"}.get(node.target, node.target)
        return name if name in POINTWISE or name in REDUCTIONS else None
    if node.op == "call_function":
        packet = getattr(node.target, "_overloadpacket", None)
        if packet is not None:
            key = (packet.__name__, node.target._overloadname)
            return key[0] if key in _ATEN else None
        try:
            return _ALIASES.get(node.target)
        except TypeError:
            return None
    return None


def contiguous_strides(size):
    strides, acc = [], 1
    for s in reversed(size):
        strides.append(acc)
        acc *= max(s, 1)
    return list(reversed(strides))


def index_terms(val, size):
    """(dim, stride) of each loop variable that element (x0, x1, ...) of the kernel's size moves
    in tensor `val`, innermost first (broadcast: nothing for the dimensions it lacks or has as 1)."""
    vs, st = list(val.size()), list(val.stride())
    offset = len(size) - len(vs)
    terms = []
    for d in range(len(size)):
        vd = d - offset
        if vd < 0 or vs[vd] == 1 or st[vd] == 0:
            continue
        terms.append((d, st[vd]))
    return list(reversed(terms))


def index_expr(terms, var, times):
    """The index as text: "x1 + 8L*x0" (times "L*") or "x1 + 8*x0" (times "*")."""
    parts = ["{}{}".format(var, d) if st == 1 else "{}{}{}{}".format(st, times, var, d) for d, st in terms]
    return " + ".join(parts) if parts else "0"


def output_terms(size):
    return list(reversed([(d, st) for d, st in enumerate(contiguous_strides(size))]))
