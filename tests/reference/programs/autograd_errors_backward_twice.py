import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = (x * x).sum()
y.backward()
print(x.grad)
try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(x.grad)
z = (x.exp()).sum()
z.backward(retain_graph=True)
z.backward()
try:
    z.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(" (")[0])
