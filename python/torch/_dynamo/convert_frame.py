"""What happens when the frame hook finds no cache entry whose guards hold: capture the frame
(symbolic_convert), build its guards (guards.py), compile its graph with the backend, and
return the function that runs the compiled code for a frame's locals (Note [The cache of
compiled frames] in core/dynamo/frame_cache.cpp). Also the recompile report, the cache size
limit, graph breaks and their resume functions, and TORCH_LOGS' artifacts."""
import itertools
import time
import types
import uuid

import torch
from torch import fx
from torch.fx._lazy_graph_module import _LazyGraphModule
from torch._C import _dynamo as _C_dynamo
from torch._dynamo import config, resume, trace_events, user_stack
from torch._dynamo import variables as V
from torch._dynamo.backends import lookup_backend
from torch._dynamo.exc import Unsupported
from torch._dynamo.graph_printing import graph_code
from torch._dynamo.guards import build_guards, guard_eval_latency_us, shape_guard_code
from torch._dynamo.output_graph import OutputGraph
from torch._dynamo.symbolic_convert import BreakGraph, InstructionTranslator
from torch._logging import is_enabled, log_artifact, write_lines

TROUBLESHOOTING_URL = ("https://docs.pytorch.org/docs/main/user_guide/torch_compiler/compile/"
                       "programming_model.recompilation.html")


class CompileConfig:
    def __init__(self, backend, fullgraph, dynamic):
        self.backend, self.fullgraph, self.dynamic = backend, fullgraph, dynamic


class FrameInfo:
    """Per code object: its frame id, how many times it was compiled, the sizes it saw."""

    def __init__(self, code, cfg):
        self.code, self.config = code, cfg
        self.frame_id = None
        self.compiles = 0
        self.state = {}
        self.warned_limit = False


# Keyed by id(code): code objects compare equal by value, and two functions with the same
# source (the same lesson step run twice) are still two frames. Each FrameInfo keeps its code
# alive, so an id is never reused while it is a key.
_frames = {}          # id(code) -> FrameInfo
_resume_functions = {}
_original_name = {}   # id(resume code) -> the name of the function it continues
_counters = {"frame_id": 0, "graph": 0}
# What explain() and the Compile view read: one record per compile.
compile_records = []
config_stack = []  # the CompileConfig of each torch.compile wrapper being called, innermost last
current_compile_id = None  # the compile a backend is working for (its logs are labelled with it)


# Note [Unique names]
# TorchDynamo names what it installs in a frame's globals with one process-wide counter that
# torch._dynamo.reset() does not restart: each compile attempt installs the frame's builtins
# (__builtins_dict___N), each compiled graph is __compiled_fn_N_<uuid4>, each new resume
# function __resume_at_..._N. The same counter numbers them here, so a program's graphs get
# 2.15's numbers (__compiled_fn_1 for a first frame, 2 for a frame that breaks once).
_unique_id_counter = itertools.count()


def unique_id(name, with_uuid=False):
    out = "{}_{}".format(name, next(_unique_id_counter))
    if with_uuid:
        out += "_" + str(uuid.uuid4()).replace("-", "_")
    return out


def reset():
    """Forgets every compiled frame, as a new process would start (torch._dynamo.reset())."""
    from torch import fx
    from torch._functorch import aot_autograd
    fx.GraphModule._next_key = 0
    aot_autograd._counter["aot"] = 0
    _frames.clear()
    _resume_functions.clear()
    _original_name.clear()
    _counters.update(frame_id=0, graph=0)
    compile_records.clear()
    _C_dynamo.reset()
    trace_events.mark_reset()


def register(code, cfg):
    if id(code) not in _frames:
        _frames[id(code)] = FrameInfo(code, cfg)
    _C_dynamo.register_code(code)


class _Env:
    __slots__ = ("f_locals", "f_globals", "outputs")

    def __init__(self, f_locals, f_globals, outputs):
        self.f_locals, self.f_globals, self.outputs = f_locals, f_globals, outputs


