"""Building a compile's guards into the C++ guard tree (torch._C._dynamo.RootGuardManager),
from what the capture recorded (OutputGraph.guards, .tensor_guards, .symbol_dims)."""
from torch._C import _dynamo as _C_dynamo


def build_guards(output):
    root = _C_dynamo.RootGuardManager()
    root.add_global_state()
    for source, value, dynamic_dims, comment in output.tensor_guards:
        source.guard_node(root).add_tensor_match(value, list(dynamic_dims), comment)
    for source, kind, value, text, comment in output.guards:
        source.guard_node(root).add_leaf(kind, value, text, comment)
    for sym, dims in output.symbol_dims.items():
        nodes = [(source.guard_node(root), d) for source, d, _ in dims]
        first = "{}.size()[{}]".format(dims[0][0].name(), dims[0][1])
        for (source, d, _), node in zip(dims[1:], nodes[1:]):
            root.add_size_relation([nodes[0], node], 0, "{}.size()[{}] == {}".format(source.name(), d, first))
        root.add_size_relation([nodes[0]], 2, "2 <= {}".format(first))
    return root
