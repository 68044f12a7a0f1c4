# torch.nn activation and loss modules: repr, forward values, input gradients (float32 and
# float64), the reductions and weight arguments of the losses, the legacy size_average/reduce
# arguments, buffers, the autograd graph of the losses composed in Python, and their errors.
# Some values differ from 2.15's in the last bits because of this project's kernels, not of the
# modules: float32 log (1 ulp, PoissonNLLLoss's Stirling term, log_input=False), float64 log
# (KLDivLoss, PoissonNLLLoss), float64 erf (GELU), tanh, and the softmax / log_softmax kernels
# (Softmin, Softmax, Softmax2d, LogSoftmax, CrossEntropyLoss); so numbers are compared within:
# reference tolerance: rtol=1e-6 atol=1e-7
import re
import warnings

warnings.simplefilter("ignore")

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

DTYPES = (torch.float32, torch.float64)


def graph(t):
    """The grad_fn names of t's graph, depth first, without the overload number (ATen's C++
    calls the Scalar overloads, AddBackward1 / SubBackward1, where Python passes a number as a
    wrapped tensor, AddBackward0 / SubBackward0; values and gradients are the same)."""
    out = []
    stack = [(t.grad_fn, 0)]
    while stack:
        fn, depth = stack.pop()
        if fn is None:
            continue
        out.append('.' * depth + re.sub(r'Backward\d+$', 'Backward', type(fn).__name__))
        for nxt, _ in reversed(fn.next_functions):
            stack.append((nxt, depth + 1))
    return ' '.join(out)


def err(f):
    try:
        r = f()
        print('  no error:', r)
    except Exception as e:
        print(' ', type(e).__name__, e)


def leaf(t):
    return t.detach().clone().requires_grad_(True)


def backward(out, weight_seed):
    """Backward of out (a scalar) or of a fixed weighted sum of its elements."""
    if out.dim() == 0:
        out.backward()
    else:
        g = torch.Generator().manual_seed(weight_seed)
        w = torch.randn(out.shape, generator=g, dtype=out.dtype)
        (out * w).sum().backward()


def grads(*ts):
    return [None if t.grad is None else t.grad.tolist() for t in ts]


# ---------------------------------------------------------------- activations

print('== activations')
base = torch.randn(2, 6) * 3
specials = torch.tensor([[0.0, -1.0, 1.0, 6.0, -3.0, 3.0]])
X = torch.cat([base, specials])

activations = [
    nn.GELU(), nn.GELU(approximate='tanh'), nn.LeakyReLU(), nn.LeakyReLU(0.2), nn.ELU(), nn.ELU(alpha=0.5),
    nn.SELU(), nn.Hardtanh(), nn.Hardtanh(-2.0, 2.5), nn.ReLU6(), nn.LogSigmoid(), nn.Softsign(),
    nn.Tanhshrink(), nn.Softmin(dim=1), nn.Softmin(dim=0), nn.Softmin(), nn.Softmax(dim=1), nn.LogSoftmax(dim=0),
    nn.ReLU(), nn.Sigmoid(), nn.Tanh(),
]
for m in activations:
    print(repr(m))
    for dtype in DTYPES:
        x = leaf(X.to(dtype))
        y = m(x)
        print(' ', dtype, type(y.grad_fn).__name__, y.tolist())
        backward(y, 1)
        print('  grad', x.grad.tolist())

print('== inplace activations')
inplace = [nn.LeakyReLU(0.1, inplace=True), nn.ELU(1.5, inplace=True), nn.SELU(inplace=True),
           nn.Hardtanh(-0.5, 0.5, inplace=True), nn.ReLU6(inplace=True), nn.ReLU(inplace=True)]
for m in inplace:
    print(repr(m))
    for dtype in DTYPES:
        x = leaf(X.to(dtype))
        h = x * 1.0
        y = m(h)
        print(' ', dtype, y is h, type(y.grad_fn).__name__, y.tolist())
        backward(y, 2)
        print('  grad', x.grad.tolist())

print('== Softmax2d')
m = nn.Softmax2d()
print(repr(m))
for dtype in DTYPES:
    for shape in ((3, 2, 2), (2, 3, 2, 2)):
        x = leaf(torch.randn(shape, dtype=dtype))
        y = m(x)
        print(' ', dtype, shape, y.tolist())
        backward(y, 3)
        print('  grad', x.grad.tolist())
