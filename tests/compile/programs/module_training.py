# torch.compile(model) in a training loop: the compiled module's losses equal eager's step by step (the
# graph calls modules whose weights require grad, so its fused kernels must not cut the autograd graph).
import torch
torch.manual_seed(0)
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = torch.nn.Linear(4, 8)
        self.l2 = torch.nn.Linear(8, 1)
    def forward(self, x):
        return self.l2(torch.relu(self.l1(x)))
net = Net()
ref = Net(); ref.load_state_dict(net.state_dict())
cnet = torch.compile(net)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
ropt = torch.optim.SGD(ref.parameters(), lr=0.1)
x = torch.randn(16, 4); y = torch.randn(16, 1)
for step in range(5):
    loss = ((cnet(x) - y) ** 2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    rloss = ((ref(x) - y) ** 2).mean()
    ropt.zero_grad(); rloss.backward(); ropt.step()
    print(step, round(loss.item(), 5), round(rloss.item(), 5))
print(len(torch._dynamo.eval_frame._debug_get_cache_entry_list(type(net).forward.__code__)), "compiled version(s)")
