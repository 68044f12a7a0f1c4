# torch.autocast("cpu"): the AutocastCPU key leaves the thread-local excluded set, and the
# operators with a cast policy run in bfloat16 (mm, matmul, linear...), in float32 (prod,
# mse_loss, the losses) or in the widest input type (cat, stack); the rest run as they are.
import warnings

import torch

warnings.simplefilter("always")
warnings.showwarning = lambda msg, cat, *args, **kwargs: print(f"{cat.__name__}: {msg}")

x = torch.ones(2, 2)
b = torch.ones(2, 2, dtype=torch.bfloat16)
print(torch._C._dispatch_tls_local_exclude_set(), torch._C._dispatch_keys(x))
print(torch.is_autocast_cpu_enabled(), torch.get_autocast_cpu_dtype(), torch.is_autocast_cache_enabled())
with torch.autocast("cpu"):
    print(torch._C._dispatch_tls_local_exclude_set(), torch.is_autocast_cpu_enabled(), torch.is_autocast_enabled())
    print("lower:", (x @ x).dtype, torch.mm(x, x).dtype, torch.matmul(x, x).dtype, torch.addmm(x, x, x).dtype,
          torch.bmm(x[None], x[None]).dtype, torch.nn.functional.linear(x, x).dtype, torch.nn.Linear(2, 3)(x).dtype)
    print("as is:", (x + x).dtype, x.sum().dtype, x.exp().dtype, torch.softmax(x, 0).dtype, (x @ x + x).dtype)
    print("fp32:", b.prod().dtype, b.prod(0).dtype, torch.nn.functional.mse_loss(b, b).dtype,
          torch.nn.functional.cross_entropy(b, torch.tensor([0, 1])).dtype,
          torch.nn.functional.nll_loss(b, torch.tensor([0, 1])).dtype)
    print("promote:", torch.cat([x, b]).dtype, torch.cat([b, b]).dtype, torch.stack([b, x]).dtype,
          torch.cat([b, x.double()]).dtype, torch.cat([x.double(), x.double()]).dtype)
    d = torch.ones(2, 2, dtype=torch.float64)
    i = torch.ones(2, 2, dtype=torch.int64)
    print("untouched:", (d @ d).dtype, (i @ i).dtype, torch.mm(x, b).dtype, x @ x)
    with torch.autocast("cpu", enabled=False):
        print("nested off:", (x @ x).dtype, torch.is_autocast_cpu_enabled())
    print("back on:", (x @ x).dtype)
print("after:", (x @ x).dtype, torch._C._dispatch_tls_local_exclude_set())

with torch.cpu.amp.autocast():
    print("torch.cpu.amp.autocast:", (x @ x).dtype)
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    print("dtype=torch.bfloat16:", (x @ x).dtype)


@torch.autocast("cpu")
def f(a):
    return a @ a


print("decorated:", f(x).dtype, f.__name__)

# The weights' casts are cached for the region: w is cast once, and both uses share the node.
w = torch.ones(2, 2, requires_grad=True)
with torch.autocast("cpu"):
    y = w @ w
    z = w @ x
print(y.dtype, y.grad_fn.name(), [n.name() for n, _ in y.grad_fn.next_functions])
print(y.grad_fn.next_functions[0][0] is y.grad_fn.next_functions[1][0],
      y.grad_fn.next_functions[0][0] is z.grad_fn.next_functions[0][0],
      [n.name() for n, _ in y.grad_fn.next_functions[0][0].next_functions])
(y.float().sum() + z.float().sum()).backward()
print(w.grad, w.grad.dtype)
with torch.autocast("cpu", cache_enabled=False):
    y = w @ w
print("no cache:", y.grad_fn.next_functions[0][0] is y.grad_fn.next_functions[1][0])

# CPU autocast runs in bfloat16 or float16 in 2.15; another dtype warns and leaves autocast off.
# CUDA without a CUDA device warns and stays off, and unknown device types are refused. The older
# per-device functions (is_autocast_cpu_enabled, ...) warn that they are deprecated.
with torch.autocast("cpu", dtype=torch.float16):
    print("float16:", torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"), (x @ x).dtype, (x @ x).tolist())
with torch.autocast("cpu", dtype=torch.float64):
    print("float64:", torch.is_autocast_enabled("cpu"), (x @ x).dtype)
torch.set_autocast_cpu_enabled(False)
with torch.autocast("cuda"):
    print("cuda:", torch.is_autocast_enabled(), (x @ x).dtype)
try:
    torch.autocast("tpu")
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.set_autocast_cpu_dtype(torch.float32)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.is_autocast_cpu_enabled(), torch.get_autocast_cpu_dtype(), torch.get_autocast_gpu_dtype())