err(lambda: m(torch.randn(2, 3)))

print('== activation constructors')
print(nn.Hardtanh(min_value=-3.0, max_value=3.0), nn.Hardtanh(-2, 2, True), nn.ELU(alpha=1, inplace=True))
print(nn.GELU('tanh'), nn.LeakyReLU(negative_slope=0.5), nn.Softmin(dim=-1), nn.Softmax(), nn.LogSoftmax(1))
print(nn.ReLU6().min_val, nn.ReLU6().max_val, nn.ReLU6.__mro__[1].__name__, nn.GELU.__constants__,
      nn.LeakyReLU.__constants__, nn.Hardtanh.__constants__, nn.ELU.__constants__, nn.Softmin.__constants__)
err(lambda: nn.Hardtanh(1.0, 0.5))
err(lambda: nn.Hardtanh(1.0, 1.0))
err(lambda: nn.Softmax(dim=1.0))
err(lambda: nn.LogSoftmax(dim=True))
err(lambda: nn.GELU(approximate='foo')(torch.ones(2)))

# ---------------------------------------------------------------- losses

REDUCTIONS = ('none', 'sum', 'mean')


def run_loss(make, inputs, *, show_graph=False, seed=5):
    """make(reduction, dtype) -> module; inputs(dtype) -> tuple of tensors (leaves require grad)."""
    print(repr(make('mean', torch.float32)))
    for dtype in DTYPES:
        args = inputs(dtype)
        for reduction in REDUCTIONS:
            for a in args:
                if isinstance(a, torch.Tensor) and a.grad is not None:
                    a.grad = None
            m = make(reduction, dtype)
            out = m(*args)
            print(' ', dtype, reduction, out.tolist())
            if show_graph and dtype == torch.float64:
                print('  graph', graph(out))
            backward(out, seed)
            print('  grads', grads(*[a for a in args if isinstance(a, torch.Tensor) and a.requires_grad]))


print('== L1Loss')
A = torch.randn(3, 4)
B = torch.randn(3, 4)
run_loss(lambda r, d: nn.L1Loss(reduction=r), lambda d: (leaf(A.to(d)), B.to(d)))

print('== MSELoss')
run_loss(lambda r, d: nn.MSELoss(reduction=r), lambda d: (leaf(A.to(d)), leaf(B.to(d))))

print('== SmoothL1Loss')
for beta in (1.0, 0.5, 0.0):
    run_loss(lambda r, d: nn.SmoothL1Loss(reduction=r, beta=beta), lambda d: (leaf(A.to(d)), B.to(d)))

print('== HuberLoss')
for delta in (1.0, 0.5, 2):
    run_loss(lambda r, d: nn.HuberLoss(reduction=r, delta=delta), lambda d: (leaf(A.to(d)), leaf(B.to(d))))

print('== BCELoss')
P = torch.rand(3, 4) * 0.9 + 0.05
T = torch.rand(3, 4)
W4 = torch.rand(4) + 0.5
W34 = torch.rand(3, 4) + 0.5
run_loss(lambda r, d: nn.BCELoss(reduction=r), lambda d: (leaf(P.to(d)), T.to(d)))
run_loss(lambda r, d: nn.BCELoss(weight=W4.to(d), reduction=r), lambda d: (leaf(P.to(d)), T.to(d)))
run_loss(lambda r, d: nn.BCELoss(weight=W34.to(d), reduction=r), lambda d: (leaf(P.to(d)), T.to(d)))

print('== BCEWithLogitsLoss')
L = torch.randn(3, 4) * 2
PW = torch.rand(4) * 3
run_loss(lambda r, d: nn.BCEWithLogitsLoss(reduction=r), lambda d: (leaf(L.to(d)), T.to(d)))
run_loss(lambda r, d: nn.BCEWithLogitsLoss(weight=W4.to(d), reduction=r), lambda d: (leaf(L.to(d)), T.to(d)))
run_loss(lambda r, d: nn.BCEWithLogitsLoss(pos_weight=PW.to(d), reduction=r), lambda d: (leaf(L.to(d)), T.to(d)))
run_loss(lambda r, d: nn.BCEWithLogitsLoss(weight=W34.to(d), pos_weight=PW.to(d), reduction=r),
         lambda d: (leaf(L.to(d)), T.to(d)))

