import torch
try:
    torch.ones(1).expand(1<<40).sum()
except KeyboardInterrupt:
    print("caught")
print("after")
import time
x=torch.ones(3)
print(x.sum())
