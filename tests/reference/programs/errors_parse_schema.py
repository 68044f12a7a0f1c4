# torch._C.parse_schema on malformed schemas: the exception kind and PyTorch's whole message (the
# lexer's expected and found tokens, the text, the ~ marker under the token), then valid schemas
# printed back as PyTorch prints a parsed schema (defaults as values).
import torch

BAD = [
    "foo(Tensor self -> Tensor",                  # missing ')'
    "foo(Tensor self) -> (Tensor, Tensor",        # missing ')' at the end
    "foo(Tensor self) Tensor",                    # missing '->'
    "foo(Tensr self) -> Tensor",                  # unknown type
    "foo(Tensor self, Dimname[] names) -> Tensor",  # a type 2.x dropped
    "foo(Tensor self, int x=abc) -> Tensor",      # bad default
    "foo(Tensor self, int x=) -> Tensor",         # empty default
    "foo(Tensor self, Tensor x=1) -> Tensor",     # a Tensor defaults to None only
    "foo(Tensor(a self) -> Tensor",               # unclosed alias annotation
    "foo(Tensor(!) self) -> Tensor",              # alias set missing
    "foo(int[a] x) -> Tensor",                    # list size not a number
    "foo(Tensor self) -> Tensor)",                # trailing text
    "foo(Tensor self) -> Tensor\nbar",            # trailing line
    "foo(Tensor self) -> Tensor$",                # no such token
    'foo(Tensor self, str s="abc) -> Tensor',     # unterminated string
    "foo(Tensor self, ..., int x) -> Tensor",     # '...' not last
    "foo.default(Tensor self) -> Tensor",         # reserved overload name
    "foo",                                        # a name only
    "",                                           # empty
]
for text in BAD:
    try:
        torch._C.parse_schema(text)
        print("parsed", repr(text))
    except Exception as e:
        print("==", repr(text))
        print(type(e).__name__ + ":", e)

GOOD = [
    "aten::layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1e-05, bool cudnn_enable=True) -> Tensor",
    "aten::nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, SymInt ignore_index=-100) -> Tensor",
    "aten::max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> Tensor",
    "aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, SymInt[2] padding=0, SymInt[2] dilation=1, SymInt groups=1) -> Tensor",
    "aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)",
    "aten::split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]",
    "aten::_cufft_get_plan_cache_size(DeviceIndex device_index) -> int",
    "foo(Tensor self, float x=1, str r='mean', float y=0.1, *, Scalar alpha=1.0) -> Tensor",
    "foo(Tensor self, *) -> Tensor  # a comment",
]
for text in GOOD:
    print(torch._C.parse_schema(text))
