"""SchemaCheckMode: every operator call compared with what its schema promises.

PyTorch's test-only torch.testing._internal.schema_check_mode.SchemaCheckMode, for everyone:

    with SchemaCheckMode() as mode:
        torch.ops.aten._test_schema_unannotated_write(x)
    # RuntimeError: Argument input is not defined as mutable but was mutated

Inside the block each call through the dispatcher is checked (Note [Schema check mode] in
core/ops/schema_check.h): an argument changed without `(a!)` in its schema, or a result that
shares memory with an argument (or another result) without a shared alias set, is a violation,
raised as RuntimeError (unless raise_on_violation=False; then it is only recorded). Afterwards
`ops` lists the operators called, `mutated` and `aliasing` what the schemas rightly said, and
`unchanged` the arguments annotated as written that a call left as they were.
"""
from collections import namedtuple

from torch import _C

Mutation = namedtuple("Mutation", ["op_name", "arg_name"])
Aliasing = namedtuple("Aliasing", ["op_name", "arg_name", "output_number"])
Violation = namedtuple("Violation", ["kind", "op_name", "arg_name", "message"])


class SchemaCheckMode:
    def __init__(self, raise_on_violation=True):
        self.raise_on_violation = raise_on_violation
        self.ops = []
        self.mutated = []
        self.aliasing = []
        self.violations = []
        self.unchanged = []
        self._outer = None

    def __enter__(self):
        self._outer = _C._schema_check_enabled()
        _C._schema_check_clear()
        _C._schema_check_set(True, self.raise_on_violation)
        return self

    def __exit__(self, *exc):
        self._collect()
        _C._schema_check_set(self._outer, True)
        _C._schema_check_clear()
        return False

    def _collect(self):
        self.ops = list(_C._schema_check_ops())
        for kind, op, arg, message in _C._schema_check_findings():
            if kind == "mutated":
                self.mutated.append(Mutation(op, arg))
            elif kind == "aliased":
                self.aliasing.append(Aliasing(op, arg, message.split(" aliases ")[1].split(",")[0]))
            elif kind == "annotated_but_unchanged":
                self.unchanged.append(Violation(kind, op, arg, message))
            else:
                self.violations.append(Violation(kind, op, arg, message))

    def reset_cache(self):
        self.ops.clear()
        self.mutated.clear()
        self.aliasing.clear()
        self.violations.clear()
        self.unchanged.clear()

    def display_ops(self):
        print(*self.ops, sep=",")
