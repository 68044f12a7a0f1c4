import torch
print(torch.tensor([3, -2]) ** (2**62 + 1))
