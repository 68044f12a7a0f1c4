# Inductor's scheduler (python/torch/_inductor/scheduler.py, Note [What is fused]) on graphs
# captured by TorchDynamo: one typed decision per node, the kernel each node runs in, and why a
# kernel had to start or a node runs on its own.
import torch
from torch._inductor import scheduler

graphs = []


def capture(gm, example_inputs):
    graphs.append(gm)
    return gm.forward


def decisions(fn, *args):
    graphs.clear()
    torch.compile(fn, backend=capture)(*args)
    assert len(graphs) == 1, len(graphs)
    s = scheduler.schedule(graphs[0])
    return [(d.node, d.action, d.kernel, d.reason) for d in s.decisions], s


# A pointwise chain and its sum: one kernel, ended by the reduction.
d, s = decisions(lambda a, b: ((a * 2 + b).relu()).sum(), torch.ones(4), torch.ones(4))
assert [a for _, a, _, _ in d] == ["starts", "fused", "fused", "reduction"], d
assert len({k for _, _, k, _ in d}) == 1 and d[0][2] == "cpp_fused_add_mul_relu_sum_0", d
assert [type(i).__name__ for i in s.items] == ["Kernel"]

# A value of another size cannot join: the next kernel starts, and says why.
d, _ = decisions(lambda a, w: (a * 2, w + 1), torch.ones(3), torch.ones(4))
assert d[0][:3] == ("mul", "starts", "cpp_fused_mul_0"), d
assert d[1][1:] == ("starts", "cpp_fused_add_1", "size [4] differs from the kernel's [3]"), d

# Not pointwise: an extern call, with no kernel and the reason; it ends the open kernel.
d, s = decisions(lambda a, m: (a + 1) @ m, torch.ones(2, 2), torch.ones(2, 2))
assert d[0][1] == "starts" and d[1][1] == "not_fused" and d[1][2] == "", d
assert "is not pointwise; it runs as an extern kernel" in d[1][3], d
assert [type(i).__name__ for i in s.items] == ["Kernel", "Extern"], s.items

# Another dtype is not fused here.
d, _ = decisions(lambda a: a + 1, torch.ones(3, dtype=torch.float64))
assert d[0][1] == "not_fused" and d[0][3] == "dtype float64 (only float32 is fused here)", d

# Every decision as a sentence.
texts = [scheduler.Decision(*x).text() for x in [("a", "starts", "k_0", ""), ("b", "fused", "k_0", ""),
                                                ("c", "reduction", "k_0", ""), ("d", "not_fused", "", "why"),
                                                ("e", "starts", "k_1", "size [4] differs")]]
assert texts == ["starts k_0", "fused into k_0", "fused into k_0 (a reduction of its values)", "not fused: why",
                 "starts k_1 (a new kernel: size [4] differs)"], texts
print("scheduler: ok")
