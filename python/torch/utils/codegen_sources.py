"""What the operator generator read and wrote for one operator, from the running program.

The build embeds the schema YAML and every file tools/codegen generated from it
(core/ops/generated_sources.h), so these are the real texts this binary was built from:

    from torch.utils import codegen_sources
    print(codegen_sources.yaml_entry("add.Tensor"))       # its entry in native_functions.yaml
    for r in codegen_sources.registrations("add.Tensor"):  # one per kernel registration
        print(r.key, r.file, r.line, r.text)

Not part of PyTorch: PyTorch's generated code stays in its build tree.
"""
import re
from collections import namedtuple

from torch import _C

Registration = namedtuple("Registration", ["key", "file", "line", "text"])

_REGISTERED = re.compile(r"^(\S+?)(?:\[alias\])?: registered at (\S+):(\d+)")


def files():
    """The names of the embedded files: core/ops/*.yaml and build/generated/*."""
    return list(_C._generated_source_names())


def lines(name, first=1, last=None):
    """Lines first..last (1-based) of an embedded file, as a list of strings."""
    return list(_C._generated_source_lines(name, first, last if last is not None else 1 << 30))


def yaml_entry(op):
    """The YAML entry that declares `op` ("add.Tensor", "aten::add_.Tensor"), or None."""
    return _C._schema_yaml_entry(op)


def _dump_lines(op):
    """The lines of _dispatch_dump for "add.Tensor" or "aten::add.Tensor"."""
    return _C._dispatch_dump(op if op.startswith("aten::") else "aten::" + op).splitlines()


def registrations(op):
    """The kernel registrations of `op`, each with the generated block that makes it.

    The list is the dispatcher's (_dispatch_dump); the blocks are found in the embedded files by
    the same code the Schema view uses (core/ops/op_sources).
    """
    full = op if op.startswith("aten::") else "aten::" + op
    blocks = _C._kernel_registration_blocks(full)
    out = []
    for line in _dump_lines(op):
        m = _REGISTERED.match(line)
        if not m or m.group(2).endswith("register_operators.cpp"):
            continue
        file, number = m.group(2), int(m.group(3))
        out.append(Registration(m.group(1), file, number, _dedent(blocks.get("%s:%d" % (file, number)))))
    return out


def _dedent(block):
    """A block without the indentation of its first line (its `{`)."""
    if block is None:
        return None
    rows = block.split("\n")
    indent = len(rows[0]) - len(rows[0].lstrip())
    return "\n".join(r[indent:] for r in rows) if len(rows) > 1 else rows[0].strip()


def schema_registration(op):
    """The generated line that registers the schema of `op` (register_operators.cpp)."""
    for line in _dump_lines(op):
        m = re.match(r"^debug: registered at (\S+):(\d+)", line)
        if m:
            return Registration("schema", m.group(1), int(m.group(2)), lines(m.group(1), int(m.group(2)), int(m.group(2)))[0].strip())
    return None


def definition(file, name):
    """The generated top-level function or struct `name` in an embedded file, or None.

    definition("build/generated/RegisterAutograd.cpp", "add_Tensor_Autograd") is the Autograd
    wrapper of add.Tensor; "add_Tensor_Node" the backward node it records.
    """
    return _C._generated_definition(file, name)
