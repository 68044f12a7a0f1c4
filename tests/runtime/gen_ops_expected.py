#!/usr/bin/env python3
"""Generates ops_expected.json: what PyTorch 2.15 computes for the operators tested in
ops_expected_test.cpp (PyTorch is not needed at test time).

Run: scripts/reference-python tests/runtime/gen_ops_expected.py > tests/runtime/ops_expected.json
(the reference environment, scripts/reference-env; any other PyTorch version is refused).

Each case has a name (the C++ test has a function of the same name doing the same call),
its inputs (sizes, dtype, row-major values) and either the outputs (sizes, strides, dtype,
values; a bool for equal/allclose) or the error (Python exception kind and message). Cases
made with grad=True run with every floating input requiring grad (grad=[0, 2]: those inputs
only) and also record each output's grad_fn name, fixed weights W and the inputs' gradients
of sum(output * W); "grad_inputs" lists which inputs required grad.
"""
import json
import math
import sys
import warnings

import torch
import torch.nn.functional as F

if not torch.__version__.startswith("2.15."):
    sys.exit(f"{__file__}: expected PyTorch 2.15, this Python has {torch.__version__} (run it with scripts/reference-python)")

warnings.simplefilter("ignore")  # mse_loss's broadcasting warning

DTYPES = {torch.float32: "float32", torch.float64: "float64", torch.int64: "int64", torch.bool: "bool"}
cases = []
names = set()
gen = torch.Generator().manual_seed(1234)


def enc(v):
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return v


def tj(t, strides=True, values=True):
    if t is None:
        return None
    t = t.detach()
    d = {"sizes": list(t.shape), "dtype": DTYPES[t.dtype]}
    if values:
        d["values"] = [enc(v) for v in t.flatten().tolist()]
    if strides:
        d["strides"] = list(t.stride())
    return d


def R(*shape, lo=-2.0, hi=2.0, dtype=torch.float32):
    """Uniform values in [lo, hi], rounded to 4 decimals."""
    t = torch.rand(shape, generator=gen, dtype=torch.float64) * (hi - lo) + lo
    return (t * 10000).round().div(10000).to(dtype)


def D(*shape, lo=-2.0, hi=2.0):
    return R(*shape, lo=lo, hi=hi, dtype=torch.float64)


def T(values, dtype=None):
    return torch.tensor(values, dtype=dtype)


def weights_like(o):
    n = o.numel()
    w = torch.tensor([((i * 7) % 11 - 5) * 0.25 + 0.125 for i in range(n)], dtype=o.dtype)
    return w.reshape(o.shape)


def case(name, fn, *inputs, grad=False, values=True):
    assert name not in names, name
    names.add(name)
    c = {"name": name, "inputs": [tj(x, strides=False) for x in inputs]}
    which = grad if isinstance(grad, (list, tuple)) else range(len(inputs)) if grad else []
    ins = [None if x is None else x.clone().requires_grad_(i in which and x.is_floating_point())
           for i, x in enumerate(inputs)]
    if grad:
        c["grad_inputs"] = [i for i, x in enumerate(ins) if x is not None and x.requires_grad]
    try:
        out = fn(*ins)
    except Exception as e:  # noqa: BLE001 - the error is the expected result
        c["error"] = {"kind": type(e).__name__, "message": str(e)}
        cases.append(c)
        return
    if isinstance(out, bool):
        c["bool"] = out
        cases.append(c)
        return
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    c["out"] = [tj(o, values=values) for o in outs]  # values=False: random results, shapes only
    if grad:
        c["grad_fn"] = [o.grad_fn.name() if o.grad_fn is not None else None for o in outs]
        ws, loss = [], None
        for o in outs:
            if o.requires_grad:
                w = weights_like(o)
                ws.append(tj(w, strides=False))
                term = (o * w).sum()
                loss = term if loss is None else loss + term
            else:
                ws.append(None)
        c["weights"] = ws
        if loss is not None:
            loss.backward()
        c["grads"] = [None if x is None or x.grad is None else tj(x.grad, strides=False) for x in ins]
    cases.append(c)


nan = float("nan")
inf = float("inf")
MEAN, SUM, NONE = 1, 2, 0

# ---- group 1: torch.nn and torch.optim ---------------------------------------------------
case("addmm/basic", lambda s, a, b: torch.addmm(s, a, b), R(2, 2), R(2, 3), R(3, 2), grad=True)
case("addmm/beta_alpha", lambda s, a, b: torch.addmm(s, a, b, beta=0.5, alpha=2), R(2, 2), R(2, 3), R(3, 2), grad=True)
case("addmm/broadcast_bias", lambda s, a, b: torch.addmm(s, a, b), R(4), R(3, 5), R(5, 4), grad=True)
case("addmm/row_bias", lambda s, a, b: torch.addmm(s, a, b, alpha=-1), R(3, 1), R(3, 2), R(2, 4), grad=True)
case("addmm/beta0_ignores_nan", lambda s, a, b: torch.addmm(s, a, b, beta=0), T([[nan, 1.0], [2.0, nan]]), R(2, 3),
     R(3, 2))
case("addmm/transposed", lambda s, a, b: torch.addmm(s, a.t(), b.t()), R(3, 2), R(4, 3), R(2, 4), grad=True)
case("addmm/float64", lambda s, a, b: torch.addmm(s, a, b, beta=2, alpha=0.5), D(2, 3), D(2, 2), D(2, 3), grad=True)
case("addmm/k0", lambda s, a, b: torch.addmm(s, a, b, beta=3), R(2, 2), R(2, 0), R(0, 2))
case("addmm/int", lambda s, a, b: torch.addmm(s, a, b, beta=2, alpha=3), T([[1, 2], [3, 4]]), T([[1, 0, 2], [0, 1, 1]]),
     T([[1, 1], [2, 0], [0, 3]]))
case("addmm/int_float_alpha", lambda s, a, b: torch.addmm(s, a, b, alpha=0.5), T([[1, 2], [3, 4]]),
     T([[1, 0, 2], [0, 1, 1]]), T([[1, 1], [2, 0], [0, 3]]))
case("addmm/err_shapes", lambda s, a, b: torch.addmm(s, a, b), R(2, 2), R(2, 3), R(2, 2))
case("addmm/err_mat1_1d", lambda s, a, b: torch.addmm(s, a, b), R(2), R(3), R(3, 2))
case("addmm/err_mat2_3d", lambda s, a, b: torch.addmm(s, a, b), R(2, 2), R(2, 3), R(1, 3, 2))
case("addmm/err_self_dtype", lambda s, a, b: torch.addmm(s, a, b), D(2, 2), R(2, 3), R(3, 2))
case("addmm/err_mat2_dtype", lambda s, a, b: torch.addmm(s, a, b), R(2, 2), R(2, 3), D(3, 2))
case("addmm/err_mat1_dtype", lambda s, a, b: torch.addmm(s, a, b), R(2, 2), D(2, 3), R(3, 2))
case("addmm/err_bias", lambda s, a, b: torch.addmm(s, a, b), R(3), R(2, 3), R(3, 2))

case("linear/2d_bias", lambda x, w, b: F.linear(x, w, b), R(3, 4), R(2, 4), R(2), grad=True)
case("linear/2d_no_bias", lambda x, w: F.linear(x, w), R(3, 4), R(2, 4), grad=True)
case("linear/3d_bias", lambda x, w, b: F.linear(x, w, b), R(2, 3, 4), R(5, 4), R(5), grad=True)
case("linear/3d_noncontiguous", lambda x, w, b: F.linear(x.transpose(0, 1), w, b), R(3, 2, 4), R(5, 4), R(5), grad=True)
case("linear/1d_bias", lambda x, w, b: F.linear(x, w, b), R(4), R(3, 4), R(3), grad=True)
case("linear/1d_no_bias", lambda x, w: F.linear(x, w), R(4), R(3, 4), grad=True)
case("linear/4d_bias", lambda x, w, b: F.linear(x, w, b), R(2, 2, 3, 4), R(3, 4), R(3), grad=True)
case("linear/float64", lambda x, w, b: F.linear(x, w, b), D(3, 4), D(2, 4), D(2), grad=True)
case("linear/err_weight", lambda x, w: F.linear(x, w), R(2, 3), R(4, 2))
case("linear/err_bias", lambda x, w, b: F.linear(x, w, b), R(2, 3), R(4, 3), R(3))

for d in (0, 1, -1):
    case(f"softmax/dim{d}", lambda x, d=d: torch.softmax(x, d), R(3, 4), grad=True)
    case(f"log_softmax/dim{d}", lambda x, d=d: torch.log_softmax(x, d), R(3, 4), grad=True)
