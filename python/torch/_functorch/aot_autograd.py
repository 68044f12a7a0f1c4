"""AOTAutograd: the forward and backward graphs of a captured graph, prepared ahead of time.

Note [Joint graph and partition]
The captured graph (torch-level calls: torch.sin, operator.mul, x.relu()) is first written as
aten operators (aten.sin.default, aten.mul.Tensor, ...), each with its fake value. For the
inputs that require grad, the backward graph is then traced from the project's own derivative
formulas (core/ops/derivatives.yaml, torch/_functorch/derivatives.py): starting from one
tangent per output (tangents_1, ...), each forward node's formula, applied in reverse order,
adds the aten nodes of its vector-Jacobian product, and gradients meeting at one value are
summed. Partitioning splits the joint work in two graphs: the forward graph returns the user's
outputs followed by exactly the forward values the backward graph reads (the saved tensors,
inputs included), and the backward graph takes those saved values and the tangents and returns
one gradient per input (None for those that do not require grad). The two are wrapped in an
autograd.Function, so eager's autograd engine runs the compiled backward graph."""
import operator
import os
import re

import torch
from torch import fx
from torch._functorch import derivatives
from torch._logging import log_artifact


class AotUnsupported(Exception):
    pass


_counter = {"aot": 0}

_UNARY = {"sin", "cos", "exp", "log", "sqrt", "tanh", "sigmoid", "relu", "neg", "abs", "t", "clone"}
_BINARY = {"add": "Tensor", "sub": "Tensor", "mul": "Tensor", "div": "Tensor"}
_OPERATORS = {operator.add: "add", operator.sub: "sub", operator.mul: "mul", operator.truediv: "div",
              operator.neg: "neg", operator.pow: "pow", operator.matmul: "matmul"}


def _aten_call(node):
    """(aten overload, args) for one node of the captured graph."""
    if node.op == "call_method":
        name, args = node.target, list(node.args)
    elif node.op == "call_function":
        t = node.target
        name = _OPERATORS.get(t) if t in _OPERATORS else getattr(t, "__name__", None)
        if name is None or not (t in _OPERATORS or getattr(torch, name, None) is t or
                                getattr(torch.nn.functional, name, None) is t):
            raise AotUnsupported("no aten form for {}".format(t))
        args = list(node.args)
    else:
        raise AotUnsupported("{} nodes".format(node.op))
    if node.kwargs:
        raise AotUnsupported("keyword arguments of {}".format(name))
    aten = torch.ops.aten
    if name in _UNARY and len(args) == 1:
        return getattr(aten, name).default, args
    if name in _BINARY and len(args) == 2:
        a, b = args
        if not hasattr(a, "op"):  # 2 * x: the tensor goes first (the ops commute), 2 - x is rsub
            if name in ("add", "mul"):
                a, b = b, a
            elif name == "sub":
                return aten.rsub.Scalar, [b, a]
            else:
                raise AotUnsupported("scalar / tensor")
        return getattr(getattr(aten, name), _BINARY[name]), [a, b]
    if name == "pow" and len(args) == 2 and not hasattr(args[1], "op"):
        return aten.pow.Tensor_Scalar, args
    if name in ("matmul", "mm") and len(args) == 2:
        if args[0].meta["val"].dim() == 2 and args[1].meta["val"].dim() == 2:
            return aten.mm.default, args
    if name in ("sum", "mean") and len(args) == 1:
        return getattr(aten, name).default, args
    raise AotUnsupported("no aten form for {}({} arguments)".format(name, len(args)))


def _fake(target, args):
    from torch._dynamo.output_graph import run_fake
    vals = [a.meta["val"] if hasattr(a, "op") else a for a in args]
    return run_fake("call_function", target, vals, {})


class _GraphBuilder:
    """Adds aten nodes to one graph. Note [One namespace for the joint graph]: 2.15 traces the
    forward and the backward as one joint graph and partitions it afterwards, so a backward node
    is named after every forward node (mul_2 when the forward has mul and mul_1). `names` is that
    joint set of taken names, shared by the two builders; the backward graph's placeholders
    carry the names of the forward values they receive, so they are named in the graph's own."""

    def __init__(self, device, names=None):
        self.graph = fx.Graph()
        self.device = device
        self.names = self.graph._names if names is None else names

    def placeholder(self, name, val, stack=None):
        n = self.graph.create_node("placeholder", name, name=name)
        n.meta.update(val=val, device=self.device)
        self.names.add(n.name)
        return n

    def emit(self, target, args, stack=None, backward=False):
        own = self.graph._names
        self.graph._names = self.names
        try:
            n = self.graph.call_function(target, tuple(args))
        finally:
            self.graph._names = own
        own.add(n.name)
        n.meta.update(val=_fake(target, args), device=self.device)
        if stack:
            n.meta["stack"] = stack
        if backward:
            n.meta["autograd_backward"] = True
        return n


