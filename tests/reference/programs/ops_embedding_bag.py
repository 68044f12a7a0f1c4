# F.embedding_bag (sum, mean, max; offsets or a 2-D input; include_last_offset; padding_idx;
# per_sample_weights; int32 / int64 indices; empty bags), _embedding_bag's four results, the
# gradients of the weight and of per_sample_weights, and 2.15's errors. Bit for bit: bags of at
# most 16 indices, where 2.15's sort of the indices (its gradient's order) is stable.
import torch
import torch.nn.functional as F


def attempt(label, f):
    try:
        r = f()
        print(label, r.tolist() if isinstance(r, torch.Tensor) else r)
    except Exception as e:
        print(label, type(e).__name__, str(e).split("\n")[0])


torch.manual_seed(0)
w = torch.randn(10, 5)
wd = w.double()
i = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9, 0, 7, 7])
o = torch.tensor([0, 4, 4, 6])
for weight in (w, wd):
    for mode in ("sum", "mean", "max"):
        print("bag", weight.dtype, mode, F.embedding_bag(i, weight, o, mode=mode).tolist())
        print("bag pad", weight.dtype, mode, F.embedding_bag(i, weight, o, mode=mode, padding_idx=4).tolist())
        print("bag last", weight.dtype, mode,
              F.embedding_bag(i, weight, torch.tensor([0, 4, 8]), mode=mode, include_last_offset=True).tolist())
    psw = torch.randn(11, dtype=weight.dtype)
    print("bag psw", weight.dtype, F.embedding_bag(i, weight, o, mode="sum", per_sample_weights=psw).tolist())
    print("bag psw pad", weight.dtype,
          F.embedding_bag(i, weight, o, mode="sum", per_sample_weights=psw, padding_idx=2).tolist())
print("bag 2-D", F.embedding_bag(i[:10].view(2, 5), w, mode="mean").tolist())
print("bag int32", F.embedding_bag(i.int(), w, o.int()).tolist())
print("bag mixed", F.embedding_bag(i.int(), w, o).tolist())
print("bag transposed weight", F.embedding_bag(i, w.t().contiguous().t(), o, mode="sum").tolist())
print("bag empty input", F.embedding_bag(torch.tensor([], dtype=torch.long), w, torch.tensor([0, 0]), mode="mean").tolist())
print("bag half", F.embedding_bag(i, w.half(), o, mode="mean").tolist())
ties = torch.tensor([[1.0, 2.0], [1.0, 3.0], [float("nan"), 0.0]])
print("bag max ties", F.embedding_bag(torch.tensor([0, 1, 2, 2, 0]), ties, torch.tensor([0, 2]), mode="max").tolist())
for mode in (0, 1, 2):
    for fn in (torch._embedding_bag, torch._embedding_bag_forward_only):
        outs = fn(w, i, o, False, mode, False, None, False, -1)
        print("results", fn.__name__, mode, [(t.dtype, tuple(t.shape), t.tolist()) for t in outs[1:]])
outs = torch._embedding_bag(w, i, o, False, 1, False, None, False, 4)
print("results pad", [t.tolist() for t in outs[1:]])
outs = torch._embedding_bag(wd, i.int(), o.int(), False, 0, False, None, True, -1)
print("results int32 last", [(t.dtype, t.tolist()) for t in outs[1:]])

for weight in (w, wd):
    for mode in ("sum", "mean", "max"):
        for pad in (None, 4):
            for sgf in ((False, True) if mode != "max" else (False,)):
                ww = weight.clone().requires_grad_()
                out = F.embedding_bag(i, ww, o, mode=mode, padding_idx=pad, scale_grad_by_freq=sgf)
                out.backward(torch.arange(float(out.numel()), dtype=weight.dtype).view(out.shape) / 7)
                print("grad", weight.dtype, mode, pad, sgf, type(out.grad_fn).__name__, ww.grad.tolist())
    ww = weight.clone().requires_grad_()
    psw = torch.randn(11, dtype=weight.dtype, requires_grad=True)
    out = F.embedding_bag(i, ww, o, mode="sum", per_sample_weights=psw)
    out.backward(torch.arange(float(out.numel()), dtype=weight.dtype).view(out.shape) / 7)
    print("grad psw", weight.dtype, ww.grad.tolist(), psw.grad.tolist())

attempt("offsets 2-D", lambda: F.embedding_bag(i, w, o.view(2, 2)))
attempt("aten offsets 2-D", lambda: torch.embedding_bag(w, i, o.view(2, 2), False, 0, False, None, False))
attempt("input 2-D with offsets", lambda: F.embedding_bag(i[:10].view(2, 5), w, o))
attempt("input 1-D no offsets", lambda: F.embedding_bag(i, w))
attempt("input 3-D", lambda: F.embedding_bag(i[:8].view(2, 2, 2), w))
attempt("offsets[0]", lambda: F.embedding_bag(i, w, torch.tensor([1, 4])))
attempt("offsets[-1]", lambda: F.embedding_bag(i, w, torch.tensor([0, 12])))
attempt("index fast", lambda: F.embedding_bag(torch.tensor([1, 2, 3, 12]), w, torch.tensor([0, 2]), mode="sum"))
attempt("index double", lambda: F.embedding_bag(torch.tensor([1, 10]), wd, torch.tensor([0]), mode="sum"))
attempt("index max", lambda: F.embedding_bag(torch.tensor([1, 10]), w, torch.tensor([0]), mode="max"))
attempt("psw mean", lambda: F.embedding_bag(i, w, o, mode="mean", per_sample_weights=torch.ones(11)))
attempt("aten psw mean", lambda: torch.embedding_bag(w, i, o, False, 1, False, torch.ones(11), False))
attempt("psw shape", lambda: F.embedding_bag(i, w, o, mode="sum", per_sample_weights=torch.ones(7)))
attempt("aten psw numel", lambda: torch.embedding_bag(w, i, o, False, 0, False, torch.ones(7), False))
attempt("psw dtype", lambda: F.embedding_bag(i, w, o, mode="sum", per_sample_weights=torch.ones(11, dtype=torch.float64)))
attempt("integer weight", lambda: F.embedding_bag(i, torch.ones(10, 3, dtype=torch.int32), o))
attempt("weight 1-D", lambda: F.embedding_bag(i, torch.ones(10), o))
attempt("float indices", lambda: F.embedding_bag(i.float(), w, o))
attempt("short indices", lambda: F.embedding_bag(i.short(), w, o.short()))
attempt("bad mode", lambda: F.embedding_bag(i, w, o, mode="min"))
attempt("aten mode 3", lambda: torch.embedding_bag(w, i, o, False, 3, False, None, False))
attempt("max scale", lambda: F.embedding_bag(i, w, o, mode="max", scale_grad_by_freq=True))
attempt("padding_idx range", lambda: F.embedding_bag(i, w, o, padding_idx=10))
attempt("last offset empty", lambda: F.embedding_bag(i, w, torch.tensor([], dtype=torch.long), include_last_offset=True))
attempt("empty offsets", lambda: F.embedding_bag(i, w, torch.tensor([], dtype=torch.long)).shape)
