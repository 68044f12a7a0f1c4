# An OpInfo-style sample suite for the shape, indexing and sorting operators: for each operator,
# generated samples (0-dim, empty, contiguous, transposed, strided; float32, float64, int64,
# int32, int8, uint8, bool) with the operator's usual arguments, then a float64 sample with
# requires_grad for the gradient of (out * w).sum(). Each line is the operator, the sample and the
# result's dtype, shape, strides and values (or the error), so a difference names the sample it
# is in. Exact: these operators move values without arithmetic, and their gradients add at most
# a few values in PyTorch's order.
import torch

torch.manual_seed(0)


def fmt(t):
    if isinstance(t, (tuple, list)):
        return " | ".join(fmt(x) for x in t)
    if isinstance(t, torch.Tensor):
        return f"{t.dtype} {list(t.shape)} {list(t.stride())} {t.flatten().tolist()}"
    return repr(t)


def run(label, f):
    try:
        print(label, fmt(f()))
    except Exception as e:
        print(label, type(e).__name__, str(e).split("\n")[0])


def samples(dtype):
    if dtype.is_floating_point:
        base = torch.randn(3, 4).to(dtype)
    elif dtype == torch.bool:
        base = torch.randn(3, 4) > 0
    else:
        base = torch.randint(-5, 6, (3, 4)).to(dtype)
    return [("0-dim", base[0, 0].clone()), ("empty", base[:0]), ("contig", base), ("transposed", base.t()),
            ("strided", base[:, ::2])]


def idx(n, k=2):
    return torch.arange(k) % max(n, 1)


# name -> f(x), applied to every sample
OPS = {
    "flatten": lambda x: x.flatten(),
    "reshape": lambda x: x.reshape(-1, 1),
    "unsqueeze": lambda x: x.unsqueeze(0),
    "squeeze": lambda x: x.unsqueeze(1).squeeze(1),
    "t": lambda x: x.t(),
    "permute": lambda x: x.permute(*reversed(range(x.dim()))),
    "expand": lambda x: x.expand(2, *x.shape),
    "repeat": lambda x: x.repeat(2, *([1] * x.dim())),
    "tile": lambda x: x.tile(2),
    "flip": lambda x: x.flip(-1) if x.dim() else x.flip(0),
    "roll": lambda x: x.roll(1, -1) if x.dim() else x.roll(1),
    "roll_flat": lambda x: x.roll(-3),
    "rot90": lambda x: x.rot90(),
    "movedim": lambda x: x.movedim(0, -1),
    "tril": lambda x: x.tril(),
    "triu": lambda x: x.triu(1),
    "diag": lambda x: x.diag(),
    "diagonal": lambda x: x.diagonal(),
    "diag_embed": lambda x: torch.diag_embed(x),
    "narrow": lambda x: x.narrow(-1, 1, 1),
    "select": lambda x: x.select(-1, 0),
    "chunk": lambda x: x.chunk(2, -1),
    "split_list": lambda x: x.split([1, x.shape[-1] - 1], -1),
    "tensor_split": lambda x: x.tensor_split(3, -1),
    "unbind": lambda x: x.unbind(-1),
    "cat": lambda x: torch.cat([x, x], -1),
    "stack": lambda x: torch.stack([x, x], -1),
    "repeat_interleave": lambda x: x.repeat_interleave(2, -1),
    "pad": lambda x: torch.nn.functional.pad(x, (1, 2)),
    "index_select": lambda x: x.index_select(-1, idx(x.shape[-1] if x.dim() else 1)),
    "gather": lambda x: x.gather(-1, torch.zeros_like(x, dtype=torch.long)),
    "take": lambda x: x.take(idx(x.numel(), 3)),
    "masked_select": lambda x: x.masked_select(torch.ones_like(x, dtype=torch.bool).tril() if x.dim() == 2 else x != 0),
    "masked_fill": lambda x: x.masked_fill(torch.ones_like(x, dtype=torch.bool).triu() if x.dim() == 2 else x != 0, 1),
    "index_fill": lambda x: x.index_fill(-1, idx(x.shape[-1] if x.dim() else 1, 1), 0),
    "scatter": lambda x: torch.zeros(3, 6, dtype=x.dtype).scatter(1, torch.ones_like(x, dtype=torch.long).view(-1, 1)[:3], x.view(-1, 1)[:3]),
    "scatter_add": lambda x: torch.zeros(3, 6, dtype=x.dtype).scatter_add(1, torch.ones(3, 1, dtype=torch.long)[:x.numel()], x.reshape(-1, 1)[:3]),
    "index_add": lambda x: torch.zeros(5, dtype=x.dtype).index_add(0, idx(5, x.numel()), x.flatten()),
    "index_put": lambda x: x.clone().index_put_((idx(x.shape[0] if x.dim() else 1),), torch.tensor(1).to(x.dtype)) if x.dim() else x.clone(),
    "getitem_list": lambda x: x[[0, -1]] if x.dim() and x.shape[0] else x[None],
    "getitem_mask": lambda x: x[x > 0] if x.dtype != torch.bool else x[x],
    "getitem_slices": lambda x: x[..., 1::2] if x.dim() else x[...],
    "nonzero": lambda x: x.nonzero(),
    "where": lambda x: torch.where(x > 0 if x.dtype != torch.bool else x, x, torch.zeros_like(x)),
    "sort": lambda x: x.sort(),
    "sort_desc": lambda x: x.sort(0 if x.dim() else -1, descending=True),
    "argsort": lambda x: x.argsort(stable=True),
    "topk": lambda x: x.topk(min(2, x.shape[-1]) if x.dim() else 1),
    "kthvalue": lambda x: x.kthvalue(1),
    "unique": lambda x: torch.unique(x, return_inverse=True, return_counts=True),
    "clone_cl": lambda x: x.clone().contiguous(),
}
DTYPES = [torch.float32, torch.float64, torch.int64, torch.int32, torch.int8, torch.uint8, torch.bool]

for op, f in OPS.items():
    for dt in DTYPES:
        for name, x in samples(dt):
            run(f"{op} {dt} {name}", lambda: f(x))
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)

    def grad():
        x.grad = None
        out = f(x)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        loss = sum((o * torch.linspace(-1, 1, o.numel(), dtype=torch.float64).view(o.shape)).sum()
                   for o in outs if o.dtype.is_floating_point and o.requires_grad)
        if not isinstance(loss, torch.Tensor):
            return "not differentiable"
        loss.backward()
        return x.grad
    run(f"{op} grad", grad)
