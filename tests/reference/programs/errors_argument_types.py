# The TypeErrors of the generated Python bindings (PyTorch's argument parser): a signature with
# its defaults, an int list with an element of the wrong type (varargs or a tuple), a scalar
# argument of the wrong type, positionally and by keyword.
import torch

x = torch.ones(2, 3)
for code in ('torch.add("a")', 'torch.zeros(2, "a")', 'torch.zeros((2, "a"))', 'x.view(2, 1.5)', 'x.view((3, 1.5))',
             'x.permute(0, "a")', 'x.expand(2, None)', 'x.select(0, "a")', 'x.transpose("a", 1)',
             'torch.zeros([2, torch.tensor(1.5)])', 'torch.softmax(x, "a")', 'torch.sum(x, keepdim="a")',
             'torch.cat([x, 1])', 'torch.stack((x, "a"))'):
    try:
        eval(code)
        print(code, "-> ok")
    except TypeError as e:
        print(code, "->", str(e).split("\n")[0])
