import torch
x = torch.ones(2, 3, 4)
try:
    x.t()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.t(torch.ones(1, 1, 1, 1))
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.tensor(3.).t())
print(torch.ones(3).t().shape)
