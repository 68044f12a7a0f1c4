import torch

d = {"b": torch.tensor([1.0, 2.0]), "a": torch.arange(3), "c": torch.ones(2, 2)}
for k, v in d.items():
    print(k, v.shape, v.dtype)
for k in sorted(d):
    print(k, d[k])
print(list(d.keys()))
print(sorted(d.keys(), reverse=True))
sums = {k: v.sum().item() for k, v in d.items()}
print(sums)
print(sorted(sums.items(), key=lambda kv: kv[1]))
sq = {i: torch.tensor([i, i * i]) for i in range(4)}
print(sq[3])
stacked = torch.stack([sq[i] for i in sorted(sq)])
print(stacked)
print(stacked.shape)
evens = [t for t in sq.values() if t[0] % 2 == 0]
print(len(evens), evens)
d["a"] = d["a"] * 10
print(d.get("a"), d.get("z"), "c" in d)
merged = {**d, "z": torch.zeros(1)}
print(len(merged), list(merged))
del merged["b"]
print({k: tuple(v.shape) for k, v in merged.items()})
print(torch.tensor([v for v in sums.values()]))
