import torch
x = torch.arange(12.).reshape(3, 4)
print(x.t().shape)
print("before")
y = x.t().view(12)
print("never printed")
