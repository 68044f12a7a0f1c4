# Meta tensors have no data to give, and elementwise operations refuse operands on two devices
# (a 0-dim CPU tensor may go along).
import torch
def attempt(f):
    try:
        r = f()
        print("ok", r)
    except (RuntimeError, NotImplementedError, TypeError) as e:
        print(type(e).__name__ + ":", e)
m = torch.ones(2, 3, device="meta")
attempt(lambda: m + torch.ones(2, 3))
attempt(lambda: torch.ones(2, 3) + m)
attempt(lambda: m.mm(torch.ones(3, 2)))
attempt(lambda: torch.ones(3).add_(torch.ones(3, device="meta")))
attempt(lambda: m.tolist())
attempt(lambda: print(m))
attempt(lambda: m.cpu())
attempt(lambda: m.numpy())
attempt(lambda: m + torch.tensor(1.))
attempt(lambda: m + 1)
attempt(lambda: m * torch.tensor(2.))
attempt(lambda: torch.tensor(2.) * m)
attempt(lambda: m.add_(torch.tensor(2.)))
attempt(lambda: torch.ones(2, 3).add_(m))
attempt(lambda: torch.addcmul(m, torch.ones(2, 3), m))
attempt(lambda: torch.cat([m, torch.ones(2, 3)]))
attempt(lambda: torch.ones(2,3).copy_(m))
attempt(lambda: m.copy_(torch.ones(2, 3)))
attempt(lambda: m.to("cpu"))
# where checks its operands' devices itself: the first that is not a 0-dim CPU tensor is expected.
c = torch.tensor([True, False, True])
attempt(lambda: torch.where(c, torch.ones(3), torch.ones(3, device="meta")))
attempt(lambda: torch.where(c, torch.ones(3, device="meta"), torch.ones(3, device="meta")))
attempt(lambda: torch.where(c.to("meta"), torch.ones(3), torch.ones(3, device="meta")))
attempt(lambda: torch.where(c, torch.tensor(1.), torch.ones(3, device="meta")))
attempt(lambda: torch.where(torch.tensor(True), torch.ones(3, device="meta"), torch.ones(3, device="meta")))
attempt(lambda: torch.where(c.to("meta"), torch.ones(3, device="meta"), torch.tensor(0.)))
