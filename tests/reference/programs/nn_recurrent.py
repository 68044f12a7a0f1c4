# torch.nn's recurrent layers: RNN (tanh and relu), LSTM (with projections) and GRU, one or two
# layers, bidirectional, batch_first, unbatched input, given initial states, dropout between
# layers, and the cells: printed forms, parameter names and default initialisation after
# manual_seed, outputs, final states and gradients, and the argument errors.
# Within float32 rounding: the input and hidden projections are matrix products (MKL in 2.15).
# reference tolerance: rtol=2e-5 atol=2e-6
import warnings

import torch
from torch import nn

warnings.simplefilter("ignore")  # dropout with one layer warns
torch.manual_seed(0)


def summary(t):
    return [round(v, 5) for v in t.flatten().tolist()[:8]], round(t.sum().item(), 4), tuple(t.shape)


def attempt(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, e)


def run(label, m, x, hx=None):
    print(label, m, [n for n, _ in m.named_parameters()])
    print("  init", summary(next(m.parameters()).detach()))
    x = x.clone().requires_grad_()
    out, h = m(x) if hx is None else m(x, hx)
    hs = h if isinstance(h, tuple) else (h,)
    loss = (out * torch.linspace(-1, 1, out.numel()).view(out.shape)).sum() + sum(s.sum() for s in hs)
    loss.backward()
    print("  out", summary(out.detach()), "states", [summary(s.detach()) for s in hs])
    print("  grad", summary(x.grad), [summary(p.grad) for p in list(m.parameters())[:2]])


run("rnn", nn.RNN(3, 4), torch.randn(5, 2, 3))
run("rnn relu 2 layers", nn.RNN(3, 4, 2, nonlinearity="relu"), torch.randn(4, 2, 3))
run("lstm", nn.LSTM(3, 5), torch.randn(6, 2, 3))
run("lstm bidirectional batch_first", nn.LSTM(3, 4, num_layers=2, batch_first=True, bidirectional=True),
    torch.randn(2, 5, 3))
run("lstm proj", nn.LSTM(3, 6, proj_size=2), torch.randn(4, 1, 3))
run("lstm unbatched with states", nn.LSTM(2, 3), torch.randn(4, 2), (torch.randn(1, 3), torch.randn(1, 3)))
run("lstm no bias", nn.LSTM(2, 3, bias=False), torch.randn(3, 2, 2))
run("gru", nn.GRU(3, 4), torch.randn(5, 2, 3))
run("gru 2 layers bidirectional", nn.GRU(2, 3, 2, bidirectional=True), torch.randn(4, 3, 2), torch.randn(4, 3, 3))
lstm = nn.LSTM(2, 3, num_layers=2, dropout=0.5)
torch.manual_seed(3)
run("lstm dropout", lstm, torch.randn(3, 2, 2))
lstm.eval()
print("lstm dropout eval", summary(lstm(torch.ones(2, 1, 2))[0].detach()))

cell = nn.LSTMCell(3, 4)
h, c = cell(torch.randn(2, 3))
print("lstm cell", cell, summary(h.detach()), summary(c.detach()))
h, c = cell(torch.randn(3), (torch.randn(4), torch.randn(4)))
print("lstm cell unbatched", summary(h.detach()), summary(c.detach()))
gcell = nn.GRUCell(3, 2, bias=False)
print("gru cell", gcell, summary(gcell(torch.randn(2, 3), torch.randn(2, 2)).detach()))
rcell = nn.RNNCell(2, 3, nonlinearity="relu")
print("rnn cell", rcell, summary(rcell(torch.randn(4, 2)).detach()))

attempt("input size", lambda: nn.LSTM(3, 4)(torch.randn(2, 1, 5)))
attempt("input dims", lambda: nn.GRU(3, 4)(torch.randn(2, 1, 1, 3)))
attempt("hidden size", lambda: nn.GRU(3, 4)(torch.randn(2, 1, 3), torch.randn(1, 2, 4)))
attempt("lstm states", lambda: nn.LSTM(3, 4)(torch.randn(2, 1, 3), (torch.randn(1, 1, 4), torch.randn(1, 1, 5))))
attempt("dtype", lambda: nn.RNN(3, 4)(torch.randn(2, 1, 3, dtype=torch.float64)))
attempt("dropout", lambda: nn.LSTM(3, 4, dropout=2))
attempt("proj_size", lambda: nn.LSTM(3, 4, proj_size=4))
attempt("gru proj_size", lambda: nn.GRU(3, 4, proj_size=2))
attempt("nonlinearity", lambda: nn.RNN(3, 4, nonlinearity="sigmoid"))
attempt("hidden_size 0", lambda: nn.LSTM(3, 0))
