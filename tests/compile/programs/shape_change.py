# A size change: the first call compiles [0/0]; a new size fails its guard and recompiles [0/1]
# with the changed dimension dynamic (s0); a third size hits [0/1].
import torch

torch._logging.set_logs(guards=True, recompiles=True, graph_code=True)


def fn(x, y):
    a = torch.sin(x)
    b = a * y + 1
    return b.relu()


cfn = torch.compile(fn, backend="eager")
for n in (3, 4, 5):
    x, y = torch.randn(n, 3), torch.randn(n, 3)
    print(n, torch.allclose(cfn(x, y), fn(x, y)))
print("entries:", [str(e.compile_id) for e in torch._dynamo.eval_frame._debug_get_cache_entry_list(fn)])
