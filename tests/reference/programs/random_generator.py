# torch.Generator objects, the default generator, seeds and RNG state.
import torch
g = torch.Generator()
print(g.initial_seed(), g.device)
print(g.manual_seed(0) is g, g.initial_seed())
print(torch.rand(3, generator=g), torch.randn(2, generator=g))
print(torch.randint(0, 10, (3,), generator=g), torch.randint(5, (2,), generator=g), torch.randperm(5, generator=g))
print(torch.empty(3).uniform_(generator=g), torch.empty(2).normal_(generator=g))
print(torch.normal(0.0, 1.0, (2,), generator=g), torch.bernoulli(torch.full((3,), 0.5), generator=g))
print(torch.multinomial(torch.ones(4), 2, generator=g), torch.empty(2).exponential_(generator=g))
print(torch.empty(2, dtype=torch.int64).random_(generator=g), torch.empty(2).random_(4, generator=g))
print(type(torch.manual_seed(0)).__name__, torch.manual_seed(0) is torch.default_generator)
print(torch.initial_seed(), torch.default_generator.initial_seed())
a = torch.rand(3)
g2 = torch.Generator().manual_seed(0)
print(torch.equal(a, torch.rand(3, generator=g2)))
for s in (-1, 2**63, 2**64 - 1, 2**32 + 5, 7.9, True):
    torch.manual_seed(s)
    print(s, torch.initial_seed(), torch.rand(1).item())
for s in (2**64, -2**63 - 1):
    try:
        torch.manual_seed(s)
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__ + ":", e)
torch.manual_seed(0)
s = torch.get_rng_state()
print(s.dtype, s.shape, s[:32].tolist(), s[5016:].tolist())
x = torch.rand(4)
torch.set_rng_state(s)
print(torch.equal(x, torch.rand(4)))
torch.manual_seed(0)
torch.randn(1, dtype=torch.float64)       # leaves the second Box-Muller value cached
s = torch.get_rng_state()
print(s[8:24].tolist(), s[5016:].tolist())
y = torch.randn(3, dtype=torch.float64)
torch.set_rng_state(s)
print(torch.equal(y, torch.randn(3, dtype=torch.float64)))
print(g.get_state()[:16].tolist(), g.set_state(torch.get_rng_state()) is g, torch.rand(2, generator=g).tolist())
for bad in (torch.zeros(10, dtype=torch.uint8), torch.zeros(5056), [1, 2]):
    try:
        torch.set_rng_state(bad)
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__ + ":", e)
bad = torch.get_rng_state()
bad[8:12] = 0                 # left = 0: no state MT19937 can be in
try:
    torch.set_rng_state(bad)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.rand(2).tolist())
print(isinstance(torch.seed(), int), torch.initial_seed() == torch.default_generator.initial_seed())
