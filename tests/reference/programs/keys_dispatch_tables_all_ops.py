# Every operator of the project's schema YAML: its computed dispatch table, on every key the
# project has (CUDA aside: the project registers CUDA kernels only in builds with CUDA), as
# PyTorch 2.15 computes it for the same operator. Printed is what kind of kernel each key gets
# (a kernel, a fallthrough, the autograd kernel, a CompositeImplicitAutograd "math kernel", a
# default backend kernel), not where it was registered. KNOWN lists divergences, each with its
# reason, left out of the comparison on both sides.
import os
import re
import torch

KEYS = ["CPU", "Meta", "BackendSelect", "ADInplaceOrView", "AutogradOther", "AutogradCPU", "AutogradCUDA",
        "AutogradMeta", "AutocastCPU", "AutocastCUDA"]
KNOWN = {
    # 2.15 registers NestedTensor kernels for narrow and chunk beside their CompositeImplicitAutograd
    # kernel, so its autograd code generator treats them as backend operators and generates an
    # ADInplaceOrView kernel for them; this project has no nested tensors, so both stay purely
    # CompositeImplicitAutograd and ADInplaceOrView falls through.
    ("aten::narrow", "ADInplaceOrView"): "NestedTensor kernels make narrow an ADInplaceOrView-wrapped op",
    ("aten::chunk", "ADInplaceOrView"): "NestedTensor kernels make chunk an ADInplaceOrView-wrapped op",
    # 2.15 writes these as CompositeExplicitAutograd kernels over their out= forms (kthvalue.values,
    # smooth_l1_loss_backward.grad_input, huber_loss_backward.out), which this project does not
    # declare; here each is a CPU kernel (with a Meta kernel) instead.
    ("aten::kthvalue", "CPU"): "a composite over kthvalue.values in 2.15",
    ("aten::smooth_l1_loss_backward", "CPU"): "a composite over smooth_l1_loss_backward.grad_input in 2.15",
    ("aten::huber_loss_backward", "CPU"): "a composite over huber_loss_backward.out in 2.15",
    # Not written yet here: Meta kernels of embedding_bag's forward-only form and backward
    # operators, of grid_sampler_2d_backward and of affine_grid_generator (2.15 registers them
    # from Python), and grid_sampler's autocast policies (fp32 on the CPU, promote on CUDA).
    ("aten::_embedding_bag_forward_only", "Meta"): "no Meta kernel here yet",
    ("aten::_embedding_bag_backward", "Meta"): "no Meta kernel here yet",
    ("aten::_embedding_bag_dense_backward", "Meta"): "no Meta kernel here yet",
    ("aten::_embedding_bag_per_sample_weights_backward", "Meta"): "no Meta kernel here yet",
    ("aten::grid_sampler_2d_backward", "Meta"): "no Meta kernel here yet",
    ("aten::affine_grid_generator", "Meta"): "no Meta kernel here yet",
    ("aten::grid_sampler", "AutocastCPU"): "autocast policy not declared here yet",
    ("aten::grid_sampler", "AutocastCUDA"): "autocast policy not declared here yet",
    ("aten::grid_sampler_2d", "AutocastCPU"): "autocast policy not declared here yet",
    # 2.15's Meta kernel of repeat_interleave.Tensor needs output_size (the result's length is the
    # sum of repeats, data); this project has none, so the simulated GPU runs it as it runs nonzero.
    ("aten::repeat_interleave.Tensor", "Meta"): "a data-dependent result length",
    # silu_backward and mish_backward have a CompositeImplicitAutograd kernel beside their CPU
    # kernels. With no CUDA kernel registered (the simulated GPU off, as these programs run),
    # AutogradCUDA takes the composite; 2.15's CUDA build has CUDA kernels, so an autograd kernel.
    # Written here over other operators (CompositeImplicitAutograd: a math kernel on every key)
    # where 2.15 has kernels of their own: cat.out (a structured CPU kernel), count_nonzero (a CPU
    # kernel, and a CompositeExplicitAutograd form over it), nansum (a CPU kernel) and block_diag
    # (CompositeExplicitAutograd with BlockDiagBackward0); the values and gradients are the same.
    ("aten::cat.out", "*"): "a composite over cat here",
    ("aten::count_nonzero.dim_IntList", "*"): "a composite over ne and sum here",
    ("aten::count_nonzero", "*"): "a composite over ne and sum here",
    ("aten::nansum", "*"): "a composite over where and sum here",
    ("aten::block_diag", "*"): "a composite over zeros and copy_ here",
    # var_mean / std_mean are var (or std) and a mean in double here (CompositeImplicitAutograd);
    # 2.15 has a Welford kernel that returns both, with VarMeanBackward0 / StdMeanBackward0.
    ("aten::var_mean.correction", "*"): "a composite over var and mean here",
    ("aten::std_mean.correction", "*"): "a composite over std and mean here",
    # trace is one CompositeExplicitAutograd kernel (the diagonal summed in double) for every
    # backend here; 2.15 has CPU and Meta kernels and an autocast policy on the CPU.
    ("aten::trace", "CPU"): "one CompositeExplicitAutograd kernel here",
    ("aten::trace", "Meta"): "one CompositeExplicitAutograd kernel here",
    ("aten::trace", "AutocastCPU"): "autocast policy not declared here yet",
    ("aten::silu_backward", "AutogradCUDA"): "the composite fills AutogradCUDA here",
    ("aten::mish_backward", "AutogradCUDA"): "the composite fills AutogradCUDA here",
}

here = os.path.dirname(os.path.abspath(__file__))
yaml_path = os.path.join(here, "..", "..", "..", "core", "ops", "native_functions.yaml")
# The _test_schema_* operators are the project's deliberately mis-declared operators for the
# schema check mode's own tests; PyTorch has no such operators.
names = ["aten::" + m.group(1) for m in re.finditer(r"^- func: ([A-Za-z0-9_.]+)\(", open(yaml_path).read(), re.M)
         if not m.group(1).startswith("_test_schema_")]
line_re = re.compile(r"(\w+): (fallthrough )?registered at .* \[(.*)\]$")
for name in names:
    kinds = {}
    for line in torch._C._dispatch_dump_table(name).splitlines():
        m = line_re.match(line)
        if m and m.group(1) in KEYS:
            kinds[m.group(1)] = ("fallthrough " if m.group(2) else "") + m.group(3)
    shown = []
    for key in KEYS:
        if (name, key) in KNOWN or (name, "*") in KNOWN:
            continue
        shown.append(key + "=" + kinds.get(key, "-"))
    print(name, " ".join(shown))
print(len(names), "operators compared;", len(KNOWN), "entries left out as known divergences")
