# add and sub with alpha != 1 to the last bit: PyTorch 2.15 computes a + alpha * b as one fused
# multiply-add in float and double (sub as alpha negated), in the vector body and the tail alike.
import torch
torch.manual_seed(0)
for dt in (torch.float32, torch.float64):
    for n in (5, 37):
        a = torch.randn(n, dtype=dt)
        b = torch.randn(n, dtype=dt)
        print(dt, n, torch.add(a, b, alpha=0.3).tolist())
        print(torch.sub(a, b, alpha=0.7).tolist())
        print(a.clone().add_(b, alpha=-1.1).tolist(), a.clone().sub_(b, alpha=1).tolist() == (a - b).tolist())
        print(torch.add(a, b, alpha=2).tolist())