case("softmax/3d_dim1", lambda x: torch.softmax(x, 1), R(2, 3, 4, lo=-5, hi=5), grad=True)
case("log_softmax/3d_dim1", lambda x: torch.log_softmax(x, 1), R(2, 3, 4, lo=-5, hi=5), grad=True)
case("softmax/0d", lambda x: torch.softmax(x, 0), R(), grad=True)
case("log_softmax/0d", lambda x: torch.log_softmax(x, -1), R(), grad=True)
case("softmax/transposed", lambda x: torch.softmax(x.t(), 1), R(3, 4), grad=True)
case("softmax/large_values", lambda x: torch.softmax(x, 0), T([1000.0, 1001.0, -inf]))
case("log_softmax/large_values", lambda x: torch.log_softmax(x, 0), T([1000.0, 1001.0, -inf]))
case("softmax/dtype_float64", lambda x: torch.softmax(x, 1, dtype=torch.float64), R(2, 3), grad=True)
case("log_softmax/dtype_float64", lambda x: torch.log_softmax(x, 1, dtype=torch.float64), R(2, 3), grad=True)
case("softmax/int_with_dtype", lambda x: torch.softmax(x, 0, dtype=torch.float32), T([1, 2, 3]))
case("softmax/float64", lambda x: torch.softmax(x, 1), D(2, 5), grad=True)
case("_softmax/direct", lambda x: torch._softmax(x, 1, False), R(2, 3), grad=True)
case("_log_softmax/direct", lambda x: torch._log_softmax(x, 0, False), R(2, 3), grad=True)
case("softmax/err_int", lambda x: torch.softmax(x, 0), T([1, 2, 3]))
case("softmax/err_int_dim0_of_2d", lambda x: torch.softmax(x, 0), T([[1, 2], [3, 4]]))
case("log_softmax/err_int", lambda x: torch.log_softmax(x, 1), T([[1, 2], [3, 4]]))
case("softmax/err_dim", lambda x: torch.softmax(x, 2), R(2, 3))

LOGP = R(4, 5, lo=-4, hi=0)
TGT = T([1, 0, 4, 2])
for red in ("mean", "sum", "none"):
    case(f"nll_loss/{red}", lambda x, t, red=red: F.nll_loss(x, t, reduction=red), LOGP, TGT, grad=True)
    case(f"nll_loss/weight_{red}", lambda x, t, w, red=red: F.nll_loss(x, t, weight=w, reduction=red), LOGP, TGT,
         T([1.0, 2.0, 0.5, 1.5, 3.0]), grad=[0])
    case(f"nll_loss/ignore_{red}", lambda x, t, red=red: F.nll_loss(x, t, reduction=red, ignore_index=0), LOGP, TGT,
         grad=True)
case("nll_loss/default_ignore_index", lambda x, t: F.nll_loss(x, t), LOGP, T([1, -100, 4, -100]), grad=True)
case("nll_loss/all_ignored", lambda x, t: F.nll_loss(x, t), LOGP, T([-100, -100, -100, -100]))
case("nll_loss/1d_input", lambda x, t: F.nll_loss(x, t), R(5), T(3), grad=True)
case("nll_loss/1d_input_none", lambda x, t: F.nll_loss(x, t, reduction="none"), R(5), T(3), grad=True)
case("nll_loss/float64", lambda x, t: F.nll_loss(x, t), D(3, 4), T([3, 0, 1]), grad=True)
case("nll_loss/3d_input", lambda x, t: F.nll_loss(x, t), R(2, 3, 4), T([[0, 1, 2, 0], [2, 2, 1, 0]]), grad=True)
case("nll_loss/3d_input_none", lambda x, t: F.nll_loss(x, t, reduction="none"), R(2, 3, 4),
     T([[0, 1, 2, 0], [2, 2, 1, 0]]), grad=True)
case("nll_loss/4d_input_weight", lambda x, t, w: F.nll_loss(x, t, weight=w), R(2, 3, 2, 2),
     T([[[0, 1], [2, 0]], [[2, 2], [1, -100]]]), T([0.5, 1.0, 2.0]), grad=[0])
case("nll_loss/err_weight_requires_grad", lambda x, t, w: F.nll_loss(x, t, weight=w), LOGP, TGT,
     T([1.0, 2.0, 0.5, 1.5, 3.0]), grad=True)
case("nll_loss_forward/mean", lambda x, t: torch.ops.aten.nll_loss_forward(x, t, None, MEAN, -100), LOGP, TGT, grad=True)
case("nll_loss_forward/none", lambda x, t: torch.ops.aten.nll_loss_forward(x, t, None, NONE, -100), LOGP, TGT, grad=True)
case("nll_loss_forward/sum_weight", lambda x, t, w: torch.ops.aten.nll_loss_forward(x, t, w, SUM, 2), LOGP, TGT,
     T([1.0, 2.0, 0.5, 1.5, 3.0]), grad=[0])
case("nll_loss/err_batch", lambda x, t: F.nll_loss(x, t), R(3, 4), T([0, 1]))
case("nll_loss/err_target_bounds", lambda x, t: F.nll_loss(x, t), R(3, 4), T([0, 1, 7]))
case("nll_loss/err_target_negative", lambda x, t: F.nll_loss(x, t), R(3, 4), T([0, -1, 2]))
case("nll_loss/err_target_float", lambda x, t: F.nll_loss(x, t), R(3, 4), T([0.0, 1.0, 2.0]))
case("nll_loss/err_weight", lambda x, t, w: F.nll_loss(x, t, weight=w), R(3, 4), T([0, 1, 2]), R(3))
case("nll_loss/err_0d_input", lambda x, t: F.nll_loss(x, t), R(), T(1))
case("nll_loss/err_3d_target", lambda x, t: F.nll_loss(x, t), R(3, 4, 5), T([0, 1, 2]))
case("nll_loss_forward/err_2d_target", lambda x, t: torch.ops.aten.nll_loss_forward(x, t, None, MEAN, -100), R(3, 4),
     T([[0], [1], [2]]))

for red in ("mean", "sum", "none"):
    case(f"cross_entropy/{red}", lambda x, t, red=red: F.cross_entropy(x, t, reduction=red), R(4, 5), TGT, grad=True)
    case(f"cross_entropy/probs_{red}", lambda x, t, red=red: F.cross_entropy(x, t, reduction=red), R(3, 4),
         torch.softmax(R(3, 4), 1), grad=True)
case("cross_entropy/weight", lambda x, t, w: F.cross_entropy(x, t, weight=w), R(4, 5), TGT, T([1.0, 2.0, 0.5, 1.5, 3.0]),
     grad=[0])
case("cross_entropy/ignore_index", lambda x, t: F.cross_entropy(x, t, ignore_index=1), R(4, 5), TGT, grad=True)
case("cross_entropy/1d", lambda x, t: F.cross_entropy(x, t), R(5), T(2), grad=True)
case("cross_entropy/3d", lambda x, t: F.cross_entropy(x, t), R(2, 3, 4), T([[0, 1, 2, 0], [2, 2, 1, 0]]), grad=True)
case("cross_entropy/float64", lambda x, t: F.cross_entropy(x, t), D(3, 4), T([3, 0, 1]), grad=True)
case("cross_entropy/probs_weight", lambda x, t, w: F.cross_entropy(x, t, weight=w), R(3, 4), torch.softmax(R(3, 4), 1),
     T([1.0, 2.0, 0.5, 1.5]), grad=True)
case("cross_entropy/probs_label_smoothing", lambda x, t: F.cross_entropy(x, t, label_smoothing=0.2), R(3, 4),
     torch.softmax(R(3, 4), 1), grad=True)
for red in ("mean", "sum", "none"):
    case(f"cross_entropy/label_smoothing_{red}", lambda x, t, red=red: F.cross_entropy(x, t, reduction=red,
         label_smoothing=0.1), R(4, 5), TGT, grad=True)
    case(f"cross_entropy/label_smoothing_weight_{red}", lambda x, t, w, red=red: F.cross_entropy(
        x, t, weight=w, reduction=red, ignore_index=0, label_smoothing=0.3), R(4, 5), TGT, T([1.0, 2.0, 0.5, 1.5, 3.0]),
        grad=[0])
case("cross_entropy/label_smoothing_ignore", lambda x, t: F.cross_entropy(x, t, ignore_index=4, label_smoothing=0.2),
     R(4, 5), TGT, grad=True)