def callback(code, f_locals, f_globals, f_builtins, guard_failures):
    """`guard_failures`: a torch._C._dynamo.GuardFailure per cache entry whose guards failed (its
    entry's compile id, PyTorch's words for the first failing guard, and the guard's parts);
    str() of one is "0/0: <reason>"."""
    failures = [str(f) for f in guard_failures]
    info = _frames[id(code)]
    if info.frame_id is None:
        info.frame_id = _counters["frame_id"]
        _counters["frame_id"] += 1
    compile_id = "{}/{}".format(info.frame_id, info.compiles)
    if info.compiles >= config.recompile_limit:
        if not info.warned_limit:
            info.warned_limit = True
            last = _failure_text(failures[0], code) if failures else "Unable to find recompilation reasons"
            write_lines("[{}] ".format(compile_id), (
                "torch._dynamo hit config.recompile_limit ({})\n"
                "   function: '{}' ({}:{})\n"
                "   last reason: {}\n"
                'To log all recompilation reasons, use TORCH_LOGS="recompiles".\n'
                "To diagnose recompilation issues, see {}").format(
                    config.recompile_limit, code.co_name, code.co_filename, code.co_firstlineno, last,
                    TROUBLESHOOTING_URL), level="W")
        return "run"  # plain Python for these inputs; entries already compiled still hit
    if failures and is_enabled("recompiles"):
        reasons = "\n".join("- " + line for f in failures for line in _failure_text(f, code).split("\n"))
        details = "triggered by the following guard failure(s):\n" + reasons
        log_artifact("recompiles", compile_id, "Recompiling function {} in {}:{}\n{}".format(
            code.co_name, code.co_filename, code.co_firstlineno,
            "\n".join("    " + line for line in details.split("\n"))))
    info.compiles += 1
    start = time.perf_counter()
    trace_events.artifact("frame", compile_id, lambda: _frame_text(code), code.co_filename, code.co_firstlineno)
    if guard_failures:
        trace_events.recompile(compile_id, guard_failures)
    above = user_stack.stack_above_dynamo()
    with trace_events.phase("compile", compile_id):
        result = _compile(code, f_locals, f_globals, f_builtins, info, compile_id, failures, above)
    if result is not None and compile_records and compile_records[-1]["compile_id"] == compile_id:
        compile_records[-1]["compile_time_s"] = time.perf_counter() - start
    return result


def _failure_text(failure, code):
    """A guard failure as 2.15's recompile reason: a local is named by its name ("n == 3", "tensor
    'x' size mismatch ..."), and a guard that came from a line of the frame is followed by that
    line as a user stack trace."""
    import linecache
    import re
    text = re.sub(r"L\['([A-Za-z_]\w*)'\]", r"\1", failure)
    m = re.search(r"  # (.*)  # (\S+):(\d+) in (\w+)$", failure)
    if m and m.group(2) == user_stack.shorten_filename(code.co_filename):
        line = linecache.getline(code.co_filename, int(m.group(3))).strip()
        text += '\nUser stack trace:\n  File "{}", line {}, in {}\n    {}'.format(
            code.co_filename, m.group(3), m.group(4), line)
    return text


def _frame_text(code):
    """"fn (prog.py:3)" and the function's source lines, for the Compile view."""
    import linecache
    lines = [n for _, _, n in code.co_lines() if n is not None]
    last = max(lines) if lines else code.co_firstlineno
    source = [linecache.getline(code.co_filename, n).rstrip("\n") for n in range(code.co_firstlineno, last + 1)]
    head = "{} ({}:{})".format(code.co_name, code.co_filename, code.co_firstlineno)
    return "\n".join([head] + source)


