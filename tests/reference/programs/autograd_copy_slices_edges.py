# The edges of CopySlices: an in-place write into a view rebases the base's history on a
# CopySlices node whose next_functions are the base's previous edge followed by the in-place
# operation's edges for its other inputs, (None, 0) where such an input needs no gradient.
import torch


def edges(fn):
    return [(type(f).__name__ if f is not None else None, n) for f, n in fn.next_functions]


def show(title, t, depth=2):
    fn = t.grad_fn
    print(title, type(fn).__name__, edges(fn))
    frontier = [f for f, _ in fn.next_functions if f is not None]
    for _ in range(depth - 1):
        nxt = []
        for f in frontier:
            print("   ", type(f).__name__, edges(f))
            nxt += [g for g, _ in f.next_functions if g is not None]
        frontier = nxt


leaf = torch.arange(6., requires_grad=True)
g = torch.tensor([10., 20.], requires_grad=True)
n = torch.tensor([1., 2.])

x = leaf.clone(); x[1:3] = g; show("setitem grad", x)
x = leaf.clone(); x[1:3] = n; show("setitem no grad", x)
x = leaf.clone(); x[0] = 5.0; show("scalar fill", x)
x = leaf.clone(); x[2:4].fill_(7.0); show("fill_", x)
x = leaf.clone(); x[1:3].copy_(g); show("copy_ grad", x)
x = leaf.clone(); x[1:3].copy_(n); show("copy_ no grad", x)
x = leaf.clone(); x[1:3].copy_(g.double()); show("copy_ double", x)
x = leaf.clone(); x[1:].mul_(2); show("mul_ scalar", x)
x = leaf.clone(); x[1:3].add_(n); show("add_ no grad", x)
x = leaf.clone(); x[1:3].add_(g, alpha=2); show("add_ grad", x)
x = leaf.clone(); x[1:3].addcmul_(g, n); show("addcmul_", x)
x = leaf.clone(); x[1:3].addcmul_(n, n); show("addcmul_ no grad", x)
x = leaf.clone(); x[4:].zero_(); show("zero_", x)
x = leaf.clone(); x[::2].clamp_(min=2.0); show("clamp_", x)
x = leaf.clone(); x[1:3].sin_(); show("sin_", x)

x = leaf.clone(); x[0] = g[0]; x[1] = n[1]; show("twice", x, depth=3)
x = leaf.clone(); x[1:][1:3].mul_(g); show("view of view", x)
x = leaf.clone().view(2, 3); x.t()[1].copy_(g); show("t() row", x)
x = leaf.clone().view(2, 3); x.diagonal().mul_(g); show("diagonal", x)
x = leaf.clone().view(2, 3); x[:, 1].copy_(g); show("column", x)

z = torch.zeros(6); z[1:3] = g; show("base without grad", z)
z = torch.zeros(6); z[1:3].add_(g * 1); show("base without grad, add_", z, depth=3)
z = torch.zeros(6); z[1:3].copy_(n); print("no grad anywhere", z.grad_fn, z.requires_grad)

x = leaf.clone(); x[1:3] = g; x[2:4] = n; x.sum().backward()
print(leaf.grad.tolist(), g.grad.tolist())