def _uses_result(entry, n, req):
    """Whether the derivative formula of forward node `n` reads its result for an input that
    requires grad (autograd then saves the output: Note [Saved outputs are detached])."""
    for arg, value in zip(n.target._schema.arguments, n.args):
        if hasattr(value, "op") and req.get(value) and arg.name in entry and \
                re.search(r"\bresult\b", entry[arg.name]):
            return True
    return False


def needs_grad(gm):
    """Whether running `gm` must record autograd: grad mode is on and an input requires grad,
    or a module the graph calls has a parameter that does (its weights are not inputs)."""
    if not torch.is_grad_enabled():
        return False
    for n in gm.graph.nodes:
        if n.op == "placeholder" and n.meta.get("requires_grad"):
            return True
        if n.op == "call_module":
            module = getattr(gm, n.target, None)
            if module is not None and any(p.requires_grad for p in module.parameters()):
                return True
    return False


def aot_graphs(gm, compile_id=None):
    """(forward GraphModule, backward GraphModule, number of user outputs) for captured graph
    `gm`; raises AotUnsupported for what it cannot write in aten."""
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    if any(isinstance(p.meta.get("val"), str) for p in placeholders):
        raise AotUnsupported("symbolic sizes")
    device = placeholders[0].meta.get("device") if placeholders else None
    fw = _GraphBuilder(device)
    env, req = {}, {}
    for i, p in enumerate(placeholders):
        env[p] = fw.placeholder("primals_{}".format(i + 1), p.meta["val"])
        req[env[p]] = bool(p.meta.get("requires_grad"))
    table = derivatives.entries()
    detached = {}  # forward node -> the detach of its result autograd saved
    for node in gm.graph.nodes:
        if node.op in ("placeholder", "output"):
            continue
        target, args = _aten_call(node)
        new_args = [env[a] if hasattr(a, "op") else a for a in args]
        n = fw.emit(target, new_args, node.meta.get("stack"))
        env[node] = n
        req[n] = any(req.get(a, False) for a in new_args if hasattr(a, "op")) and n.meta["val"].is_floating_point()
        entry = table.get(_formula_key(n))
        if req[n] and entry is not None and _uses_result(entry, n, req):
            # Note [Saved outputs are detached]: autograd saves an output it needs in backward
            # as a detached alias (detach), and unpacking it in backward detaches it again
            # (detach_1); 2.15's partitioner computes that second detach in the forward graph
            # and saves it, under the comment "Backward of forward node".
            detached[n] = fw.emit(torch.ops.aten.detach.default, [n], node.meta.get("stack"))
    outputs = [env[o] for o in gm.graph.nodes[-1].args[0]]

    # ---- backward, from the derivative formulas (Note [Joint graph and partition]) -----------
    bw = _GraphBuilder(device, fw.names)
    saved = {}  # forward node -> its placeholder in the backward graph

    def saved_value(n):
        if n not in saved:
            saved[n] = bw.placeholder(n.name, n.meta["val"])
        return saved[n]

    current = {"stack": None}  # the forward node's user line, for the backward nodes it makes
    builder = derivatives.Builder(lambda t, a: bw.emit(t, a, current["stack"], backward=True),
                                  lambda v: v.meta["val"].size())
    grads = {}
    tangents = []
    for i, o in enumerate(outputs):
        if req.get(o):
            t = bw.placeholder("tangents_{}".format(len(tangents) + 1), o.meta["val"])
            tangents.append(t)
            grads[o] = t
    for n in reversed(list(fw.graph.nodes)):
        if n.op != "call_function" or n not in grads:
            continue
        schema = n.target._schema
        key = _formula_key(n)
        entry = table.get(key)
        if entry is None:
            raise AotUnsupported("no derivative formula for {}".format(key))
        current["stack"] = n.meta.get("stack")
        env_f = {"grad": grads[n]}
        if n in detached:
            env_f["result"] = saved_value(fw.emit(torch.ops.aten.detach.default, [detached[n]], current["stack"],
                                                  backward=True))
        for arg, value in zip(schema.arguments, n.args):
            if hasattr(value, "op"):
                env_f[arg.name] = saved_value(value)
                env_f[arg.name + "_sizes"] = list(value.meta["val"].size())
            else:
                env_f[arg.name] = value
        for arg in schema.arguments[len(n.args):]:
            if arg.default_value is not None:
                env_f[arg.name] = arg.default_value
        for arg, value in zip(schema.arguments, n.args):
            if not hasattr(value, "op") or not req.get(value) or arg.name not in entry:
                continue
            try:
                g = builder.eval(derivatives.parse(entry[arg.name]), env_f)
            except derivatives.FormulaUnsupported as e:
                raise AotUnsupported(str(e))
            grads[value] = g if value not in grads else bw.emit(torch.ops.aten.add.Tensor, [grads[value], g])
    for d in detached.values():  # an output no gradient flowed through keeps no detach
        if not d.users:
            fw.graph.erase_node(d)
    primals = [env[p] for p in placeholders]
    bw_outputs = [grads.get(p) if req.get(p) else None for p in primals]
    # Saved values the backward graph reads come first in its signature, in forward order.
    order = [n for n in fw.graph.nodes if n in saved]
    bw.graph.nodes = [saved[n] for n in order] + tangents + [x for x in bw.graph.nodes if x.op != "placeholder"]
    for x in list(bw.graph.nodes):  # drop saved values no formula ended up using
        if x.op == "placeholder" and not x.users and x not in tangents:
            bw.graph.nodes.remove(x)
            order = [n for n in order if saved[n] is not x]
    bw.graph.output(tuple(bw_outputs))
    fw.graph.output(tuple(outputs + order))
    fw_gm = fx.GraphModule({}, fw.graph)
    bw_gm = fx.GraphModule({}, bw.graph)
    aot_id = _counter["aot"]
    _counter["aot"] += 1
    from torch._dynamo import trace_events
    from torch._logging import is_enabled
    if compile_id is not None and (is_enabled("aot_graphs") or trace_events.enabled()):
        # Note [Where a graph module's code lives]: 2.15 prints the forward graph before its
        # code is generated (a lazy graph module), so the file it names is the lazy module's
        # source, torch/fx/_lazy_graph_module.py; the backward graph's code is generated, in a
        # file named <eval_with_key>.N.
        lazy = os.path.join(os.path.dirname(os.path.abspath(fx.__file__)), "_lazy_graph_module.py")
        if is_enabled("aot_graphs"):
            from torch._functorch.aot_metadata import aot_config_text
            user_outputs = list(gm.graph.nodes[-1].args[0])
            log_artifact("aot_graphs", compile_id, lambda: aot_config_text(
                aot_id, [req[env[p]] for p in placeholders], [o.meta["val"] for o in outputs],
                [bool(req.get(o)) for o in outputs], [n.op == "placeholder" for n in order],
                [getattr(o, "meta", {}).get("stack") for o in user_outputs], device), level="I")
        for title, kind, g, where in (("Forward graph", "aot_forward", fw_gm, lazy),
                                      ("Backward graph", "aot_backward", bw_gm, "<eval_with_key>.{}".format(bw_gm._class_name))):
            text = "TRACED GRAPH\n ===== {} {} =====\n {} class GraphModule(torch.nn.Module):\n{}\n\n".format(
                title, aot_id, where, _readable(g.graph))
            log_artifact("aot_graphs", compile_id, text, level="I")
            trace_events.artifact(kind, compile_id, text)
    return fw_gm, bw_gm, len(outputs)