case("cross_entropy/label_smoothing_1d", lambda x, t: F.cross_entropy(x, t, label_smoothing=0.5), R(5), T(2), grad=True)
case("cross_entropy/label_smoothing_3d", lambda x, t: F.cross_entropy(x, t, label_smoothing=0.25), R(2, 3, 4),
     T([[0, 1, 2, 0], [2, 2, 1, 0]]), grad=True)
case("cross_entropy/label_smoothing_1d_weight_ignored", lambda x, t, w: F.cross_entropy(x, t, weight=w, ignore_index=2,
     label_smoothing=0.5), R(5), T(2), T([1.0, 2.0, 0.5, 1.5, 3.0]), grad=[0])
case("cross_entropy/err_label_smoothing", lambda x, t: F.cross_entropy(x, t, label_smoothing=1.5), R(4, 5), TGT)
case("cross_entropy/err_batch", lambda x, t: F.cross_entropy(x, t), R(3, 4), T([0, 1]))
case("cross_entropy/err_probs_int", lambda x, t: F.cross_entropy(x, t), R(2, 2), T([[0, 1], [1, 0]]))

for red in ("mean", "sum", "none"):
    case(f"mse_loss/{red}", lambda x, y, red=red: F.mse_loss(x, y, reduction=red), R(3, 4), R(3, 4), grad=True)
case("mse_loss/broadcast", lambda x, y: F.mse_loss(x, y), R(3, 4), R(4), grad=True)
case("mse_loss/broadcast_none", lambda x, y: F.mse_loss(x, y, reduction="none"), R(3, 1), R(4), grad=True)
case("mse_loss/float64", lambda x, y: F.mse_loss(x, y), D(2, 3), D(2, 3), grad=True)
case("mse_loss/mixed_dtypes", lambda x, y: F.mse_loss(x, y), R(2, 3), D(2, 3))
case("mse_loss/err_int", lambda x, y: F.mse_loss(x, y), T([1, 2]), T([2, 2]))
case("mse_loss/err_shapes", lambda x, y: F.mse_loss(x, y), R(3, 4), R(2, 4))

UNARY_IN = R(2, 3, lo=-3, hi=3)
POS_IN = R(2, 3, lo=0.2, hi=4)
for f, x in (("sigmoid", UNARY_IN), ("tanh", UNARY_IN), ("sqrt", POS_IN)):
    case(f"{f}/float", lambda x, f=f: getattr(torch, f)(x), x, grad=True)
    case(f"{f}/float64", lambda x, f=f: getattr(torch, f)(x), x.double(), grad=True)
    case(f"{f}/transposed", lambda x, f=f: getattr(torch, f)(x.t()), x, grad=True)
    case(f"{f}/inplace", lambda x, f=f: getattr(x.clone(), f + "_")(), x, grad=True)
    case(f"{f}/int", lambda x, f=f: getattr(torch, f)(x), T([0, 1, 4, 9]))
    case(f"{f}/bool", lambda x, f=f: getattr(torch, f)(x), T([True, False]))
    case(f"{f}/err_inplace_int", lambda x, f=f: getattr(x, f + "_")(), T([0, 1, 4]))
case("sqrt/negative_and_special", lambda x: torch.sqrt(x), T([-1.0, 0.0, inf, nan, 2.0]))
case("sigmoid/special", lambda x: torch.sigmoid(x), T([-inf, inf, nan, -100.0, 100.0]))
case("tanh/special", lambda x: torch.tanh(x), T([-inf, inf, nan, -30.0, 30.0]))

case("addcmul/basic", lambda s, a, b: torch.addcmul(s, a, b, value=0.5), R(2, 3), R(2, 3), R(2, 3), grad=True)
case("addcmul/broadcast", lambda s, a, b: torch.addcmul(s, a, b, value=-2), R(3), R(2, 1), R(2, 3), grad=True)
case("addcmul/default_value", lambda s, a, b: torch.addcmul(s, a, b), R(2, 3), R(2, 3), R(3), grad=True)
case("addcmul/inplace", lambda s, a, b: s.clone().addcmul_(a, b, value=0.25), R(2, 3), R(3), R(2, 3), grad=True)
case("addcmul/int", lambda s, a, b: torch.addcmul(s, a, b, value=2), T([1, 2]), T([3, 4]), T([5, 6]))
case("addcmul/int_float_value", lambda s, a, b: torch.addcmul(s, a, b, value=0.5), T([1, 2]), T([3, 4]), T([5, 6]))
case("addcmul/promote", lambda s, a, b: torch.addcmul(s, a, b), T([1, 2]), R(2), T([5, 6]))
case("addcmul/err_inplace_shape", lambda s, a, b: s.addcmul_(a, b), R(2), R(3, 2), R(2))
case("addcmul/err_inplace_dtype", lambda s, a, b: s.addcmul_(a, b), T([1, 2]), R(2), R(2))
case("addcdiv/basic", lambda s, a, b: torch.addcdiv(s, a, b, value=0.5), R(2, 3), R(2, 3), R(2, 3, lo=0.5, hi=2),
     grad=True)
case("addcdiv/broadcast", lambda s, a, b: torch.addcdiv(s, a, b, value=-2), R(3), R(2, 1), R(2, 3, lo=0.5, hi=2),
     grad=True)
case("addcdiv/inplace", lambda s, a, b: s.clone().addcdiv_(a, b, value=-0.1), R(2, 3), R(2, 3),
     R(3, lo=0.5, hi=2), grad=True)
case("addcdiv/float64", lambda s, a, b: torch.addcdiv(s, a, b), D(4), D(4), D(4, lo=0.5, hi=2), grad=True)
case("addcdiv/int_self", lambda s, a, b: torch.addcdiv(s, a, b), T([1, 2]), R(2), R(2, lo=0.5, hi=2))
case("addcdiv/err_int", lambda s, a, b: torch.addcdiv(s, a, b), T([1, 2]), T([3, 4]), T([5, 6]))
case("addcdiv/err_int_float_self", lambda s, a, b: torch.addcdiv(s, a, b), R(2), T([3, 4]), T([5, 6]))

case("div_Scalar/float", lambda x: torch.ops.aten.div.Scalar(x, 4), R(2, 3), grad=True)
case("div_Scalar/int_by_int", lambda x: torch.ops.aten.div.Scalar(x, 2), T([1, 2, 3]))
case("zero_/float", lambda x: x.clone().zero_(), R(2, 3), grad=True)
case("zero_/int", lambda x: x.zero_(), T([1, 2, 3]))
case("zeros_like/transposed", lambda x: torch.zeros_like(x.t()), R(3, 4))
case("zeros_like/sliced", lambda x: torch.zeros_like(x[:, ::2]), R(3, 4))
case("zeros_like/dtype", lambda x: torch.zeros_like(x, dtype=torch.int64), R(2, 2))
case("ones_like/float", lambda x: torch.ones_like(x), R(2, 3))
case("ones_like/bool", lambda x: torch.ones_like(x, dtype=torch.bool), R(2))
case("full_like/int", lambda x: torch.full_like(x, 7), T([1, 2, 3]))
case("full_like/float_into_int", lambda x: torch.full_like(x, 2.5), T([1, 2, 3]))
case("full_like/float", lambda x: torch.full_like(x, -1.5), R(2, 2))
case("conj/float", lambda x: torch.conj(x), R(3), grad=True)

# ---- group 2: elementwise math ------------------------------------------------------------
MATH_IN = R(2, 3, lo=-3, hi=3)
for f, x in (("sin", MATH_IN), ("cos", MATH_IN), ("tan", R(2, 3, lo=-1.2, hi=1.2)), ("log", POS_IN),
             ("rsqrt", POS_IN), ("abs", MATH_IN), ("floor", MATH_IN), ("ceil", MATH_IN), ("sign", MATH_IN)):
    case(f"{f}/float", lambda x, f=f: getattr(torch, f)(x), x, grad=True)
    case(f"{f}/float64", lambda x, f=f: getattr(torch, f)(x), x.double(), grad=True)
    case(f"{f}/transposed", lambda x, f=f: getattr(torch, f)(x.t()), x, grad=True)
    case(f"{f}/inplace", lambda x, f=f: getattr(x.clone(), f + "_")(), x, grad=True)
    case(f"{f}/int", lambda x, f=f: getattr(torch, f)(x), T([-2, 0, 1, 4]))
    case(f"{f}/bool", lambda x, f=f: getattr(torch, f)(x), T([True, False]))
    case(f"{f}/inplace_int", lambda x, f=f: getattr(x, f + "_")(), T([-3, 0, 1, 4]))
