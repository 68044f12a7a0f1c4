# The guard tree (torch._C._dynamo.RootGuardManager, core/dynamo/guard_manager.cpp) on its own:
# what it checks, the first failure in parts (guard, source, expected, actual) and the failing
# guard's line in the printed tree, which the trace's recompile payload and the Compile view use.
import torch
from torch._C import _dynamo

root = _dynamo.RootGuardManager()
x = torch.ones(3)
text = root.local("x").add_tensor_match(x, [], "")
assert text.startswith("check_tensor(L['x'], Tensor, "), text
root.local("n").add_equals_match(3, "L['n'] == 3", "")
root.local("flag").add_type_match(bool, "___check_type_id(L['flag'], bool)", "")
tree = str(root).split("\n")
assert tree[0] == "TREE_GUARD_MANAGER:" and tree[1] == "+- RootGuardManager", tree

# Everything holds: no failure.
assert root.check({"x": torch.zeros(3), "n": 3, "flag": True}, {})
assert root.check_failure({"x": torch.zeros(3), "n": 3, "flag": True}, {}) is None

# A size change: the tensor guard, with the size it was compiled for and the one it got.
f = root.check_failure({"x": torch.zeros(4), "n": 3, "flag": True}, {})
assert not root.check({"x": torch.zeros(4), "n": 3, "flag": True}, {})
assert f.guard == "TENSOR_MATCH" and f.source == "L['x']", (f.guard, f.source)
assert (f.expected, f.actual) == ("3", "4"), (f.expected, f.actual)
assert f.reason == "tensor 'L['x']' size mismatch at index 0. expected 3, actual 4", f.reason
assert tree[f.tree_line].endswith("TENSOR_MATCH: " + text), tree[f.tree_line]

# dtype and requires_grad, in PyTorch's words.
f = root.check_failure({"x": torch.zeros(3, dtype=torch.float64), "n": 3, "flag": True}, {})
assert f.reason == "tensor 'L['x']' dtype mismatch. expected Float, actual Double", f.reason
assert (f.expected, f.actual) == ("Float", "Double")
f = root.check_failure({"x": torch.zeros(3, requires_grad=True), "n": 3, "flag": True}, {})
assert f.reason.endswith("requires_grad mismatch. expected requires_grad=0"), f.reason
assert (f.expected, f.actual) == ("0", "1")

# A constant: the first failing guard in tree order, with repr()s of the values.
f = root.check_failure({"x": torch.zeros(3), "n": 5, "flag": True}, {})
assert f.guard == "EQUALS_MATCH" and f.source == "L['n']" and f.reason == "L['n'] == 3", (f.guard, f.reason)
assert (f.expected, f.actual) == ("3", "5")
assert tree[f.tree_line].endswith("EQUALS_MATCH: L['n'] == 3"), tree[f.tree_line]
f = root.check_failure({"x": torch.zeros(3), "n": 3, "flag": 1}, {})
assert f.guard == "TYPE_MATCH" and (f.expected, f.actual) == ("<class 'bool'>", "<class 'int'>"), (f.expected, f.actual)
assert tree[f.tree_line].endswith("TYPE_MATCH: ___check_type_id(L['flag'], bool)")

# A missing local fails too, printed on no line of the tree.
f = root.check_failure({"x": torch.zeros(3), "flag": True}, {})
assert f.reason == "'L['n']' could not be read" and f.tree_line == -1 and f.actual == "missing", f.reason
assert str(f) == ": 'L['n']' could not be read"  # an entry's failure is "<compile id>: <reason>"
print("guard tree: ok")

# The other typed constructors: None, not None, a length, an identity.
other = _dynamo.RootGuardManager()
other.local("a").add_none_match("L['a'] is None", "")
other.local("b").add_not_none("L['b'] is not None", "")
other.local("c").add_length_check(2, "len(L['c']) == 2", "")
marker = object()
other.local("d").add_id_match(marker, "___check_obj_id(L['d'], 1)", "")
assert other.check({"a": None, "b": 1, "c": [1, 2], "d": marker}, {})
f = other.check_failure({"a": None, "b": 1, "c": [1, 2, 3], "d": marker}, {})
assert f.guard == "LENGTH_CHECK" and (f.expected, f.actual) == ("2", "3"), (f.guard, f.expected, f.actual)
f = other.check_failure({"a": 0, "b": 1, "c": [1, 2], "d": marker}, {})
assert f.guard == "NONE_MATCH" and (f.expected, f.actual) == ("None", "0")
assert other.check_failure({"a": None, "b": 1, "c": [1, 2], "d": object()}, {}).guard == "ID_MATCH"
try:
    other.local("e").add_length_check(-1, "", "")
    raise AssertionError("a negative length was accepted")
except ValueError as e:
    assert "expects a length >= 0" in str(e), e
print("typed constructors: ok")

