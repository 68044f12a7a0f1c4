# exp, log, sin, cos, tan, tanh and sigmoid to the last bit, float32 and float64: PyTorch 2.15's
# CPU kernels compute the first six with MKL's VML (high-accuracy mode) in its PyPI build, and
# sigmoid with SLEEF (a vector form for blocks of 16 floats / 8 doubles, std::exp for the rest
# of the row).
import hashlib
import struct
import torch
def digest(t):
    v = t.reshape(-1).tolist()
    fmt = "d" if t.dtype == torch.float64 else "f"
    return hashlib.sha256(struct.pack("<%d%s" % (len(v), fmt), *v)).hexdigest()[:16]
x = torch.linspace(-3, 3, 37)
pos = torch.linspace(0.01, 20, 37)
for dt in (torch.float32, torch.float64):
    a, p = x.to(dt), pos.to(dt)
    print(dt)
    print("exp", a.exp().tolist())
    print("log", p.log().tolist())
    print("sin", a.sin().tolist())
    print("cos", a.cos().tolist())
    print("tan", a.tan().tolist())
    print("tanh", a.tanh().tolist())
    print("sigmoid", a.sigmoid().tolist())
    print(torch.exp(a).sum().item(), torch.tanh(a)[3].item())
torch.manual_seed(0)
big = torch.randn(20003) * 4
for dt in (torch.float32, torch.float64):
    b = big.to(dt)
    print(dt, digest(b.exp()), digest(b.abs().log()), digest(b.sin()), digest(b.cos()), digest(b.tan()),
          digest(b.tanh()), digest(b.sigmoid()))
y = torch.linspace(-2, 2, 40)
print(y.clone().exp_().tolist() == y.exp().tolist(), y.clone().sigmoid_().tolist() == y.sigmoid().tolist())
print(torch.sigmoid(y[::2]).tolist())
print(torch.tensor([0.5, 1.5]).exp().item() if False else torch.tensor(0.5).exp().item(), torch.tensor(2.0).log().item())
