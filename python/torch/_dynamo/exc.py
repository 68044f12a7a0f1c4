"""torch._dynamo.exc: why a frame could not be captured whole."""
import textwrap


class TorchDynamoException(RuntimeError):
    pass


class Unsupported(TorchDynamoException):
    """Something the capture cannot follow: with fullgraph=False the graph breaks there; with
    fullgraph=True it is raised to the caller.

    A graph break of a kind PyTorch 2.15 names carries its gb_type, context, explanation and
    hints (unimplemented_v2), and its message is 2.15's long form (format_graph_break_message)."""

    def __init__(self, msg, user_stack=None, gb_type=None):
        super().__init__(msg)
        self.msg = msg
        self.gb_type = gb_type
        self.user_stack = user_stack or []  # [(filename, lineno, function name, source line)]
        self.user_frames = []               # the same frames as FrameSummary, with positions
        self.real_stack = []

    def add_frame(self, filename, lineno, name, line):
        self.user_stack.insert(0, (filename, lineno, name, line))


class TorchRuntimeError(TorchDynamoException):
    """An error the captured code raises itself (an operator that fails on fake tensors): not a
    graph break, raised to the caller."""


def unimplemented(msg):
    raise Unsupported(msg)


# The graph-break registry's ids (torch/_dynamo/graph_break_registry.json in 2.15) of the graph
# breaks this capture reports in 2.15's words; each has a page on the graph-break site.
GB_IDS = {
    "Attempted to call function marked as skipped": "GB0007",
    "Call to `torch._dynamo.graph_break()`": "GB0025",
    "Failed to trace builtin operator": "GB0059",
    "Unsupported method call": "GB0156",
    "Data-dependent branching": "GB0170",
    "RuntimeError when making fake tensor call": "GB4315",
}


def get_gbid_documentation_link(gb_type):
    gb_id = GB_IDS.get(gb_type)
    if gb_id is None:
        return None
    return "https://meta-pytorch.github.io/compile-graph-break-site/gb/{}.html".format(gb_id.lower())


def format_graph_break_message(gb_type, context, explanation, hints):
    explanation = textwrap.indent(explanation, "    ").lstrip()
    hints_str = "\n".join("  Hint: " + textwrap.indent(hint, "    ").lstrip() for hint in hints)
    context = textwrap.indent(context, "    ").lstrip()
    msg = "{}\n  Explanation: {}\n{}\n\n  Developer debug context: {}".format(gb_type, explanation, hints_str, context)
    link = get_gbid_documentation_link(gb_type)
    if link:
        msg += "\n\n For more details about this graph break, please visit: " + link
    return msg


def unimplemented_v2(gb_type, context, explanation, hints):
    raise Unsupported(format_graph_break_message(gb_type, context, explanation, hints), gb_type=gb_type)


class ShortenTraceback(TorchDynamoException):
    """An error whose traceback starts at the first frame worth reading (PyTorch 2.15's)."""

    def __init__(self, *args, first_useful_frame=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.first_useful_frame = first_useful_frame


class BackendCompilerFailed(ShortenTraceback):
    """A compiler backend raised while compiling a captured graph (torch._inductor.exc.InductorError is one)."""

    def __init__(self, backend_fn, inner_exception, first_useful_frame=None):
        self.backend_name = getattr(backend_fn, "__name__", "?")
        self.inner_exception = inner_exception
        super().__init__("backend={!r} raised:\n{}: {}".format(self.backend_name, type(inner_exception).__name__,
                                                              inner_exception), first_useful_frame=first_useful_frame)
