import torch
print(torch.zeros([1] * 200))
