# Keyword arguments inside the compiled frame (CALL after KW_NAMES): a method and a torch function
# called with keywords become graph nodes with kwargs, printed as keyword arguments.
import torch

torch._logging.set_logs(graph_code=True)


def f(x):
    s = x.relu().sum(dim=0, keepdim=True)
    return s + torch.clamp(x, min=0.5)


cf = torch.compile(f, backend="eager")
x = torch.arange(6.0).reshape(2, 3) - 2
print(torch.equal(cf(x), f(x)))
