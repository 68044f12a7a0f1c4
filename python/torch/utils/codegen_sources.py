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
    """The kernel registrations of `op`, each with the generated line that makes it."""
    embedded = set(files())
    out = []
    for line in _dump_lines(op):
        m = _REGISTERED.match(line)
        if not m or m.group(2).endswith("register_operators.cpp"):
            continue
        file, number = m.group(2), int(m.group(3))
        out.append(Registration(m.group(1), file, number, _block(file, number) if file in embedded else None))
    return out


def _block(file, number):
    """The generated statement block `{ KernelFunction k; ... register_kernel(...); }` around a line."""
    first = max(1, number - 12)
    text = lines(file, first, number + 6)
    at = number - first
    start, end = at, at
    while start > 0 and text[start].strip() != "{":
        start -= 1
    while end < len(text) - 1 and text[end].strip() != "}":
        end += 1
    if text[start].strip() != "{" or text[end].strip() != "}":
        return text[at].strip()
    indent = len(text[start]) - len(text[start].lstrip())
    return "\n".join(l[indent:] for l in text[start:end + 1])


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
    start = re.compile(r"^(?:struct |\S.*[ &*])" + re.escape(name) + r"\b.*\{$")
    text = lines(file)
    for i, line in enumerate(text):
        if start.match(line):
            for j in range(i + 1, len(text)):
                if text[j].startswith("}"):
                    return "\n".join(text[i:j + 1])
            return None
    return None