def _compile(code, f_locals, f_globals, f_builtins, info, compile_id, failures, above=()):
    # The settings of the torch.compile wrapper being called (a resume function runs inside its
    # function's call, so it gets the same); the code's own registration otherwise.
    cfg = config_stack[-1] if config_stack else info.config
    if cfg.dynamic:
        # dynamic=True: every size and every int input is a symbol from the first compile.
        dyn = info.state.setdefault("dynamic", {})
        ints = info.state.setdefault("dynamic_ints", set())
        for name, value in f_locals.items():
            if isinstance(value, torch.Tensor):
                dyn["L[{!r}]".format(name)] = set(range(value.dim()))
            elif type(value) is int:
                ints.add("L[{!r}]".format(name))
        info.state["marked_dynamic"] = True
    elif cfg.dynamic is False:
        info.state["sizes"] = {}
        info.state["ints"] = {}
    output = OutputGraph(info.state)
    output.builtins_name = unique_id("__builtins_dict__")
    tx = InstructionTranslator(code, dict(f_locals), f_globals, f_builtins, output, cfg.fullgraph)
    record = {"compile_id": compile_id, "code": code, "failures": list(failures), "break": None, "graph": None,
              "guards": None, "ops": []}
    try:
        with trace_events.phase("capture", compile_id):
            tx.run()
        stop = None
    except BreakGraph as b:
        stop = b
    except Unsupported as e:
        if cfg.fullgraph:
            raise _fullgraph_error(e) from None
        record["unsupported"] = e.msg
        compile_records.append(record)
        return None  # the whole frame runs as plain Python from now on
    if stop is None and output.count_calls() == 0:
        return None  # nothing to compile: TorchDynamo skips such a frame
    graph_name = None
    if stop is not None:
        # Note [Compile attempts]: TorchDynamo captures a frame that breaks twice: the first
        # attempt finds the break, the second (attempt 1) stops before it and compiles. What the
        # second logs (graph, guards, AOT graphs) is labelled with the attempt: [0/0_1]; it has
        # builtins of its own (Note [Guarding builtins]), and names its graph before the resume
        # function (Note [Unique names]).
        _rename_builtins(output, unique_id("__builtins_dict__"), f_globals)
        if output.count_calls():
            graph_name = unique_id("__compiled_fn", with_uuid=True)
        try:
            plan = _break_plan(tx, stop, code, f_globals, info)
        except Unsupported as e:
            # What is on the stack at the break cannot be handed back to Python (an object the
            # capture only half knows): the whole frame runs as plain Python.
            record["unsupported"] = e.msg
            compile_records.append(record)
            return None
        record["break"] = {"reason": stop.reason.msg, "user_stack": stop.reason.user_stack, "kind": stop.kind}
        _log_break(compile_id, stop, above)
        log_id = compile_id + "_1"
        where = stop.reason.user_stack[-1] if stop.reason.user_stack else (code.co_filename, 0, "", "")
        trace_events.artifact("graph_break", compile_id, stop.reason.msg + "\n" + where[3], where[0], where[1])
    else:
        plan = tx.return_value.reconstruct(tx)
        log_id = compile_id
    compiled, gm = _compile_graph(output, compile_id, info, record, log_id, graph_name)
    guards, record["guard_list"] = build_guards(output, code, f_locals, f_globals)
    record["guards"] = guards
    compile_records.append(record)
    if output.shape_guard_exprs:
        log_artifact("guards", log_id, lambda: "Python shape guard function:\n" +
                     shape_guard_code(output.shape_guard_exprs))
    log_artifact("guards", log_id, "GUARDS:")
    log_artifact("guards", log_id, lambda: "\n" + str(guards))
    log_artifact("guards", log_id, lambda: "Guard eval latency = {:.2f} us".format(
        guard_eval_latency_us(guards, f_locals, f_globals)))
    trace_events.artifact("guards", compile_id, lambda: str(guards).rstrip("\n"))
    sources = [src for _, src in output.input_order]

    def run(f_locals):
        args = [s.get(f_locals, f_globals) for s in sources]
        outputs = compiled(*args) if compiled is not None else ()
        return plan(_Env(f_locals, f_globals, outputs))
    run.__name__ = "__compiled_frame_" + compile_id.replace("/", "_")
    return (guards, run, compile_id)


class SymSource:
    """A graph input that is a size: the size of a dimension of another input."""

    def __init__(self, base, dim):
        self.base, self.dim = base, dim

    def get(self, f_locals, f_globals):
        return self.base.get(f_locals, f_globals).size(self.dim)


