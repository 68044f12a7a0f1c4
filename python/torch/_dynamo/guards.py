"""Building a compile's guards into the C++ guard tree (torch._C._dynamo.RootGuardManager),
from what the capture recorded (OutputGraph.guards, .tensor_guards, .symbol_dims), in the order
and words of PyTorch 2.15's TORCH_LOGS=guards.

Note [The guard tree's layout]
2.15 sorts guards by where their value comes from (locals before globals) and then by name, so
the tree lists L['n'] before L['x'] whatever the order the frame read them in. The root holds the
ambient guards first (Note [Ambient guards] in output_graph.py), then one node per local (reached
by FrameLocalsGuardAccessor, with the local's index among the frame's fast locals), then G, the
globals dict, and what is reached from it. Each node names the type of the value it reached when
built. A tensor's node has its TENSOR_MATCH, then five DIMENSION_DYNAMIC_MARKING_GUARDs (the
tensor has none of the attributes torch._dynamo.mark_dynamic and friends set), and, where the
frame has two tensor inputs or more, NO_TENSOR_ALIASING (checked at the root: they are distinct
objects). Relations between sizes come last, at the root."""
import json
import time

import torch
from torch._C import _dynamo as _C_dynamo

# The attributes torch._dynamo.mark_dynamic / maybe_mark_dynamic / mark_unbacked /
# mark_static set on a tensor; a tensor that gains one must be compiled again.
DYNAMIC_MARKINGS = ("_dynamo_dynamic_indices", "_dynamo_weak_dynamic_indices", "_dynamo_unbacked_indices",
                    "_dynamo_strict_unbacked_indices", "_dynamo_static_indices")

# The devices 2.15's GLOBAL_STATE lists the autocast state of, in its order, with each one's
# default autocast dtype (used for devices this runtime has no autocast state for).
_AUTOCAST_DEVICES = (("cpu", torch.bfloat16), ("cuda", torch.float16), ("mtia", torch.float16),
                     ("maia", torch.bfloat16), ("xpu", torch.float16), ("ipu", torch.float16),
                     ("hpu", torch.bfloat16), ("xla", torch.bfloat16), ("privateuseone", torch.float16),
                     ("mps", torch.float16))
# ScalarType numbers (c10/core/ScalarType.h) of the dtypes the state names.
_SCALAR_TYPE = {getattr(torch, name): number for name, number in (
    ("uint8", 0), ("int8", 1), ("int16", 2), ("int32", 3), ("int64", 4), ("float16", 5), ("float32", 6),
    ("float64", 7), ("bool", 11), ("bfloat16", 15)) if hasattr(torch, name)}


def _scope(source):
    return "global" if source.name().startswith("G[") else "local"


def _autocast(device, default):
    try:
        return torch.is_autocast_enabled(device), torch.get_autocast_dtype(device)
    except Exception:
        return False, default


def _has_autocast(device):
    try:
        torch.is_autocast_enabled(device)
        torch.get_autocast_dtype(device)
        return True
    except Exception:
        return False


# The devices this runtime keeps an autocast state for (the others are always off, at 2.15's
# default dtype), found once.
_RUNTIME_AUTOCAST = None


def _global_state_key():
    """What GLOBAL_STATE compares on each call besides the grad mode (checked in C++): cheap."""
    global _RUNTIME_AUTOCAST
    if _RUNTIME_AUTOCAST is None:
        _RUNTIME_AUTOCAST = tuple(d for d, _ in _AUTOCAST_DEVICES if _has_autocast(d))
    return (torch.get_default_dtype(), torch.is_autocast_cache_enabled(),
            tuple((torch.is_autocast_enabled(d), torch.get_autocast_dtype(d)) for d in _RUNTIME_AUTOCAST))


