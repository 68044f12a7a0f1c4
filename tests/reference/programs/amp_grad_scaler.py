# torch.amp.GradScaler("cpu"): SGD on an element-wise linear map (no BLAS) with an inf and a NaN grad
# injected (steps skipped, scale backs off; growth_interval=2 grows it), unscale_ + clip_grad_norm_,
# nested scale(), state_dict / pickle, disabled scaler, errors, torch.cuda.amp / torch.cpu.amp aliases.
import pickle
import warnings

import torch

torch.manual_seed(0)
W = torch.randn(2, 4, requires_grad=True)
b = torch.randn(2, requires_grad=True)
x, y = torch.randn(8, 4), torch.randn(8, 2)
opt = torch.optim.SGD([W, b], lr=0.1)
scaler = torch.amp.GradScaler("cpu", growth_interval=2)
print(scaler.is_enabled(), scaler.get_scale(), scaler.get_growth_factor(), scaler.get_backoff_factor(),
      scaler.get_growth_interval(), scaler.state_dict())
state = lambda: scaler._per_optimizer_states[id(opt)]["stage"]
for step in range(6):
    opt.zero_grad()
    loss = (((x.unsqueeze(1) * W).sum(-1) + b - y) ** 2).mean()
    scaled = scaler.scale(loss)
    scaled.backward()
    if step in (1, 4):
        W.grad[0, 1] = float("inf") if step == 1 else float("nan")
    before = W.detach().clone()
    scaler.unscale_(opt)
    norm = torch.nn.utils.clip_grad_norm_([W, b], 1.0)
    st = state()
    ret = scaler.step(opt, lambda: torch.tensor(1.5)) if step == 3 else scaler.step(opt)
    print(step, f"{loss.item():.4f} {scaled.item() / loss.item():.1f} {norm.item():.4f}", st, state(), ret,
          "changed" if not torch.equal(before, W) else "skipped", end=" ")
    scaler.update()
    print(scaler.get_scale(), scaler._get_growth_tracker())
print([f"{v:.4f}" for v in W.flatten().tolist()])
out = scaler.scale([torch.ones(2), (torch.full((1,), 0.5), [torch.zeros(1)])])
print(type(out).__name__, type(out[1]).__name__, out)
gen = scaler.scale(t for t in [torch.ones(1)])
print(type(gen).__name__, list(gen))
s2 = torch.amp.GradScaler("cpu", 1.0, 3.0, 0.25, 7)
s2.load_state_dict(scaler.state_dict())
print(s2.state_dict(), s2.scale(torch.ones(())).item())
print({k: v for k, v in pickle.loads(pickle.dumps(scaler)).__dict__.items() if k != "_per_optimizer_states"})
scaler.update(1024.0), print(scaler.get_scale()), scaler.update(torch.tensor(8.0)), print(scaler.get_scale())
s2.set_growth_factor(4.0), s2.set_backoff_factor(0.125), s2.set_growth_interval(5)
print(s2.get_growth_factor(), s2.get_backoff_factor(), s2.get_growth_interval(), s2._get_growth_tracker())
p = torch.zeros(3, dtype=torch.bfloat16, requires_grad=True)
p.grad = torch.tensor([3.0, 2.0**-3, -1.0e30], dtype=torch.bfloat16)
o2 = torch.optim.SGD([p], lr=1.0)
scaler.unscale_(o2)
print(p.grad, scaler._found_inf_per_device(o2))
off = torch.amp.GradScaler("cpu", enabled=False)
t = torch.ones(2)
print(off.scale(t) is t, off.step(o2), p, off.get_scale(), off.state_dict(), off.update(), off.load_state_dict({}))
p16 = torch.zeros(1, dtype=torch.float16, requires_grad=True)
p16.grad, fresh, o16 = torch.ones(1, dtype=torch.float16), torch.amp.GradScaler("cpu"), torch.optim.SGD([p16])
cases = [lambda: scaler.unscale_(o2), lambda: scaler.step(o2, closure=lambda: 0.0),
         lambda: (scaler.step(o2), scaler.step(o2)), lambda: scaler.unscale_(o2),
         lambda: pickle.dumps(scaler), lambda: scaler.update(torch.ones(2)),
         lambda: scaler.update(torch.ones((), requires_grad=True)), lambda: fresh.step(opt),
         lambda: fresh.update(), lambda: (fresh.scale(t), fresh.update()),
         lambda: fresh.unscale_(o16), lambda: fresh.scale(3), lambda: fresh.scale([t, 3]),
         lambda: fresh.load_state_dict({}), lambda: torch.amp.GradScaler("cpu", growth_factor=1.0),
         lambda: torch.amp.GradScaler("cpu", backoff_factor=1.0)]
for case in cases:
    try:
        case()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)
available = torch.cuda.is_available
torch.cuda.is_available = lambda: False
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    scalers = [torch.cuda.amp.GradScaler(enabled=False), torch.cpu.amp.GradScaler(init_scale=4.0),
               torch.amp.GradScaler("cuda"), torch.amp.GradScaler()]
torch.cuda.is_available = available
for s in scalers:
    print(type(s).__module__, type(s).__name__, isinstance(s, torch.amp.GradScaler), s.is_enabled(), s.get_scale())
for warning in w:
    print(warning.category.__name__, warning.message)
