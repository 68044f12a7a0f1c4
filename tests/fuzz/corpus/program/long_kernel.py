import torch
print(torch.ones(3).expand(1 << 40, 3).sum())
