import torch

class MyError(Exception):
    pass

try:
    torch.ones(2, 3) + torch.ones(4)
except RuntimeError as e:
    print("add:", e)
try:
    torch.mm(torch.ones(2, 3), torch.ones(2, 3))
except RuntimeError as e:
    print("mm:", e)
try:
    torch.arange(6.0).reshape(2, 3).t().view(6)
except RuntimeError as e:
    print("view:", e)
try:
    torch.arange(3)[5]
except IndexError as e:
    print("index:", e)
try:
    torch.add("a")
except TypeError as e:
    print("type:", str(e).splitlines()[0])
try:
    x = torch.ones(2)
    print("before")
    raise MyError("custom " + str(x.sum().item()))
except MyError as e:
    print("caught", type(e).__name__, e)
finally:
    print("finally runs")
for bad in [torch.ones(3), torch.ones(2, 2)]:
    try:
        print((bad @ torch.ones(2)).tolist())
    except RuntimeError as e:
        print(type(e).__name__, e)
print(issubclass(MyError, Exception), isinstance(RuntimeError("x"), Exception))