SPECIAL = T([-inf, -2.5, -0.0, 0.0, 0.5, 1.5, inf, nan])
for f in ("sin", "cos", "tan", "log", "rsqrt", "abs", "floor", "ceil", "sign"):
    case(f"{f}/special", lambda x, f=f: getattr(torch, f)(x), SPECIAL)

CLAMP_IN = T([-2.0, -0.5, 0.0, 0.5, 1.0, 2.0, nan])
case("clamp/both", lambda x: torch.clamp(x, -0.5, 1.0), CLAMP_IN)
case("clamp/min", lambda x: torch.clamp(x, min=0.0), CLAMP_IN)
case("clamp/max", lambda x: torch.clamp(x, max=0.5), CLAMP_IN)
case("clamp/min_above_max", lambda x: torch.clamp(x, 1, -1), CLAMP_IN)
case("clamp/grad", lambda x: torch.clamp(x, -0.5, 1.0), R(3, 4), grad=True)
case("clamp/grad_at_bounds", lambda x: torch.clamp(x, -0.5, 1.0), T([-1.0, -0.5, 0.0, 1.0, 2.0]), grad=True)
case("clamp/grad_min_only", lambda x: torch.clamp(x, min=0.1), R(5), grad=True)
case("clamp/inplace", lambda x: x.clone().clamp_(-1, 1), R(2, 3), grad=True)
case("clamp/int", lambda x: torch.clamp(x, -1, 1), T([-3, 0, 2]))
case("clamp/int_float_min", lambda x: torch.clamp(x, 0.5), T([-3, 0, 2]))
case("clamp/bool", lambda x: torch.clamp(x, 0, 1), T([True, False]))
case("clamp/float64", lambda x: torch.clamp(x, -0.25, 0.25), D(2, 3), grad=True)
case("clamp/transposed", lambda x: torch.clamp(x.t(), -0.25, 0.25), R(2, 3))
case("clamp/err_no_bounds", lambda x: torch.clamp(x), R(2))
case("clamp/err_inplace_int_float", lambda x: x.clamp_(0.5), T([1, 2]))

COND = T([[True, False, True], [False, False, True]])
case("where/basic", lambda c, a, b: torch.where(c, a, b), COND, R(2, 3), R(2, 3), grad=True)
case("where/broadcast", lambda c, a, b: torch.where(c, a, b), T([True, False, True]), R(2, 1), R(3), grad=True)
case("where/broadcast_condition", lambda c, a, b: torch.where(c, a, b), T([[True], [False]]), R(3), R(2, 3),
     grad=True)
case("where/promote", lambda c, a, b: torch.where(c, a, b), T([True, False]), T([1, 2]), R(2))
case("where/int", lambda c, a, b: torch.where(c, a, b), T([True, False]), T([1, 2]), T([3, 4]))
case("where/float64", lambda c, a, b: torch.where(c, a, b), COND, D(2, 3), D(2, 3), grad=True)
case("where/method", lambda c, a, b: a.where(c, b), COND, R(2, 3), R(2, 3))
case("where/err_condition", lambda c, a, b: torch.where(c, a, b), R(2), R(2), R(2))
case("where/err_shapes", lambda c, a, b: torch.where(c, a, b), T([True, False]), R(3), R(2))

# ---- group 3: comparisons, masks and indexing ------------------------------------------------
CMP_A = T([[1.0, 2.0, 3.0], [4.0, nan, 6.0]])
CMP_B = T([1.0, 5.0, 3.0])
for op in ("eq", "ne", "lt", "le", "gt", "ge"):
    case(f"{op}/tensor", lambda a, b, op=op: getattr(torch, op)(a, b), CMP_A, CMP_B)
    case(f"{op}/scalar", lambda a, op=op: getattr(torch, op)(a, 3.0), CMP_A)
    case(f"{op}/int_float_scalar", lambda a, op=op: getattr(torch, op)(a, 1.5), T([1, 2, 3]))
    case(f"{op}/int_vs_float", lambda a, b, op=op: getattr(torch, op)(a, b), T([1, 2, 3]), T([1.0, 2.5, 2.0]))
    case(f"{op}/bool", lambda a, b, op=op: getattr(torch, op)(a, b), T([True, False]), T([[True], [False]]))
    case(f"{op}/transposed", lambda a, b, op=op: getattr(torch, op)(a.t(), b), R(3, 2), R(3))
    case(f"{op}/err_shapes", lambda a, b, op=op: getattr(torch, op)(a, b), R(2, 3), R(2))
case("eq/grad_input_gives_no_grad_fn", lambda a, b: torch.eq(a, b), R(3), R(3), grad=True)
case("equal/same", lambda a, b: torch.equal(a, b), CMP_B, CMP_B.clone())
case("equal/different", lambda a, b: torch.equal(a, b), CMP_B, T([1.0, 5.0, 3.5]))
case("equal/shapes", lambda a, b: torch.equal(a, b), CMP_B, T([[1.0, 5.0, 3.0]]))
case("equal/nan", lambda a: torch.equal(a, a), CMP_A)
case("equal/dtypes", lambda a, b: torch.equal(a, b), T([1.0, 2.0]), T([1, 2]))
case("equal/transposed", lambda a: torch.equal(a.t(), a.t().contiguous()), R(2, 3))
ISC_A = T([1.0, 1.0 + 1e-6, 2.0, inf, -inf, nan, 0.0, 1e-9])
ISC_B = T([1.0, 1.0, 2.1, inf, inf, nan, 1e-9, 0.0])
case("isclose/default", lambda a, b: torch.isclose(a, b), ISC_A, ISC_B)
case("isclose/equal_nan", lambda a, b: torch.isclose(a, b, equal_nan=True), ISC_A, ISC_B)
case("isclose/tolerances", lambda a, b: torch.isclose(a, b, rtol=0.1, atol=0.01), ISC_A, ISC_B)
case("isclose/zero_tolerances", lambda a, b: torch.isclose(a, b, rtol=0, atol=0), ISC_A, ISC_B)
case("isclose/int", lambda a, b: torch.isclose(a, b, atol=1), T([1, 5, 10]), T([2, 7, 10]))
case("isclose/broadcast", lambda a, b: torch.isclose(a, b), R(2, 3), R(3))
case("isclose/err_dtypes", lambda a, b: torch.isclose(a, b), R(2), T([1, 2]))
case("isclose/err_rtol", lambda a, b: torch.isclose(a, b, rtol=-1), R(2), R(2))
case("allclose/true", lambda a, b: torch.allclose(a, b), T([1.0, 2.0]), T([1.0 + 1e-7, 2.0]))
case("allclose/false", lambda a, b: torch.allclose(a, b), T([1.0, 2.0]), T([1.0, 2.1]))
case("allclose/nan", lambda a, b: torch.allclose(a, b), T([nan]), T([nan]))
case("allclose/equal_nan", lambda a, b: torch.allclose(a, b, equal_nan=True), T([nan]), T([nan]))
case("allclose/atol", lambda a, b: torch.allclose(a, b, atol=0.2), T([1.0, 2.0]), T([1.1, 2.0]))
case("isfinite/float", lambda a: torch.isfinite(a), SPECIAL)
case("isfinite/int", lambda a: torch.isfinite(a), T([1, 2]))
case("isnan/float", lambda a: torch.isnan(a), SPECIAL)
case("isnan/int", lambda a: torch.isnan(a), T([1, 2]))
case("logical_not/float", lambda a: torch.logical_not(a), T([0.0, 1.5, -0.0, nan]))
case("logical_not/int", lambda a: torch.logical_not(a), T([0, 3]))
case("logical_not/bool", lambda a: torch.logical_not(a), T([True, False]))
case("logical_not/inplace_float", lambda a: a.logical_not_(), T([0.0, 1.5, -2.0]))
case("logical_not/inplace_bool", lambda a: a.logical_not_(), T([True, False]))
case("logical_and/basic", lambda a, b: torch.logical_and(a, b), T([0.0, 1.0, 2.0, nan]), T([1, 0, 3, 1]))
case("logical_or/basic", lambda a, b: torch.logical_or(a, b), T([0.0, 1.0, 0.0]), T([[False], [True]]))
case("all/true", lambda a: torch.all(a), T([1.0, 2.0, nan]))
case("all/false", lambda a: torch.all(a), T([[True, False]]))
case("all/empty", lambda a: torch.all(a), R(0))
case("any/false", lambda a: torch.any(a), T([0, 0]))
case("any/true", lambda a: torch.any(a), T([0.0, -0.5]))
case("any/empty", lambda a: torch.any(a), R(0))
case("nonzero/2d", lambda a: torch.nonzero(a), T([[0.0, 1.0], [2.0, 0.0], [0.0, 3.0]]))
case("nonzero/bool_1d", lambda a: torch.nonzero(a), T([True, False, True]))
case("nonzero/none", lambda a: torch.nonzero(a), T([0, 0]))
case("nonzero/0d", lambda a: torch.nonzero(a), T(2.0))

