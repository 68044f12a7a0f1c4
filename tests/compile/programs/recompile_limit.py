# A str argument is a constant of the graph (EQUALS_MATCH), and unlike an int it never becomes
# dynamic: each new value recompiles until config.recompile_limit (8) compiled versions exist; the
# ninth value warns once and runs as plain Python from then on, while the eight entries still hit.
import torch


def fn(x, s):
    return x * len(s)


cfn = torch.compile(fn, backend="eager")
for i in range(10):
    assert torch.equal(cfn(torch.ones(2), "a" * (i + 1)), torch.ones(2) * (i + 1))
print("compiled versions:", len(torch._dynamo.eval_frame._debug_get_cache_entry_list(fn)))
print("limit:", torch._dynamo.config.recompile_limit, torch._dynamo.config.cache_size_limit)
