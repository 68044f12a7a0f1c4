import torch
x = torch.arange(3.)
print(x)
print(x[2])
x[3]
