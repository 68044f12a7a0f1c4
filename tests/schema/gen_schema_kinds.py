#!/usr/bin/env python3
"""Records how torchgen (PyTorch 2.15) classifies every operator of PyTorch's own
native_functions.yaml (core/ops/pytorch/, the copy this project embeds): SchemaKind (functional,
inplace, out, mutable, scratch) and whether its name is in-place.
Run with the reference PyTorch: scripts/reference-python tests/schema/gen_schema_kinds.py
Writes tests/schema/schema_kinds_expected.txt, read by schema_kinds_test.cpp: one line per
operator, "<kind> <inplace 0/1> <func>" (the func as PyTorch's YAML writes it)."""
import os
import re
import sys

import torch
from torchgen.model import FunctionSchema

if not torch.__version__.startswith("2.15."):
    sys.exit("gen_schema_kinds.py: needs PyTorch 2.15 (scripts/reference-python), found " + torch.__version__)

here = os.path.dirname(os.path.abspath(__file__))
yaml_path = os.path.join(os.path.dirname(os.path.dirname(here)), "core", "ops", "pytorch", "native_functions.yaml")
lines = []
for m in re.finditer(r"^- func: (.*)$", open(yaml_path).read(), re.M):
    schema = FunctionSchema.parse(m.group(1))
    lines.append("%s %d %s" % (schema.kind().name, int(schema.name.name.inplace), m.group(1).strip()))
with open(os.path.join(here, "schema_kinds_expected.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
print(len(lines), "operators")
