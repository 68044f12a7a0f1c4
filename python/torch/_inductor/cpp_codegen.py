"""C++ for the fused kernels and the Python wrapper `call` that runs a schedule, written as
Inductor's output code is: one `cpp_fused_<ops>_<n>` per kernel with an `extern "C" void
kernel(...)` over raw pointers, and a module whose call(args) allocates the buffers, calls the
kernels and the extern operators, and returns the graph's outputs."""
import torch
from torch._inductor.lowering import (POINTWISE, contiguous_strides, index_expr, index_terms, op_name, output_terms)
from torch._inductor.scheduler import Kernel
from torch.fx.graph import _arg_repr

# Note [The kernels' header]: 2.15's kernels include torch/csrc/inductor/cpp_prefix.h (ATen's
# vector types, its integer-division error flag); these scalar kernels need only the standard library.
HEADER = "#include <algorithm>\n#include <cmath>\n#include <cstdint>\n"
_BINARY = {"add", "sub", "mul", "div", "rsub"}


def _index(val, size):
    """The C++ index of element (x0, x1, ...) of the kernel's size in tensor `val`."""
    return index_expr(index_terms(val, size), "x", "L*")


def kernel_source(k):
    """(argument C++ types, input nodes, output nodes, C++ source, whether it is one flat loop)
    of kernel `k`, in the layout of PyTorch 2.15's scalar C++ kernels: the loads first (numbered
    in the order the computation uses them), each constant a tmp of its own, every binary result
    cast back to float, blocks around the loop nest and its body."""
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
    loads, lines = [], []
    tmp = {}
    counter = [0]

    def new_tmp(expr, into):
        name = "tmp{}".format(counter[0])
        counter[0] += 1
        into.append("auto {} = {};".format(name, expr))
        return name

    def operand(a):
        if hasattr(a, "op"):
            if a not in tmp:
                i = inputs.index(a)
                idx = "x0" if flat else _index(a.meta["val"], size)
                tmp[a] = new_tmp("in_ptr{}[static_cast<int64_t>({})]".format(i, idx), loads)
            return tmp[a]
        return new_tmp("static_cast<float>({!r})".format(float(a)), lines)

    for n in k.nodes:
        arity, template = POINTWISE[op_name(n)]
        ops = [operand(a) for a in n.args]
        expr = template.format(a=ops[0], b=ops[1] if arity > 1 else "")
        tmp[n] = new_tmp("float({})".format(expr) if op_name(n) in _BINARY else expr, lines)
    out_index = "x0" if flat else _index_for_out(size)
    for i, n in enumerate(outputs):
        lines.append("out_ptr{}[static_cast<int64_t>({})] = {};".format(i, out_index, tmp[n]))
    if k.reduction:
        lines.append("tmp_acc0 = tmp_acc0 + {};".format(tmp[red_input]))
    n_out = len(outputs) + (1 if k.reduction else 0)
    params = ["const float* in_ptr{}".format(i) for i in range(len(inputs))] + \
             ["float* out_ptr{}".format(i) for i in range(n_out)]
    types = ["const float*"] * len(inputs) + ["float*"] * n_out
    ind = "    "
    body = ["{", ind + "{"]
    depth = 2
    if k.reduction:
        body.append(ind * depth + "{")
        depth += 1
        body.append(ind * depth + "float tmp_acc0 = 0;")
    loop_depth = depth
    for d, s in enumerate(loop_size):
        if d == len(loop_size) - 1 and not k.reduction:
            body.append(ind * depth + "#pragma GCC ivdep")
        body.append(ind * depth + "for(int64_t x{d}=static_cast<int64_t>(0L); x{d}<static_cast<int64_t>({s}L); "
                    "x{d}+=static_cast<int64_t>(1L))".format(d=d, s=s))
        body.append(ind * depth + "{")
        depth += 1
    body += [ind * depth + "{", ind * (depth + 1) + "{"]
    body += [ind * (depth + 2) + line for line in loads + lines]
    body += [ind * (depth + 1) + "}", ind * depth + "}"]
    for d in range(len(loop_size)):
        depth -= 1
        body.append(ind * depth + "}")
    if k.reduction:
        scale = " / static_cast<float>({!r})".format(float(numel)) if k.reduction[1] == "mean" else ""
        body.append(ind * loop_depth + "out_ptr{}[static_cast<int64_t>(0L)] = tmp_acc0{};".format(len(outputs), scale))
        body.append(ind * (loop_depth - 1) + "}")
    body += [ind + "}", "}"]
    src = HEADER + 'extern "C"  void  kernel(' + (",\n" + " " * 23).join(params) + ")\n" + "\n".join(body) + "\n"
    if k.reduction:
        outputs = outputs + [k.reduction[0]]
    return types, inputs, outputs, src, flat


