"""torch._inductor.config: the settings of Inductor this project follows (PyTorch 2.15's names
and defaults)."""
import os


class cpp:
    # The C++ compilers to try, in order: Inductor 2.15's first entry (None) would install GCC
    # through conda when TORCH_INDUCTOR_INSTALL_GXX is set, which this project never does, so
    # it is skipped; then $CXX, else g++. Read once, when this module is first imported.
    cxx = (None, os.environ.get("CXX", "g++"))
    # -ffp-contract's value: "off" keeps a * b + c two roundings, as eager computes it.
    enable_floating_point_contract_flag = "off"
    # False adds -fno-unsafe-math-optimizations after the flags -ffast-math implies.
    enable_unsafe_math_opt_flag = False
    # -march's value (None: native; "": no -march at all).
    march = os.environ.get("TORCHINDUCTOR_CPP_MARCH")
