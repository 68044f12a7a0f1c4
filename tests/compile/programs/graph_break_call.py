# torch._dynamo.graph_break() ends the graph where it is called; capture resumes after it.
import torch
def f(x):
    y = x.sin()
    torch._dynamo.graph_break()
    return y.cos()
torch._logging.set_logs(graph_breaks=True)
print(torch.allclose(torch.compile(f, backend="eager")(torch.ones(2)), torch.ones(2).sin().cos()))
