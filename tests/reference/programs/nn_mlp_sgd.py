# Values here come from matrix products (MKL in the reference, OpenBLAS here): Note [Tolerance
# for values computed by matrix products] in run_reference_tests.py.
# reference tolerance: rtol=1e-5 atol=1e-4
import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


m = MLP()
with torch.no_grad():
    m.fc1.weight.copy_(torch.arange(32.).reshape(8, 4) / 50 - 0.3)
    m.fc1.bias.copy_(torch.arange(8.) / 20 - 0.17)
    m.fc2.weight.copy_(torch.arange(16.).reshape(2, 8) / 40 - 0.2)
    m.fc2.bias.copy_(torch.tensor([0.1, -0.1]))
x = torch.arange(24.).reshape(6, 4) / 10 - 0.95
y = torch.tensor([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0], [1.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
opt = torch.optim.SGD(m.parameters(), lr=0.1)
loss_fn = nn.MSELoss()
for step in range(5):
    opt.zero_grad()
    loss = loss_fn(m(x), y)
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.6f}")
print(m.fc1.bias.detach())
print(m.fc2.bias.detach())
print(f"{m(x).sum().item():.6f}")