def _formula_key(n):
    """The derivatives.yaml name of an aten node's operator: mul.Tensor, relu, sum.dim_IntList."""
    return n.target._qualified.split("::")[1].replace(".default", "")


def _readable(graph):
    """The graph's forward() as 2.15's print_readable writes it inside `class GraphModule`: each
    value's type, "# File: ..." above the nodes of each user line ("# Backward of forward node:
    File: ..." above backward work), a blank line between such groups, and "; x = None" after a
    value's last use."""
    from torch._dynamo.graph_printing import type_annotation
    nodes = graph.nodes
    last_use = {}
    for n in nodes:
        for a in n.all_input_nodes:
            last_use[a] = n
    params = []
    for p in nodes:
        if p.op == "placeholder":
            ann = type_annotation(p)
            params.append('{}: "{}"'.format(p.name, ann) if ann else p.name)
    lines = ["def forward(self{}):".format("".join(", " + p for p in params))]
    prev = None
    for n in nodes:
        if n.op == "placeholder":
            continue
        if n.op == "output":
            out = n.args[0]
            lines.append("    return ({}{})".format(", ".join(a.name if hasattr(a, "op") else repr(a) for a in out),
                                                    "," if len(out) == 1 else ""))
            continue
        stack = n.meta.get("stack")
        if stack:
            summary = "# {}File: {}:{} in {}, code: {}".format(
                "Backward of forward node: " if n.meta.get("autograd_backward") else "", *stack)
            if summary != prev:
                if len(lines) > 1:
                    lines.append("")
                lines.append("    " + summary)
                prev = summary
        lhs, rhs = graph.node_code(n).split(" = ", 1)
        ann = type_annotation(n)
        text = '{}: "{}" = {}'.format(lhs, ann, rhs) if ann else "{} = {}".format(lhs, rhs)
        freed = [a.name for a in n.all_input_nodes if last_use.get(a) is n]
        if freed:
            text += ";  " + " = ".join(freed) + " = None"
        lines.append("    " + text)
    return "\n".join("    " + line if line else "" for line in lines)


def make_function(fw_call, bw_call, num_outputs):
    """An autograd.Function running the forward callable and, in backward, the backward one."""

    class CompiledFunction(torch.autograd.Function):
        @staticmethod
        def forward(ctx, *primals):
            with torch.no_grad():
                outs = fw_call(*primals)
            ctx.saved = outs[num_outputs:]
            return tuple(outs[:num_outputs]) if num_outputs != 1 else outs[0]

        @staticmethod
        def backward(ctx, *tangents):
            with torch.no_grad():
                grads = bw_call(*ctx.saved, *[t for t in tangents if t is not None])
            return tuple(grads)

    def run(*args):
        out = CompiledFunction.apply(*args)
        return (out,) if num_outputs == 1 else tuple(out)
    return run
