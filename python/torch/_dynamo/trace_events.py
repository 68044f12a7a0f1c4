"""What torch.compile writes into the trace, for the Compile view and the Timeline.

Note [What torch.compile records]
While the trace recorder is on, each phase of a compile is a slice of category `compile`
("capture [0/1]", "aot [0/1]", "lowering [0/1]", "c++ compile [0/1]"), and what it produced is
an instant event with a `compile_artifact` payload (docs/trace-format.md): the frame, why it
recompiled, the captured graph's code, its guard tree, a graph break's reason at the user's
line, AOTAutograd's forward and backward graphs and the generated code; the fusion decisions
are a fusion_decisions payload of their own ("fusion [0/1]", one decision per node).
Every call of a compiled frame adds a "guard check" slice and then "cache hit [0/1]" or
"cache miss" with the check's time (recorded in C++, core/dynamo/frame_cache.cpp). Views read these events only, so a saved
trace shows the same compiles. Nothing is built when the recorder is off."""
import contextlib

from torch import _C


def enabled():
    return _C._trace_enabled()


def _numbers(compile_id):
    """"0/1" -> (0, 1): the compile id's two numbers, as the trace records them."""
    frame_id, _, compile_index = str(compile_id).partition("/")
    return int(frame_id), int(compile_index or 0)


@contextlib.contextmanager
def phase(name, compile_id):
    """A slice "name [compile_id]" with a typed compile_phase payload on its Begin and End."""
    on = enabled()
    frame_id, compile_index = _numbers(compile_id)
    if on:
        _C._trace_compile_phase(True, name, frame_id, compile_index)
    try:
        yield
    finally:
        if on:
            _C._trace_compile_phase(False, name, frame_id, compile_index)


_resets = 0


def mark_reset():
    """Compile ids start again after a reset: views begin a new epoch of frames here."""
    global _resets
    if enabled():
        _C._trace_dynamo_reset(_resets)
    _resets += 1


def artifact(kind, compile_id, text, file="", line=0):
    """Records one artifact; `text` may be a function, called only when recording."""
    if not enabled():
        return
    if callable(text):
        text = text()
    frame_id, compile_index = _numbers(compile_id)
    _C._trace_compile_artifact(kind, frame_id, compile_index, file or "", int(line or 0), text)


def fusion(compile_id, graph, decisions):
    """Records the scheduler's decisions for one lowered graph (0: the captured graph or
    AOTAutograd's forward, 1: its backward) as a typed fusion_decisions payload."""
    if not enabled():
        return
    frame_id, compile_index = _numbers(compile_id)
    _C._trace_compile_fusion(frame_id, compile_index, graph,
                             [(d.node, d.action, d.kernel, d.kernel_index, d.reason) for d in decisions])


def recompile(compile_id, guard_failures):
    """Records why compile `compile_id` happened: the GuardFailure of each cache entry whose
    guards failed, typed (guard, source, expected, actual, its line in the entry's guard tree)."""
    if not enabled():
        return
    frame_id, compile_index = _numbers(compile_id)
    _C._trace_compile_recompile(frame_id, compile_index, list(guard_failures))
