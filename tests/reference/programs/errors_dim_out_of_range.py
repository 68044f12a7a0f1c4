import torch
x = torch.arange(12.).reshape(3, 4)
try:
    x.sum(2)
except IndexError as e:
    print("IndexError:", e)
try:
    x.transpose(0, -3)
except IndexError as e:
    print("IndexError:", e)
try:
    x.size(2)
except IndexError as e:
    print("IndexError:", e)
try:
    x.unsqueeze(3)
except IndexError as e:
    print("IndexError:", e)
try:
    x.select(2, 0)
except IndexError as e:
    print("IndexError:", e)
try:
    torch.tensor(1.).sum(1)
except IndexError as e:
    print("IndexError:", e)
