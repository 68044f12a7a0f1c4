#!/usr/bin/env python3
"""Records how float32 values round to float16 on PyTorch 2.15's CPU (Tensor.half(), IEEE
round to nearest even) for half_test.cpp.

Run: scripts/reference-python tests/runtime/gen_half_expected.py   (writes half_expected.json;
the reference environment, scripts/reference-env; any other PyTorch version is refused)."""
import json
import os
import sys

import numpy as np
import torch

if not torch.__version__.startswith("2.15."):
    sys.exit(f"{__file__}: expected PyTorch 2.15, this Python has {torch.__version__} (run it with scripts/reference-python)")

rng = np.random.default_rng(0)
edges = [0.0, -0.0, 1.0, -1.0, 65504.0, 65519.99, 65520.0, 65536.0, 1e9, 6.103515625e-05,
         6.0e-05, 5.9604644775390625e-08, 2.98e-08, 2.9802322387695312e-08, 8.940696716308594e-08,
         1.0009765625, 1.00048828125, 1.00146484375, 0.1, 0.3333333, float("inf"), -float("inf")]
# Random bit patterns over every exponent that reaches a half (subnormals, normals, overflow).
bits = rng.integers(0x33000000, 0x47900000, size=3000, dtype=np.uint32)
bits |= (rng.integers(0, 2, size=3000, dtype=np.uint32) << 31)
values = np.concatenate([np.array(edges, dtype=np.float32), bits.view(np.float32)])
halves = torch.from_numpy(values).half().view(torch.int16).numpy().view(np.uint16)
cases = [[int(v), int(h)] for v, h in zip(values.view(np.uint32), halves)]
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "half_expected.json")
with open(out, "w") as f:
    json.dump({"float_bits_to_half_bits": cases}, f, separators=(",", ":"))
    f.write("\n")
print("wrote", len(cases), "cases to", out)