def _global_state():
    """What GLOBAL_STATE guards, as the key compared on each call and as 2.15's JSON."""
    autocast = [_autocast(d, default) for d, default in _AUTOCAST_DEVICES]
    state = {
        "allow_bf16_reduce": 0, "allow_fp16_reduce": 0, "allow_tf32": False,
        "autocast_state": {"cached_enabled": torch.is_autocast_cache_enabled(),
                           "dtype": [_SCALAR_TYPE.get(dt, 6) for _, dt in autocast],
                           "enabled": [bool(on) for on, _ in autocast]},
        "cuda_matmul_precision": 0,
        "default_dtype": _SCALAR_TYPE.get(torch.get_default_dtype(), 6),
        "deterministic_algorithms": False, "deterministic_algorithms_warn_only": False,
        "grad_mode": torch.is_grad_enabled(),
        # The runtime runs every kernel on one thread, the thread count the reference runs with.
        "num_threads": 1,
        "torch_function": True, "torch_function_all_disabled": False,
    }
    return _global_state_key(), json.dumps(state, sort_keys=True, separators=(",", ":"))


def _type_text(value):
    return str(type(value))


class _Nodes:
    """Finds (and describes, once) the tree node of a source."""

    def __init__(self, root, code, f_locals, f_globals):
        self.root, self.code, self.f_locals, self.f_globals = root, code, f_locals, f_globals
        self.described = set()

    def _local_index(self, name):
        names = list(self.code.co_varnames) + [n for n in self.code.co_cellvars if n not in self.code.co_varnames] + \
            list(self.code.co_freevars)
        return names.index(name) if name in names else -1

    def node(self, source):
        from torch._dynamo.source import AttrSource, DictGetItemSource, GlobalSource, ItemSource, LocalSource
        node = source.guard_node(self.root)
        key = source.name()
        if key in self.described:
            return node
        self.described.add(key)
        try:
            value = source.get(self.f_locals, self.f_globals)
        except Exception:
            value = None
        if isinstance(source, LocalSource):
            accessor = "FrameLocalsGuardAccessor(key={!r}, framelocals_idx={})".format(
                source.local_name, self._local_index(source.local_name))
        elif isinstance(source, GlobalSource):
            if "G" not in self.described:
                self.described.add("G")
                self.root.globals_dict().describe("GlobalsGuardAccessor", _type_text(self.f_globals))
            accessor = "DictGetItemGuardAccessor({!r})".format(source.global_name)
        elif isinstance(source, AttrSource):
            self.node(source.base)
            accessor = "CodeGuardAccessor" if source.member == "__code__" else \
                "GetAttrGuardAccessor({})".format(source.member)
        elif isinstance(source, DictGetItemSource):
            self.node(source.base)
            accessor = "DictGetItemGuardAccessor({!r})".format(source.index)
        elif isinstance(source, ItemSource):
            self.node(source.base)
            accessor = "GetItemGuardAccessor({!r})".format(source.index)
        else:
            return node
        node.describe(accessor, _type_text(value))
        return node


def _weak(value):
    import weakref
    try:
        return weakref.ref(value)
    except TypeError:
        return None


def _entry(name, scope, create_fn, guard_types=None, code_list=None, value=None, has_value=False):
    """One guard as explain() lists it (2.15's Guard: name, source, create function, guard types,
    code list, and weak references to the guarded object and its class)."""
    obj = _weak(value) if has_value else None
    cls = _weak(type(value)) if has_value and obj is not None else None
    return {"name": name, "source": scope, "create_fn": create_fn, "guard_types": guard_types,
            "code_list": code_list, "obj_weakref": obj, "guarded_class_weakref": cls}


# Note [explain()'s guard list]
# 2.15 lists the Guard objects a compile installs: first the ones on global state, in this order
# (those with code list the check the tree prints), then one per guarded value (sorted as the
# tree is). Here the global entries stand for the ambient guards of the tree (Note [Ambient
# guards] in output_graph.py): grad mode and determinism are part of GLOBAL_STATE's check, the
# shape environment's guards are the tree's size relations.
_GLOBAL_ENTRIES = (("", "shape_env", "SHAPE_ENV", None, None), ("", "global", "DETERMINISTIC_ALGORITHMS", None, None),
                   ("", "global", "GRAD_MODE", None, None),
                   ("", "global", "DEFAULT_DEVICE", ["DEFAULT_DEVICE"], ["utils_device.CURRENT_DEVICE == None"]),
                   ("", "global", "GLOBAL_STATE", None, None), ("", "global", "TORCH_FUNCTION_STATE", None, None),
                   ("", "global", "AUTOGRAD_SAVED_TENSORS_HOOKS", ["AUTOGRAD_SAVED_TENSORS_HOOKS"],
                    ["torch._functorch.aot_autograd.utils.top_saved_tensors_hooks ids == None"]))


