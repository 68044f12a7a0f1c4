# Values here come from matrix products (MKL in the reference, OpenBLAS here): Note [Tolerance
# for values computed by matrix products] in run_reference_tests.py.
# reference tolerance: rtol=1e-5 atol=1e-4
import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def make():
    m = MLP()
    with torch.no_grad():
        m.fc1.weight.copy_(torch.arange(32.).reshape(8, 4) / 50 - 0.3)
        m.fc1.bias.copy_(torch.arange(8.) / 20 - 0.17)
        m.fc2.weight.copy_(torch.arange(8.).reshape(1, 8) / 20 - 0.15)
        m.fc2.bias.fill_(0.05)
    return m


x = torch.arange(20.).reshape(5, 4) / 10 - 0.95
y = torch.tensor([[1.0], [0.0], [-1.0], [0.5], [2.0]])
loss_fn = nn.MSELoss()
for name in ["sgd_momentum", "adam"]:
    m = make()
    if name == "adam":
        opt = torch.optim.Adam(m.parameters(), lr=0.01)
    else:
        opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
    for step in range(3):
        opt.zero_grad()
        loss = loss_fn(m(x), y)
        loss.backward()
        opt.step()
        print(f"{name} step {step} loss {loss.item():.6f}")
    print(f"{name} fc2.bias {m.fc2.bias.item():.6f}")
