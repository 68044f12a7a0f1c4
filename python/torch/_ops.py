"""torch.ops: every operator the dispatcher knows, by namespace, name and overload.

torch.ops.aten.add is an OpOverloadPacket (all overloads of aten::add); torch.ops.aten.add.Tensor
is one OpOverload, whose _schema is the registered FunctionSchema and whose call runs exactly
that overload through the dispatcher (the bindings in torch._C._op_overloads are generated from
the schema YAML, one per overload). Calling the packet tries the overloads in the order they
were registered and runs the first whose schema accepts the arguments.
"""
from torch import _C


class OpOverload:
    def __init__(self, packet, overload_name, fn):
        self._overloadpacket = packet
        self._overloadname = "default" if overload_name == "" else overload_name
        self._op = fn
        self._qualified = packet._qualified_op_name + ("." + overload_name if overload_name else "")
        self._schema = _C._schema_of(self._qualified)
        self.__name__ = packet.__name__ + "." + self._overloadname
        self.__qualname__ = self.__name__

    def __call__(self, *args, **kwargs):
        # Arguments that do not fit the schema are a RuntimeError naming the declaration, as
        # PyTorch's boxed call reports them.
        try:
            return self._op(*args, **kwargs)
        except TypeError as e:
            if not str(e).startswith(self._op.__name__ + "("):
                raise
            # A number where the schema wants a Tensor is wrapped into a 0-dim tensor, as
            # PyTorch's boxed call does (torch.ops.aten.mul.Tensor(t, 2.0)).
            wrapped = self._wrap_numbers(args)
            if wrapped is not None:
                try:
                    return self._op(*wrapped, **kwargs)
                except TypeError:
                    pass  # still not the schema's arguments: the original error, below
            raise RuntimeError("{}() {}\nDeclaration: {}".format(self._overloadpacket._qualified_op_name,
                                                                 str(e).split(": ", 1)[-1], self._schema)) from None

    def _wrap_numbers(self, args):
        import builtins
        from torch import _C as C
        out, changed = list(args), False
        for i, (a, arg) in enumerate(zip(args, self._schema.arguments)):
            if str(arg.type) == "Tensor" and isinstance(a, (builtins.int, builtins.float, builtins.bool)):
                out[i] = C.tensor(a)
                changed = True
        return out if changed else None

    @property
    def overloadpacket(self):
        return self._overloadpacket

    @property
    def op(self):
        return self._op

    def name(self):
        return self._qualified

    def __repr__(self):
        return "<OpOverload(op='{}', overload='{}')>".format(str(self._overloadpacket), self._overloadname)

    def __str__(self):
        return "{}.{}".format(str(self._overloadpacket), self._overloadname)


class OpOverloadPacket:
    def __init__(self, namespace, name):
        self._namespace = namespace
        self._qualified_op_name = namespace + "::" + name
        self.__name__ = name
        self._overload_names = _C._overload_names(self._qualified_op_name)
        self._cache = {}

    def overloads(self):
        return ["default" if n == "" else n for n in self._overload_names]

    def __getattr__(self, key):
        if key.startswith("__"):
            raise AttributeError(key)
        cache = self.__dict__.get("_cache")
        if cache is not None and key in cache:
            return cache[key]
        overload = "" if key == "default" else key
        fn = None
        if overload in self._overload_names:
            ident = self.__name__ + ("_" + overload if overload else "")
            fn = getattr(_C._op_overloads, ident, None)
        if fn is None:
            raise AttributeError("The underlying op of '{}' has no overload name '{}'".format(str(self), key))
        op = OpOverload(self, overload, fn)
        cache[key] = op
        return op

    def __call__(self, *args, **kwargs):
        errors = []
        for name in self._overload_names:
            try:
                op = getattr(self, name or "default")
            except AttributeError:
                continue
            try:
                return op._op(*args, **kwargs)
            except TypeError as e:
                errors.append("{}: {}".format(op._schema, str(e).splitlines()[0]))
        raise TypeError("Overloaded torch operator invoked from Python failed to match any schema:\n" + "\n".join(errors))

    @property
    def op(self):
        return self.default

    def __repr__(self):
        return "<OpOverloadPacket(op='{}.{}')>".format(self._namespace, self.__name__)

    def __str__(self):
        return "{}.{}".format(self._namespace, self.__name__)


class _OpNamespace:
    def __init__(self, name):
        self.name = name
        self._packets = {}

    def __getattr__(self, op_name):
        if op_name.startswith("__"):
            raise AttributeError(op_name)
        packets = self.__dict__["_packets"]
        if op_name not in packets:
            if not _C._overload_names(self.name + "::" + op_name):
                raise AttributeError("'_OpNamespace' '{}' object has no attribute '{}'".format(self.name, op_name))
            packets[op_name] = OpOverloadPacket(self.name, op_name)
        return packets[op_name]


class _Ops:
    __name__ = "torch.ops"

    def __init__(self):
        self._namespaces = {}

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        namespaces = self.__dict__["_namespaces"]
        if name not in namespaces:
            namespaces[name] = _OpNamespace(name)
        return namespaces[name]


ops = _Ops()