def _add_leaf(node, kind, value, text, comment):
    """One leaf guard of `kind` on `node`, through the guard manager's typed constructor."""
    if kind == "EQUALS_MATCH":
        node.add_equals_match(value, text, comment)
    elif kind == "TYPE_MATCH":
        node.add_type_match(value, text, comment)
    elif kind == "ID_MATCH":
        node.add_id_match(value, text, comment)
    elif kind == "LENGTH_CHECK":
        node.add_length_check(value, text, comment)
    elif kind == "NONE_MATCH":
        node.add_none_match(text, comment)
    elif kind == "NOT_NONE":
        node.add_not_none(text, comment)
    else:
        raise ValueError("unknown guard kind '{}'".format(kind))


def build_guards(output, code=None, f_locals=None, f_globals=None):
    """The guard tree, and the guards as explain() lists them (Note [explain()'s guard list])."""
    code = code if code is not None else build_guards.__code__
    f_locals, f_globals = f_locals or {}, f_globals or {}
    root = _C_dynamo.RootGuardManager()
    nodes = _Nodes(root, code, f_locals, f_globals)
    listing = [_entry(*g) for g in _GLOBAL_ENTRIES]
    for label, text, comment, check in output.ambient_guards:
        if label == "GLOBAL_STATE":
            key, state = _global_state()
            root.add_global_state("___check_global_state() against " + state, lambda: _global_state_key() == key)
        elif check is None:
            root.add_shown(label, text, comment)
        else:
            root.add_lambda(label, check, text, comment)
    # Note [The guard tree's layout]: locals first, then globals, each sorted by name.
    entries = [(source, None) for source, *_ in output.tensor_guards] + [(g[0], g) for g in output.guards]
    order = sorted(range(len(entries)), key=lambda i: (_scope(entries[i][0]) == "global", entries[i][0].name()))
    tensor_info = {source.name(): (value, dyn, comment) for source, value, dyn, comment in output.tensor_guards}
    tensor_nodes = []
    for i in order:
        source, guard = entries[i]
        node = nodes.node(source)
        if guard is None:
            value, dyn, comment = tensor_info[source.name()]
            if output.frame_state.get("marked_dynamic"):
                # dynamic=True: 2.15 checks the tensor's type first, hinting it.
                node.add_type_match(type(value), "___check_type_id({}, {}), type={}".format(
                    source.name(), id(type(value)), _type_text(value)),
                    comment + " (HINT: type {})".format(type(value).__name__))
            node.add_tensor_match(value, list(dyn), comment)
            listing.append(_entry(source.name(), _scope(source), "TENSOR_MATCH", ["TENSOR_MATCH"],
                                  ["hasattr({}, {!r}) == False".format(source.name(), a) for a in DYNAMIC_MARKINGS],
                                  value, True))
            for attr in DYNAMIC_MARKINGS:
                node.add_lambda("DIMENSION_DYNAMIC_MARKING_GUARD", (lambda a: lambda t: not hasattr(t, a))(attr),
                                "hasattr({}, {!r}) == False".format(source.name(), attr), comment)
            tensor_nodes.append((source, node))
        else:
            _, kind, value, text, comment = guard
            if kind in ("ID_MATCH", "TYPE_MATCH"):
                try:
                    text += ", type={}".format(_type_text(source.get(f_locals, f_globals)))
                except Exception:
                    pass
            _add_leaf(node, kind, value, text, comment)
            from torch._dynamo.source import DictGetItemSource
            create = "BUILTIN_MATCH" if isinstance(source, DictGetItemSource) else kind
            try:
                guarded = source.get(f_locals, f_globals)
                has = True
            except Exception:
                guarded, has = None, False
            listing.append(_entry(source.name(), _scope(source), create, [kind], [text], guarded, has))
    locals_ = [(s, n) for s, n in tensor_nodes if _scope(s) == "local"]
    if len(locals_) >= 2:
        root.add_no_aliasing([n for _, n in locals_],
                             "check_no_aliasing({})".format(", ".join(s.name() for s, _ in locals_)))
    comments = {source.name(): comment for source, _, _, comment in output.tensor_guards}
    output.shape_guard_exprs = []
    for sym, dims in output.symbol_dims.items():
        dim_nodes = [(source.guard_node(root), d) for source, d, _ in dims]
        first = "{}.size()[{}]".format(dims[0][0].name(), dims[0][1])
        name = output.symbol_name(sym)
        # 2.15 points a size's guards at the first use of the symbol's value: the line that first
        # read the input whose size gave the shared symbol its name (Note [Symbol names]).
        ids = output.symbol_ids.get(sym, [])
        owner = dims[ids.index(min(ids))][0] if ids and len(ids) == len(dims) else dims[0][0]
        for (source, d, _), node in zip(dims[1:], dim_nodes[1:]):
            output.shape_guard_exprs.append("{}.size()[{}] == {}".format(source.name(), d, first))
            root.add_size_relation([dim_nodes[0], node], 0, "{}.size()[{}] == {}  # (unknown var {}, please file a bug)".format(
                source.name(), d, first, name))
        output.shape_guard_exprs.append("2 <= {}".format(first))
        root.add_size_relation([dim_nodes[0]], 2, "2 <= {}{} (user code shown is first use of this value--the guard itself "
                               "is not due user code but due to 0/1 specialization in the framework; to avoid "
                               "specialization try torch._dynamo.decorators.mark_unbacked(tensor, dim))".format(
                                   first, comments.get(owner.name(), "")))
    return root, listing


