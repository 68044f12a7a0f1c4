# sigmoid to the last bit, float32 and float64: PyTorch 2.15's CPU kernel computes it with SLEEF,
# a vector form for blocks of 16 floats / 8 doubles and std::exp for the rest of the row, and so
# does the project. exp, log, sin, cos, tan and tanh come from MKL's VML in PyTorch's PyPI build
# and from SLEEF here: ops_elementwise_vml_float32/float64 compare them within two units in the
# last place.
import hashlib
import struct
import torch
def digest(t):
    v = t.reshape(-1).tolist()
    fmt = "d" if t.dtype == torch.float64 else "f"
    return hashlib.sha256(struct.pack("<%d%s" % (len(v), fmt), *v)).hexdigest()[:16]
x = torch.linspace(-3, 3, 37)
for dt in (torch.float32, torch.float64):
    a = x.to(dt)
    print(dt)
    print("sigmoid", a.sigmoid().tolist())
    print(torch.sigmoid(a).sum().item(), torch.sigmoid(a)[3].item())
torch.manual_seed(0)
big = torch.randn(20003) * 4
for dt in (torch.float32, torch.float64):
    b = big.to(dt)
    print(dt, digest(b.sigmoid()), digest(b[::3].sigmoid()), digest(b.reshape(1, -1)[:, 7:].sigmoid()))
y = torch.linspace(-2, 2, 40)
print(y.clone().exp_().tolist() == y.exp().tolist(), y.clone().sigmoid_().tolist() == y.sigmoid().tolist())
print(torch.sigmoid(y[::2]).tolist())
