# Advanced indexing on the Meta device: the result's shape from the index tensors' shapes
# alone (adjacent indexed dims keep their place, separated ones go first), index_put_ checks
# the values' shape and dtype, and a bool mask must be read to know the shape, so a mask on the
# Meta device cannot be used (nonzero has no Meta kernel) while one on the CPU can. PyTorch's
# Meta index_put_ checks nothing: mis-shaped values and bad indices pass.
import torch

x = torch.empty(3, 4, 5, device="meta")
i = torch.tensor([0, 1], device="meta")
print(x[i].shape, x[:, i].shape, x[i, :, i].shape, x[i[:, None], i].shape, x[..., i].shape)
print(x[None, i].shape, x[torch.tensor([[0, 2, 1]])].shape)
print(x[torch.tensor([True, False, True])].shape, x[torch.ones(3, 4, dtype=torch.bool)].shape)
print(x.index_put_((i,), torch.empty(4, 5, device="meta")).shape, x.index_put((i, i), torch.empty(5, device="meta")))
print(x.index_put_((i,), torch.empty(2, 1, 5, device="meta"), accumulate=True).shape)
print(x.index_put_((i,), torch.empty(3, 5, device="meta")).shape, x.index_put_((i.float(), i, i, i), x).shape)
for bad in ("x[torch.ones(3, dtype=torch.bool, device='meta')]", "x[i.float()]",
            "x[i, i, i, i]", "x[i, torch.zeros(3, dtype=torch.long, device='meta')]",
            "x[torch.ones(4, dtype=torch.bool)]"):
    try:
        print(eval(bad))
    except (RuntimeError, IndexError, NotImplementedError) as e:
        print(bad, "->", type(e).__name__ + ":", str(e).split("\n")[0][:160])
