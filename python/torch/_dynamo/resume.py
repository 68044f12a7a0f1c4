"""Resume functions: where capture picks up again after a graph break.

Note [Resume functions]
When a graph breaks at an instruction, the compiled code runs the graph so far, does the
breaking instruction in plain Python (the print, the .item(), the branch on a tensor) and
then calls a resume function: a new code object made from the frame's own bytecode with a
short prologue that puts the stack back (its items are the resume function's first
arguments, NULLs are pushed again), unbinds the locals that were unbound, and jumps to the
instruction after the break. Every local of the frame is an argument, under its own name and
slot, so the rest of the bytecode runs unchanged. CPython calls it like any function, so the
frame hook sees it and TorchDynamo captures it as a frame of its own (a new frame id, [1/0]).
Its name is TorchDynamo's: torch_dynamo_resume_in_<fn>_at_<line>."""
import dis
import types

NULL = object()  # a NULL on the stack, as a value the compiled code passes around


def _op(name):
    return dis.opmap[name]


def _emit(out, name, arg=0):
    """Appends one instruction (with EXTENDED_ARGs) and its inline cache entries."""
    ext = []
    a = arg >> 8
    while a:
        ext.append(a & 0xFF)
        a >>= 8
    for e in reversed(ext):
        out += bytes([_op("EXTENDED_ARG"), e])
    out += bytes([_op(name), arg & 0xFF])
    out += bytes(2 * getattr(dis, "_inline_cache_entries", [0] * 256)[_op(name)])


def _varint(v, first):
    chunks = [v & 63]
    v >>= 6
    while v:
        chunks.append(v & 63)
        v >>= 6
    chunks.reverse()
    out = [c | 64 for c in chunks[:-1]] + [chunks[-1]]
    if first:
        out[0] |= 128
    return bytes(out)


def _shift_exception_table(table, units):
    """The exception table with every start and target moved `units` code units later."""
    if not table:
        return table
    it = iter(table)
    out = b""

    def read():
        b = next(it)
        val = b & 63
        while b & 64:
            val <<= 6
            b = next(it)
            val |= b & 63
        return val
    try:
        while True:
            start, length, target, dl = read(), read(), read(), read()
            out += _varint(start + units, True) + _varint(length, False) + _varint(target + units, False) + \
                _varint(dl, False)
    except StopIteration:
        return out


def _no_location(units):
    out = b""
    while units > 0:
        n = min(units, 8)
        out += bytes([0x80 | (15 << 3) | (n - 1)])
        units -= n
    return out


def can_resume(code):
    return not code.co_cellvars and not code.co_freevars


def make_resume_code(code, offset, null_mask, unbound, lineno, original_name=None):
    """A code object that continues `code` at `offset` with a stack of len(null_mask) items
    (True: a NULL) and the locals in `unbound` unbound. Its arguments: every local of `code` in
    order, then the stack's non-NULL items (___stack0, ...)."""
    stack_names = ["___stack{}".format(i) for i, is_null in enumerate(null_mask) if not is_null]
    varnames = list(code.co_varnames) + stack_names
    body = bytearray()
    _emit(body, "RESUME", 0)
    k = 0
    for is_null in null_mask:
        if is_null:
            _emit(body, "PUSH_NULL")
        else:
            _emit(body, "LOAD_FAST", varnames.index(stack_names[k]))
            k += 1
    for name in unbound:
        _emit(body, "DELETE_FAST", varnames.index(name))
    # JUMP_FORWARD counts code units from the instruction after it; its own size depends on
    # the distance, so settle the size first.
    for size in (2, 4, 6):
        target = len(body) + size + offset
        delta = (target - (len(body) + size)) // 2
        trial = bytearray()
        _emit(trial, "JUMP_FORWARD", delta)
        if len(trial) == size:
            body += trial
            break
    units = len(body) // 2
    name = "torch_dynamo_resume_in_{}_at_{}".format(original_name or code.co_name, lineno)
    args = len(code.co_varnames) + len(stack_names)
    # Stack names come after the frame's locals, which keep their slots; all are arguments.
    order = list(code.co_varnames) + stack_names
    return code.replace(
        co_code=bytes(body) + code.co_code,
        co_argcount=args, co_posonlyargcount=0, co_kwonlyargcount=0,
        co_nlocals=len(order), co_varnames=tuple(order),
        co_flags=code.co_flags & ~(0x04 | 0x08),  # no *args / **kwargs
        co_stacksize=code.co_stacksize + len(null_mask) + 2,
        co_linetable=_no_location(units) + code.co_linetable,
        co_exceptiontable=_shift_exception_table(code.co_exceptiontable, units),
        co_name=name, co_qualname=name)


def resume_call_args(code, stack, f_values, null_mask):
    """The resume function's arguments: every local of `code` (None where unbound: the prologue
    unbinds it again), then the stack without its NULLs."""
    return [f_values.get(n) for n in code.co_varnames] + \
        [v for v, is_null in zip(stack, null_mask) if not is_null]
