# A print in the middle breaks the graph: the prefix is one graph, the print runs in Python,
# and a resume function captures the rest as a second graph (frame 1). explain() reports it.
import torch

torch._logging.set_logs(graph_breaks=True, graph_code=True, guards=True)


def fn(x):
    y = x.sin() * 2
    print("halfway:", y.shape)
    return y.cos() + 1


cfn = torch.compile(fn, backend="eager")
x = torch.ones(3)
print(torch.allclose(cfn(x), fn(x)))
print(torch.allclose(cfn(x), fn(x)))
torch._logging.set_logs(graph_breaks=False, graph_code=False, guards=False)
torch._dynamo.reset()
print(torch._dynamo.explain(fn)(x))
torch._dynamo.reset()
try:
    torch.compile(fn, backend="eager", fullgraph=True)(x)
except torch._dynamo.exc.Unsupported as e:
    print("fullgraph=True:", type(e).__name__)
    print(e)
