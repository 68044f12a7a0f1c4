"""The project's derivative formulas (core/ops/derivatives.yaml, embedded in the build), read
and applied to graph nodes: each formula is a C++ expression over grad, the saved inputs,
result and sizes (`sum_to(ops::mul_Tensor(grad, other), self_sizes)`); parse() reads it into a
small tree and Builder.eval() turns it into aten nodes of a backward graph, with the helpers of
core/autograd/formulas.cpp (sum_to, mul_scalar, threshold_backward, ...) built from the same
operators they call there (Note [Formulas are built from operators])."""
import re

import torch

_entries = None


class FormulaUnsupported(Exception):
    pass


def entries():
    """{'mul.Tensor': {'node': 'MulBackward0', 'self': '...', 'other': '...'}, ...}"""
    global _entries
    if _entries is None:
        _entries = {}
        current = None
        for line in torch._C._generated_source_lines("core/ops/derivatives.yaml"):
            m = re.match(r"^- name: (\S+)", line)
            if m:
                current = _entries.setdefault(m.group(1), {})
                continue
            m = re.match(r"^  (\w+): (.*)$", line)
            if m and current is not None:
                current[m.group(1)] = m.group(2).strip()
    return _entries


_TOKEN = re.compile(r"\s*(?:(\d+\.\d*|\d+)|([A-Za-z_][\w:]*)|(.))")


def parse(text):
    """A formula as nested tuples: ('call', name, [args]) | ('name', n) | ('num', v)."""
    tokens = [t for t in _TOKEN.findall(text) if any(t)]
    pos = [0]

    def peek():
        return tokens[pos[0]] if pos[0] < len(tokens) else ("", "", "")

    def take():
        t = peek()
        pos[0] += 1
        return t

    def expr():
        num, name, sym = take()
        if num:
            return ("num", float(num) if "." in num else int(num))
        if not name:
            raise FormulaUnsupported("unexpected '{}' in {}".format(sym, text))
        if peek()[2] == "(":
            take()
            args = []
            if peek()[2] != ")":
                while True:
                    args.append(expr())
                    if peek()[2] == ",":
                        take()
                        continue
                    break
            if take()[2] != ")":
                raise FormulaUnsupported("missing ) in " + text)
            return ("call", name, args)
        return ("name", name)
    tree = expr()
    if pos[0] != len(tokens):
        raise FormulaUnsupported("trailing text in " + text)
    return tree


def aten_op(cpp_name):
    """ops::mul_Tensor -> torch.ops.aten.mul.Tensor (the generated C++ API's naming)."""
    name = cpp_name.split("::")[-1]
    aten = torch.ops.aten
    parts = name.split("_")
    for i in range(len(parts), 0, -1):
        packet, overload = "_".join(parts[:i]), "_".join(parts[i:])
        try:
            p = getattr(aten, packet)
            return getattr(p, overload or "default")
        except (AttributeError, RuntimeError):
            continue
    raise FormulaUnsupported("no aten operator for {}".format(cpp_name))


class Builder:
    """Evaluates formulas into a backward graph. `emit(target, args)` adds an aten node and
    returns it (with its fake value in meta['val']); `size_of(v)` gives a value's sizes."""

    def __init__(self, emit, size_of):
        self.emit, self.size_of = emit, size_of

    def eval(self, tree, env):
        kind = tree[0]
        if kind == "num":
            return tree[1]
        if kind == "name":
            n = tree[1]
            if n in env:
                return env[n]
            if n in ("true", "false"):
                return n == "true"
            if n == "std::nullopt":
                return None
            raise FormulaUnsupported("formula uses {}".format(n))
        _, fn, args = tree
        vals = [self.eval(a, env) for a in args]
        if fn.startswith("ops::"):
            return self.emit(aten_op(fn), vals)
        helper = getattr(self, "h_" + fn, None)
        if helper is None:
            raise FormulaUnsupported("helper {} is not available to AOTAutograd here".format(fn))
        return helper(*vals)

    # ---- core/autograd/formulas.cpp's helpers, from the same operators -----------------------
    def h_sum_to(self, grad, sizes):
        gs = list(self.size_of(grad))
        sizes = list(sizes)
        if gs == sizes:
            return grad
        lead = len(gs) - len(sizes)
        dims = [d for d in range(len(gs)) if d < lead or (sizes[d - lead] == 1 and gs[d] != 1)]
        r = self.emit(torch.ops.aten.sum.dim_IntList, [grad, dims, True]) if dims else grad
        return self.emit(torch.ops.aten.view.default, [r, sizes])  # a kept-dim sum is contiguous: a view

    def h_mul_scalar(self, t, s):
        if s == 1:
            return t
        return self.emit(torch.ops.aten.mul.Tensor, [t, s])

    def h_threshold_backward(self, grad, result):
        mask = self.emit(torch.ops.aten.gt.Scalar, [result, 0.0])
        return self.emit(torch.ops.aten.mul.Tensor, [grad, mask])

    def h_sigmoid_backward(self, grad, result):
        one_minus = self.emit(torch.ops.aten.rsub.Scalar, [result, 1])
        return self.emit(torch.ops.aten.mul.Tensor, [grad, self.emit(torch.ops.aten.mul.Tensor, [result, one_minus])])

    def h_tanh_backward(self, grad, result):
        sq = self.emit(torch.ops.aten.mul.Tensor, [result, result])
        return self.emit(torch.ops.aten.mul.Tensor, [grad, self.emit(torch.ops.aten.rsub.Scalar, [sq, 1])])

    def h_pow_backward(self, grad, self_, exponent):
        if exponent == 0:
            return self.emit(torch.ops.aten.mul.Tensor, [grad, 0.0])
        p = self.emit(torch.ops.aten.pow.Tensor_Scalar, [self_, exponent - 1.0])
        return self.emit(torch.ops.aten.mul.Tensor, [grad, self.emit(torch.ops.aten.mul.Tensor, [p, exponent])])

    def h_sum_backward(self, grad, sizes, dims, keepdim):
        sizes = list(sizes)
        if dims is None or not dims:
            return self.emit(torch.ops.aten.expand.default, [grad, sizes])
        raise FormulaUnsupported("sum_backward over dimensions")

    def h_mean_backward(self, grad, sizes, dims, keepdim):
        g = self.h_sum_backward(grad, sizes, dims, keepdim)
        count = 1
        for s in sizes:
            count *= s
        return self.emit(torch.ops.aten.div.Scalar, [g, max(count, 1)])
