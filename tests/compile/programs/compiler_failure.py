# The C++ compiler missing, or not working: torch.compile raises InductorError, naming the
# compilers it tried (torch._inductor.config.cpp.cxx); the function itself still runs eagerly,
# and a working compiler set afterwards compiles it.
import torch
import torch._inductor.config as config


def f(x):
    return (x * 2.0 + 1.0).relu()


torch.manual_seed(0)
x = torch.randn(8)
default = config.cpp.cxx
for cxx in ("/nonexistent/c++", "false"):
    config.cpp.cxx = (None, cxx)
    torch._dynamo.reset()
    try:
        torch.compile(f)(x)
        print("CXX={}: compiled".format(cxx))
    except Exception as e:
        print("CXX={}: {}.{}".format(cxx, type(e).__module__, type(e).__name__))
        print("  inner:", type(e.inner_exception).__name__)
        print("  message:", str(e))
print("eager:", f(x))
config.cpp.cxx = default
torch._dynamo.reset()
print("compiled again:", torch.equal(torch.compile(f)(x), f(x)))
