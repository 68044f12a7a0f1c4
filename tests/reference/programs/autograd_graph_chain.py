import torch
def walk(fn, depth):
    if fn is None:
        print("  " * depth + "None")
        return
    print("  " * depth + fn.name())
    for f, n in fn.next_functions:
        walk(f, depth + 1)
x = torch.tensor([1., 2., 3.], requires_grad=True)
w = torch.tensor([0.5, -1., 2.], requires_grad=True)
c = torch.tensor([1., 1., 1.])
y = ((x * w + c).relu() ** 2).mean()
walk(y.grad_fn, 0)
z = (x.exp() - w).sum() / 3
walk(z.grad_fn, 0)
