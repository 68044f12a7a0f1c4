import math, timeit, itertools, collections, functools, dataclasses
import torch

a = torch.tensor([1.0, 4.0, 9.0])
b = torch.full((3,), math.pi)
print(a.sqrt(), math.sqrt(16.0))
print(f"{(a * math.pi).sum().item():.4f}")
print(torch.tensor([math.sqrt(v) for v in a.tolist()]))
r = timeit.timeit(lambda: a + b, number=10)
print(type(r).__name__, r >= 0)
idx = list(itertools.product(range(2), range(3)))
print(idx)
m = torch.zeros(2, 3)
for i, j in idx:
    m[i, j] = i * 3 + j
print(m)
od = collections.OrderedDict()
od["w"] = torch.ones(2)
od["b"] = torch.zeros(1)
print(list(od.keys()), od["w"])
Pair = collections.namedtuple("Pair", ["left", "right"])
p = Pair(torch.tensor([1, 2]), torch.tensor([3, 4]))
print(p.left + p.right, p._fields)
print(collections.Counter([int(v) for v in torch.tensor([1, 2, 2, 3, 3, 3])]))
total = functools.reduce(lambda u, v: u + v, [torch.tensor([float(k)]) for k in range(5)])
print(total)

@dataclasses.dataclass
class Holder:
    name: str
    value: torch.Tensor
    scale: float = 2.0

    def scaled(self):
        return self.value * self.scale

h = Holder("h", torch.tensor([1.0, -1.0]))
print(h.name, h.scale, h.scaled(), [f.name for f in dataclasses.fields(h)])
print(math.isclose(math.cos(0.0), torch.cos(torch.tensor(0.0)).item()), math.floor(2.7), math.e > 2)
