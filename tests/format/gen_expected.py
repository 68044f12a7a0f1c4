#!/usr/bin/env python3
"""Generates expected_prints.json: what PyTorch 2.15 prints for a set of tensors.

Run: scripts/reference-python tests/format/gen_expected.py > tests/format/expected_prints.json
(the reference environment, scripts/reference-env; any other PyTorch version is refused).
Each tensor case holds sizes, values (row-major; non-finite as "inf"/"-inf"/"nan"),
dtype, device, requires_grad, grad_fn, is_meta and the expected repr. "floats" holds
Python float reprs. This machine has no CUDA, so device='cuda:0' cases run PyTorch's
own repr code with the device name patched in (see repr_on_device).
"""
import builtins
import json
import math
import random
import sys

import torch
import torch._tensor_str as tensor_str

if not torch.__version__.startswith("2.15."):
    sys.exit(f"{__file__}: expected PyTorch 2.15, this Python has {torch.__version__} (run it with scripts/reference-python)")

DTYPES = {torch.float32: "float32", torch.float64: "float64", torch.int64: "int64", torch.bool: "bool",
          torch.uint8: "uint8", torch.int16: "int16", torch.int32: "int32", torch.float16: "float16"}
cases = []


def enc(v):
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return v


def repr_on_device(t, device):
    """repr(t) as if t lived on `device`: the real suffix code, with str(device) patched."""
    orig = torch._C._get_default_device
    torch._C._get_default_device = lambda: "no-such-default"
    tensor_str.str = lambda x: device if isinstance(x, torch.device) else builtins.str(x)
    try:
        return repr(t)
    finally:
        torch._C._get_default_device = orig
        del tensor_str.str


def add(t, device="cpu"):
    meta = t.is_meta
    if meta:
        values = []
    elif t.dtype.is_floating_point:
        values = [enc(v) for v in t.detach().double().reshape(-1).tolist()]
    else:
        values = [int(v) for v in t.detach().reshape(-1).tolist()]
    expected = repr_on_device(t, device) if device != "cpu" else repr(t)
    cases.append({
        "sizes": list(t.shape), "values": values, "dtype": DTYPES[t.dtype],
        "device": "meta" if meta else device, "requires_grad": t.requires_grad,
        "grad_fn": type(t.grad_fn).__name__ if t.grad_fn is not None else "",
        "is_meta": meta, "expected": expected,
    })


T, inf, nan = torch.tensor, math.inf, math.nan
f64, i64 = torch.float64, torch.int64
torch.manual_seed(0)

# Float formats: int mode, fixed, scientific, and the thresholds between them.
for v in [[0., 1., 2.], [0.1, 2.5], [1e-5, 1e3], [1., 1000.], [1., 1001.], [1e8, 1.], [1.5e8],
          [1e-4, 1.], [0.00011, 0.5], [-1e-5, 5.], [123456.789, -0.5], [-3., 7., -12.]]:
    add(T(v))
# Non-finite values, zeros and negative zero.
for v in [[inf, nan, 1.], [inf, -inf], [nan], [0., 0.], [-0., 1.], [0., -0.], [inf, 1.5],
          [nan, 1e-5, 1.], [-inf, 1e5, 1.], [-0., 0.25]]:
    add(T(v))
# 0-d tensors.
for t in [T(3.), T(-2.5), T(0.), T(nan), T(1e-5), T(3), T(True), T(2., dtype=f64), T(-0.)]:
    add(t)
# Empty tensors.
for t in [T([]), torch.empty(0, 3), T([], dtype=i64), T([], dtype=torch.bool),
          T([], dtype=f64), torch.empty(2, 0, 3)]:
    add(t)
# int64, bool, float64.
for t in [T([1, 2, 3]), T([-5, 100, 7]), torch.randint(-1000, 1000, (5, 5)),
          T([123456789012, -1]), T([True, False]), T([[True, False], [False, True]]),
          T([1., 2.], dtype=f64), torch.randn(3, 3, dtype=f64), T([1e20, 1e-20], dtype=f64),
          T([1e300, -1.], dtype=f64), torch.arange(10).reshape(2, 5)]:
    add(t)
