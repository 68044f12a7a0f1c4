# Writes the two checkpoint files serialization_save_load.py loads: run it once with PyTorch 2.15
# (scripts/reference-python) and once with this project (build/app/inside-pytorch run), each
# writing its own file, so that each side is tested on a file the other one saved.
#   scripts/reference-python tests/reference/programs/data/make_saved_files.py
#   build/app/inside-pytorch run tests/reference/programs/data/make_saved_files.py
import collections
import os

import torch

here = os.path.dirname(os.path.abspath(__file__))
name = "saved_by_pytorch_2_15.pt" if "+insidepytorch" not in torch.__version__ else "saved_by_inside_pytorch.pt"
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
x = torch.arange(12.0)
checkpoint = {
    "model": model.state_dict(),
    "epoch": 7,
    "lr": 0.01,
    "name": "mlp",
    "history": [0.5, 0.25, (1, 2)],
    "shared": [x[2:6], x.view(3, 4).t()],
    "dtypes": {str(t.dtype): t for t in (torch.tensor([1, -2], dtype=torch.int8), torch.tensor([3], dtype=torch.uint8),
                                         torch.tensor([True, False]), torch.tensor([1.5], dtype=torch.float16),
                                         torch.tensor([2.5], dtype=torch.bfloat16), torch.tensor([0.1], dtype=torch.float64),
                                         torch.tensor([7], dtype=torch.int32))},
    "param": torch.nn.Parameter(torch.ones(2, 2)),
    "scalar": torch.tensor(3.25),
    "empty": torch.zeros(0, 3),
    "ordered": collections.OrderedDict(b=1, a=2),
}
torch.save(checkpoint, os.path.join(here, name))