MASK23 = T([[True, False, True], [False, False, True]])
case("masked_fill_/basic", lambda x, m: x.clone().masked_fill_(m, -1.5), R(2, 3), MASK23, grad=[0])
case("masked_fill_/broadcast_mask", lambda x, m: x.clone().masked_fill_(m, 0), R(2, 3), T([True, False, True]),
     grad=[0])
case("masked_fill_/int_float_value", lambda x, m: x.masked_fill_(m, 2.5), T([[1, 2, 3], [4, 5, 6]]), MASK23)
case("masked_fill_/0d_mask", lambda x, m: x.masked_fill_(m, 9), R(2, 3), T(True))
case("masked_fill_/err_shape", lambda x, m: x.masked_fill_(m, 0), R(2), T([[True, False], [True, True]]))
case("masked_fill_/err_mask_shape", lambda x, m: x.masked_fill_(m, 0), R(2, 3), T([True, False]))
case("masked_fill/basic", lambda x, m: x.masked_fill(m, 3.0), R(2, 3), MASK23, grad=[0])
case("masked_fill/broadcast_self", lambda x, m: x.masked_fill(m, 0.5), R(3), MASK23, grad=[0])
case("masked_fill/transposed", lambda x, m: x.t().masked_fill(m, 0.5), R(3, 2), MASK23, grad=[0])

IX = R(4, 3, 2)
case("index/long_dim0", lambda x, i: torch.ops.aten.index(x, [i]), IX, T([2, 0, -1]), grad=[0])
case("index/long_repeat", lambda x, i: torch.ops.aten.index(x, [i]), IX, T([1, 1, 1]), grad=[0])
case("index/long_2d_index", lambda x, i: torch.ops.aten.index(x, [i]), IX, T([[0, 1], [3, 3]]), grad=[0])
case("index/two_adjacent", lambda x, i, j: torch.ops.aten.index(x, [i, j]), IX, T([0, 3]), T([2, 1]), grad=[0])
case("index/broadcast", lambda x, i, j: torch.ops.aten.index(x, [i, j]), IX, T([[0], [3]]), T([2, 1, 0]), grad=[0])
case("index/slice_then_index", lambda x, i: torch.ops.aten.index(x, [None, i]), IX, T([2, 0]), grad=[0])
case("index/non_adjacent", lambda x, i, j: torch.ops.aten.index(x, [i, None, j]), IX, T([0, 3]), T([1, 0]),
     grad=[0])
case("index/mask", lambda x, m: torch.ops.aten.index(x, [m]), IX, T([True, False, True, True]), grad=[0])
case("index/mask_2d", lambda x, m: torch.ops.aten.index(x, [m]), R(2, 3), MASK23, grad=[0])
case("index/mask_after_slice", lambda x, m: torch.ops.aten.index(x, [None, m]), IX, T([False, True, True]),
     grad=[0])
case("index/mask_all_false", lambda x, m: torch.ops.aten.index(x, [m]), R(3), T([False, False, False]))
case("index/int", lambda x, i: torch.ops.aten.index(x, [i]), T([10, 20, 30]), T([2, 2, 0]))
case("index/transposed", lambda x, i: torch.ops.aten.index(x.t(), [i]), R(3, 4), T([3, 0]), grad=[0])
case("index/float64", lambda x, i: torch.ops.aten.index(x, [i]), D(3, 2), T([0, 2]), grad=[0])
case("index/err_bounds", lambda x, i: torch.ops.aten.index(x, [i]), R(3), T([5]))
case("index/err_bounds_second", lambda x, i: torch.ops.aten.index(x, [None, i]), R(2, 3), T([3]))
case("index/err_negative_bounds", lambda x, i: torch.ops.aten.index(x, [i]), R(3), T([-4]))
case("index/err_dtype", lambda x, i: torch.ops.aten.index(x, [i]), R(3), T([0.5]))
case("index/err_too_many", lambda x, i, j, k: torch.ops.aten.index(x, [i, j, k]), R(2, 3), T([0]), T([0]), T([0]))
case("index/err_mask_shape", lambda x, m: torch.ops.aten.index(x, [m]), R(2, 3), T([True, False, True]))
case("index/err_broadcast", lambda x, i, j: torch.ops.aten.index(x, [i, j]), R(2, 3), T([0, 1]), T([0, 1, 2]))

def setitem(x, m, v):
    y = x.clone()
    y[m] = v
    return y

case("index_put_/mask_scalar_value", lambda x, m, v: setitem(x, m, v), R(2, 3), MASK23, T(0.0), grad=[0, 2])
case("index_put_/mask_values", lambda x, m, v: x.clone().index_put_((m,), v), R(2, 3), MASK23, R(3), grad=[0, 2])
case("index_put_/long_rows", lambda x, i, v: x.clone().index_put_((i,), v), R(4, 3), T([3, 0]), R(2, 3), grad=[0, 2])
case("index_put_/broadcast_values", lambda x, i, v: x.clone().index_put_((i,), v), R(4, 3), T([3, 0]), R(3),
     grad=[0, 2])
case("index_put_/accumulate_duplicates", lambda x, i, v: x.clone().index_put_((i,), v, accumulate=True), R(4),
     T([1, 1, 3]), R(3), grad=[0, 2])
case("index_put_/two_indices", lambda x, i, j, v: x.clone().index_put_((i, j), v), R(3, 4), T([0, 2]), T([3, 1]),
     R(2), grad=[0, 3])
case("index_put_/slice_then_index", lambda x, i, v: torch.ops.aten.index_put_(x.clone(), [None, i], v), R(3, 4), T([0, 2]),
     R(3, 2), grad=[0, 2])
case("index_put_/int", lambda x, m, v: x.index_put_((m,), v), T([1, 2, 3]), T([True, False, True]), T(7))
case("index_put/functional", lambda x, i, v: torch.index_put(x, (i,), v), R(4), T([1, 2]), R(2), grad=[0, 2])
case("index_put/accumulate", lambda x, i, v: torch.index_put(x, (i,), v, True), R(4), T([2, 2]), R(2), grad=[0, 2])
case("index_put_/err_dtype", lambda x, i, v: x.index_put_((i,), v), R(2, 3), T([0]), T([1, 2, 3]))
case("index_put_/err_values_shape", lambda x, i, v: x.index_put_((i,), v), R(2, 3), T([0]), R(2))
case("index_put_/err_bounds", lambda x, i, v: x.index_put_((i,), v), R(2, 3), T([2]), R(3))
case("_index_put_impl_/direct", lambda x, i, v: torch._index_put_impl_(x.clone(), (i,), v), R(3), T([0]), R(1),
     grad=[0, 2])

case("index_select/dim0", lambda x, i: torch.index_select(x, 0, i), R(4, 3), T([3, 0, 3]), grad=True)
case("index_select/dim1", lambda x, i: x.index_select(1, i), R(4, 3), T([2, 0, 2]), grad=True)
case("index_select/err_negative", lambda x, i: x.index_select(0, i), R(4, 3), T([-1]))
case("index_select/err_dim1_bounds", lambda x, i: x.index_select(1, i), R(4, 3), T([3]))
case("index_select/err_dim1_3d", lambda x, i: x.index_select(1, i), R(4, 3, 2), T([-1]))
case("index_select/err_last_dim_3d", lambda x, i: x.index_select(2, i), R(4, 3, 2), T([2]))
case("index_select/dim_neg", lambda x, i: x.index_select(-1, i), R(2, 3, 4), T([1]), grad=True)
case("index_select/0d_index", lambda x, i: x.index_select(1, i), R(2, 3), T(2), grad=True)
case("index_select/empty_index", lambda x, i: x.index_select(0, i), R(2, 3), T([], dtype=torch.int64))
case("index_select/scalar_self", lambda x, i: x.index_select(0, i), R(), T([0]))
case("index_select/transposed", lambda x, i: x.t().index_select(0, i), R(3, 2), T([1]), grad=True)
case("index_select/int", lambda x, i: x.index_select(0, i), T([5, 6, 7]), T([2, 0]))
case("index_select/err_bounds", lambda x, i: x.index_select(0, i), R(2, 3), T([5]))
case("index_select/err_dtype", lambda x, i: x.index_select(0, i), R(2, 3), T([0.0]))
case("index_select/err_2d_index", lambda x, i: x.index_select(0, i), R(2, 3), T([[0]]))
case("index_select/err_dim", lambda x, i: x.index_select(2, i), R(2, 3), T([0]))
case("index_add_/dim0", lambda x, i, s: x.clone().index_add_(0, i, s), R(4, 3), T([3, 0, 3]), R(3, 3), grad=True)
case("index_add_/dim1_alpha", lambda x, i, s: x.clone().index_add_(1, i, s, alpha=-2), R(2, 3), T([2, 0]), R(2, 2),
     grad=True)
