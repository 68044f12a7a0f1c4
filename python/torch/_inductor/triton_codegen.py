"""Triton-style text for a fused kernel on the simulated GPU, as Inductor writes it for CUDA
(`triton_poi_fused_add_mul_0`: a pointwise kernel over blocks of XBLOCK elements;
`triton_red_fused_..._0`: one that ends in a reduction). The simulated GPU cannot run Triton:
what it runs, as one kernel on the stream timed by the device model, is the equivalent C++
loop that cpp_codegen writes for the same kernel (runtime.SimTritonKernel)."""
from torch._inductor.lowering import contiguous_strides, index_expr, index_terms, op_name, output_terms

TRITON = {
    "add": "{a} + {b}", "sub": "{a} - {b}", "mul": "{a} * {b}", "div": "{a} / {b}", "neg": "-{a}",
    "relu": "triton_helpers.maximum(0, {a})", "sigmoid": "tl.sigmoid({a})", "tanh": "libdevice.tanh({a})",
    "exp": "tl_math.exp({a})", "log": "tl_math.log({a})", "sqrt": "libdevice.sqrt({a})", "abs": "tl_math.abs({a})",
    "sin": "tl_math.sin({a})", "cos": "tl_math.cos({a})", "pow": "libdevice.pow({a}, {b})", "rsub": "{b} - {a}",
}


def _index(val, size, var):
    """The element of `val` at the kernel's index, as a Triton expression over x0, x1, ..."""
    return index_expr(index_terms(val, size), var, "*")


def kernel_text(k, name, inputs, outputs, flat):
    size = k.size
    numel = 1
    for s in size:
        numel *= s
    reduction = k.reduction is not None
    var = "r" if reduction else "x"
    lines, tmp, counter = [], {}, [0]

    def new_tmp(expr):
        t = "tmp{}".format(counter[0])
        counter[0] += 1
        lines.append("{} = {}".format(t, expr))
        return t

    mask = "rmask" if reduction else "xmask"

    def operand(a):
        if hasattr(a, "op"):
            if a not in tmp:
                i = inputs.index(a)
                idx = "{}0".format(var) if flat else _index(a.meta["val"], size, var)
                tmp[a] = new_tmp("tl.load(in_ptr{} + ({}), {}{})".format(
                    i, idx, mask, ", eviction_policy='evict_first', other=0.0" if reduction else ""))
            return tmp[a]
        return repr(float(a))

    for n in k.nodes:
        ops = [operand(a) for a in n.args]
        tmp[n] = new_tmp(TRITON[op_name(n)].format(a=ops[0], b=ops[1] if len(ops) > 1 else ""))
    params = ["in_ptr{}".format(i) for i in range(len(inputs))] + \
             ["out_ptr{}".format(i) for i in range(len(outputs))]
    out = ["@triton.jit"]
    # The index variables: one flat index, or one per dimension of the kernel's size.
    if flat:
        dims = ["{}0 = {}index".format(var, var)]
    else:
        strides = contiguous_strides(size)
        dims = []
        for d, (s, st) in enumerate(zip(size, strides)):
            e = "{}index".format(var)
            if st != 1:
                e = "({} // {})".format(e, st)
            if d > 0:
                e = "{} % {}".format(e, s)
            dims.append("{}{} = {}".format(var, d, e))
    body = []
    if not reduction:
        out.append("def {}({}, xnumel, XBLOCK : tl.constexpr):".format(name, ", ".join(params)))
        body += ["xnumel = {}".format(numel), "xoffset = tl.program_id(0) * XBLOCK",
                 "xindex = xoffset + tl.arange(0, XBLOCK)[:]", "xmask = xindex < xnumel"] + dims + lines
        stored = [n for n in outputs]
        for i, n in enumerate(stored):
            body.append("tl.store(out_ptr{} + ({}), {}, xmask)".format(i, "x0" if flat else _out_index(size), tmp[n]))
    else:
        out.append("def {}({}, xnumel, rnumel, XBLOCK : tl.constexpr, RBLOCK : tl.constexpr):".format(
            name, ", ".join(params)))
        acc = "_tmp{}".format(counter[0] + 1)
        red_node, red_kind, red_input = k.reduction
        body += ["xnumel = 1", "rnumel = {}".format(numel), "xoffset = tl.program_id(0) * XBLOCK",
                 "{} = tl.full([XBLOCK, RBLOCK], 0, tl.float32)".format(acc),
                 "for roffset in range(0, rnumel, RBLOCK):"]
        inner = ["rindex = roffset + tl.arange(0, RBLOCK)[None, :]", "rmask = rindex < rnumel"] + dims + lines
        for i, n in enumerate(outputs[:-1]):
            inner.append("tl.store(out_ptr{} + ({}), {}, rmask)".format(i, "r0" if flat else _out_index(size, "r"), tmp[n]))
        inner.append("{acc} = tl.where(rmask, {acc} + {v}, {acc})".format(acc=acc, v=tmp[red_input]))
        body += ["    " + line for line in inner]
        result = "tl.sum({}, 1)[:, None]".format(acc)
        if red_kind == "mean":
            result += " / {}.0".format(numel)
        body += ["tmp{} = {}".format(counter[0] + 1, result),
                 "tl.store(out_ptr{} + (tl.full([XBLOCK, 1], 0, tl.int32)), tmp{}, None)".format(
                     len(outputs) - 1, counter[0] + 1)]
    return "\n".join(out + ["    " + line for line in body]) + "\n"


def _out_index(size, var="x"):
    return index_expr(output_terms(size), var, "*")
