#!/usr/bin/env python3
"""Records how torchgen (PyTorch 1.13) classifies every operator of PyTorch's own
native_functions.yaml: SchemaKind (functional, inplace, out, mutable, scratch) and whether its
name is in-place. Run with the reference PyTorch: /usr/bin/python3 tests/schema/gen_schema_kinds.py
Writes tests/schema/schema_kinds_expected.txt, read by schema_kinds_test.cpp: one line per
operator, "<kind> <inplace 0/1> <func>" (the func as PyTorch's YAML writes it)."""
import os
import re

import torchgen
from torchgen.model import FunctionSchema

here = os.path.dirname(os.path.abspath(__file__))
yaml_path = os.path.join(os.path.dirname(torchgen.__file__), "packaged", "ATen", "native", "native_functions.yaml")
lines = []
for m in re.finditer(r"^- func: (.*)$", open(yaml_path).read(), re.M):
    schema = FunctionSchema.parse(m.group(1))
    lines.append("%s %d %s" % (schema.kind().name, int(schema.name.name.inplace), m.group(1).strip()))
with open(os.path.join(here, "schema_kinds_expected.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
print(len(lines), "operators")