print('== KLDivLoss')
LQ = torch.randn(3, 4).log_softmax(1)
PT = torch.randn(3, 4).softmax(1)
PT[0, 1] = 0.0
run_loss(lambda r, d: nn.KLDivLoss(reduction=r), lambda d: (leaf(LQ.to(d)), PT.to(d)))
run_loss(lambda r, d: nn.KLDivLoss(reduction=r, log_target=True), lambda d: (leaf(LQ.to(d)), leaf(PT.log().to(d))))
for dtype in DTYPES:
    x = leaf(LQ.to(dtype))
    out = nn.KLDivLoss(reduction='batchmean')(x, PT.to(dtype))
    out.backward()
    print('  batchmean', dtype, out.tolist(), x.grad.tolist())

print('== MarginRankingLoss')
Y3 = torch.tensor([1.0, -1.0, 1.0, -1.0, 1.0])
I1 = torch.randn(5)
I2 = torch.randn(5)
for margin in (0.0, 0.5):
    run_loss(lambda r, d: nn.MarginRankingLoss(margin=margin, reduction=r),
             lambda d: (leaf(I1.to(d)), leaf(I2.to(d)), Y3.to(d)), show_graph=True)

print('== HingeEmbeddingLoss')
H = torch.randn(2, 4)
YH = torch.tensor([[1.0, -1.0, -1.0, 1.0], [-1.0, -1.0, 1.0, 1.0]])
for margin in (1.0, 0.5):
    run_loss(lambda r, d: nn.HingeEmbeddingLoss(margin=margin, reduction=r),
             lambda d: (leaf(H.to(d)), YH.to(d)), show_graph=True)

print('== CosineEmbeddingLoss')
C1 = torch.randn(4, 3)
C2 = torch.randn(4, 3)
YC = torch.tensor([1.0, -1.0, -1.0, 1.0])
for margin in (0.0, -0.2):
    run_loss(lambda r, d: nn.CosineEmbeddingLoss(margin=margin, reduction=r),
             lambda d: (leaf(C1.to(d)), leaf(C2.to(d)), YC.to(d)), show_graph=True)
run_loss(lambda r, d: nn.CosineEmbeddingLoss(reduction=r),
         lambda d: (leaf(C1[0].to(d)), leaf(C2[0].to(d)), torch.tensor(-1.0, dtype=d)))

print('== TripletMarginLoss')
TA = torch.randn(3, 4)
TP = torch.randn(3, 4)
TN = torch.randn(3, 4)
for kw in ({}, {'swap': True}, {'p': 1.0, 'margin': 2.0}, {'p': 3, 'eps': 1e-3, 'swap': True}):
    run_loss(lambda r, d: nn.TripletMarginLoss(reduction=r, **kw),
             lambda d: (leaf(TA.to(d)), leaf(TP.to(d)), leaf(TN.to(d))), show_graph=True)
run_loss(lambda r, d: nn.TripletMarginLoss(margin=3.0, reduction=r),
         lambda d: (leaf(TA[0].to(d)), leaf(TP[0].to(d)), leaf(TN[0].to(d))))

print('== PoissonNLLLoss')
PL = torch.randn(2, 4)
PC = torch.tensor([[0.0, 1.0, 2.0, 5.0], [3.0, 0.5, 7.0, 1.5]])
for kw in ({}, {'full': True}):
    run_loss(lambda r, d: nn.PoissonNLLLoss(reduction=r, **kw), lambda d: (leaf(PL.to(d)), PC.to(d)),
             show_graph=True)
for kw in ({'log_input': False}, {'log_input': False, 'full': True, 'eps': 1e-3}):
    run_loss(lambda r, d: nn.PoissonNLLLoss(reduction=r, **kw), lambda d: (leaf(PL.exp().to(d)), PC.to(d)),
             show_graph=True)

print('== GaussianNLLLoss')
GI = torch.randn(3, 2)
GT = torch.randn(3, 2)
GV = torch.rand(3, 2) + 0.1
GV[1, 1] = 1e-8
run_loss(lambda r, d: nn.GaussianNLLLoss(reduction=r), lambda d: (leaf(GI.to(d)), GT.to(d), leaf(GV.to(d))))
run_loss(lambda r, d: nn.GaussianNLLLoss(full=True, eps=1e-3, reduction=r),
         lambda d: (leaf(GI.to(d)), leaf(GT.to(d)), leaf(GV.to(d))))
