"""torch._logging: TORCH_LOGS and set_logs, for torch.compile's artifacts.

TORCH_LOGS="guards,recompiles,graph_code,graph,graph_breaks" (or set_logs(guards=True, ...))
turns on what TorchDynamo would log. Each line is written to standard error as PyTorch 2.15
writes it: the level, date and time, process id and logging site, then the compile id and the
artifact's name, "V1205 19:53:34.033000 7462 torch/_dynamo/guards.py:81] [0/0] [__guards] GUARDS:".

Note [The logging prefix]
PyTorch's formatter starts every line of a record with "<level><MMDD hh:mm:ss.uuuuuu> <pid>
<file>:<line>] ", where the file is the logging call's, relative to the directory that holds the
torch package. Here the logging site is the first caller outside torch/_logging, so the prefix
names the line of torch/_dynamo (or _functorch, _inductor) that logged, as PyTorch's does; the
time has milliseconds only (logging's record.msecs), written with six digits."""
import os
import sys
import time

ARTIFACTS = ("guards", "recompiles", "graph_code", "graph", "graph_breaks", "aot_graphs", "output_code",
             "bytecode", "dynamo")
_enabled = set()


def _parse(spec):
    on = set()
    for part in spec.replace(" ", "").split(","):
        name = part.lstrip("+-")
        if name in ARTIFACTS:
            on.add(name)
        elif name == "recompiles_verbose":
            on.add("recompiles")
        elif name:
            print("Warning: TORCH_LOGS: unknown artifact or module '{}' (known: {})".format(name, ", ".join(ARTIFACTS)),
                  file=sys.stderr)
    return on


_enabled |= _parse(os.environ.get("TORCH_LOGS", ""))


def _reset():
    """Back to what TORCH_LOGS asks for (a new program starts so)."""
    _enabled.clear()
    _enabled.update(_parse(os.environ.get("TORCH_LOGS", "")))


def set_logs(**kwargs):
    """set_logs(guards=True, recompiles=True, ...): which artifacts to log from now on."""
    for name, on in kwargs.items():
        if name not in ARTIFACTS:
            raise ValueError("Unrecognized log or artifact name passed to set_logs: {}".format(name))
        if on:
            _enabled.add(name)
        else:
            _enabled.discard(name)


def is_enabled(artifact):
    return artifact in _enabled


def log_artifact(artifact, compile_id, text, stream=None, level="V"):
    """Writes `text` with the prefix "[compile_id] [__artifact] " on each line, as a record of
    `level` (2.15 logs each artifact at the level of its logging call: aot_graphs at I). `text`
    may be a function, called only when the artifact is on (formatting a graph is not free)."""
    if artifact not in _enabled:
        return
    if callable(text):
        text = text()
    write_lines("[{}] [__{}] ".format(compile_id, artifact), text, stream, level)


_TORCH_PARENT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _record_prefix(level):
    """"V1205 19:53:34.033000 7462 torch/_dynamo/guards.py:81] " (Note [The logging prefix])."""
    frame = sys._getframe(1)
    here = os.path.dirname(os.path.abspath(__file__))
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == here:
        frame = frame.f_back
    site = "?:0"
    if frame is not None:
        path = os.path.abspath(frame.f_code.co_filename)
        if path.startswith(_TORCH_PARENT + os.sep):
            path = path[len(_TORCH_PARENT) + 1:]
        site = "{}:{}".format(path.replace(os.sep, "/"), frame.f_lineno)
    now = time.time()
    stamp = time.strftime("%m%d %H:%M:%S", time.localtime(now))
    return "{}{}.{:06d} {} {}] ".format(level, stamp, int(now * 1000) % 1000 * 1000, os.getpid(), site)


def write_lines(prefix, text, stream=None, level="V"):
    """Writes each line of `text` as one line of a log record of `level` (V: debug, I: info,
    W: warning, E: error) with `prefix` after the record's own."""
    stream = stream or sys.stderr
    if stream is sys.stderr and hasattr(sys.stdout, "flush"):
        sys.stdout.flush()  # what the program printed before comes first
    head = _record_prefix(level)
    for line in text.split("\n"):
        stream.write(head + prefix + line + "\n")
    stream.flush() if hasattr(stream, "flush") else None
