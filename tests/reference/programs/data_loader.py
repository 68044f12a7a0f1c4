# torch.utils.data: datasets, samplers, random_split and the DataLoader, with PyTorch's random
# draws (the shuffled orders, the seeds a loader takes from the default generator, the per-worker
# seeds of num_workers > 0), default_collate / default_convert on tensors, numbers, strings,
# dicts, named tuples and NumPy arrays, and the errors for options that exclude each other.
import collections
import random
import warnings

import numpy as np
import torch
from torch.utils.data import (BatchSampler, ConcatDataset, DataLoader, Dataset, IterableDataset, RandomSampler,
                              SequentialSampler, StackDataset, Subset, SubsetRandomSampler, TensorDataset,
                              WeightedRandomSampler, default_collate, get_worker_info, random_split)

warnings.simplefilter("ignore")
torch.manual_seed(0)


def attempt(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, e)


x = torch.arange(20.0).view(10, 2)
y = torch.arange(10)
ds = TensorDataset(x, y)
print("len", len(ds), ds[3])
for xb, yb in DataLoader(ds, batch_size=4, shuffle=True):
    print("shuffled", xb.tolist(), yb.tolist())
print("after", torch.rand(2).tolist())
g = torch.Generator().manual_seed(42)
print("generator", [b[1].tolist() for b in DataLoader(ds, batch_size=3, shuffle=True, generator=g, drop_last=True)])
print("sequential", [b[1].tolist() for b in DataLoader(ds, batch_size=4)])
print("unbatched", [b for b in DataLoader(range(3), batch_size=None)])
print("lens", len(DataLoader(ds, batch_size=3)), len(DataLoader(ds, batch_size=3, drop_last=True)))

a, b = random_split(ds, [7, 3])
print("split", a.indices, b.indices)
a, b, c = random_split(range(10), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(1))
print("fractions", list(a), list(b), list(c))
print("fraction remainder", [len(s) for s in random_split(range(11), [0.25, 0.25, 0.5])])
attempt("bad lengths", lambda: random_split(range(10), [3, 3]))

print("sampler random", list(RandomSampler(range(6))))
print("sampler replacement", list(RandomSampler(range(6), replacement=True, num_samples=40)))
print("sampler more samples", list(RandomSampler(range(4), num_samples=10)))
print("subset random", list(SubsetRandomSampler([10, 20, 30, 40])))
print("weighted", list(WeightedRandomSampler([0.1, 0.9, 0.4], 8)))
print("weighted no replacement", list(WeightedRandomSampler([0.1, 0.9, 0.4, 0.2], 3, replacement=False)))
print("batches", list(BatchSampler(SequentialSampler(range(10)), 3, False)), list(BatchSampler(range(10), 3, True)))
attempt("batch_size 0", lambda: BatchSampler(range(3), 0, False))
attempt("num_samples 0", lambda: RandomSampler(range(3), num_samples=0))
attempt("weights 2-D", lambda: WeightedRandomSampler([[1.0]], 2))

cat = ConcatDataset([range(3), range(10, 14)])
print("concat", len(cat), cat[4], cat[-1], cat.cumulative_sizes, list(ds + ds)[12][1])
attempt("concat index", lambda: cat[-8])
print("subset", list(Subset(range(10), [9, 0, 5])))
print("stack", StackDataset(range(3), "abc")[1], StackDataset(n=range(3), s="abc")[2])


class Samples(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        Point = collections.namedtuple("Point", "x y")
        return {"v": i * 1.5, "n": i, "s": str(i), "t": torch.tensor([i, -i]), "a": np.array([i, 2 * i], dtype=np.float32),
                "p": Point(i, float(i)), "l": [i, i + 1]}


for batch in DataLoader(Samples(), batch_size=2):
    print("collate", {k: (v.dtype, v.tolist()) if isinstance(v, torch.Tensor) else v for k, v in batch.items()})
print("custom collate", list(DataLoader(range(5), batch_size=2, collate_fn=lambda b: sum(b))))
print("default_collate", default_collate([(1, 2.5), (3, 4.5)]))
attempt("ragged", lambda: default_collate([[1, 2], [3]]))
attempt("objects", lambda: default_collate([object()]))


class Augmented(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        info = get_worker_info()
        return (torch.rand(1).item(), random.random(), float(np.random.rand()), info.id if info else -1,
                info.num_workers if info else 0, i)


torch.manual_seed(1)
for batch in DataLoader(Augmented(), batch_size=2, num_workers=2, shuffle=True):
    print("workers", [t.tolist() for t in batch])
print("main after workers", torch.rand(1).tolist())
for batch in DataLoader(Augmented(), batch_size=3, num_workers=3, worker_init_fn=lambda w: torch.manual_seed(100 + w)):
    print("worker_init_fn", [t.tolist() for t in batch])
loader = DataLoader(Augmented(), batch_size=4, num_workers=2, persistent_workers=True)
for epoch in range(2):
    print("persistent", epoch, [[round(v, 6) for v in b[0].tolist()] for b in loader])


class Stream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        start, step = (0, 1) if info is None else (info.id, info.num_workers)
        return iter(range(start, self.n, step))

    def __len__(self):
        return self.n


print("iterable", [b.tolist() for b in DataLoader(Stream(7), batch_size=3)])
print("iterable drop_last", [b.tolist() for b in DataLoader(Stream(7), batch_size=3, drop_last=True)])
print("iterable workers", [b.tolist() for b in DataLoader(Stream(11), batch_size=2, num_workers=2)])
print("iterable len", len(DataLoader(Stream(7), batch_size=3)))
attempt("iterable shuffle", lambda: DataLoader(Stream(3), shuffle=True))
attempt("sampler and shuffle", lambda: DataLoader(ds, sampler=[1], shuffle=True))
attempt("batch_sampler and batch_size", lambda: DataLoader(ds, batch_sampler=[[1]], batch_size=2))
attempt("batch_size None and drop_last", lambda: DataLoader(ds, batch_size=None, drop_last=True))
attempt("negative workers", lambda: DataLoader(ds, num_workers=-1))
attempt("persistent without workers", lambda: DataLoader(ds, persistent_workers=True))
attempt("prefetch without workers", lambda: DataLoader(ds, prefetch_factor=2))
loader = DataLoader(ds)
attempt("set batch_size", lambda: setattr(loader, "batch_size", 3))
print("end", torch.rand(1).tolist())
