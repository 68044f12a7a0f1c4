"""C++ for the fused kernels and the Python wrapper `call` that runs a schedule, written as
Inductor's output code is: one `cpp_fused_<ops>_<n>` per kernel with an `extern "C" void
kernel(...)` over raw pointers, and a module whose call(args) allocates the buffers, calls the
kernels and the extern operators, and returns the graph's outputs."""
import torch
from torch._inductor.lowering import (POINTWISE, Kernel, contiguous_strides, index_expr, index_terms, op_name,
                                      output_terms)
from torch.fx.graph import _arg_repr

HEADER = "#include <algorithm>\n#include <cmath>\n#include <cstdint>\n"


def _index(val, size):
    """The C++ index of element (x0, x1, ...) of the kernel's size in tensor `val`."""
    return index_expr(index_terms(val, size), "x", "L*")


def kernel_source(k):
    """(argument C++ types, input nodes, output nodes, C++ source, whether it is one flat loop)
    of kernel `k`."""
    members = set(k.nodes)
    inputs, outputs = [], []
    for n in k.nodes:
        for a in n.args:
            if hasattr(a, "op") and a not in members and a not in inputs:
                inputs.append(a)
    red_input = k.reduction[2] if k.reduction else None
    for n in k.nodes:
        used_outside = any(u not in members and (k.reduction is None or u is not k.reduction[0]) for u in n.users)
        if used_outside:
            outputs.append(n)
    size = k.size
    numel = 1
    for s in size:
        numel *= s
    # One flat loop when every tensor is laid out like the kernel's size; nested loops otherwise.
    flat = all(list(a.meta["val"].size()) == size and list(a.meta["val"].stride()) == contiguous_strides(size)
               for a in inputs)
    loop_size = [numel] if flat else size
    lines = []
    tmp = {}
    counter = [0]

    def new_tmp(expr):
        name = "tmp{}".format(counter[0])
        counter[0] += 1
        lines.append("auto {} = {};".format(name, expr))
        return name

    def operand(a):
        if hasattr(a, "op"):
            if a in tmp:
                return tmp[a]
            i = inputs.index(a)
            idx = "x0" if flat else _index(a.meta["val"], size)
            tmp[a] = new_tmp("in_ptr{}[{}]".format(i, idx))
            return tmp[a]
        return "static_cast<float>({!r})".format(float(a))

    for n in k.nodes:
        arity, template = POINTWISE[op_name(n)]
        ops = [operand(a) for a in n.args]
        tmp[n] = new_tmp(template.format(a=ops[0], b=ops[1] if arity > 1 else ""))
    out_index = "x0" if flat else _index_for_out(size)
    for i, n in enumerate(outputs):
        lines.append("out_ptr{}[{}] = {};".format(i, out_index, tmp[n]))
    if k.reduction:
        lines.append("tmp_acc0 = tmp_acc0 + {};".format(tmp[red_input]))
    params = ["const float* in_ptr{}".format(i) for i in range(len(inputs))] + \
             ["float* out_ptr{}".format(i) for i in range(len(outputs) + (1 if k.reduction else 0))]
    types = ["const float*"] * len(inputs) + ["float*"] * (len(outputs) + (1 if k.reduction else 0))
    body = []
    ind = "    "
    body.append("{")
    if k.reduction:
        body.append(ind + "float tmp_acc0 = 0;")
    depth = 1
    for d, s in enumerate(loop_size):
        if d == len(loop_size) - 1:
            body.append(ind * depth + "#pragma GCC ivdep")
        body.append(ind * depth + "for(int64_t x{d}=static_cast<int64_t>(0L); x{d}<static_cast<int64_t>({s}L); "
                    "x{d}+=static_cast<int64_t>(1L))".format(d=d, s=s))
        body.append(ind * depth + "{")
        depth += 1
    for line in lines:
        body.append(ind * depth + line)
    for d in range(len(loop_size)):
        depth -= 1
        body.append(ind * depth + "}")
    if k.reduction:
        scale = " / static_cast<float>({}L)".format(numel) if k.reduction[1] == "mean" else ""
        body.append(ind + "out_ptr{}[0] = tmp_acc0{};".format(len(outputs), scale))
    body.append("}")
    src = HEADER + 'extern "C" void kernel(' + (",\n" + " " * 23).join(params) + ")\n" + "\n".join(body) + "\n"
    if k.reduction:
        outputs = outputs + [k.reduction[0]]
    return types, inputs, outputs, src, flat


def _index_for_out(size):
    return index_expr(output_terms(size), "x", "L*")


def wrapper_module(gm, sched, device="cpu"):
    """The Python source of the compiled module (what TORCH_LOGS=output_code shows). On the
    simulated GPU (device "cuda") each kernel is written as Triton
    (triton_codegen) and run as its C++ equivalent on the current stream."""
    from torch._inductor import triton_codegen
    cuda = device == "cuda"
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    names = {}
    for i, p in enumerate(placeholders):
        names[p] = "arg{}_1".format(i)
    out = ["import torch", "from torch._inductor.runtime import cpp_kernel, empty_strided_cpu" if not cuda else
           "from torch._inductor.runtime import sim_triton_kernel, empty_strided_cuda", "", ""]
    call = ["def call(args):"]
    if placeholders:
        call.append("    {}{} = args".format(", ".join(names[p] for p in placeholders), "," if len(placeholders) == 1 else ""))
        call.append("    args.clear()")
    buf = [0]

    def new_buf(node):
        name = "buf{}".format(buf[0])
        buf[0] += 1
        names[node] = name
        return name

    for item in sched.items:
        if isinstance(item, Kernel):
            types, inputs, outputs, src, flat = kernel_source(item)
            name = item.name
            if cuda:
                name = name.replace("cpp_fused", "triton_red_fused" if item.reduction else "triton_poi_fused")
                numel = 1
                for s in item.size:
                    numel *= s
                flops = numel * (len(item.nodes) + (1 if item.reduction else 0))
                triton = triton_codegen.kernel_text(item, name, inputs, outputs, flat)
                out.append("{} = sim_triton_kernel({!r}, {}, {}, '''\n{}''', cpu_equivalent='''\n{}''')".format(
                    name, name, len(inputs), flops, triton, src))
            else:
                out.append("{} = cpp_kernel({!r}, '''\n{}''')".format(name, types, src))
            out.append("")
            out.append("")
            for o in outputs:
                v = o.meta["val"]
                size = tuple(v.size()) if o is not (item.reduction[0] if item.reduction else None) else ()
                call.append("    {} = empty_strided_{}({}, {}, torch.float32)".format(
                    new_buf(o), "cuda" if cuda else "cpu", _tuple(size), _tuple(contiguous_strides(list(size)))))
            call.append("    {}{}({})".format(name, ".run" if cuda else "", ", ".join(names[a] for a in inputs + outputs)))
        else:
            n = item.node
            line = gm.graph.node_code(n, names)
            rhs = line.split(" = ", 1)[1]
            if n.op == "call_module":
                rhs = rhs.replace("self.", "modules.", 1)
            call.append("    {} = {}  # extern: {}".format(new_buf(n), rhs, item.why))
    result = gm.graph.nodes[-1].args[0]
    items = [names.get(r, _arg_repr(r)) if hasattr(r, "op") else repr(r) for r in result]
    call.append("    return ({}{})".format(", ".join(items), ", " if len(items) == 1 else ""))
    return "\n".join(out + call) + "\n"


def _tuple(t):
    t = tuple(t)
    return "(" + ", ".join(str(x) for x in t) + (", " if len(t) == 1 else "") + ")"
