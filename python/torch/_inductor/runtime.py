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


def empty_strided_cuda(size, stride, dtype):
    return torch.empty_strided(size, stride, dtype=dtype, device="cuda")


class SimTritonKernel:
    """A kernel Inductor would write in Triton, on the simulated GPU: its C++ equivalent is
    compiled for the host and launched on the current stream as one kernel, which the device
    model times from `flops` and the bytes of its tensors (torch._C._cuda_launch_generated)."""

    def __init__(self, name, num_inputs, flops, triton_source, cpu_equivalent):
        self.name, self.num_inputs, self.flops = name, num_inputs, flops
        self.triton_source = triton_source
        self.path, self.from_disk = cpp_builder.compile_source(cpu_equivalent)
        self.address = ctypes.cast(cpp_builder.load_kernel(self.path), ctypes.c_void_p).value

    def run(self, *tensors):
        torch._C._cuda_launch_generated(self.name, self.address, list(tensors[:self.num_inputs]),
                                        list(tensors[self.num_inputs:]), float(self.flops))


def sim_triton_kernel(name, num_inputs, flops, triton_source, cpu_equivalent):
    return SimTritonKernel(name, num_inputs, flops, triton_source, cpu_equivalent)
