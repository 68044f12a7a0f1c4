import torch
print(torch.zeros(1 << 40))
print(torch.zeros(1 << 32, 1 << 32))
