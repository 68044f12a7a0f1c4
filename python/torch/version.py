"""torch.version: what this build of `torch` is, with the attributes PyTorch 2.15's has.

Note [The version string]
The runtime follows PyTorch 2.15, so its version is 2.15's release with a PEP 440 local label
naming this project: `2.15.0+insidepytorch`. Real programs compare it (`torch.__version__ >=
"2.0"`, `packaging.version.parse(torch.__version__)`) and take the 2.x paths, as they should.

`cuda` is the CUDA toolkit a PyTorch build was compiled against, None for a CPU-only build. This
package is compiled against none: `device="cuda"` runs on the simulated GPU, which needs no
toolkit, so `cuda` is None, as in a PyTorch built without CUDA; `torch.cuda.is_available()` is
what says whether a CUDA device is there. `git_version` is "Unknown", PyTorch's own value when
the build does not record a commit.
"""
from typing import Optional

__all__ = ["__version__", "debug", "cuda", "git_version", "hip", "rocm", "xpu"]
__version__ = "2.15.0+insidepytorch"
debug = False
cuda: Optional[str] = None
git_version = "Unknown"
hip: Optional[str] = None
rocm: Optional[str] = None
xpu: Optional[str] = None
