"""Inductor's scheduler: which nodes of a lowered graph run fused in one loop kernel, and why.

Note [What is fused]
Walking the graph in order, a pointwise operation on float32 tensors joins the kernel being
built when its result has the kernel's size and every tensor it reads is a graph input, a value
of this kernel, or a value finished before the kernel began; a full reduction (sum, mean) of
the kernel's values joins it and ends it. Anything else (a matmul, a view, an in-place op,
another dtype) is an extern call that runs the eager operator, and it ends the kernel. Inside a
kernel a value is computed in a register and written to memory only if something outside the
kernel (or the graph's output) needs it: that is what "intermediates are never materialized"
means. Every node gets one Decision (Schedule.decisions): it starts a kernel (with the reason
the kernel before it ended, if one was open), is fused into one, is the reduction that ends
one, or is not fused, with why. The trace records them as a fusion_decisions payload
(docs/trace-format.md), which the Compile view tints by kernel."""
import torch

from torch._inductor.lowering import POINTWISE, REDUCTIONS, op_name


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


class Decision:
    """What the scheduler did with one node (the trace's FusionDecision, docs/trace-format.md)."""
    __slots__ = ("node", "action", "kernel", "kernel_index", "reason")
    ACTIONS = ("starts", "fused", "reduction", "not_fused")

    def __init__(self, node, action, kernel="", reason=""):
        assert action in self.ACTIONS, action
        self.node, self.action, self.kernel, self.reason = node, action, kernel, reason
        self.kernel_index = -1  # the kernel's number in the graph, once it is known

    def __repr__(self):
        return "Decision({!r}, {!r}, {!r}, {!r})".format(self.node, self.action, self.kernel, self.reason)

    def text(self):
        """The decision as a sentence: "starts cpp_fused_mul_0 (size [3] differs from ...)"."""
        if self.action == "not_fused":
            return "not fused: " + self.reason
        what = {"starts": "starts {}", "fused": "fused into {}",
                "reduction": "fused into {} (a reduction of its values)"}[self.action].format(self.kernel)
        return what + (" (a new kernel: {})".format(self.reason) if self.reason else "")


class Schedule:
    def __init__(self):
        self.items = []
        self.decisions = []   # a Decision per node, in the graph's order


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

    kernel_of = {}  # node -> its Kernel, named once every member is known
    for node in gm.graph.nodes:
        if node.op in ("placeholder", "output"):
            continue
        name = op_name(node)
        if name in REDUCTIONS and current is not None and not node.kwargs and len(node.args) == 1 and \
                node.args[0] in current.nodes and list(_val(node.args[0]).size()) == current.size:
            current.reduction = (node, name, node.args[0])
            s.decisions.append(Decision(node.name, "reduction"))
            kernel_of[node.name] = current
            close()
            continue
        why = _pointwise_reason(node)
        if why is None:
            size = list(_val(node).size())
            inputs = [a for a in node.args if hasattr(a, "op")]
            joinable = current is not None and size == current.size and all(
                a in finished or a in current.nodes for a in inputs)
            ended = ""
            if current is not None and not joinable:
                ended = "size {} differs from the kernel's {}".format(size, current.size) if size != current.size \
                    else "it reads a value computed after the kernel began"
                close()
            if current is None:
                current = Kernel(sum(isinstance(i, Kernel) for i in s.items), size)
                s.decisions.append(Decision(node.name, "starts", reason=ended))
            else:
                s.decisions.append(Decision(node.name, "fused"))
            kernel_of[node.name] = current
            current.nodes.append(node)
            continue
        close()
        s.decisions.append(Decision(node.name, "not_fused", reason=why))
        s.items.append(Extern(node, why))
        finished.add(node)
    close()
    for d in s.decisions:
        if d.node in kernel_of:
            d.kernel = kernel_of[d.node].name
            d.kernel_index = kernel_of[d.node].index
    return s
