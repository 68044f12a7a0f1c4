import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
print(model)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(2, 3, bias=False)
        self.act = nn.ReLU()
        self.out = nn.Linear(3, 1)

    def forward(self, x):
        return self.out(self.act(self.hidden(x)))

net = Net()
print(net)
print([n for n, _ in model.named_parameters()])
print(list(model.state_dict().keys()))
print([n for n, _ in net.named_parameters()])
print([p.shape for p in model.parameters()])
print(len(list(model.children())), len(list(net.children())), len(list(model.modules())))
print(sum(p.numel() for p in model.parameters()))
print(model.training)
model.eval()
print(model.training, model[0].training)
model.train()
print(model.training, model[2].training)
print([isinstance(p, nn.Parameter) for p in model.parameters()], isinstance(model[0].weight, torch.Tensor))
print([p.requires_grad for p in net.parameters()])
print([p.grad for p in model.parameters()])
with torch.no_grad():
    for p in model.parameters():
        p.fill_(0.5)
model(torch.ones(2, 3)).sum().backward()
print([p.grad for p in model.parameters()])
model.zero_grad()
print([p.grad for p in model.parameters()])
print(type(model[1]).__name__, model[0].in_features, model[0].out_features)
