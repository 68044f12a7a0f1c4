# Programs torch.compile must run as Python does: an operator's error, an exception of the user's, keyword
# and default arguments, a closure, nested outputs, a loop, a generator, a loop that ends on a tensor's value.
import torch
def bad(x, y):
    return x + y
try:
    torch.compile(bad, backend="eager")(torch.ones(3), torch.ones(4))
except RuntimeError as e:
    print("RuntimeError:", e)
def raiser(x):
    if x.shape[0] > 2:
        raise ValueError("too big")
    return x
try:
    torch.compile(raiser)(torch.ones(3))
except ValueError as e:
    print("ValueError:", e)
def kw(x, scale=2.0, *, shift=1.0):
    return x * scale + shift
print(torch.compile(kw)(torch.ones(2), shift=3.0))
k = 5.0
def closure_maker():
    c = torch.ones(2)
    def inner(x):
        return x * k
    return inner
print(torch.compile(closure_maker())(torch.ones(2)))
def outs(x):
    return [x + 1, {"a": x * 2}], (x.sum(),)
print(torch.compile(outs)(torch.ones(2)))
def loop(x):
    for i in range(3):
        x = x + i
    return x
print(torch.compile(loop)(torch.ones(2)))
def gen(x):
    yield x
print(list(torch.compile(gen)(torch.ones(1))))
def forever(x):
    while True:
        x = x + 1
        if x.sum() > 10:
            return x
print(torch.compile(forever, backend="eager")(torch.zeros(2)))