run_loss(lambda r, d: nn.GaussianNLLLoss(reduction=r), lambda d: (leaf(GI.to(d)), GT.to(d), leaf(GV[:, 0].to(d))))
run_loss(lambda r, d: nn.GaussianNLLLoss(reduction=r), lambda d: (leaf(GI.to(d)), GT.to(d), leaf(GV[:, :1].to(d))))
run_loss(lambda r, d: nn.GaussianNLLLoss(reduction=r), lambda d: (leaf(GI.to(d)), GT.to(d), 0.5))

print('== MultiLabelSoftMarginLoss')
ML = torch.randn(3, 4)
MT = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 0.0, 1.0, 1.0], [1.0, 1.0, 1.0, 0.0]])
run_loss(lambda r, d: nn.MultiLabelSoftMarginLoss(reduction=r), lambda d: (leaf(ML.to(d)), MT.to(d)),
         show_graph=True)
run_loss(lambda r, d: nn.MultiLabelSoftMarginLoss(weight=W4.to(d), reduction=r),
         lambda d: (leaf(ML.to(d)), MT.to(d)))

print('== CrossEntropyLoss')
CL = torch.randn(4, 3)
CT = torch.tensor([0, 2, 1, 2])
CP = torch.randn(4, 3).softmax(1)
W3 = torch.tensor([0.5, 2.0, 1.0])
run_loss(lambda r, d: nn.CrossEntropyLoss(reduction=r), lambda d: (leaf(CL.to(d)), CT))
run_loss(lambda r, d: nn.CrossEntropyLoss(weight=W3.to(d), ignore_index=1, reduction=r), lambda d: (leaf(CL.to(d)), CT))
run_loss(lambda r, d: nn.CrossEntropyLoss(weight=W3.to(d), label_smoothing=0.2, reduction=r),
         lambda d: (leaf(CL.to(d)), CT))
run_loss(lambda r, d: nn.CrossEntropyLoss(label_smoothing=0.1, ignore_index=2, reduction=r), lambda d: (leaf(CL.to(d)), CT))
run_loss(lambda r, d: nn.CrossEntropyLoss(weight=W3.to(d), label_smoothing=0.1, reduction=r),
         lambda d: (leaf(CL.to(d)), CP.to(d)))

print('== NLLLoss')
run_loss(lambda r, d: nn.NLLLoss(reduction=r), lambda d: (leaf(CL.log_softmax(1).to(d)), CT))
run_loss(lambda r, d: nn.NLLLoss(weight=W3.to(d), ignore_index=2, reduction=r),
         lambda d: (leaf(CL.log_softmax(1).to(d)), CT))

print('== buffers and state')
for m in (nn.BCELoss(weight=W4), nn.BCELoss(), nn.BCEWithLogitsLoss(weight=W4, pos_weight=PW),
          nn.BCEWithLogitsLoss(pos_weight=PW), nn.BCEWithLogitsLoss(), nn.MultiLabelSoftMarginLoss(weight=W4),
          nn.CrossEntropyLoss(weight=W3, ignore_index=1, label_smoothing=0.1), nn.NLLLoss(weight=W3)):
    print(repr(m), [(k, v.tolist()) for k, v in m.named_buffers()], list(m.state_dict().keys()),
          m.weight is None or m.weight.tolist(), m.reduction)
print(nn.CrossEntropyLoss(weight=W3).ignore_index, nn.CrossEntropyLoss().label_smoothing,
      nn.CrossEntropyLoss(label_smoothing=0.25).label_smoothing, nn.NLLLoss(ignore_index=3).ignore_index)

print('== legacy size_average / reduce')
for kw in ({'size_average': False}, {'reduce': False}, {'size_average': True}, {'reduce': True},
           {'size_average': False, 'reduce': True}, {'size_average': True, 'reduce': False},
           {'size_average': False, 'reduction': 'mean'}):
    row = []
    for cls in (nn.L1Loss, nn.MSELoss, nn.SmoothL1Loss, nn.BCELoss, nn.BCEWithLogitsLoss, nn.KLDivLoss,
                nn.MarginRankingLoss, nn.HingeEmbeddingLoss, nn.CosineEmbeddingLoss, nn.TripletMarginLoss,
                nn.PoissonNLLLoss, nn.MultiLabelSoftMarginLoss, nn.CrossEntropyLoss, nn.NLLLoss):
        row.append(cls(**kw).reduction)
    print(' ', kw, row)
