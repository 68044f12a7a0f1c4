"""What the generated wrapper module calls: cpp_kernel (compile or load a kernel, call it with
tensors' data pointers) and empty_strided_cpu."""
import ctypes

import torch
from torch._inductor import cpp_builder


def empty_strided_cpu(size, stride, dtype):
    return torch.empty_strided(size, stride, dtype=dtype)


class CppKernel:
    def __init__(self, types, source):
        self.types, self.source = types, source
        self.path, self.from_disk = cpp_builder.compile_source(source)
        self.fn = cpp_builder.load_kernel(self.path)
        self.fn.argtypes = [ctypes.c_void_p] * len(types)

    def __call__(self, *tensors):
        self.fn(*[t.data_ptr() for t in tensors])


def cpp_kernel(types, source):
    return CppKernel(types, source)
