# A frame that breaks the graph is recompiled for new sizes: the break is logged in full once, then
# (same graph-break type, same place) without its user stack, until the next torch.compile call.
import torch
torch._logging.set_logs(graph_breaks=True)
def fn(x):
    y = x.sin()
    print("n =", x.shape[0])
    return y.cos()
cfn = torch.compile(fn, backend="eager")
for n in (2, 3, 4):
    cfn(torch.ones(n))
torch.compile(fn, backend="eager")(torch.ones(5, 1))