def guard_eval_latency_us(root, f_locals, f_globals):
    """How long one check of the guards takes on the frame they were built for, in
    microseconds, as 2.15 logs after the tree ("Guard eval latency = 28.01 us")."""
    start = time.perf_counter()
    root.check(f_locals, f_globals)
    return (time.perf_counter() - start) * 1e6


# The names 2.15's generated guard function closes over, in its order (its signature).
_GUARD_FN_CLOSURE = (
    "IsNonOverlappingAndDenseIndicator, cast_symbool_to_symint_guardless, math, torch, ___check_type_id, "
    "___check_obj_id, ___odict_getitem, ___key_to_id, ___dict_version, ___dict_contains, ___tuple_iterator_len, "
    "___normalize_count_iter, ___normalize_range_iter, ___tuple_iterator_getitem, ___list_reverseiterator_len, "
    "___list_reverseiterator_backing_list, ___set_getitem, ___dataclass_fields, ___namedtuple_fields, "
    "___get_torch_function_mode_stack_at, ___get_current_stream, ___cow_tensor_matches, __math_isnan, "
    "__numpy_isnan, inf, __load_module, utils_device, device, ___from_numpy, ___unwrap_async_collective_tensor, "
    "___as_tensor, inspect")


def shape_guard_code(exprs):
    """Note [The Python shape guard function]
    2.15 logs its shape guards (the relations between sizes) as the Python function it compiles
    for them, with each subexpression that occurs more than once (L['x'], L['x'].size,
    L['x'].size(), L['x'].size()[0]) computed once into _var0, _var1, ... In this runtime the same
    expressions are checked by the guard tree's root (its size relations, the LAMBDA_GUARD lines);
    this writes them as 2.15's function for TORCH_LOGS=guards."""
    import ast
    from collections import Counter
    kinds = (ast.Attribute, ast.Subscript, ast.Call)
    trees = [ast.parse(e, mode="eval").body for e in exprs]
    counts = Counter(ast.unparse(n) for t in trees for n in ast.walk(t) if isinstance(n, kinds))
    names, preface = {}, []

    class _Replace(ast.NodeTransformer):
        def visit(self, node):
            key = ast.unparse(node) if isinstance(node, kinds) else None
            node = self.generic_visit(node)
            if key is not None and counts[key] > 1:
                if key not in names:
                    names[key] = "_var{}".format(len(names))
                    preface.append("{} = {}".format(names[key], ast.unparse(node)))
                return ast.Name(id=names[key], ctx=ast.Load())
            return node

    body = []
    for t in trees:
        start = len(preface)
        rewritten = ast.unparse(_Replace().visit(t))
        body += ["        " + p for p in preface[start:]]
        body += ["        if not ({}):".format(rewritten), "            return False"]
    lines = ["def ___make_guard_fn({}):".format(_GUARD_FN_CLOSURE), "    def guard(L):"] + body + \
        ["        return True", "    return guard", ""]
    return "\n".join(lines)
