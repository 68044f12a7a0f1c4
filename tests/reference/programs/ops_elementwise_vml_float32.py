# exp, log, sin, cos, tan and tanh of float32, within two units in the last place of PyTorch 2.15's:
# its PyPI build computes them with MKL's VML (high accuracy, under 1 ulp), this project with
# SLEEF's 1-ulp functions, as PyTorch's builds without MKL do; each may round the other way.
# Note [Tolerance for values computed by matrix products] in run_reference_tests.py.
# reference tolerance: rtol=2.4e-7 atol=1e-30
import torch
x = torch.linspace(-3, 3, 37, dtype=torch.float32)
pos = torch.linspace(0.01, 20, 37, dtype=torch.float32)
print("exp", x.exp().tolist())
print("log", pos.log().tolist())
print("sin", x.sin().tolist())
print("cos", x.cos().tolist())
print("tan", x.tan().tolist())
print("tanh", x.tanh().tolist())
torch.manual_seed(0)
big = (torch.randn(300) * 4).to(torch.float32)
for name in ("exp", "sin", "cos", "tan", "tanh"):
    print(name, getattr(big, name)().tolist())
print("log", big.abs().log().tolist())
print(torch.tensor(0.5, dtype=torch.float32).exp().item(), torch.tensor(2.0, dtype=torch.float32).log().item())
