# torch.__version__ as real programs use it: a str (a torch.torch_version.TorchVersion) that
# compares as a PEP 440 version with strings, tuples and versions, and torch.version's
# attributes. The version string itself is never printed: this runtime's says 2.15.0 with its
# own local label ("+insidepytorch") where PyTorch's names its CUDA build.
import torch
from torch.torch_version import TorchVersion

v = torch.__version__
print(type(v).__name__, type(v).__module__, isinstance(v, str), isinstance(v, TorchVersion))
print(v >= "2.0", v >= "2.15", v < "2.16", v > "2.9", v < "10.0", v > "2.15.0", v == "2.15.0", v != "2.15.0")
print(v >= (2, 0), v < (2, 16), v > (2, 14, 99), v >= [2, 15], v < (3,), v == (2, 15))
print(v.split("+")[0], v.startswith("2.15."), "+" in v, len(v.split(".")) >= 3)
print(tuple(int(p) for p in v.split("+")[0].split(".")), v.split("+")[0] == "2.15.0")
if v >= "2.0":
    print("torch 2 path")
major, minor = (int(p) for p in v.split(".")[:2])
print(major, minor, (major, minor) >= (2, 1))
print(sorted(["2.10.0", "2.9.1", "2.15.0", "1.13.1"], key=TorchVersion))
print(TorchVersion("2.1.0") < "2.10", TorchVersion("2.15.0a0") < "2.15.0", TorchVersion("2.15.0.dev20260101") < "2.15.0a0")
print(TorchVersion("2.15.0") == "2.15", TorchVersion("2.15.0+local") > "2.15.0", TorchVersion("2.15.0.post1") > "2.15.0+local")
print(TorchVersion("parrot") > "abc", TorchVersion("2.0") > "parrot")
print(hash(TorchVersion("2.15.0")) == hash("2.15.0"), {TorchVersion("2.15.0"): 1}.get("2.15.0"))
print(torch.version.__version__ == v, type(torch.version.__version__).__name__)
print(torch.version.debug, torch.version.hip, torch.version.rocm, torch.version.xpu)
print(isinstance(torch.version.git_version, str), sorted(torch.version.__all__))
print(torch.version.cuda is None or isinstance(torch.version.cuda, str))
