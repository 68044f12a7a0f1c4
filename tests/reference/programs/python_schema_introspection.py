# Reading schemas from Python: torch._C.parse_schema's FunctionSchema, Argument and _AliasInfo
# (types in TorchScript's spelling, defaults as Python values, alias sets), torch.ops packets and
# overloads with their _schema, and the kernel signatures torch._C._dispatch_dump prints.
import torch

SCHEMAS = [
    "aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
    "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
    "aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)",
    "aten::split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]",
    "aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
    "aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
    "aten::norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor",
    "aten::empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
    "aten::layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1e-05, bool cudnn_enable=True) -> Tensor",
    "aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor",
    "aten::nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, SymInt ignore_index=-100) -> Tensor",
    "aten::linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
    "aten::div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor",
    "aten::max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> Tensor",
    "aten::_foreach_add_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()",
    "aten::cat(Tensor[] tensors, int dim=0) -> Tensor",
    "my::op(Tensor(a|b) x, Tensor(b!) y) -> Tensor(a|b)",
]


def alias(info):
    if info is None:
        return "-"
    return "({} -> {}{})".format(sorted(info.before_set), sorted(info.after_set), " write" if info.is_write else "")


for text in SCHEMAS:
    s = torch._C.parse_schema(text)
    print(s.name, repr(s.overload_name), "mutable" if s.is_mutable else "")
    for a in s.arguments:
        print("  ", a.name, str(a.type), repr(a.default_value), a.has_default_value(), a.kwarg_only, a.is_out, a.N,
              alias(a.alias_info))
    for r in s.returns:
        print("  ->", repr(r.name), str(r.type), alias(r.alias_info))

for bad in ["add(Tensor self", "add(Tensor self) -> ", "add(Tensr self) -> Tensor", "add(Tensor(a self) -> Tensor",
            "(Tensor x) -> Tensor", "add(Tensor self, int x=) -> Tensor", "add(Tensor self) Tensor", ""]:
    try:
        torch._C.parse_schema(bad)
        print("parsed", repr(bad))
    except RuntimeError:
        print("RuntimeError for", repr(bad))

add = torch.ops.aten.add
print(add, repr(add), type(add).__name__, add.__name__)
print(add.Tensor, repr(add.Tensor), type(add.Tensor).__name__, add.Tensor.__name__)
print(add.Tensor._schema)
print(torch.ops.aten.mm.default._schema, torch.ops.aten.mm.default)
a = torch.tensor([[1., 2.], [3., 4.]])
print(add.Tensor(a, a, alpha=2).tolist(), add(a, a).tolist(), add.Scalar(a, 10).tolist())
o = torch.empty(0)
print(torch.ops.aten.mul.out(a, a, out=o) is o, o.tolist())
b = a.clone()
torch.ops.aten.add_.Scalar(b, 1)
print(b.tolist(), torch.ops.aten.mm(a, a).tolist())
x = torch.ones(2, requires_grad=True)
print(type(torch.ops.aten.sub.Scalar(x, 1).grad_fn).__name__, type(torch.ops.aten.mul.Tensor(x, x).grad_fn).__name__)
for attempt in [lambda: torch.ops.aten.add.Foo, lambda: torch.ops.aten.nosuchop]:
    try:
        attempt()
    except AttributeError as e:
        print("AttributeError:", e)
try:
    torch.ops.aten.add.Tensor("a", 1)
except RuntimeError:
    print("RuntimeError")

# Known divergence, left out on both sides: PyTorch 2.15 registers Python Meta kernels for these
# operators when torch is imported (torch/_meta_registrations.py). They are boxed functions without
# a C++ signature, dumped as "Meta :: (none)"; the project's Meta kernels are C++ kernels and dump
# their signature.
PYTHON_META = {"aten::add.Tensor", "aten::add.out", "aten::add_.Scalar", "aten::mm.out", "aten::max.dim",
               "aten::sum.dim_IntList"}
for name in ["aten::add.Tensor", "aten::add.out", "aten::add_.Scalar", "aten::mm.out", "aten::split.Tensor",
             "aten::max.dim", "aten::sum.dim_IntList"]:
    lines = torch._C._dispatch_dump(name).splitlines()
    print(lines[0], "|", lines[1])
    print("  ", lines[3])
    for line in lines[4:]:
        key = line.split(":", 1)[0]
        if key == "Meta" and name in PYTHON_META:
            continue
        if key in ("CPU", "Meta", "ADInplaceOrView", "Autograd[alias]", "CompositeExplicitAutograd[alias]",
                   "CompositeImplicitAutograd[alias]"):
            print("  ", key, "::", line.split(" :: ")[1].split(" [")[0])
