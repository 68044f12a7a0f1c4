# How matmul, linear and reshape build their graphs in PyTorch 2.15: a 3-D-or-more operand folds
# into mm / mv (through its transpose when it is the right one), a batch of 1 that requires grad
# is squeezed away, everything else is one bmm over expanded operands; linear of a contiguous
# input with a 1-D bias is addmm then _unsafe_view; reshape is view for a contiguous tensor,
# _reshape_alias for another it can view, clone + _unsafe_view otherwise.
import torch


def tree(fn):
    if fn is None:
        return "None"
    inner = ",".join(tree(f) for f, _ in fn.next_functions)
    return type(fn).__name__ + ("(" + inner + ")" if inner else "")


R = lambda *s: torch.ones(*s, requires_grad=True)
N = lambda *s: torch.ones(*s)
cases = [(R(3), R(3)), (R(2, 3), R(3)), (R(3), R(3, 2)), (R(2, 3), R(3, 2)), (R(2, 4, 3), R(3, 5)),
         (R(2, 4, 3), R(3)), (R(3, 4), R(2, 4, 5)), (R(4), R(2, 4, 5)), (N(3, 4), N(2, 4, 5).requires_grad_()),
         (R(2, 3, 3), R(1, 3, 3)), (N(2, 3, 3), R(1, 3, 3)), (R(2, 3, 3), N(1, 3, 3)), (R(1, 3, 3), N(2, 3, 3)),
         (R(1, 3, 3), R(1, 3, 3)), (R(2, 3, 4), R(2, 4, 5)), (R(2, 2, 3, 3), R(1, 3, 3)), (R(2, 3, 3), R(1, 1, 3, 3))]
for a, b in cases:
    y = a @ b
    print(tuple(a.shape), tuple(b.shape), tuple(y.shape), tree(y.grad_fn))

w = R(2, 3)
bias = R(2)
F = torch.nn.functional
for x in (N(3), N(4, 3), N(2, 4, 3), N(2, 2, 4, 3), N(3, 4).t(), N(2, 3, 4).transpose(1, 2), R(2, 4, 3)):
    print("linear", tuple(x.shape), x.is_contiguous(), tree(F.linear(x, w, bias).grad_fn))
print("linear no bias", tree(F.linear(N(2, 4, 3), w).grad_fn))

m = R(2, 3)
for t in (m, m.t(), m[:, :2], R(4, 3)[::2], R(2, 1, 3).transpose(0, 1)):
    for shape in ((-1,), (t.shape[-1], -1)):
        r = t.reshape(shape)
        print("reshape", tuple(t.shape), t.stride(), shape, tree(r.grad_fn))
print(tree(m.flatten().grad_fn), tree(m.t().flatten().grad_fn))