case("index_add_/0d", lambda x, i, s: x.clone().index_add_(0, i, s), R(), T([0]), R(), grad=True)
case("index_add_/int", lambda x, i, s: x.index_add_(0, i, s), T([1, 2, 3]), T([1, 1]), T([10, 20]))
case("index_add/functional", lambda x, i, s: torch.index_add(x, 0, i, s), R(3, 2), T([2]), R(1, 2), grad=True)
case("index_add_/err_bounds", lambda x, i, s: x.index_add_(0, i, s), R(3), T([3]), R(1))
case("index_add_/err_negative", lambda x, i, s: x.index_add_(0, i, s), R(3), T([-1]), R(1))
case("index_add_/err_count", lambda x, i, s: x.index_add_(0, i, s), R(3), T([0, 1]), R(1))
case("index_add_/err_dtype", lambda x, i, s: x.index_add_(0, i, s), R(3), T([0]), D(1))
case("index_add_/err_shape", lambda x, i, s: x.index_add_(0, i, s), R(3, 2), T([0]), R(1, 3))

# ---- group 4: reductions ---------------------------------------------------------------------
RED = R(3, 4)
TIES = T([[1.0, 5.0, 5.0, 2.0], [3.0, 3.0, -1.0, 0.0]])
WITH_NAN = T([[1.0, 5.0, 5.0], [nan, 2.0, 0.0]])
for op in ("max", "min"):
    f = getattr(torch, op)
    case(f"{op}/all", lambda x, f=f: f(x), RED, grad=True)
    case(f"{op}/all_ties", lambda x, f=f: f(x), TIES, grad=True)
    case(f"{op}/all_nan", lambda x, f=f: f(x), WITH_NAN)
    case(f"{op}/all_int", lambda x, f=f: f(x), T([[3, -1], [7, 2]]))
    case(f"{op}/all_bool", lambda x, f=f: f(x), T([True, False]))
    case(f"{op}/all_0d", lambda x, f=f: f(x), R(), grad=True)
    case(f"{op}/dim1", lambda x, f=f: f(x, 1), RED, grad=True)
    case(f"{op}/dim0_keepdim", lambda x, f=f: f(x, 0, keepdim=True), RED, grad=True)
    case(f"{op}/dim_ties", lambda x, f=f: f(x, 1), TIES, grad=True)
    case(f"{op}/dim_nan", lambda x, f=f: f(x, 1), WITH_NAN)
    case(f"{op}/dim_neg_3d", lambda x, f=f: f(x, -2), R(2, 3, 2), grad=True)
    case(f"{op}/dim_int", lambda x, f=f: f(x, 0), T([[3, -1], [7, 2]]))
    case(f"{op}/dim_0d", lambda x, f=f: f(x, 0), R(), grad=True)
    case(f"{op}/dim_transposed", lambda x, f=f: f(x.t(), 1), RED, grad=True)
    case(f"{op}/dim_empty_other_dim", lambda x, f=f: f(x, 1), R(0, 3))
    case(f"{op}/err_all_empty", lambda x, f=f: f(x), R(0))
    case(f"{op}/err_dim_empty", lambda x, f=f: f(x, 0), R(0, 3))
    case(f"{op}/err_dim", lambda x, f=f: f(x, 2), RED)
for op in ("argmax", "argmin"):
    f = getattr(torch, op)
    case(f"{op}/all", lambda x, f=f: f(x), RED)
    case(f"{op}/ties", lambda x, f=f: f(x), TIES)
    case(f"{op}/nan", lambda x, f=f: f(x, 1), WITH_NAN)
    case(f"{op}/dim1", lambda x, f=f: f(x, 1), RED)
    case(f"{op}/dim0_keepdim", lambda x, f=f: f(x, 0, keepdim=True), RED)
    case(f"{op}/int", lambda x, f=f: f(x), T([3, 9, 9, -2]))
    case(f"{op}/err_empty", lambda x, f=f: f(x), R(0))
PROD_IN = R(2, 3, lo=0.5, hi=2)
case("prod/all", lambda x: torch.prod(x), PROD_IN, grad=True)
case("prod/one_zero", lambda x: torch.prod(x), T([2.0, 0.0, 3.0]), grad=True)
case("prod/two_zeros", lambda x: torch.prod(x), T([0.0, 0.0, 3.0]), grad=True)
case("prod/int", lambda x: torch.prod(x), T([1, 2, 3, 4]))
case("prod/bool", lambda x: torch.prod(x), T([True, True]))
case("prod/dtype", lambda x: torch.prod(x, dtype=torch.float64), T([2.0, 3.0]))
case("prod/0d", lambda x: torch.prod(x), R(), grad=True)
case("prod/dim1", lambda x: torch.prod(x, 1), PROD_IN, grad=True)
case("prod/dim0_keepdim", lambda x: torch.prod(x, 0, keepdim=True), PROD_IN, grad=True)
case("prod/dim_zeros", lambda x: torch.prod(x, 1), T([[2.0, 0.0, 3.0], [0.0, 0.0, 1.0], [1.0, 2.0, 3.0]]), grad=True)
case("prod/dim_int", lambda x: torch.prod(x, 0), T([[1, 2], [3, 4]]))
case("prod/dim_transposed", lambda x: torch.prod(x.t(), 0), PROD_IN, grad=True)
case("prod/err_dim", lambda x: torch.prod(x, 3), PROD_IN)
VAR_IN = R(3, 4)
for op in ("var", "std"):
    f = getattr(torch, op)
    case(f"{op}/all", lambda x, f=f: f(x), VAR_IN, grad=True)
    case(f"{op}/all_biased", lambda x, f=f: f(x, unbiased=False), VAR_IN, grad=True)
    case(f"{op}/dim1", lambda x, f=f: f(x, 1), VAR_IN, grad=True)
    case(f"{op}/dim0_keepdim", lambda x, f=f: f(x, 0, keepdim=True), VAR_IN, grad=True)
    case(f"{op}/dims", lambda x, f=f: f(x, [0, 2]), R(2, 3, 2), grad=True)
    case(f"{op}/correction0", lambda x, f=f: f(x, 1, correction=0), VAR_IN, grad=True)
    case(f"{op}/correction2", lambda x, f=f: f(x, None, correction=2), VAR_IN, grad=True)
    case(f"{op}/one_element", lambda x, f=f: f(x), T([1.0]))
    case(f"{op}/float64", lambda x, f=f: f(x, 0), D(3, 2), grad=True)
    case(f"{op}/transposed", lambda x, f=f: f(x.t(), 1), VAR_IN, grad=True)
    case(f"{op}/err_int", lambda x, f=f: f(x), T([1, 2, 3]))
    case(f"{op}/err_dim", lambda x, f=f: f(x, 2), VAR_IN)
