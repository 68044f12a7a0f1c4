# asin, acos, atan, log2, log10 and erf, within two units in the last place of PyTorch 2.15's:
# its PyPI build computes them with MKL's VML (vsAsin ...), this project with SLEEF's 1-ulp
# functions, as PyTorch's builds without MKL do (Note [VML in PyTorch 2.15] in backends/cpu/vml.h).
# reference tolerance: rtol=2.4e-7 atol=1e-30
import torch

torch.manual_seed(0)
unit = torch.rand(300) * 2 - 1
pos = torch.rand(300) * 50 + 1e-3
wide = torch.randn(300) * 4
for name, data in (("asin", unit), ("acos", unit), ("atan", wide), ("log2", pos), ("log10", pos),
                   ("erf", wide)):
    f = getattr(torch, name)
    print(name, "float32", f(data).tolist())
    print(name, "float64", f(data.double()).tolist())
    print(name, "strided", f(data.view(20, 15).t()).flatten().tolist()[:40])
    print(name, "int", f(torch.tensor([1, 2, 4])).dtype, f(torch.tensor([1, 2, 4])).tolist())
    print(name, "float16", f(data[:12].half()).tolist())
edge = torch.tensor([0.0, -0.0, 1.0, -1.0, 2.0, 1e-30, 1024.0, float("inf"), float("-inf"), float("nan")])
for name in ("asin", "acos", "atan", "log2", "log10", "erf"):
    print(name, "edge", getattr(edge, name)().tolist())
a = torch.tensor([0.5, 0.25])
print(a.asin_(), torch.log2(torch.tensor([8.0, 0.5]), out=torch.empty(2, dtype=torch.float64)))
for name, data in (("asin", unit[:8]), ("acos", unit[:8]), ("atan", wide[:8]), ("log2", pos[:8]),
                   ("log10", pos[:8]), ("erf", wide[:8])):
    leaf = data.clone().requires_grad_()
    y = getattr(torch, name)(leaf)
    y.backward(torch.linspace(0.5, 2, 8))
    print(name, type(y.grad_fn).__name__, leaf.grad.tolist())
