"""An FX graph: nodes in order, each one operation, printable as FX prints it.

Note [Node names]
FX names a node after its target (torch.sin -> "sin", operator.add -> "add", the method
"sum" -> "sum_1"), adding "_1", "_2", ... when a name is taken or would shadow a Python builtin
or keyword, so that the generated forward() is valid Python whose names read like the user's
operations."""
import builtins
import keyword
import operator
import re

_OP_SYMBOLS = {
    operator.add: "+", operator.sub: "-", operator.mul: "*", operator.truediv: "/", operator.floordiv: "//",
    operator.mod: "%", operator.pow: "**", operator.matmul: "@", operator.lt: "<", operator.le: "<=",
    operator.gt: ">", operator.ge: ">=", operator.eq: "==", operator.ne: "!=", operator.and_: "&",
    operator.or_: "|", operator.xor: "^", operator.lshift: "<<", operator.rshift: ">>",
}
_UNARY_SYMBOLS = {operator.neg: "-", operator.pos: "+", operator.invert: "~", operator.not_: "not "}


def _target_name(target):
    if isinstance(target, str):
        return target
    name = getattr(target, "__name__", None) or type(target).__name__
    return name


def _qualified(target):
    """How generated code refers to a callable: torch.sin, torch.nn.functional.relu, operator.add,
    torch.ops.aten.mul.Tensor."""
    packet = getattr(target, "_overloadpacket", None)
    if packet is not None:
        return "torch.ops.{}.{}.{}".format(packet._namespace, packet.__name__, target._overloadname)
    name = getattr(target, "__name__", repr(target))
    module = getattr(target, "__module__", None)
    if target in _OP_SYMBOLS or target in _UNARY_SYMBOLS or module in ("_operator", "operator"):
        return "operator." + name
    import torch
    if getattr(torch, name, None) is target:
        return "torch." + name
    for modname in ("torch.nn.functional", "torch.functional", "torch.autograd", "torch.cuda"):
        parts = modname.split(".")[1:]
        obj = torch
        for p in parts:
            obj = getattr(obj, p, None)
        if obj is not None and getattr(obj, name, None) is target:
            return modname + "." + name
    if module:
        return module + "." + name
    return name


class Node:
    def __init__(self, graph, name, op, target, args, kwargs):
        self.graph = graph
        self.name = name
        self.op = op
        self.target = target
        self.args = tuple(args)
        self.kwargs = dict(kwargs)
        self.meta = {}
        self.users = {}
        for a in _flatten((self.args, self.kwargs)):
            if isinstance(a, Node):
                a.users[self] = None

    @property
    def all_input_nodes(self):
        seen = []
        for a in _flatten((self.args, self.kwargs)):
            if isinstance(a, Node) and a not in seen:
                seen.append(a)
        return seen

    def __repr__(self):
        return self.name


def _flatten(x):
    if isinstance(x, (tuple, list)):
        for y in x:
            yield from _flatten(y)
    elif isinstance(x, dict):
        for y in x.values():
            yield from _flatten(y)
    else:
        yield x


def _arg_repr(a, names=None):
    if isinstance(a, Node):
        return names.get(a, a.name) if names else a.name
    if isinstance(a, tuple):
        return "(" + ", ".join(_arg_repr(x, names) for x in a) + ("," if len(a) == 1 else "") + ")"
    if isinstance(a, list):
        return "[" + ", ".join(_arg_repr(x, names) for x in a) + "]"
    if isinstance(a, dict):
        return "{" + ", ".join(repr(k) + ": " + _arg_repr(v, names) for k, v in a.items()) + "}"
    if isinstance(a, slice):
        return "slice({}, {}, {})".format(_arg_repr(a.start, names), _arg_repr(a.stop, names), _arg_repr(a.step, names))
    mod = type(a).__module__
    if mod == "torch" and type(a).__name__ in ("dtype", "device", "layout", "memory_format"):
        return repr(a) if not repr(a).startswith("device") else "device(type='{}')".format(a.type)
    return repr(a)


def _tabular_repr(a):
    """print_tabular shows arguments as FX's str() of them: nodes by name, tuples as tuples."""
    if isinstance(a, tuple):
        return "(" + ", ".join(_tabular_repr(x) for x in a) + ("," if len(a) == 1 else "") + ")"
    if isinstance(a, list):
        return "[" + ", ".join(_tabular_repr(x) for x in a) + "]"
    if isinstance(a, dict):
        return "{" + ", ".join(repr(k) + ": " + _tabular_repr(v) for k, v in a.items()) + "}"
    return a.name if isinstance(a, Node) else repr(a)


