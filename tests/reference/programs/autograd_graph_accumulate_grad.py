import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * x
f0, n0 = y.grad_fn.next_functions[0]
f1, n1 = y.grad_fn.next_functions[1]
print(f0.name(), n0, f1.name(), n1)
print(f0 is f1)
print(f0.next_functions)
print(f0.variable is x)
z = x.exp()
print(z.grad_fn.next_functions[0][0] is f0)
w = torch.tensor([4., 5., 6.], requires_grad=True)
s = x + w
print(s.grad_fn.next_functions[0][0] is s.grad_fn.next_functions[1][0])
print(len(s.grad_fn.next_functions), len(z.grad_fn.next_functions))
