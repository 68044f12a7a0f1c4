"""Building a compile's guards into the C++ guard tree (torch._C._dynamo.RootGuardManager),
from what the capture recorded (OutputGraph.guards, .tensor_guards, .symbol_dims)."""
from torch._C import _dynamo as _C_dynamo


def _scope(source):
    return "global" if source.name().startswith("G[") else "local"


def build_guards(output):
    """The guard tree, and the guards as explain() lists them: (name, local | global, kind, code)."""
    root = _C_dynamo.RootGuardManager()
    root.add_global_state()
    listing = [("", "global", "GLOBAL_STATE", "___check_global_state()")]
    for source, value, dynamic_dims, comment in output.tensor_guards:
        code = source.guard_node(root).add_tensor_match(value, list(dynamic_dims), comment)
        listing.append((source.name(), _scope(source), "TENSOR_MATCH", code))
    for source, kind, value, text, comment in output.guards:
        source.guard_node(root).add_leaf(kind, value, text, comment)
        listing.append((source.name(), _scope(source), kind, text))
    for sym, dims in output.symbol_dims.items():
        listing.append(("", "shape_env", "SHAPE_ENV", "2 <= {}.size()[{}]".format(dims[0][0].name(), dims[0][1])))
        nodes = [(source.guard_node(root), d) for source, d, _ in dims]
        first = "{}.size()[{}]".format(dims[0][0].name(), dims[0][1])
        for (source, d, _), node in zip(dims[1:], nodes[1:]):
            root.add_size_relation([nodes[0], node], 0, "{}.size()[{}] == {}".format(source.name(), d, first))
        root.add_size_relation([nodes[0]], 2, "2 <= {}".format(first))
    return root, listing
