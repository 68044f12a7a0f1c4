# addcmul and addcdiv to the last bit, as Adam's and RMSprop's updates use them: PyTorch 2.15
# computes addcmul's self + value * t1 * t2 as one fused multiply-add, fma(value * t1, t2, self),
# in float and double, and addcdiv's self + value * t1 / t2 left to right, (value * t1) / t2.
import torch
torch.manual_seed(1)
for dt in (torch.float32, torch.float64):
    for n in (7, 37):
        s = torch.randn(n, dtype=dt)
        a = torch.randn(n, dtype=dt)
        b = torch.randn(n, dtype=dt)
        print(dt, n, torch.addcmul(s, a, b, value=0.37).tolist())
        print(torch.addcdiv(s, a, b, value=0.37).tolist())
        print(s.clone().addcmul_(a, a, value=1 - 0.999).tolist())
        print(s.clone().addcdiv_(a, b.abs() + 1e-8, value=-0.01).tolist())
        print(torch.addcmul(s, a, b).tolist() == (s + a * b).tolist())
print(torch.addcmul(torch.ones(3, dtype=torch.int64), torch.arange(3), torch.arange(3), value=2).tolist())
