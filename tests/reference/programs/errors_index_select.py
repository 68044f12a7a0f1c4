import torch
y = torch.arange(12.).reshape(3, 4)
try:
    y.select(0, 5)
except IndexError as e:
    print("IndexError:", e)
try:
    y.select(1, -5)
except IndexError as e:
    print("IndexError:", e)
try:
    y[0, 0, 0]
except IndexError as e:
    print("IndexError:", e)
try:
    torch.tensor(3.)[0]
except IndexError as e:
    print("IndexError:", e)
try:
    try:
        y[3]
    except RuntimeError as e:
        print("not reached: IndexError is not a RuntimeError")
except IndexError as e:
    print("IndexError is not a RuntimeError")
