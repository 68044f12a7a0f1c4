# torch.nn.utils.rnn's packed sequences: pack / pad both ways (batch_first, enforce_sorted=False,
# total_length), pack_sequence, unpack_sequence, unpad_sequence, invert_permutation, PackedSequence's
# fields and conversions, the gradient through pack -> pad; RNN, LSTM and GRU over packed input with
# and without hx: output fields, final states (as each sequence alone), gradients; and the errors.
# Packing is exact; the layers within float32 rounding (matrix products, MKL in 2.15).
# reference tolerance: rtol=2e-5 atol=2e-6
import warnings
import torch
from torch import nn
from torch.nn.utils.rnn import (PackedSequence, invert_permutation, pack_padded_sequence, pack_sequence,
                                pad_packed_sequence, unpack_sequence, unpad_sequence)

warnings.simplefilter("ignore")  # 2.15: "LSTM with projections is not supported with oneDNN"
fmt = lambda t: " ".join(f"{v:.5f}" for v in t.flatten().tolist())  # noqa: E731


def attempt(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, e)


p = pack_padded_sequence(torch.arange(24).view(4, 3, 2), [4, 2, 1])
print("packed", p.data.tolist(), p.batch_sizes, p.batch_sizes.dtype, p.sorted_indices, p.unsorted_indices)
print("pad", *pad_packed_sequence(p, padding_value=-1), pad_packed_sequence(p)[1].dtype)
pb = pack_padded_sequence(torch.arange(12.).view(3, 4), torch.tensor([2, 4, 1]), batch_first=True, enforce_sorted=False)
print("unsorted", pb, pb.sorted_indices.dtype)
padded, lengths = pad_packed_sequence(pb, batch_first=True, total_length=6)
print("pad bf", padded.tolist(), lengths, padded.stride(), pad_packed_sequence(pb)[0].tolist())
ps = pack_sequence([torch.tensor([1, 2]), torch.tensor([3, 4, 5]), torch.tensor([6])], enforce_sorted=False)
print("pack_sequence", ps, isinstance(ps, tuple), ps._fields, type(ps).__name__)
print("unpack", unpack_sequence(ps), unpack_sequence(pack_sequence([torch.ones(3, 2), torch.zeros(1, 2)])))
print("unpad", unpad_sequence(torch.tensor([[1, 3, 6], [2, 4, 0], [0, 5, 0]]), torch.tensor([2, 3, 1])),
      unpad_sequence(torch.arange(8).view(2, 4), torch.tensor([1, 4]), batch_first=True))
print("invert", invert_permutation(torch.tensor([2, 0, 3, 1])), invert_permutation(None))
print("to", ps.double().data, ps.float().data.dtype, ps.to(torch.int32).data.dtype, ps.to("cpu") is ps, ps.cpu() is ps,
      ps.long() is ps, ps.byte().sorted_indices.dtype, ps.is_cuda, ps.is_pinned(), PackedSequence((ps.data, ps.batch_sizes)))
torch.manual_seed(0)
x = torch.randn(3, 4, 2, requires_grad=True)
pg = pack_padded_sequence(x, [4, 1, 3], batch_first=True, enforce_sorted=False)
(pad_packed_sequence(pg, batch_first=True)[0] * torch.arange(24.).view(3, 4, 2)).sum().backward()
print("grad", pg.data.tolist(), x.grad.tolist())

seqs = [torch.randn(n, 3) for n in (3, 5, 2, 5)]
packed = pack_sequence(seqs, enforce_sorted=False)
for label, m in [("lstm", nn.LSTM(3, 4, num_layers=2, bidirectional=True)), ("gru", nn.GRU(3, 5, batch_first=True)),
                 ("rnn relu", nn.RNN(3, 4, nonlinearity="relu", bidirectional=True)),
                 ("lstm proj", nn.LSTM(3, 4, proj_size=2)), ("rnn tanh 2", nn.RNN(3, 2, 2))]:
    lstm = isinstance(m, nn.LSTM)
    for hx in (None, "random"):
        if hx is not None:
            layers = m.num_layers * (2 if m.bidirectional else 1)
            hx = (torch.randn(layers, 4, m.proj_size or 4), torch.randn(layers, 4, 4)) if lstm else torch.randn(layers, 4, m.hidden_size)
        out, h = m(packed, hx)
        states = h if lstm else (h,)
        print(label, "hx" if hx is not None else "", type(out).__name__, tuple(out.data.shape), out.batch_sizes is packed.batch_sizes,
              out.sorted_indices, out.unsorted_indices, [tuple(s.shape) for s in states])
        print("  out", fmt(out.data[:5]), "states", [fmt(s[-1]) for s in states])
        worst = 0.0  # each sequence alone, unpacked
        for i, s in enumerate(seqs):
            hi = None if hx is None else tuple(t[:, i:i + 1] for t in hx) if lstm else hx[:, i:i + 1]
            o1, h1 = m(s.unsqueeze(0) if m.batch_first else s.unsqueeze(1), hi)
            worst = max([worst, (o1.flatten(0, 1) - unpack_sequence(out)[i]).abs().max().item()]
                        + [(a[:, i] - b[:, 0]).abs().max().item() for a, b in zip(states, h1 if lstm else (h1,))])
        loss = (out.data * torch.linspace(-1, 1, out.data.numel()).view(out.data.shape)).sum() + sum(s.sum() for s in states)
        grads = torch.autograd.grad(loss, [m.weight_hh_l0, m.weight_ih_l0])
        print("  alone", f"{worst:.5f}", "grads", fmt(grads[0][:2]), fmt(grads[1].sum(0)))

for label, lengths in [("zero length", [2, 0]), ("not sorted", [1, 2]), ("lengths count", [3, 2, 1]),
                       ("lengths 2d", torch.tensor([[3, 2]])), ("lengths meta", torch.tensor([3, 2], device="meta"))]:
    attempt(label, lambda: pack_padded_sequence(torch.zeros(3, 2), lengths))
attempt("empty", lambda: pack_padded_sequence(torch.zeros(0, 2), [1, 1]))
attempt("total_length", lambda: pad_packed_sequence(ps, total_length=2))
attempt("no batch_sizes", lambda: PackedSequence(torch.ones(2)))
sorted_packed = pack_sequence([torch.randn(3, 3), torch.randn(2, 3)])
attempt("input size", lambda: nn.GRU(4, 5)(sorted_packed))
attempt("input dtype", lambda: nn.RNN(3, 4)(sorted_packed.double()))
attempt("hidden size", lambda: nn.GRU(3, 5)(sorted_packed, torch.zeros(1, 3, 5)))
attempt("lstm hx 2-D", lambda: nn.LSTM(3, 4)(sorted_packed, (torch.zeros(2, 4), torch.zeros(1, 2, 4))))
