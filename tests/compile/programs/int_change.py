# An int argument is a constant of the graph, guarded with EQUALS_MATCH: each new value
# recompiles, until the cache size limit (8) stops recompiling and warns.
import torch

torch._logging.set_logs(guards=True, recompiles=True)


def fn(x, n):
    return x * n + n


cfn = torch.compile(fn, backend="eager")
x = torch.ones(2)
print(cfn(x, 3))
print(cfn(x, 3))
print(cfn(x, 4))
torch._logging.set_logs(guards=False)
for n in range(5, 15):
    assert torch.equal(cfn(x, n), fn(x, n))
print("compiled versions:", len(torch._C._dynamo.cache_entries(fn.__code__)))
