# torch.save / torch.load in PyTorch's zip format, both ways: a checkpoint saved by PyTorch 2.15
# and one saved by this project (tests/reference/programs/data/, written by make_saved_files.py)
# load alike on both sides, with their shared storages, dtypes, strides, Parameters and
# OrderedDicts; then round trips through a buffer and a file, map_location, load_state_dict into
# a fresh model, weights_only refusing an arbitrary class, and a corrupt file.
import collections
import io
import os
import tempfile

import torch

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def show(label, ckpt):
    print(label, sorted(ckpt))
    print(" model", type(ckpt["model"]).__name__, [(k, v.tolist()) for k, v in ckpt["model"].items()])
    print(" numbers", ckpt["epoch"], ckpt["lr"], ckpt["name"], ckpt["history"], dict(ckpt["ordered"]))
    a, t = ckpt["shared"]
    print(" shared", a.tolist(), t.shape, t.stride(), t.storage_offset(), a.storage_offset())
    a[0] = -1.0
    print(" one storage", t[2, 0].item())
    for k, v in sorted(ckpt["dtypes"].items()):
        print(" dtype", k, v.dtype, v.tolist())
    print(" param", type(ckpt["param"]).__name__, ckpt["param"].requires_grad, ckpt["param"].tolist())
    print(" scalar", ckpt["scalar"].shape, ckpt["scalar"].item(), "empty", tuple(ckpt["empty"].shape))


show("saved by PyTorch 2.15", torch.load(os.path.join(here, "saved_by_pytorch_2_15.pt")))
show("saved by Inside PyTorch", torch.load(os.path.join(here, "saved_by_inside_pytorch.pt")))

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Tanh(), torch.nn.Linear(3, 2))
buffer = io.BytesIO()
torch.save(model.state_dict(), buffer)
buffer.seek(0)
fresh = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Tanh(), torch.nn.Linear(3, 2))
print("load_state_dict", fresh.load_state_dict(torch.load(buffer)))
x = torch.randn(2, 4)
print("same outputs", torch.equal(model(x), fresh(x)))

with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "ckpt.pth")
    torch.save({"w": torch.arange(6).view(2, 3), "opt": {"step": 3, "lr": [0.1, 0.01]}}, path)
    print("file", torch.load(path, map_location="cpu"), torch.load(path, map_location=torch.device("cpu"))["w"].device)
    print("map_location function", torch.load(path, map_location=lambda storage, loc: storage)["w"].device)


class Custom:
    pass


buffer = io.BytesIO()
torch.save({"obj": Custom()}, buffer)
buffer.seek(0)
try:
    torch.load(buffer)
except Exception as e:
    print("weights_only", type(e).__name__)
buffer.seek(0)
print("weights_only=False", type(torch.load(buffer, weights_only=False)["obj"]).__name__)
try:
    torch.load(io.BytesIO(b"not a checkpoint"))
except Exception as e:
    print("corrupt", type(e).__name__)
