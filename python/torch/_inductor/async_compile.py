"""torch._inductor.async_compile: the generated module's `async_compile`, which starts building
its kernels as the module is loaded and `wait(globals())` then puts the built kernels in their
place, as PyTorch 2.15's does.

Note [Kernels build in parallel]
cpp_pybinding() hands the C++ build of each kernel (Note [Compiling a kernel]) to a small pool of
threads (the compiler runs as a subprocess, so the builds overlap) and returns a pending kernel;
wait() replaces every pending kernel in the module's namespace by the loaded kernel, raising the
first build error. Triton kernels of the simulated GPU build the same way (their C++
equivalent)."""
import concurrent.futures
import os

from torch._inductor import runtime

_pool = None


def _executor():
    global _pool
    if _pool is None:
        _pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1)),
                                                      thread_name_prefix="inductor-compile")
    return _pool


class _Pending:
    def __init__(self, future):
        self.future = future

    def result(self):
        return self.future.result()


class AsyncCompile:
    def __init__(self):
        self._pending = []

    def _submit(self, fn, *args, **kwargs):
        p = _Pending(_executor().submit(fn, *args, **kwargs))
        self._pending.append(p)
        return p

    def cpp_pybinding(self, argtypes, source_code):
        return self._submit(runtime.CppKernel, argtypes, source_code)

    def triton(self, kernel_name, source_code, device_str="cuda", num_inputs=0, flops=0, cpu_equivalent=""):
        return self._submit(runtime.SimTritonKernel, kernel_name, num_inputs, flops, source_code, cpu_equivalent)

    def wait(self, scope):
        error = None
        for key, value in list(scope.items()):
            if isinstance(value, _Pending):
                try:
                    scope[key] = value.result()
                except BaseException as e:  # every build finishes before the first error is raised
                    error = error or e
        for p in self._pending:  # pending kernels not bound to a name
            try:
                p.result()
            except BaseException as e:
                error = error or e
        self._pending.clear()
        if error is not None:
            raise error
