# The C++ compiler missing, or failing: a warning names the command that failed, the graph runs
# eagerly, and the result is still right.
import os
import re
import warnings

import torch


def f(x):
    return (x * 2.0 + 1.0).relu()


x = torch.randn(8)
for cxx in ("/nonexistent/c++", "false"):
    os.environ["CXX"] = cxx
    torch._dynamo.reset()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = torch.compile(f)(x)
    print("CXX={}: same result: {}".format(cxx, torch.allclose(out, f(x))))
    for w in caught:
        text = str(w.message).replace(os.environ.get("TORCHINDUCTOR_CACHE_DIR", "<cache>"), "<cache>")
        # The source's hash and the process id change with the code and the run.
        print("warning:", re.sub(r"/[0-9a-f]{2}/c[0-9a-f]{40}", "/<h>/c<hash>", re.sub(r"\.tmp\d+", ".tmp<pid>", text)))
