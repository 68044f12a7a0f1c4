import os
import warnings
import numpy as np
import torch
from torch.testing import assert_close, make_tensor


def check(label, actual, expected, **kw):
    try:
        assert_close(actual, expected, **kw)
        print(label, "ok")
    except Exception as e:
        print(label, type(e).__name__ + ":", str(e))


t = torch.tensor([1.0, 2.0, 3.0])
check("f32 close", t, t + torch.tensor([0.0, 1e-5, 0.0]))
check("f32 far", t, t + torch.tensor([0.0, 1e-3, 0.0]))
check("f64", t.double(), t.double() + 1e-7 * torch.tensor([0.0, 1.0, 5.0], dtype=torch.float64))
check("f16", t.half(), torch.tensor([1.0, 2.001, 3.01]).half())
check("bf16", t.bfloat16(), torch.tensor([1.0, 2.03, 3.1]).bfloat16())
check("int", torch.tensor([[1, 2], [3, 4]]), torch.tensor([[1, 2], [3, 7]]))
check("bool", torch.tensor([True, False]), torch.tensor([True, True]))
check("shape", torch.zeros(2), torch.zeros(3))
check("dtype", t, t.double())
check("no dtype check", t, t.double(), check_dtype=False)
check("int vs float", torch.tensor([1, 2]), torch.tensor([1.0, 2.5]), check_dtype=False)
check("device", torch.empty(2, device="meta"), torch.zeros(2))
n = torch.tensor([1.0, float("nan")])
check("nan", n, n.clone())
check("equal_nan", n, n.clone(), equal_nan=True)
check("inf", torch.tensor([float("inf")]), torch.tensor([float("-inf")]))
check("0-dim", torch.tensor(1.5), torch.tensor(1.6))
check("stride", torch.zeros(2, 3).t(), torch.zeros(3, 2), check_stride=True)
check("rtol only", t, t, rtol=1e-3)
check("tols", t, t + 0.01, rtol=0, atol=0.02)
check("tols fail", t, t + 0.01, rtol=1e-3, atol=1e-3)
check("scalars", [1.0, 1.0], [1.0 + 1e-8, 1.1])
check("ints", 3, 4)
check("int vs float", 1, 1.0)
check("bools", True, False)
check("none", None, 1)
check("list", [t, 1.0], [t, 1.5])
check("nested", [[1, 2], (3, [4, 5])], [[1, 2], (3, [4, 6])])
check("length", [1, 2], [1, 2, 3])
check("dict", {"a": t, "b": 2}, {"a": t + 1, "b": 2})
check("keys", {"a": 1, "b": 2}, {"a": 1, "c": 2})
check("numpy", np.array([1.0, 2.0]), np.array([1.0, 2.5]))
check("numpy scalar", np.float32(1.0), 1.0)
check("tensor vs numpy", t, np.array([1.0, 2.0, 3.0], dtype=np.float32))
check("msg str", t, t + 1, msg="custom message")
check("msg callable", [t], [t + 1], msg=lambda m: "PREFIX " + m)
check("strings", "a", "b")
check("allow_subclasses", torch.nn.Parameter(t), t, allow_subclasses=False)

torch.manual_seed(0)
for shape, dt, kw in [(5, torch.float32, {}), ((2, 3), torch.float64, dict(low=-1, high=1)), (4, torch.float16, {}),
                      (4, torch.bfloat16, dict(low=0)), (6, torch.int64, {}), (6, torch.int8, dict(low=-200, high=200)),
                      (6, torch.uint8, {}), (6, torch.int32, dict(low=-1.5, high=2.5, exclude_zero=True)),
                      ([6], torch.bool, {}), (3, torch.float32, dict(low=-1e39, high=1e39))]:
    print(dt, make_tensor(shape, dtype=dt, device="cpu", **kw).tolist())
nc = make_tensor(2, 3, dtype=torch.float32, device="cpu", noncontiguous=True, requires_grad=True)
print(nc.shape, nc.stride(), nc.is_contiguous(), nc.requires_grad, nc.tolist())
print(make_tensor(1, dtype=torch.float32, device="cpu", noncontiguous=True).stride())
for dt, kw in [(torch.float32, dict(low=3, high=2)), (torch.float32, dict(low=float("nan"))),
               (torch.uint8, dict(requires_grad=True)), (torch.uint8, dict(low=300, high=400)),
               (torch.float32, dict(noncontiguous=True, memory_format=torch.contiguous_format))]:
    try:
        make_tensor(2, dtype=dt, device="cpu", **kw)
    except ValueError as e:
        print("ValueError:", e)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    torch.testing.assert_allclose(torch.tensor([1.0, 2.0]), [1.0, 2.0001])
    print(make_tensor(2, dtype=torch.float32, device="cpu", low=1.5, high=1.5).tolist())
    try:
        torch.testing.assert_allclose(torch.tensor([1.0, float("nan")]), [1.0, 2.0])
    except AssertionError as e:
        print("AssertionError:", e)
    print([(x.category.__name__, str(x.message), os.path.basename(x.filename)) for x in w])
