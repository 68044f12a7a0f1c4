# Warnings PyTorch raises from C++ (TORCH_WARN) or its bindings reach Python as warnings: the
# category, the text (up to PyTorch's " (Triggered internally at <its source file>.)", which
# names a file of its own build), and the line of the program that caused them; filters apply.
import warnings
import torch


def show(message, category, filename, lineno, file=None, line=None):
    print(category.__name__ + ":", str(message).split(" (Triggered internally")[0], "| line", lineno)


warnings.showwarning = show
warnings.simplefilter("always")
x = torch.arange(6.).reshape(2, 3)
print(x[torch.tensor([1, 0], dtype=torch.uint8)].shape)
t = torch.tensor(x)
y = torch.ones(2, requires_grad=True) * 2
print(y.grad)
y.retain_grad()
print(y.grad)
out = torch.empty(5)
torch.add(torch.ones(2), 1, out=out)
print(out.shape)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.abs(torch.ones(2), out=torch.empty(3))
print([(w.category.__name__, w.lineno) for w in caught])
warnings.simplefilter("error")
try:
    torch.tensor(x)
except UserWarning as e:
    print("raised:", type(e).__name__, str(e)[:40])