def _rename_builtins(output, name, f_globals):
    """Moves the guards on builtins to the builtins dict of the next attempt (`name`)."""
    from torch._dynamo.source import DictGetItemSource, GlobalSource
    old = output.builtins_name
    output.builtins_name = name
    if old not in f_globals:
        return
    f_globals[name] = f_globals[old]  # the old name stays: what the capture rebuilds may still read it
    moved = []
    for source, kind, value, text, comment in output.guards:
        if isinstance(source, DictGetItemSource) and source.base.name() == GlobalSource(old).name():
            new = DictGetItemSource(GlobalSource(name), source.index)
            text = text.replace(source.name(), new.name())
            output.guarded.add((new.name(), kind))
            source = new
        moved.append((source, kind, value, text, comment))
    output.guards[:] = moved


def _compile_graph(output, compile_id, info, record, log_id=None, graph_name=None):
    log_id = log_id or compile_id
    if output.count_calls() == 0:
        return None, None
    graph = output.graph
    # Symbols are inputs too (TorchDynamo passes s0 before the tensors it sizes).
    names = {sym: output.symbol_name(sym) for sym in output.symbol_dims}
    for n in graph.nodes:
        if n.meta.get("sym_sizes"):
            n.meta["sym_sizes"] = {d: names.get(v, v) for d, v in n.meta["sym_sizes"].items()}
    for sym, dims in output.symbol_dims.items():
        node = output.sym_placeholders.get(sym) or graph.create_node("placeholder", sym, name=sym)
        node.meta["val"] = names[sym]
        source, d, _ = dims[0]
        output.input_order.insert(0, (node, SymSource(source, d)))
    outs = []
    for v in output.outputs:
        outs.append(v.proxy)
    graph.output(tuple(outs))
    # Placeholders in the order the compiled code passes them.
    order = [n for n, _ in output.input_order]
    others = [n for n in graph.nodes if n.op != "placeholder"]
    graph.nodes = order + others
    name = graph_name or unique_id("__compiled_fn", with_uuid=True)
    _counters["graph"] += 1
    gm = _LazyGraphModule(output.nn_modules, graph)
    log_artifact("graph_code", log_id, lambda: graph_code(name, gm))
    trace_events.artifact("graph", compile_id, lambda: graph_code(name, gm))
    # TORCH_LOGS=graph is an artifact 2.15 registers and never logs to (its tabular form of the
    # graph is not written anywhere), so nothing is logged for it here either.
    record["graph"] = gm
    record["graph_name"] = name
    record["ops"] = [n.target for n in graph.nodes if n.op in ("call_function", "call_method", "call_module")]
    global current_compile_id
    current_compile_id = log_id
    backend = lookup_backend((config_stack[-1] if config_stack else info.config).backend)
    examples = [n.meta.get("val") for n in order]
    compiled = backend(gm, examples)
    return compiled, gm


# What TorchDynamo 2.15 says it was tracing when a graph break happened, by the kind of stop.
_BREAK_PREFIX = {
    "call": "Encountered graph break when attempting to trace CALL: a function call, e.g. f(x, y)",
}


# Note [Duplicate graph breaks]
# As 2.15 does, a graph break of a type already logged at the same place since the last
# torch.compile(...) call is logged without its user stack ("user stack suppressed due to
# duplicate graph break"): a frame recompiled for new inputs breaks where it broke before.
_logged_breaks = set()


def reset_graph_break_dup_checker():
    _logged_breaks.clear()


def _log_break(compile_id, stop, above=()):
    if not is_enabled("graph_breaks"):
        return
    e = stop.reason
    f, ln, fn, line = e.user_stack[-1] if e.user_stack else ("?", 0, "?", "")
    prefix = _BREAK_PREFIX.get(stop.kind)
    reason = "{}:\n\n{}".format(prefix, e.msg) if prefix else e.msg
    key = (e.gb_type or e.msg, (f, ln))
    if key in _logged_breaks:
        log_artifact("graph_breaks", compile_id, "Graph break (user stack suppressed due to duplicate graph break) in "
                     "user code at {}:{}\nGraph Break Reason: {}".format(f, ln, reason))
        return
    _logged_breaks.add(key)
    frames = user_stack.collapse_resume_frames(list(above) + list(e.user_frames))
    log_artifact("graph_breaks", compile_id, "Graph break in user code at {}:{}\nGraph Break Reason: {}\n\n"
                 "User code traceback:\n{}".format(f, ln, reason, user_stack.format_user_stack(frames)))


