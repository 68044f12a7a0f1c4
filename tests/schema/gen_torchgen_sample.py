#!/usr/bin/env python3
"""Records how torchgen (PyTorch 2.15) reads a sample of PyTorch's native_functions.yaml, for
torchgen_sample_test.cpp to compare with this project's parser field by field.
Run with the reference PyTorch: scripts/reference-python tests/schema/gen_torchgen_sample.py

The sample is every 10th entry of core/ops/pytorch/native_functions.yaml (the copy of 2.15's file
this project embeds) plus every entry tagged `core`. Writes tests/schema/torchgen_sample_expected.txt,
tab-separated lines:
  schema <func as written>
  name <operator name, '_' included for in-place> <overload name or '-'>
  arg <name> <type> <default or '-'> <kwarg-only 0/1> <alias set before or '-'> <is_write 0/1> <alias set after or '-'>
  ret <name or '-'> <type> <alias set before or '-'> <is_write 0/1> <alias set after or '-'>
(alias sets as `a` or `a|b`; '-' where the argument has no alias annotation)."""
import os
import sys

import re

import torch
from torchgen.model import FunctionSchema

if not torch.__version__.startswith("2.15."):
    sys.exit("gen_torchgen_sample.py: needs PyTorch 2.15 (scripts/reference-python), found " + torch.__version__)

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
yaml_path = os.path.join(root, "core", "ops", "pytorch", "native_functions.yaml")
# The reference environment has no YAML package: entries are read by their lines. Each starts
# with "- func: "; its keys are indented; `tags:` is one tag or a [list] on one line.
entries = []
with open(yaml_path) as f:
    for line in f:
        if line.startswith("- func: "):
            entries.append({"func": line[len("- func: "):].strip(), "tags": []})
        elif entries and line.startswith("  tags:"):
            value = line.split(":", 1)[1].split("#", 1)[0].strip()
            entries[-1]["tags"] = [t.strip() for t in value.strip("[]").split(",") if t.strip()]


def tags_of(e):
    return e["tags"]


def alias_fields(annotation):
    if annotation is None:
        return ["-", "0", "-"]
    after = "|".join(annotation.alias_set_after) if annotation.alias_set_after else "-"
    return ["|".join(annotation.alias_set), str(int(annotation.is_write)), after]


lines = []
count = 0
for i, e in enumerate(entries):
    if i % 10 != 0 and "core" not in tags_of(e):
        continue
    func = e["func"]
    s = FunctionSchema.parse(func)
    count += 1
    lines.append("schema\t" + func)
    lines.append("\t".join(["name", str(s.name.name), s.name.overload_name or "-"]))
    kwarg_only = {a.name for a in s.arguments.flat_kwarg_only} | {a.name for a in s.arguments.out}
    for a in s.arguments.flat_all:
        lines.append("\t".join(["arg", a.name, str(a.type), "-" if a.default is None else a.default,
                                str(int(a.name in kwarg_only))] + alias_fields(a.annotation)))
    for r in s.returns:
        lines.append("\t".join(["ret", r.name or "-", str(r.type)] + alias_fields(r.annotation)))
with open(os.path.join(here, "torchgen_sample_expected.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
print(count, "schemas of", len(entries))
