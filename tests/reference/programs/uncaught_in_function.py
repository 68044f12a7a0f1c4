import torch
def combine(a, b):
    print("combining", a.shape, b.shape)
    return a + b
print(combine(torch.ones(2), torch.ones(2)))
print(combine(torch.ones(2, 3), torch.ones(3, 2)))
