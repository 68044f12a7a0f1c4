# torch.compile(dynamic=True): sizes and int inputs are symbols from the first compile; x.shape[0]
# is read from the graph input that binds its symbol, and each dynamic tensor's type is guarded.
import torch
torch._logging.set_logs(guards=True, graph_code=True)
def fn(x, n):
    return x * n + x.shape[0]
cfn = torch.compile(fn, backend="eager", dynamic=True)
print(cfn(torch.ones(3), 2))
print(cfn(torch.ones(4), 5))
print(len(torch._dynamo.eval_frame._debug_get_cache_entry_list(fn)))
