# torch.tensor and torch.as_tensor from NumPy: whole arrays (their dtype, a copy), NumPy scalars
# and lists holding them (each brings its dtype into the inference: np.float64 is float64,
# np.float32 float32), 0-d arrays, lists of arrays, dtype= conversions, as_tensor's shared
# memory, the errors for unsupported or negatively strided arrays, and the legacy Tensor.new.
import numpy as np
import torch


def show(label, f):
    try:
        t = f()
        print(label, t.dtype, tuple(t.shape), t.tolist())
    except Exception as e:
        print(label, type(e).__name__, e)


show("int8 array", lambda: torch.tensor(np.array([1, 2], dtype=np.int8)))
show("float64 array", lambda: torch.tensor(np.array([[1.5, 2]], dtype=np.float64)))
show("float32 array", lambda: torch.tensor(np.array([1.5], dtype=np.float32)))
show("bool array", lambda: torch.tensor(np.array([True, False])))
show("uint8 array", lambda: torch.tensor(np.arange(4, dtype=np.uint8).reshape(2, 2)))
show("transposed array", lambda: torch.tensor(np.arange(6.0).reshape(2, 3).T))
show("np.int8 scalar", lambda: torch.tensor(np.int8(-7)))
show("np.float64 scalar", lambda: torch.tensor(np.float64(1.5)))
show("np.float32 scalar", lambda: torch.tensor(np.float32(2.5)))
show("np.int64 scalar", lambda: torch.tensor(np.int64(3)))
show("np.bool_ scalar", lambda: torch.tensor(np.bool_(True)))
show("list with np.float64", lambda: torch.tensor([np.float64(1.5), 2]))
show("list with np.int32", lambda: torch.tensor([np.int32(1), 2]))
show("list with np.float32", lambda: torch.tensor([np.float32(1.0)]))
show("list with np.int8 and a bool", lambda: torch.tensor([np.int8(1), True]))
show("0-d array", lambda: torch.tensor(np.array(5)))
show("negative strides", lambda: torch.tensor(np.array([1, 2])[::-1]))
show("dtype=float32", lambda: torch.tensor(np.array([1.5, 2]), dtype=torch.float32))
show("dtype=int64", lambda: torch.tensor(np.array([1.7, -2.2]), dtype=torch.int64))
show("requires_grad", lambda: torch.tensor(np.array([1.0]), requires_grad=True))
a = np.array([1.0, 2.0])
t = torch.tensor(a)
a[0] = 5
print("copy", t.tolist())
s = torch.as_tensor(a)
a[1] = 7
print("as_tensor shares", s.tolist(), s.dtype)
print("as_tensor dtype", torch.as_tensor(a, dtype=torch.float32).tolist())
x = torch.ones(2)
print("as_tensor of a tensor", torch.as_tensor(x) is x, torch.as_tensor(x, dtype=torch.float64).dtype)
show("as_tensor list", lambda: torch.as_tensor([1, 2.5]))
show("as_tensor scalar", lambda: torch.as_tensor(np.float64(0.25)))
base = torch.ones(2, dtype=torch.float64)
show("Tensor.new()", lambda: base.new())
show("Tensor.new sizes", lambda: base.new(2, 3).zero_())
show("Tensor.new Size", lambda: base.new(torch.Size([1, 2])).zero_())
show("Tensor.new data", lambda: base.new([1, 2]))
show("Tensor.new tuple", lambda: base.new((2,)))
print("is_complex", torch.is_complex(base), base.is_complex())
