# float16 and bfloat16 in PyTorch 2.15's CPU kernels, to the last bit: math in float rounded
# once (exp, sigmoid, tanh, softmax and log_softmax along either dim, clamp, mm), a number
# multiplying or dividing at its own value in float, mean summed in float, prod rounded at
# every product (four 16-lane accumulators from 64 elements on), linspace in float, and
# random numbers drawn as floats (Box-Muller in blocks of 16; fewer elements in double).
import torch
torch.manual_seed(0)
for dt in (torch.float16, torch.bfloat16):
    x = (torch.randn(40) * 2).to(dt)
    m = x.view(4, 10)
    print(dt, x.exp().tolist(), x.sigmoid().tolist(), x.tanh().tolist())
    print(torch.softmax(m, 1).tolist(), torch.softmax(m, 0).tolist())
    print(torch.log_softmax(m, 1).tolist(), torch.log_softmax(m, 0).tolist())
    print((x * 0.1).tolist(), (x / 0.3).tolist(), (0.1 * x).tolist(), (x + 0.1).tolist())
    print(x.clamp(-1, 0.5).tolist(), (x.view(5, 8) @ x.view(5, 8).t()).tolist(), (x @ x).item())
    p = (torch.randn(200) * 0.1 + 1).to(dt)
    print(x.sum().item(), x.mean().item(), m.mean(1).tolist(), m.mean(0).tolist())
    print(p[:30].prod().item(), p[:64].prod().item(), p.prod().item(), p.view(20, 10).prod(0).tolist())
    print(torch.linspace(-1.3, 2.7, 23, dtype=dt).tolist(), torch.nn.functional.mse_loss(x, x * 0.5).item())
    print(torch.rand(37, dtype=dt).tolist(), torch.randn(7, dtype=dt).tolist(), torch.randn(35, dtype=dt).tolist())
    print(torch.empty(6, 4, dtype=dt).t().normal_().tolist(), torch.empty(3, 8, dtype=dt).uniform_(-2, 2).tolist())
    print(torch.multinomial(x.abs(), 5).tolist(), torch.multinomial(x.abs()[:6], 10, replacement=True).tolist())