def _index_for_out(size):
    return index_expr(output_terms(size), "x", "L*")


_RUNNER = """class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def recursively_apply_fns(self, fns):
        new_callables = []
        for fn, c in zip(fns, self.partitions):
            new_callables.append(fn(c))
        self.partitions = new_callables

"""
_RUNNER_END = """runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns
"""
_MATMUL = {"matmul", "mm", "__matmul__"}


def _is_mm(n):
    """Whether extern node `n` is a product of two 2-d float32 tensors (extern_kernels.mm)."""
    import operator
    target = n.target
    name = target if isinstance(target, str) else getattr(target, "__name__", None)
    if target is operator.matmul:
        name = "matmul"
    packet = getattr(target, "_overloadpacket", None)
    if packet is not None:
        name = packet.__name__ if target._overloadname == "default" else None
    if name not in _MATMUL or n.op not in ("call_function", "call_method") or n.kwargs or len(n.args) != 2:
        return False
    vals = [getattr(a, "meta", {}).get("val") for a in n.args]
    return all(isinstance(v, torch.Tensor) and v.dim() == 2 and v.dtype == torch.float32 for v in vals)


def wrapper_module(gm, sched, device="cpu", graph_id="0_inference"):
    """The Python source of the compiled module (what TORCH_LOGS=output_code shows), in PyTorch
    2.15's layout: the AOT ID, the kernels built through async_compile, the Runner whose
    call(args) checks the inputs' sizes and strides, allocates the buffers, calls the kernels and
    extern kernels (extern_kernels.mm) and frees each input and buffer after its last use.
    On the simulated GPU (device "cuda") each kernel is written as Triton (triton_codegen) and
    run as its C++ equivalent on the current stream.

    Note [What the wrapper leaves out]
    2.15's header also imports what its other code paths use (hooks, profiling, memory planning,
    the p2p and pinned allocators) and its module ends with get_args() and a benchmark harness;
    the allocation and size-check helpers come from torch._C._dynamo.guards there and from
    torch._inductor.runtime here. An operation this backend does not lower runs as its eager
    call with the reason in a comment."""
    from torch._inductor import triton_codegen
    cuda = device == "cuda"
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    names = {}
    for i, p in enumerate(placeholders):
        names[p] = "arg{}_1".format(i)
    out = ["# AOT ID: ['{}']".format(graph_id), "import torch",
           "from torch._inductor.async_compile import AsyncCompile",
           "from torch._inductor.select_algorithm import extern_kernels",
           "from torch._inductor.runtime import assert_size_stride, assert_size_stride_grouped, {}".format(
               "empty_strided_cuda" if cuda else "empty_strided_cpu"),
           "", "aten = torch.ops.aten", "async_compile = AsyncCompile()", "", ""]
    call = ["    def call(self, args):"]
    ind = "        "
    if placeholders:
        call.append(ind + "{}{} = args".format(", ".join(names[p] for p in placeholders), "," if len(placeholders) == 1 else ""))
        call.append(ind + "args.clear()")
        vals = [p.meta.get("val") for p in placeholders]
        if all(isinstance(v, torch.Tensor) for v in vals):
            if len(vals) == 1:
                call.append(ind + "assert_size_stride({}, {}, {}, 'input')".format(
                    names[placeholders[0]], _tuple(vals[0].size()), _tuple(vals[0].stride())))
            else:
                call.append(ind + "assert_size_stride_grouped(({}), ({}), ({}), 'input')".format(
                    ", ".join(names[p] for p in placeholders), ", ".join(_tuple(v.size()) for v in vals),
                    ", ".join(_tuple(v.stride()) for v in vals)))
    buf = [0]

    def new_buf(node):
        name = "buf{}".format(buf[0])
        buf[0] += 1
        names[node] = name
        return name

    result = gm.graph.nodes[-1].args[0]
    returned = set(r for r in result if hasattr(r, "op"))
    # The last schedule item that reads each value: it is freed (del) right after it.
    reads = []
    for item in sched.items:
        if isinstance(item, Kernel):
            reads.append(kernel_source(item)[1])
        else:
            reads.append(list(item.node.all_input_nodes))
    last = {}
    for i, values in enumerate(reads):
        for v in values:
            last[v] = i
    for i, item in enumerate(sched.items):
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
                out.append("{} = async_compile.triton({!r}, \'\'\'\n{}\'\'\', device_str='cuda', num_inputs={}, flops={}, "
                           "cpu_equivalent=r\'\'\'\n{}\'\'\')".format(name, name, triton, len(inputs), flops, src))
            else:
                out.append("{} = async_compile.cpp_pybinding({!r}, r\'\'\'\n{}\'\'\')".format(name, types, src))
            out.append("")
            out.append("")
            for o in outputs:
                v = o.meta["val"]
                size = tuple(v.size()) if o is not (item.reduction[0] if item.reduction else None) else ()
                call.append(ind + "{} = empty_strided_{}({}, {}, torch.float32)".format(
                    new_buf(o), "cuda" if cuda else "cpu", _tuple(size), _tuple(contiguous_strides(list(size)))))
            call.append(ind + "{}{}({})".format(name, ".run" if cuda else "", ", ".join(names[a] for a in inputs + outputs)))
        else:
            n = item.node
            if _is_mm(n) and not cuda:
                v = n.meta["val"]
                b = new_buf(n)
                call.append(ind + "{} = empty_strided_cpu({}, {}, torch.float32)".format(
                    b, _tuple(v.size()), _tuple(contiguous_strides(list(v.size())))))
                call.append(ind + "# Topologically Sorted Source Nodes: [{}], Original ATen: [aten.mm]".format(n.name))
                call.append(ind + "extern_kernels.mm({}, {}, out={})".format(names[n.args[0]], names[n.args[1]], b))
            else:
                line = gm.graph.node_code(n, names)
                rhs = line.split(" = ", 1)[1]
                if n.op == "call_module":
                    rhs = rhs.replace("self.", "modules.", 1)
                call.append(ind + "{} = {}  # not lowered: {}".format(new_buf(n), rhs, item.why))
        for v in reads[i]:
            # An input is freed after its last use; a buffer too, unless the function returns next.
            if last.get(v) == i and v not in returned and v in names and (v.op == "placeholder" or i + 1 < len(reads)):
                call.append(ind + "del {}".format(names[v]))
    items = [names.get(r, _arg_repr(r)) if hasattr(r, "op") else repr(r) for r in result]
    call.append(ind + "return ({}{})".format(", ".join(items), ", " if items else ""))
    out += ["async_compile.wait(globals())", "del async_compile", ""]
    return "\n".join(out) + "\n" + _RUNNER + "\n".join(call) + "\n\n" + _RUNNER_END


def _tuple(t):
    t = tuple(t)
    return "(" + ", ".join(str(x) for x in t) + (", " if len(t) == 1 else "") + ")"
