# A layer's default initialisation and the nn.init functions, after manual_seed.
import math
import torch
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(4, 3)
print(lin.weight)
print(lin.bias)
print(lin.weight.tolist(), lin.bias.tolist())
net = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 2))
print(net[0].weight[0].tolist(), net[2].bias.tolist())
print(net(torch.ones(2, 5)))
w = torch.empty(3, 5)
print(nn.init.uniform_(w, -1, 1).tolist())
print(nn.init.normal_(w, 0.5, 2.0).tolist())
print(nn.init.xavier_uniform_(w).tolist())
print(nn.init.xavier_normal_(w).tolist())
print(nn.init.kaiming_uniform_(w, a=math.sqrt(5)).tolist())
print(nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu").tolist())
big = torch.empty(20, 30)
print(nn.init.kaiming_normal_(big)[0].tolist())
print(nn.Linear(2, 2, dtype=torch.float64).weight.tolist())