x = leaf(A)
out = nn.L1Loss(size_average=False)(x, B)
out.backward()
print('  L1Loss(size_average=False)', out.tolist(), x.grad.tolist())

print('== loss constructors')
print(nn.HuberLoss(delta=0.5).delta, nn.SmoothL1Loss(beta=0.25).beta, nn.KLDivLoss(log_target=True).log_target,
      nn.MarginRankingLoss(margin=0.3).margin, nn.HingeEmbeddingLoss(margin=2.0).margin,
      nn.CosineEmbeddingLoss(margin=0.1).margin)
m = nn.TripletMarginLoss(margin=0.5, p=1.0, eps=1e-3, swap=True)
print(m.margin, m.p, m.eps, m.swap)
m = nn.PoissonNLLLoss(log_input=False, full=True, eps=1e-3, reduction='sum')
print(m.log_input, m.full, m.eps, m.reduction)
m = nn.GaussianNLLLoss(full=True, eps=1e-3, reduction='none')
print(m.full, m.eps, m.reduction)
print(nn.L1Loss.__constants__, nn.HuberLoss.__constants__, nn.PoissonNLLLoss.__constants__,
      nn.GaussianNLLLoss.__constants__, nn.TripletMarginLoss.__constants__, nn.MarginRankingLoss.__constants__,
      nn.CrossEntropyLoss.__constants__, nn.NLLLoss.__constants__)

print('== loss errors')
err(lambda: nn.TripletMarginLoss(margin=0))
err(lambda: nn.TripletMarginLoss(margin=-1.0))
err(lambda: nn.HuberLoss(delta='a'))
err(lambda: nn.GaussianNLLLoss(0.5))
for name, f in [
    ('l1 reduction', lambda: nn.L1Loss(reduction='foo')(A, B)),
    ('margin ranking reduction', lambda: nn.MarginRankingLoss(reduction='foo')(I1, I2, Y3)),
    ('margin ranking dims', lambda: nn.MarginRankingLoss()(I1, I2.view(1, 5), Y3)),
    ('margin ranking broadcast', lambda: nn.MarginRankingLoss()(I1, I2[:1], Y3)),
    ('hinge reduction', lambda: nn.HingeEmbeddingLoss(reduction='foo')(H, YH)),
    ('cosine reduction', lambda: nn.CosineEmbeddingLoss(reduction='foo')(C1, C2, YC)),
    ('cosine 2D target', lambda: nn.CosineEmbeddingLoss()(C1, C2, YC.view(2, 2))),
    ('cosine 1D target 1D input', lambda: nn.CosineEmbeddingLoss()(C1[0], C2, YC)),
    ('cosine 0D target 2D input', lambda: nn.CosineEmbeddingLoss()(C1[0], C2, YC[0])),
    ('triplet dims', lambda: nn.TripletMarginLoss()(TA, TP, TN[0])),
    ('triplet reduction', lambda: nn.TripletMarginLoss(reduction='foo')(TA, TP, TN)),
    ('poisson reduction', lambda: nn.PoissonNLLLoss(reduction='foo')(PL, PC)),
    ('gaussian reduction', lambda: nn.GaussianNLLLoss(reduction='foo')(GI, GT, GV)),
    ('gaussian var size', lambda: nn.GaussianNLLLoss()(GI, GT, torch.ones(2))),
    ('gaussian var negative', lambda: nn.GaussianNLLLoss()(GI, GT, -GV)),
    ('gaussian var negative float', lambda: nn.GaussianNLLLoss()(GI, GT, -1.0)),
    ('multilabel reduction', lambda: nn.MultiLabelSoftMarginLoss(reduction='foo')(ML, MT)),
    ('bce size', lambda: nn.BCELoss()(P, T[0])),
    ('bce with logits size', lambda: nn.BCEWithLogitsLoss()(L, T[0])),
    ('kl reduction', lambda: nn.KLDivLoss(reduction='foo')(LQ, PT)),
]:
    print(name)
    err(f)

# the functionals 2.15 writes in Python
torch.manual_seed(0)
xf = torch.randn(2, 3)
print("F.softmin", F.softmin(xf, 1).tolist(), F.softmin(xf, 0, dtype=torch.float64).tolist())
print("F.softsign", F.softsign(xf).tolist(), "F.tanhshrink", F.tanhshrink(xf).tolist())
