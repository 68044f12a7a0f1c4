"""The user's stack as TorchDynamo reports it: in graph-break logs, in the error fullgraph=True
raises, and in guards' comments.

Note [User stacks]
A report names the frames of the user's program that led to the instruction: those above the
compiled frame (the caller's, read from the live Python stack, minus torch.compile's own
eval_frame wrappers, up to convert_frame) and those the capture was inside (the compiled frame
and the functions it inlined). Each frame shows its source line and, where the instruction's
position covers part of it, a marker line under that part: '~' under the expression, '^' under
what the instruction does (the operator of a binary operation, the brackets of a subscript, the
argument list of a call), as PyTorch 2.15 draws them on CPython 3.11. Resume functions are
folded into the function they continue."""
import ast
import linecache
import os
import re
import sys
import textwrap
import traceback

_TORCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESUME_PREFIX = "torch_dynamo_resume_in"


def shorten_filename(fn):
    """A path relative to the directory it shares with the torch package's (torch/utils/_traceback.py's
    rule): torch's own files read "_dynamo/output_graph.py", a program in the checkout that holds
    the package "tests/compile/programs/x.py"."""
    full = os.path.abspath(fn)
    try:
        prefix = os.path.commonpath([full, _TORCH_DIR])
    except ValueError:
        return fn
    # As 2.15 cuts it, also where the only common directory is the root: "/tmp/x.py" reads "mp/x.py".
    return full[len(prefix) + 1:]


def frame_summary(code, inst):
    """The FrameSummary of `code` stopped at `inst`, with the instruction's source positions."""
    pos = getattr(inst, "positions", None)
    lineno = pos.lineno if pos is not None and pos.lineno else code.co_firstlineno
    kwargs = {}
    if pos is not None and pos.lineno:
        kwargs = {"end_lineno": pos.end_lineno, "colno": pos.col_offset, "end_colno": pos.end_col_offset}
    return traceback.FrameSummary(code.co_filename, lineno, code.co_name, lookup_line=False, **kwargs)


def stack_above_dynamo():
    """The live frames that called into torch.compile, outermost first (Note [User stacks])."""
    frames = []
    frame = sys._getframe(1)
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back
    out = []
    for frame in reversed(frames):
        code = frame.f_code
        if "convert_frame" in code.co_filename:
            break
        if "eval_frame" in code.co_filename:
            continue
        kwargs, lineno = {}, frame.f_lineno
        if frame.f_lasti >= 0:
            positions = list(code.co_positions())
            idx = frame.f_lasti // 2
            if idx < len(positions) and positions[idx][0] is not None:
                lineno, end_lineno, col, end_col = positions[idx]
                kwargs = {"end_lineno": end_lineno, "colno": col, "end_colno": end_col}
        out.append(traceback.FrameSummary(code.co_filename, lineno, code.co_name, lookup_line=False, **kwargs))
    return out


def collapse_resume_frames(stack):
    out = []
    for fs in stack:
        m = re.match(RESUME_PREFIX + r"_(\w+)_at_\d+", fs.name)
        name = m.group(1) if m else fs.name
        fs.name = name
        if out and out[-1].name == name:
            out[-1] = fs
        else:
            out.append(fs)
    return out


def _char_offset(line, offset):
    return len(line.encode("utf-8")[:offset].decode("utf-8", errors="replace"))


def _anchors(segment):
    """Where '^' goes inside `segment`, one line of source: (start, end) or None."""
    try:
        tree = ast.parse("(\n" + segment + "\n)")
    except SyntaxError:
        return None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        return None
    expr = tree.body[0].value
    if isinstance(expr, ast.BinOp):
        if expr.left.end_lineno != 2:
            return None
        col = _char_offset(segment, expr.left.end_col_offset)
        while col < len(segment) and (segment[col].isspace() or segment[col] == ")"):
            col += 1
        end = col + 1
        if end < len(segment) and not segment[end].isspace() and segment[end] not in "\\#":
            end += 1
        return col, end
    if isinstance(expr, (ast.Subscript, ast.Call)):
        inner = expr.value if isinstance(expr, ast.Subscript) else expr.func
        if inner.end_lineno != 2 or expr.end_lineno != 2:
            return None
        col = _char_offset(segment, inner.end_col_offset)
        bracket = "[" if isinstance(expr, ast.Subscript) else "("
        while col < len(segment) and segment[col] != bracket:
            col += 1
        return col, _char_offset(segment, expr.end_col_offset)
    return None


def _source_with_marker(fs):
    """The frame's source line and the marker line under the instruction's range (dedented), or
    None where the range is not one expression on one line."""
    line = linecache.getline(fs.filename, fs.lineno).rstrip()
    if not line:
        return None
    colno, end_colno = getattr(fs, "colno", None), getattr(fs, "end_colno", None)
    end_lineno = getattr(fs, "end_lineno", None) or fs.lineno
    if colno is None or end_colno is None or end_lineno != fs.lineno or end_colno <= colno:
        return None
    start, end = _char_offset(line, colno), _char_offset(line, end_colno)
    marker = [" "] * start + ["~"] * (end - start)
    anchors = _anchors(line[start:end])
    if anchors is None:
        marker = [" "] * start + ["^"] * (end - start)
    else:
        for c in range(start + anchors[0], min(start + anchors[1], end)):
            marker[c] = "^"
    text = textwrap.dedent(line + "\n" + "".join(marker)).rstrip("\n")
    return textwrap.indent(text, "    ") + "\n"


def format_frame(fs):
    body = _source_with_marker(fs)
    if body is not None:
        return '  File "{}", line {}, in {}\n'.format(fs.filename, fs.lineno, fs.name) + body
    plain = traceback.FrameSummary(fs.filename, fs.lineno, fs.name)
    return "".join(traceback.format_list([plain]))


def format_user_stack(stack):
    return "".join(format_frame(fs) for fs in stack)