case("std/constant", lambda x: torch.std(x), T([2.0, 2.0, 2.0]), grad=True)
NORM_IN = R(3, 4)
case("norm/default", lambda x: torch.norm(x), NORM_IN, grad=True)
case("norm/Scalar_p2", lambda x: torch._C._VariableFunctions.norm(x), NORM_IN, grad=True)
case("norm/Scalar_p1", lambda x: torch._C._VariableFunctions.norm(x, 1), NORM_IN, grad=True)
case("norm/Scalar_p3", lambda x: torch._C._VariableFunctions.norm(x, 3), NORM_IN, grad=True)
case("norm/Scalar_inf", lambda x: torch._C._VariableFunctions.norm(x, inf), T([3.0, -4.0, 4.0, 1.0]), grad=True)
case("norm/Scalar_0", lambda x: torch._C._VariableFunctions.norm(x, 0), T([3.0, 0.0, 4.0]), grad=True)
case("norm/Scalar_half", lambda x: torch._C._VariableFunctions.norm(x, 0.5), R(4, lo=0.2, hi=2), grad=True)
case("norm/Scalar_zero_vector", lambda x: torch._C._VariableFunctions.norm(x), T([0.0, 0.0]), grad=True)
case("norm/dim1", lambda x: torch.norm(x, dim=1), NORM_IN, grad=True)
case("norm/dim0_p1_keepdim", lambda x: torch.norm(x, p=1, dim=0, keepdim=True), NORM_IN, grad=True)
case("norm/dims_p3", lambda x: torch._C._VariableFunctions.norm(x, 3, [0, 1]), NORM_IN, grad=True)
case("norm/dim_p_none", lambda x: torch._C._VariableFunctions.norm(x, None, [1]), NORM_IN, grad=True)
case("norm/dim_inf", lambda x: torch._C._VariableFunctions.norm(x, -inf, [1]), NORM_IN, grad=True)
case("norm/float64", lambda x: torch.norm(x, dim=0), D(3, 2), grad=True)
case("norm/err_int", lambda x: torch._C._VariableFunctions.norm(x), T([1, 2]))
CS_IN = R(2, 3)
case("cumsum/dim0", lambda x: torch.cumsum(x, 0), CS_IN, grad=True)
case("cumsum/dim1", lambda x: torch.cumsum(x, 1), CS_IN, grad=True)
case("cumsum/dim_neg_3d", lambda x: torch.cumsum(x, -2), R(2, 3, 2), grad=True)
case("cumsum/int", lambda x: torch.cumsum(x, 0), T([1, 2, 3]))
case("cumsum/bool", lambda x: torch.cumsum(x, 0), T([True, True, False]))
case("cumsum/dtype", lambda x: torch.cumsum(x, 0, dtype=torch.float32), T([1, 2]))
case("cumsum/dtype_float64", lambda x: torch.cumsum(x, 0, dtype=torch.float64), R(3), grad=True)
case("cumsum/0d", lambda x: torch.cumsum(x, 0), R(), grad=True)
case("cumsum/transposed", lambda x: torch.cumsum(x.t(), 1), CS_IN, grad=True)
case("cumsum/err_dim", lambda x: torch.cumsum(x, 2), CS_IN)

# ---- group 5: joining, splitting and repeating ------------------------------------------------
case("cat/dim0", lambda a, b: torch.cat([a, b]), R(2, 3), R(1, 3), grad=True)
case("cat/dim1", lambda a, b, c: torch.cat([a, b, c], 1), R(2, 3), R(2, 1), R(2, 2), grad=True)
case("cat/dim_neg", lambda a, b: torch.cat([a, b], -1), R(2, 2, 1), R(2, 2, 3), grad=True)
case("cat/single", lambda a: torch.cat([a]), R(3), grad=True)
case("cat/legacy_empty", lambda a, b: torch.cat([a, b]), R(2, 3), R(0), grad=True)
case("cat/promote", lambda a, b: torch.cat([a, b]), T([1, 2]), R(2))
case("cat/int", lambda a, b: torch.cat([a, b]), T([1, 2]), T([3]))
case("cat/transposed", lambda a, b: torch.cat([a.t(), b.t()]), R(3, 2), R(3, 1), grad=True)
case("cat/only_grad_second", lambda a, b: torch.cat([a, b]), R(1, 2), R(2, 2), grad=[1])
case("cat/err_empty_list", lambda: torch.cat([]))
case("cat/err_sizes", lambda a, b: torch.cat([a, b]), R(2, 3), R(2, 4))
case("cat/err_ndim", lambda a, b: torch.cat([a, b]), R(2, 3), R(3))
case("cat/err_0d", lambda a, b: torch.cat([a, b]), R(), R())
case("cat/err_dim", lambda a, b: torch.cat([a, b], 2), R(2, 3), R(2, 3))
case("stack/dim0", lambda a, b: torch.stack([a, b]), R(2, 3), R(2, 3), grad=True)
case("stack/dim_last", lambda a, b, c: torch.stack([a, b, c], 2), R(2, 3), R(2, 3), R(2, 3), grad=True)
case("stack/dim_neg", lambda a, b: torch.stack([a, b], -2), R(2, 3), R(2, 3), grad=True)
case("stack/0d", lambda a, b: torch.stack([a, b]), R(), R(), grad=True)
case("stack/promote", lambda a, b: torch.stack([a, b]), T([1, 2]), R(2))
case("stack/err_empty_list", lambda: torch.stack([]))
case("stack/err_sizes", lambda a, b: torch.stack([a, b]), R(2, 3), R(2, 4))
case("stack/err_dim", lambda a, b: torch.stack([a, b], 3), R(2, 3), R(2, 3))
SPL = R(5, 3)
case("split/dim0", lambda x: torch.split(x, 2), SPL, grad=True)
case("split/dim1", lambda x: x.split(2, 1), SPL, grad=True)
case("split/exact", lambda x: x.split(1, 1), SPL, grad=True)
case("split/larger_than_dim", lambda x: x.split(10), SPL, grad=True)
case("split/one_piece_used", lambda x: x.split(2)[1], SPL, grad=True)
case("split/empty_dim", lambda x: x.split(0), R(0, 3))
case("split/err_0d", lambda x: x.split(1), R())
case("split/err_zero_size", lambda x: x.split(0, 1), SPL)
case("split_with_sizes/dim0", lambda x: x.split_with_sizes([1, 4]), SPL, grad=True)
case("split_with_sizes/dim1_zero_piece", lambda x: x.split_with_sizes([2, 0, 1], 1), SPL, grad=True)
case("split_with_sizes/err_sum", lambda x: x.split_with_sizes([1, 1], 1), SPL)
case("chunk/dim0", lambda x: torch.chunk(x, 2), SPL, grad=True)
case("chunk/dim1", lambda x: x.chunk(3, 1), SPL, grad=True)
case("chunk/more_than_size", lambda x: x.chunk(4, 1), SPL, grad=True)
case("chunk/uneven", lambda x: x.chunk(4), SPL, grad=True)
case("chunk/empty", lambda x: x.chunk(3), R(0))
case("chunk/err_0d", lambda x: x.chunk(2), R())
case("chunk/err_chunks", lambda x: x.chunk(0), SPL)
case("unbind/dim0", lambda x: torch.unbind(x), R(3, 2), grad=True)
case("unbind/dim1", lambda x: x.unbind(1), R(3, 2), grad=True)
case("unbind/err_0d", lambda x: x.unbind(), R())
REP = R(2, 3)
case("repeat/same_rank", lambda x: x.repeat(2, 1), REP, grad=True)
case("repeat/both", lambda x: x.repeat(3, 2), REP, grad=True)
case("repeat/new_dims", lambda x: x.repeat(2, 1, 2), REP, grad=True)
case("repeat/zero", lambda x: x.repeat(0, 2), REP, grad=True)
case("repeat/0d", lambda x: x.repeat(3), R(), grad=True)
case("repeat/transposed", lambda x: x.t().repeat(1, 2), REP, grad=True)
case("repeat/int", lambda x: x.repeat(2), T([1, 2]))
case("repeat/err_rank", lambda x: x.repeat(2), REP)
case("movedim/basic", lambda x: torch.movedim(x, 0, 2), R(2, 3, 4), grad=True)
case("movedim/neg", lambda x: x.movedim(-1, 0), R(2, 3, 4), grad=True)
case("movedim/same", lambda x: x.movedim(1, 1), R(2, 3), grad=True)
case("movedim/0d", lambda x: x.movedim(0, -1), R(), grad=True)
case("movedim/err_dim", lambda x: x.movedim(0, 2), R(2, 3))
case("unsqueeze_/dim0", lambda x: x.clone().unsqueeze_(0), R(2, 3), grad=True)
case("unsqueeze_/dim_last", lambda x: x.clone().unsqueeze_(-1), R(2, 3), grad=True)
case("unsqueeze_/transposed", lambda x: x.t().clone().unsqueeze_(1), R(2, 3), grad=True)
case("unsqueeze_/err_dim", lambda x: x.unsqueeze_(5), R(2, 3))
case("index_copy_/dim0", lambda x, i, s: x.clone().index_copy_(0, i, s), R(4, 3), T([3, 0]), R(2, 3), grad=True)
case("index_copy_/dim1", lambda x, i, s: x.clone().index_copy_(1, i, s), R(2, 3), T([2, 0]), R(2, 2), grad=True)
case("index_copy_/0d_source", lambda x, i, s: x.clone().index_copy_(0, i, s), R(3), T([1]), R(), grad=True)
case("index_copy_/int", lambda x, i, s: x.index_copy_(0, i, s), T([1, 2, 3]), T([2]), T([9]))
case("index_copy/functional", lambda x, i, s: torch.index_copy(x, 0, i, s), R(3, 2), T([1]), R(1, 2), grad=True)
case("index_copy_/err_bounds", lambda x, i, s: x.index_copy_(0, i, s), R(3, 2), T([5]), R(1, 2))
case("index_copy_/err_negative", lambda x, i, s: x.index_copy_(0, i, s), R(3, 2), T([-1]), R(1, 2))
case("index_copy_/err_slices", lambda x, i, s: x.index_copy_(0, i, s), R(3, 2), T([0]), R(1, 3))
case("index_copy_/err_count", lambda x, i, s: x.index_copy_(0, i, s), R(3, 2), T([0, 1]), R(1, 2))
case("index_copy_/err_dtype", lambda x, i, s: x.index_copy_(0, i, s), R(3, 2), T([0]), D(1, 2))