class Graph:
    def __init__(self):
        self.nodes = []
        self._names = set()

    # ---- building ---------------------------------------------------------------------------
    def _unique(self, candidate):
        candidate = re.sub(r"[^0-9a-zA-Z_]+", "_", candidate)
        if not candidate or candidate[0].isdigit():
            candidate = "_" + candidate
        base, n = candidate, 0
        m = re.match(r"(.*)_(\d+)$", candidate)
        if m and not hasattr(builtins, candidate):
            base, n = m.group(1), int(m.group(2))
        name = candidate
        while name in self._names or hasattr(builtins, name) or keyword.iskeyword(name):
            n += 1
            name = "{}_{}".format(base, n)
        self._names.add(name)
        return name

    def create_node(self, op, target, args=(), kwargs=None, name=None):
        if name is None:
            packet = getattr(target, "_overloadpacket", None)
            name = packet.__name__ if packet is not None else _target_name(target)
            name = re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower() if op != "placeholder" else name
        node = Node(self, self._unique(name), op, target, args, kwargs or {})
        if op == "placeholder":
            at = 0
            while at < len(self.nodes) and self.nodes[at].op == "placeholder":
                at += 1
            self.nodes.insert(at, node)
        else:
            self.nodes.append(node)
        return node

    def rename_node(self, node, candidate):
        """Gives `node` the name `candidate` (made unique), as FX's Node._rename does: Dynamo names a
        value after the local it is stored into. The old name stays taken."""
        if candidate == node.name:
            return
        node.name = self._unique(candidate)

    def placeholder(self, name):
        return self.create_node("placeholder", name, name=name)

    def call_function(self, target, args=(), kwargs=None):
        return self.create_node("call_function", target, args, kwargs)

    def call_method(self, name, args=(), kwargs=None):
        return self.create_node("call_method", name, args, kwargs)

    def call_module(self, path, args=(), kwargs=None):
        return self.create_node("call_module", path, args, kwargs, name=path.replace(".", "_"))

    def output(self, result):
        return self.create_node("output", "output", (result,), name="output")

    def erase_node(self, node):
        self.nodes.remove(node)
        self._names.discard(node.name)
        for a in node.all_input_nodes:
            a.users.pop(node, None)

    # ---- reading ----------------------------------------------------------------------------
    def placeholders(self):
        return [n for n in self.nodes if n.op == "placeholder"]

    def node_code(self, n, names=None):
        """One node as the line of forward() FX writes for it (`names`: other names for nodes)."""
        r = lambda a: _arg_repr(a, names)  # noqa: E731
        me = names.get(n, n.name) if names else n.name
        args = ", ".join([r(a) for a in n.args] + ["{} = {}".format(k, r(v)) for k, v in n.kwargs.items()])
        if n.op == "call_function":
            if n.target in _OP_SYMBOLS and len(n.args) == 2 and not n.kwargs:
                return "{} = {} {} {}".format(me, r(n.args[0]), _OP_SYMBOLS[n.target], r(n.args[1]))
            if n.target in _UNARY_SYMBOLS and len(n.args) == 1:
                return "{} = {}{}".format(me, _UNARY_SYMBOLS[n.target], r(n.args[0]))
            if n.target is operator.getitem and len(n.args) == 2:
                return "{} = {}[{}]".format(me, r(n.args[0]), _index_repr(n.args[1], names))
            return "{} = {}({})".format(me, _qualified(n.target), args)
        if n.op == "call_method":
            rest = ", ".join([r(a) for a in n.args[1:]] + ["{} = {}".format(k, r(v)) for k, v in n.kwargs.items()])
            return "{} = {}.{}({})".format(me, r(n.args[0]), n.target, rest)
        if n.op == "call_module":
            return "{} = self.{}({})".format(me, n.target, args)
        if n.op == "get_attr":
            return "{} = self.{}".format(me, n.target)
        if n.op == "output":
            return "return {}".format(r(n.args[0]))
        return ""

    def python_code(self):
        """The source of forward()."""
        lines = ["def forward(self{}):".format("".join(", " + p.name for p in self.placeholders()))]
        for n in self.nodes:
            if n.op == "placeholder":
                continue
            lines.append("    " + self.node_code(n))
        return "\n".join(lines) + "\n    "

    def tabular(self):
        """FX's table of the graph (tabulate's 'simple' layout, which FX uses)."""
        rows = [[n.op, n.name, _tabular_target(n), _tabular_repr(n.args), _tabular_repr(n.kwargs)] for n in self.nodes]
        return _simple_table(["opcode", "name", "target", "args", "kwargs"], rows)

    def print_tabular(self):
        print(self.tabular())

    def __str__(self):
        lines = ["graph():"]
        for n in self.nodes:
            if n.op == "placeholder":
                lines.append("    %{} : [num_users={}] = placeholder[target={}]".format(n.name, len(n.users), n.target))
            elif n.op == "output":
                lines.append("    return {}".format(_tabular_repr(n.args[0])))
            else:
                args = "(" + ", ".join("%" + a.name if isinstance(a, Node) else _tabular_repr(a) for a in n.args) + \
                       ("," if len(n.args) == 1 else "") + ")"
                lines.append("    %{} : [num_users={}] = {}[target={}](args = {}, kwargs = {})".format(
                    n.name, len(n.users), n.op, _tabular_target(n), args, _tabular_repr(n.kwargs)))
        return "\n".join(lines)


def _index_repr(i, names=None):
    if isinstance(i, tuple):
        return ", ".join(_index_repr(x, names) for x in i) if i else "()"
    if isinstance(i, slice):
        s = "" if i.start is None else _arg_repr(i.start, names)
        s += ":" + ("" if i.stop is None else _arg_repr(i.stop, names))
        if i.step is not None:
            s += ":" + _arg_repr(i.step, names)
        return s
    if i is None:
        return "None"
    if i is Ellipsis:
        return "..."
    return _arg_repr(i, names)


def _tabular_target(n):
    if n.op in ("call_function",):
        t = n.target
        if getattr(t, "__module__", None) in ("_operator", "operator"):
            return "<built-in function {}>".format(t.__name__)
        if type(t).__name__ == "builtin_function_or_method":
            return "<built-in method {} of type object>".format(t.__name__)
        return "<function {} at 0x...>".format(getattr(t, "__qualname__", t))
    return str(n.target)


def _simple_table(headers, rows):
    cols = list(zip(*([headers] + rows)))
    widths = [max(len(str(c)) for c in col) for col in cols]
    out = ["  ".join(str(h).ljust(w) for h, w in zip(headers, widths)).rstrip(),
           "  ".join("-" * w for w in widths)]
    for r in rows:
        out.append("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())
    return "\n".join(out)
