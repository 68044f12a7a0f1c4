"""TensorVariable (a graph node with a fake tensor) and SymNodeVariable (a symbolic size)."""

import torch
from torch._dynamo.exc import unimplemented
from torch._dynamo import variables as V
from torch._dynamo.variables.base import VariableTracker


class TensorVariable(VariableTracker):
    def __init__(self, proxy, example, device, requires_grad, source=None, dynamic_dims=()):
        self.proxy = proxy            # the graph node that computes it
        self.example = example        # a fake (meta) tensor with its sizes, strides and dtype
        self.device = device          # the device the real tensor is on
        self.requires_grad = requires_grad
        self.source = source          # set for graph inputs
        self.dynamic_dims = tuple(dynamic_dims)

    def python_type(self):
        return torch.Tensor

    def set_name_hint(self, graph, name):
        """A value computed in the graph takes the name of the first local it is stored into
        (y = x.sin() * 2 makes the node y), as TorchDynamo 2.15 names it."""
        if self.source is not None or getattr(self, "_is_name_set", False) or self.proxy.op == "placeholder":
            return
        if self.proxy in graph.nodes:
            graph.rename_node(self.proxy, name)
        self._is_name_set = True

    def size_var(self, tx, dim=None):
        sizes = list(self.example.size())
        items = []
        for d, s in enumerate(sizes):
            sym = tx.output.symbol_for(self, d)
            if sym and sym in tx.output.symbol_dims:
                items.append(SymNodeVariable(tx.output.symbol_placeholder(sym), s, sym))
            else:
                items.append(SymNodeVariable.create(tx, self, d, sym, s) if sym else V.ConstantVariable(s))
        if dim is not None:
            return items[dim]
        return V.SizeVariable(items)

    def var_getattr(self, tx, name):
        ex = self.example
        if name == "shape":
            return self.size_var(tx)
        if name == "dtype":
            return V.ConstantVariable(ex.dtype)
        if name == "device":
            return V.ConstantVariable(self.device)
        if name == "ndim":
            return V.ConstantVariable(ex.dim())
        if name == "requires_grad":
            return V.ConstantVariable(self.requires_grad)
        if name == "is_cuda":
            return V.ConstantVariable(self.device.type == "cuda")
        if name in ("T", "mT", "real"):
            return tx.output.call(tx, "call_function", getattr, [self, V.ConstantVariable(name)], {})
        if name in ("grad", "grad_fn", "data", "_version"):
            unimplemented("Tensor.{} during capture".format(name))
        if callable(getattr(torch.Tensor, name, None)):
            return V.TensorMethodVariable(self, name)
        unimplemented("Tensor attribute {}".format(name))

    def reconstruct(self, tx):
        if self.source is not None and tx.output.is_unchanged_input(self):
            return V.VariableTracker.reconstruct(self, tx)
        index = tx.output.add_graph_output(self)
        return lambda env: env.outputs[index]

    def __repr__(self):
        return "TensorVariable({})".format(self.proxy.name)


class SymNodeVariable(VariableTracker):
    """A size that is a symbol (s0) of the graph, with the value it had when captured."""

    def __init__(self, proxy, hint, expr):
        self.proxy, self.hint, self.expr = proxy, hint, expr

    @staticmethod
    def create(tx, tensor, dim, sym, hint):
        node = tx.output.graph.call_method("size", (tensor.proxy, dim))
        node.meta["val"] = sym
        return SymNodeVariable(node, hint, sym)

    def python_type(self):
        return int

    def reconstruct(self, tx):
        if self.source is not None:  # a dynamic int input: read again where it came from
            source = self.source
            return lambda env: source.get(env.f_locals, env.f_globals)
        index = tx.output.add_graph_output(self)
        return lambda env: env.outputs[index]

    def __repr__(self):
        return "SymNodeVariable({})".format(self.expr)
