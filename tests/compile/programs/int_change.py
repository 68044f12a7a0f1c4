# An int argument is first a constant of the graph, guarded with EQUALS_MATCH. A new value
# recompiles [0/1] with the int dynamic (automatic dynamic shapes): a SymInt input guarded only
# by its type, so every later value runs [0/1] without recompiling.
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
print("compiled versions:", len(torch._dynamo.eval_frame._debug_get_cache_entry_list(fn)))