# The narrower dtypes: their suffix, and float16's rounding.
h, i32, i16, u8 = torch.float16, torch.int32, torch.int16, torch.uint8
for t in [T([1, 2], dtype=i32), T([[-7, 300], [1, 2]], dtype=i16), T([0, 255], dtype=u8), T(3, dtype=u8),
          T([], dtype=i32), T([0.1, 0.2], dtype=h), T([1000.5, -2.], dtype=h), T([1e-4, 3.], dtype=h),
          T([65504., inf], dtype=h), T(2.5, dtype=h), torch.empty(0, 2, dtype=h), torch.arange(1200, dtype=i32),
          torch.zeros(2, 2, dtype=i16), T([1., 2.], dtype=h, requires_grad=True)]:
    add(t)
# Random floats in 1-D..4-D, large and small magnitudes, line wrapping.
for t in [torch.randn(5), torch.randn(3, 4), torch.randn(2, 3, 4), torch.randn(2, 2, 2, 3),
          torch.rand(4, 4) * 1000, torch.randn(3, 3) * 1e-6, torch.randn(4) * 1e10,
          torch.randn(20), torch.randn(2, 30), torch.randn(3, 3) * 100, torch.randn(2, 2, 12),
          torch.arange(30.) * 1.5, torch.linspace(-1, 1, 25), torch.arange(1000.),
          torch.arange(6.).reshape(2, 3), torch.arange(24.).reshape(2, 3, 4),
          torch.arange(16.).reshape(2, 2, 2, 2) - 8]:
    add(t)
# Summarization (numel > 1000).
for t in [torch.arange(2000.), torch.ones(100, 100), torch.arange(1001.), torch.randn(20, 60),
          torch.randn(2, 3, 200), torch.randn(10, 10, 10, 2), torch.randn(8, 200) * 1e5,
          torch.arange(2000), torch.rand(40, 40) > 0.5, torch.randn(1001, dtype=f64)]:
    add(t)
# Autograd suffixes.
x = torch.randn(3, requires_grad=True)
w = torch.randn(4, 4, requires_grad=True)
for t in [x, x + 1, x * 2, x.sum(), w @ w, torch.randn(8, requires_grad=True),
          torch.randn(2, 7, requires_grad=True), (torch.randn(7, dtype=f64, requires_grad=True) * 3)]:
    add(t)
# Devices and meta tensors.
for t, dev in [(T([1., 2.]), "cuda:0"), (T([1., 2.], dtype=f64), "cuda:0"), (x * 2, "cuda:0"),
               (torch.randn(2, 7), "cuda:0"), (T(5), "cuda:1"), (T([]), "cuda:0")]:
    add(t, dev)
for t in [torch.empty(2, 3, device="meta"), torch.empty(5, device="meta"),
          torch.empty((), device="meta"), torch.empty(2, dtype=f64, device="meta"),
          torch.empty(4, dtype=i64, device="meta"), torch.empty(3, device="meta", requires_grad=True)]:
    add(t)

rng = random.Random(0)
floats = [0.1, 1 / 3, 1e16, 1e15, 123456789012345680.0, 1e-5, 0.0001, 5e-324, 1.7976931348623157e308,
          -0.0, 0.0, inf, -inf, nan, 2.5, 100.0, 1e22, 1.5e-7, float(torch.tensor(0.1)), -12345.678,
          9999999999999998.0]
floats += [rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30) for _ in range(20)]
# One case per line keeps the file small and diffs readable.
rows = lambda xs: ",\n  ".join(json.dumps(x) for x in xs)
float_cases = [{"value": enc(v), "expected": repr(v)} for v in floats]
print('{"tensors": [\n  ' + rows(cases) + '],\n "floats": [\n  ' + rows(float_cases) + "]}")
