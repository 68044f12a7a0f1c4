"""Lowering a captured graph to a schedule: fused loop kernels and extern calls.

Note [What is fused]
Walking the graph in order, a pointwise operation on float32 tensors joins the kernel being
built when its result has the kernel's size and every tensor it reads is a graph input, a value
of this kernel, or a value finished before the kernel began; a full reduction (sum, mean) of
the kernel's values joins it and ends it. Anything else (a matmul, a view, an in-place op,
another dtype) is an extern call that runs the eager operator, and it ends the kernel. Inside a
kernel a value is computed in a register and written to memory only if something outside the
kernel (or the graph's output) needs it: that is what "intermediates are never materialized"
means. Every decision is recorded with its reason (Schedule.decisions)."""
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


class Kernel:
    def __init__(self, index, size):
        self.index = index
        self.size = list(size)
        self.nodes = []          # pointwise nodes in order
        self.reduction = None    # (node, "sum" | "mean", input node)

    def origins(self):
        names = {op_name(n) for n in self.nodes}
        if self.reduction:
            names.add(self.reduction[1])
        return sorted(names)

    @property
    def name(self):
        return "cpp_fused_{}_{}".format("_".join(self.origins()), self.index)


class Extern:
    def __init__(self, node, why):
        self.node, self.why = node, why


class Schedule:
    def __init__(self):
        self.items = []
        self.decisions = []   # (node name, "fused into cpp_fused_..." | "not fused: why")


def _val(n):
    return n.meta.get("val") if hasattr(n, "meta") else None


def _pointwise_reason(node):
    """None if the node can be part of a kernel, else why not."""
    name = op_name(node)
    if name is None or name in REDUCTIONS:
        return "{} is not pointwise; it runs as an extern kernel".format(node.target if isinstance(node.target, str)
                                                                         else getattr(node.target, "__name__", node.target))
    val = _val(node)
    if not isinstance(val, torch.Tensor):
        return "its result is not a tensor"
    if val.dtype != torch.float32:
        return "dtype {} (only float32 is fused here)".format(str(val.dtype).replace("torch.", ""))
    if node.kwargs:
        return "keyword arguments ({})".format(", ".join(node.kwargs))
    arity = POINTWISE[name][0]
    if len(node.args) != arity:
        return "{} with {} arguments".format(name, len(node.args))
    for a in node.args:
        if hasattr(a, "op"):
            v = _val(a)
            if not isinstance(v, torch.Tensor) or v.dtype != torch.float32:
                return "an input that is not a float32 tensor"
        elif not isinstance(a, (int, float, bool)):
            return "an argument of type {}".format(type(a).__name__)
    return None


def schedule(gm):
    s = Schedule()
    finished = set(n for n in gm.graph.nodes if n.op == "placeholder")
    current = None

    def close():
        nonlocal current
        if current is not None:
            s.items.append(current)
            finished.update(current.nodes)
            if current.reduction:
                finished.add(current.reduction[0])
        current = None

    for node in gm.graph.nodes:
        if node.op in ("placeholder", "output"):
            continue
        name = op_name(node)
        if name in REDUCTIONS and current is not None and not node.kwargs and len(node.args) == 1 and \
                node.args[0] in current.nodes and list(_val(node.args[0]).size()) == current.size:
            current.reduction = (node, name, node.args[0])
            s.decisions.append((node.name, "fused into {} (a reduction of its values)".format("{kernel}")))
            close()
            continue
        why = _pointwise_reason(node)
        if why is None:
            size = list(_val(node).size())
            inputs = [a for a in node.args if hasattr(a, "op")]
            joinable = current is not None and size == current.size and all(
                a in finished or a in current.nodes for a in inputs)
            if current is not None and not joinable:
                reason = "size {} differs from the kernel's {}".format(size, current.size) if size != current.size \
                    else "it reads a value computed after the kernel began"
                s.decisions.append((node.name, "starts a new kernel: {}".format(reason)))
                close()
            if current is None:
                current = Kernel(sum(isinstance(i, Kernel) for i in s.items), size)
                s.decisions.append((node.name, "starts {kernel}"))
            else:
                s.decisions.append((node.name, "fused into {kernel}"))
            current.nodes.append(node)
            continue
        close()
        s.decisions.append((node.name, "not fused: " + why))
        s.items.append(Extern(node, why))
        finished.add(node)
    close()
    # Name the kernels in the decisions now that their members are known.
    owner = {}
    for item in s.items:
        if isinstance(item, Kernel):
            for n in item.nodes:
                owner[n.name] = item.name
            if item.reduction:
                owner[item.reduction[0].name] = item.name
    s.decisions = [(n, d.replace("{kernel}", owner.get(n, "?"))) for n, d in s.decisions]
    return s


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
