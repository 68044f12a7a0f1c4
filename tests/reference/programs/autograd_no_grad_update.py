import torch
w = torch.tensor([1., 2., 3.], requires_grad=True)
for step in range(3):
    loss = (w * w).sum()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
    print(step, loss.detach(), w.grad)
    w.grad.zero_()
print(w)
print(w.requires_grad, w.is_leaf, w.grad_fn)