def _fullgraph_error(e):
    frames = user_stack.collapse_resume_frames(list(e.user_frames))
    lines = "".join(" " + user_stack.format_frame(fs) for fs in frames)
    err = Unsupported("{}\n\nfrom user code:\n{}\nSet TORCHDYNAMO_VERBOSE=1 for the internal stack trace (please do this "
                      "especially if you're reporting a bug to PyTorch). For even more developer context, set "
                      "TORCH_LOGS=\"+dynamo\"\n".format(e.msg, lines), e.user_stack, e.gb_type)
    err.msg = e.msg
    err.user_frames = e.user_frames
    return err


def _local_recons(tx, code):
    recons = {}
    for name in code.co_varnames:
        if name in tx.symbolic_locals:
            recons[name] = tx.symbolic_locals[name].reconstruct(tx)
    return recons


def _resume_function(code, offset, mask, unbound, lineno, f_globals, info):
    key = (id(code), offset, tuple(mask), tuple(unbound))
    fn = _resume_functions.get(key)
    if fn is None:
        original = _original_name.get(id(code), code.co_name)
        unique_id("__resume_at_{}".format(offset))
        rcode = resume.make_resume_code(code, offset, mask, unbound, lineno, original)
        _original_name[id(rcode)] = original
        fn = types.FunctionType(rcode, f_globals, rcode.co_name)
        _resume_functions[key] = fn
        register(rcode, info.config)
    return fn


def _break_plan(tx, stop, code, f_globals, info):
    inst = stop.inst
    idx = tx.index_of[inst.offset]
    next_offset = tx.instructions[idx + 1].offset if idx + 1 < len(tx.instructions) else inst.offset
    lineno = tx.lineno()
    stack = list(tx.stack)
    recons = [v.reconstruct(tx) for v in stack]
    local_recons = _local_recons(tx, code)
    unbound = [n for n in code.co_varnames if n not in local_recons]

    def locals_of(env):
        return {n: r(env) for n, r in local_recons.items()}

    if stop.kind == "call":
        argc = inst.arg
        kw = tx.kw_names
        base_mask = [isinstance(v, V.NullVariable) for v in stack[:-(argc + 2)]]
        mask = base_mask + [False]
        target = _resume_function(code, next_offset, mask, unbound, lineno, f_globals, info)

        def plan(env):
            vals = [r(env) for r in recons]
            items = vals[-(argc + 2):]
            first, fn, args = items[0], items[1], list(items[2:])
            if first is not resume.NULL:
                fn, args = first, [items[1]] + args
            kwargs = {}
            if kw:
                kwargs = dict(zip(kw, args[len(args) - len(kw):]))
                args = args[:len(args) - len(kw)]
            result = fn(*args, **kwargs)
            new_stack = vals[:-(argc + 2)] + [result]
            return target(*resume.resume_call_args(code, new_stack, locals_of(env), mask))
        return plan
    if stop.kind == "jump":
        when = "TRUE" in inst.opname
        mask = [isinstance(v, V.NullVariable) for v in stack[:-1]]
        to_target = _resume_function(code, inst.argval, mask, unbound, lineno, f_globals, info)
        to_next = _resume_function(code, next_offset, mask, unbound, lineno, f_globals, info)

        def plan(env):
            vals = [r(env) for r in recons]
            cond = bool(vals[-1])
            fn = to_target if cond == when else to_next
            return fn(*resume.resume_call_args(code, vals[:-1], locals_of(env), mask))
        return plan
    # An f-string field that needs a real value: formatted in Python.
    has_spec = bool(inst.arg & 4)
    n = 2 if has_spec else 1
    mask = [isinstance(v, V.NullVariable) for v in stack[:-n]] + [False]
    target = _resume_function(code, next_offset, mask, unbound, lineno, f_globals, info)
    conv = {1: str, 2: repr, 3: ascii}.get(inst.arg & 3)

    def plan(env):
        vals = [r(env) for r in recons]
        spec = vals[-1] if has_spec else ""
        value = vals[-n]
        text = format(conv(value) if conv else value, spec)
        return target(*resume.resume_call_args(code, vals[:-n] + [text], locals_of(env), mask))
    return plan