# ---- group 6: factories ------------------------------------------------------------------------
case("linspace/basic", lambda: torch.linspace(0, 1, 5))
case("linspace/symmetric", lambda: torch.linspace(-1, 1, 7))
case("linspace/float64", lambda: torch.linspace(0.1, 0.7, 4, dtype=torch.float64))
case("linspace/decreasing", lambda: torch.linspace(2, 1, 4))
case("linspace/one_step", lambda: torch.linspace(3, 5, 1))
case("linspace/zero_steps", lambda: torch.linspace(0, 1, 0))
case("linspace/int", lambda: torch.linspace(0, 10, 5, dtype=torch.int64))
case("linspace/int_negative", lambda: torch.linspace(-7, 3, 4, dtype=torch.int64))
case("linspace/err_steps", lambda: torch.linspace(0, 1, -1))
case("linspace/err_bool", lambda: torch.linspace(0, 1, 3, dtype=torch.bool))
case("logspace/basic", lambda: torch.logspace(0, 2, 3))
case("logspace/base2", lambda: torch.logspace(-1, 1, 5, base=2))
case("logspace/float64", lambda: torch.logspace(0, 1, 4, dtype=torch.float64))
case("logspace/int", lambda: torch.logspace(0, 3, 4, dtype=torch.int64))
case("logspace/one_step", lambda: torch.logspace(2, 5, 1))
case("logspace/err_steps", lambda: torch.logspace(0, 1, -2))
case("eye/square", lambda: torch.eye(3))
case("eye/rect", lambda: torch.eye(2, 4))
case("eye/tall_int", lambda: torch.eye(3, 2, dtype=torch.int64))
case("eye/bool", lambda: torch.eye(2, dtype=torch.bool))
case("eye/zero", lambda: torch.eye(0))
case("eye/err_n", lambda: torch.eye(-1))
case("eye/err_m", lambda: torch.eye(2, -1))
case("scalar_tensor/int", lambda: torch.scalar_tensor(3))
case("scalar_tensor/bool", lambda: torch.scalar_tensor(True))
case("scalar_tensor/dtype", lambda: torch.scalar_tensor(2.5, dtype=torch.float64))
case("scalar_tensor/int_dtype", lambda: torch.scalar_tensor(7, dtype=torch.int64))
case("rand_like/float", lambda x: torch.rand_like(x), R(2, 3), values=False)
case("rand_like/transposed", lambda x: torch.rand_like(x.t()), R(2, 3), values=False)
case("rand_like/dtype", lambda x: torch.rand_like(x, dtype=torch.float64), T([1, 2]), values=False)
case("rand_like/err_int", lambda x: torch.rand_like(x), T([1, 2]))
case("randn_like/float", lambda x: torch.randn_like(x), R(3), values=False)
case("randn_like/err_int", lambda x: torch.randn_like(x), T([1, 2]))
case("randint/high", lambda: torch.randint(5, (2, 3)), values=False)
case("randint/low_high", lambda: torch.randint(-3, 3, (4,)), values=False)
case("randint/float_dtype", lambda: torch.randint(5, (2,), dtype=torch.float32), values=False)
case("randint/err_range", lambda: torch.randint(5, 5, (2,)))
case("randint/err_negative_high", lambda: torch.randint(-3, (2,)))
case("random_/from_to", lambda x: x.clone().random_(0, 5), R(2, 3), grad=True, values=False)
case("random_/err_range", lambda x: x.random_(3, 2), R(2))
case("normal/Tensor_float", lambda m: torch.normal(m, 2.0), R(2, 3), grad=True, values=False)
case("normal/float_Tensor", lambda s: torch.normal(1.0, s), R(3, lo=0.1, hi=1), grad=True, values=False)
case("normal/Tensor_Tensor", lambda m, s: torch.normal(m, s), R(2, 3), R(3, lo=0.1, hi=1), grad=True, values=False)
case("normal/float_float", lambda: torch.normal(0.0, 1.0, (2, 3)), values=False)
case("normal/float_float_dtype", lambda: torch.normal(0.0, 1.0, (4,), dtype=torch.float64), values=False)
case("normal/zero_std", lambda m: torch.normal(m, 0.0), R(4))
case("normal/err_std", lambda m: torch.normal(m, -1.0), R(2))
case("normal/err_std_tensor", lambda s: torch.normal(0.0, s), T([1.0, -1.0]))
case("normal/err_int_mean", lambda m: torch.normal(m, 1.0), T([1, 2]))
case("normal/err_shapes", lambda m, s: torch.normal(m, s), R(2, 3), R(5, lo=0.1, hi=1))
NEW_SELF = R(2, 3)
case("new_zeros/basic", lambda x: x.new_zeros((2, 2)), NEW_SELF)
case("new_zeros/int_self", lambda x: x.new_zeros(3), T([1, 2]))
case("new_ones/dtype", lambda x: x.new_ones(2, dtype=torch.int64), NEW_SELF)
case("new_ones/bool_self", lambda x: x.new_ones((1, 2)), T([True]))
case("new_full/basic", lambda x: x.new_full((2,), 3), NEW_SELF)
case("new_full/float_into_int", lambda x: x.new_full((2,), 2.5), T([1, 2]))
case("new_empty/basic", lambda x: x.new_empty((3, 2)), NEW_SELF, values=False)
case("new_empty/from_transposed", lambda x: x.t().new_empty((3, 2)), NEW_SELF, values=False)

# ---- remainder and one_hot ---------------------------------------------------------------------
case("remainder/scalar_int", lambda x: x % 3, T([5, -5, 3, 0]))
case("remainder/scalar_float", lambda x: torch.remainder(x, 3), T([5.5, -5.5, 3.0, -0.0]), grad=True)
case("remainder/negative_divisor", lambda x: x % -3, T([5, -5, 4]))
case("remainder/int_by_float", lambda x: x % 2.5, T([5, -5, 7]))
case("remainder/tensor", lambda x, y: torch.remainder(x, y), R(2, 3), R(3, lo=0.5, hi=2), grad=True)
case("remainder/tensor_negative", lambda x, y: x % y, T([5.0, -5.0]), T([3.0, -3.0]), grad=True)
case("remainder/float_by_zero", lambda x: x % 0, T([5.0, -5.0]))
case("remainder/bool", lambda x: x % 2, T([True, False]))
case("remainder/inplace_scalar", lambda x: x.clone().remainder_(2), R(3), grad=True)
case("remainder/inplace_tensor", lambda x, y: x.clone().remainder_(y), R(3), R(3, lo=0.5, hi=1), grad=True)
case("remainder/err_int_by_zero", lambda x: x % 0, T([5, -5]))
case("one_hot/infer", lambda x: F.one_hot(x), T([0, 2]))
case("one_hot/classes", lambda x: F.one_hot(x, 4), T([[0, 3], [1, 1]]))
case("one_hot/0d", lambda x: F.one_hot(x, 3), T(1))
case("one_hot/empty", lambda x: F.one_hot(x, 3), T([], dtype=torch.int64))
case("one_hot/err_float", lambda x: F.one_hot(x), T([0.0, 2.0]))
case("one_hot/err_negative", lambda x: F.one_hot(x), T([-1, 2]))
case("one_hot/err_too_large", lambda x: F.one_hot(x, 3), T([0, 5]))
case("one_hot/err_empty", lambda x: F.one_hot(x), T([], dtype=torch.int64))

print(json.dumps({"cases": cases}, indent=None, separators=(",", ":")))
