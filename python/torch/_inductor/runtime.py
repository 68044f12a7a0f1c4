"""What the generated wrapper module runs: CppKernel (a kernel built or found in the cache, called
with tensors' data pointers) and SimTritonKernel, which async_compile builds, empty_strided_cpu
and empty_strided_cuda, and assert_size_stride(_grouped), which checks that the inputs have the
sizes and strides the code was generated for (PyTorch 2.15's texts)."""
import ctypes

import torch
from torch._inductor import cpp_builder


def empty_strided_cpu(size, stride, dtype):
    return torch.empty_strided(size, stride, dtype=dtype)


_OPCHECK_HINT = ("This error most often comes from a incorrect fake (aka meta) kernel for a custom op.\n"
                 "Use torch.library.opcheck to test your custom op.\n"
                 "See https://pytorch.org/docs/stable/library.html#torch.library.opcheck")


def assert_size_stride(tensor, size, stride, op_name=None):
    size, stride = tuple(size), tuple(stride)
    if tensor.dim() != len(size) or len(size) != len(stride):
        raise AssertionError("wrong number of dimensions{}".format(tensor.dim()))
    got_size, got_stride = tuple(tensor.size()), tuple(tensor.stride())
    for d in range(len(size)):
        if got_size[d] != size[d] or (got_size[d] > 1 and got_stride[d] != stride[d]):
            raise AssertionError("expected size {}=={}, stride {}=={} at dim={}\n{}{}".format(
                got_size[d], size[d], got_stride[d], stride[d], d,
                "Error in op: {}\n".format(op_name) if op_name else "", _OPCHECK_HINT))


def assert_size_stride_grouped(tensors, sizes, strides, op_name=None):
    for t, size, stride in zip(tensors, sizes, strides):
        assert_size_stride(t, size, stride, op_name)


class CppKernel:
    def __init__(self, types, source):
        self.types, self.source = types, source
        self.path, self.from_disk = cpp_builder.compile_source(source)
        self.fn = cpp_builder.load_kernel(self.path)
        self.fn.argtypes = [ctypes.c_void_p] * len(types)

    def __call__(self, *tensors):
        self.fn(*[t.data_ptr() for t in tensors])


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
