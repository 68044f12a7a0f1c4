"""Graphs as TORCH_LOGS=graph_code prints them (PyTorch 2.15's layout): forward()
with each value's type "f32[3, 3][3, 1]cpu", the user's line above the nodes it made, and
"; x = None" where a value is used for the last time."""

_DTYPE_ABBR = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16", "int64": "i64",
               "int32": "i32", "int16": "i16", "int8": "i8", "uint8": "u8", "bool": "b8"}


def type_annotation(node):
    val = node.meta.get("val")
    if isinstance(val, str):
        return "Sym({})".format(val)
    if not hasattr(val, "size"):
        return None
    syms = node.meta.get("sym_sizes") or {}
    sizes = [syms.get(d, str(s)) for d, s in enumerate(val.size())]
    strides = []
    for d, st in enumerate(val.stride()):
        # A stride that spans a symbolic size is symbolic too (s0 for [s0, 3]'s... only inner dims).
        expr = str(st)
        inner = [syms[j] for j in range(d + 1, len(sizes)) if j in syms and val.size(j) > 1]
        if inner and st != 0:
            static = st
            for j in range(d + 1, len(sizes)):
                if j in syms:
                    static //= max(val.size(j), 1)
            expr = "*".join(([str(static)] if static != 1 else []) + inner)
        strides.append(expr)
    dev = node.meta.get("device")
    dev_s = "cpu" if dev is None or dev.type == "cpu" else "{}:{}".format(dev.type, dev.index or 0)
    dtype = str(val.dtype).replace("torch.", "")
    return "{}[{}][{}]{}".format(_DTYPE_ABBR.get(dtype, dtype), ", ".join(sizes), ", ".join(strides), dev_s)


def forward_code(graph, name="forward"):
    nodes = graph.nodes
    last_use = {}
    for n in nodes:
        for a in n.all_input_nodes:
            last_use[a] = n
    placeholders = [n for n in nodes if n.op == "placeholder"]
    params = []
    for p in placeholders:
        ann = type_annotation(p)
        params.append('{}: "{}"'.format(p.target, ann) if ann else p.target)
    lines = ["def {}(self{}):".format(name, "".join(", " + p for p in params))]
    for p in placeholders:
        if p.name != p.target:
            lines.append("    {} = {}".format(p.name, p.target))
    prev_stack = None
    for n in nodes:
        if n.op == "placeholder":
            continue
        stack = n.meta.get("stack")
        if stack and stack != prev_stack and n.op != "output":
            f, ln, fn, code = stack
            lines.append("")
            lines.append("    # File: {}:{} in {}, code: {}".format(f, ln, fn, code))
            prev_stack = stack
        text = graph.node_code(n)
        if n.op == "output":
            out = n.args[0]
            if isinstance(out, tuple):
                text = "return (" + ", ".join(a.name if hasattr(a, "name") else repr(a) for a in out) + \
                       ("," if len(out) == 1 else "") + ")"
        else:
            ann = type_annotation(n)
            if ann:
                lhs, rhs = text.split(" = ", 1)
                text = '{}: "{}" = {}'.format(lhs, ann, rhs)
            freed = [a.name for a in n.all_input_nodes if last_use.get(a) is n]
            if freed:
                text += ";  " + " = ".join(freed) + " = None"
        lines.append("    " + text)
    lines.append("")
    return "\n".join(lines)


def graph_code(name, gm):
    body = forward_code(gm.graph)
    text = " {} class GraphModule(torch.nn.Module):\n".format(gm.forward_filename()) + \
        "\n".join("    " + line if line else "" for line in body.split("\n"))
    return "TRACED GRAPH\n ===== {} =====\n{}\n".format(name, text)

