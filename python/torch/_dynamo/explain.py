"""torch._dynamo.explain(fn)(*args): what capture made of fn — graphs, graph breaks and their
reasons with the user's stack, ops per graph, guards, compile times — laid out as PyTorch
2.15's ExplainOutput prints it (its guard list and compile times are this runtime's own:
tests/compile/README.md says how they differ)."""
import torch
from torch._dynamo import convert_frame


def _weakref_to_str(ref):
    """A weak reference as 2.15's Guard prints its object's: the class name, not str(ref), which
    would call the object's __getattr__ for __name__."""
    import weakref
    if isinstance(ref, weakref.ReferenceType):
        obj = ref()
        if obj is not None:
            return "<weakref at {}; to '{}' at {}>".format(hex(id(ref)), obj.__class__.__name__, hex(id(obj)))
        return "<weakref at {}; dead>".format(hex(id(ref)))
    return str(ref)


class GraphCompileReason:
    """Why a graph ended (torch._dynamo.output_graph.GraphCompileReason): the reason and the
    user's stack at the break."""

    def __init__(self, reason, user_stack, graph_break=True):
        self.reason, self.user_stack, self.graph_break = reason, user_stack, graph_break


class ExplainOutput:
    def __init__(self, records):
        compiled = [r for r in records if r.get("graph") is not None]
        self.graphs = [r["graph"] for r in compiled]
        self.graph_count = len(self.graphs)
        self.break_reasons = [GraphCompileReason(r["break"]["reason"], r["break"]["user_stack"])
                              for r in records if r.get("break")]
        self.graph_break_count = len(self.break_reasons)
        # 2.15 counts the graph's call_function nodes only (a method call such as x.sin() is not an op here).
        self.ops_per_graph = [[n.target for n in g.graph.nodes if n.op == "call_function"] for g in self.graphs]
        self.op_count = sum(len(ops) for ops in self.ops_per_graph)
        self.out_guards = [g for r in records for g in r.get("guard_list", [])]
        self.compile_times = [(r["compile_id"], r.get("compile_time_s", 0.0)) for r in records]

    def __str__(self):
        out = "Graph Count: {}\n".format(self.graph_count)
        out += "Graph Break Count: {}\n".format(self.graph_break_count)
        out += "Op Count: {}\n".format(self.op_count)
        out += "Break Reasons:\n"
        for i, b in enumerate(self.break_reasons):
            out += "  Break Reason {}:\n".format(i + 1)
            out += "    Reason: {}\n".format(b.reason)
            out += "    User Stack:\n"
            for f, ln, fn, _ in b.user_stack:
                out += "      <FrameSummary file {}, line {} in {}>\n".format(f, ln, fn)
        out += "Ops per Graph:\n"
        for i, ops in enumerate(self.ops_per_graph):
            out += "  Ops {}:\n".format(i + 1)
            for target in ops:
                out += "    {}\n".format(target)
        out += "Out Guards:\n"
        for i, g in enumerate(self.out_guards):
            out += "  Guard {}:\n".format(i + 1)
            out += "    Name: {!r}\n".format(g["name"])
            out += "    Source: {}\n".format(g["source"])
            out += "    Create Function: {}\n".format(g["create_fn"])
            out += "    Guard Types: {}\n".format(g["guard_types"])
            out += "    Code List: {}\n".format(g["code_list"])
            out += "    Object Weakref: {}\n".format(_weakref_to_str(g["obj_weakref"]))
            out += "    Guarded Class Weakref: {}\n".format(g["guarded_class_weakref"])
        # 2.15's table: one line per timer, "name, seconds, seconds, ..." (this runtime times
        # each compile as a whole: _compile.compile_inner).
        out += "Compile Times: TorchDynamo compilation metrics:\n"
        out += "Function, Runtimes (s)\n"
        out += "_compile.compile_inner, {}\n".format(", ".join("{:.4f}".format(t) for _, t in self.compile_times))
        return out


def explain(f, *extra_args, **extra_kwargs):
    def inner(*args, **kwargs):
        convert_frame.reset()
        opt = torch._dynamo.optimize(backend="eager")(f)
        opt(*args, **kwargs)
        records = list(convert_frame.compile_records)
        return ExplainOutput(records)
    if extra_args or extra_kwargs:
        return inner(*extra_args, **extra_kwargs)
    return inner
