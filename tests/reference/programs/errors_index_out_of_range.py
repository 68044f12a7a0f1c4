import torch
x = torch.arange(3.)
try:
    x[5]
except IndexError as e:
    print("IndexError:", e)
try:
    x[-4]
except IndexError as e:
    print("IndexError:", e)
y = torch.arange(12.).reshape(3, 4)
try:
    y[1, 7]
except IndexError as e:
    print("IndexError:", e)
try:
    y[3]
except IndexError as e:
    print("IndexError:", e)
print(x[-3], y[-3, -4])
