# Optimizers and modules as a program sees them in PyTorch 2.15: reprs, state_dict layouts, the
# state after a few steps (Adam's moments move with lerp_, one fused multiply-add per element,
# so the numbers are printed in full), and zero_grad's default (set_to_none=True). The loss is
# elementwise and uses neither matrix products nor MKL's VML functions, so it is exact.
import torch
import torch.nn as nn

torch.manual_seed(0)
w = nn.Parameter(torch.randn(5))
b = nn.Parameter(torch.randn(3))
x = torch.randn(5)
for make in (lambda p: torch.optim.SGD(p, lr=0.1),
             lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01),
             lambda p: torch.optim.Adam(p, lr=0.01),
             lambda p: torch.optim.Adam(p, lr=0.02, betas=(0.8, 0.99), weight_decay=0.1, amsgrad=True),
             lambda p: torch.optim.Adam(p, lr=0.02, weight_decay=0.1, decoupled_weight_decay=True)):
    with torch.no_grad():
        w.copy_(torch.linspace(-1, 1, 5))
        b.copy_(torch.tensor([0.5, -0.25, 2.0]))
    opt = make([w, b])
    print(opt)
    for _ in range(3):
        opt.zero_grad()
        loss = ((w * x).sigmoid().sum() - 1) ** 2 + (b * b * 0.1).sum()
        loss.backward()
        opt.step()
    print("w", w.tolist())
    print("b", b.tolist())
    sd = opt.state_dict()
    print(sorted(sd), sd["param_groups"])
    for k, st in sd["state"].items():
        print(k, {name: (v.tolist() if torch.is_tensor(v) else v) for name, v in st.items()})
    opt.zero_grad()
    print("after zero_grad:", w.grad, b.grad)

net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Sequential(nn.Linear(4, 2), nn.Tanh()))
print(net)
print(list(net.state_dict().keys()))
print([(k, tuple(v.shape)) for k, v in net.named_parameters()])
print(net.state_dict()._metadata)
net.zero_grad()
print([p.grad for p in net.parameters()])
