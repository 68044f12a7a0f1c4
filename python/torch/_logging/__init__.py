"""torch._logging: TORCH_LOGS and set_logs, for torch.compile's artifacts.

TORCH_LOGS="guards,recompiles,graph_code,graph,graph_breaks" (or set_logs(guards=True, ...))
turns on what TorchDynamo would log. Each line is written to standard error with the compile id
and the artifact's name, "[0/0] [__guards] GUARDS:", as PyTorch 2 writes it minus the time,
process id and logging site that start its lines (so two runs print the same)."""
import os
import sys

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


def log_artifact(artifact, compile_id, text, stream=None):
    """Writes `text` with the prefix "[compile_id] [__artifact] " on each line. `text` may be a
    function, called only when the artifact is on (formatting a graph is not free)."""
    if artifact not in _enabled:
        return
    if callable(text):
        text = text()
    write_lines("[{}] [__{}] ".format(compile_id, artifact), text, stream)


def write_lines(prefix, text, stream=None):
    stream = stream or sys.stderr
    if stream is sys.stderr and hasattr(sys.stdout, "flush"):
        sys.stdout.flush()  # what the program printed before comes first
    for line in text.split("\n"):
        stream.write(prefix + line + "\n")
    stream.flush() if hasattr(stream, "flush") else None
