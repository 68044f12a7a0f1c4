// The CPU backend: 64-byte aligned host memory and the kernels in this folder.
#include <cstdlib>

#include <sys/mman.h>

#include "backends/cpu/copy_kernels.h"
#include "core/tensor/backend.h"
#include "core/util/error.h"

namespace ipt {

void register_CPU_kernels(Dispatcher& d);  // generated RegisterCPU.cpp

namespace {
// Memory as PyTorch's DefaultCPUAllocator takes it: posix_memalign with 64-byte alignment, so
// glibc's malloc hands a freed block straight back to the next tensor of that size (its mmap
// threshold rises to the largest block freed, up to 32 MiB) and a fresh 1M-float output costs
// no page faults. Blocks above that are mmapped on every call by malloc anyway; those are
// 2 MiB aligned and marked for transparent huge pages, so first touch costs one fault per 2 MiB
// instead of one per 4 KiB page.
constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kMallocReuseLimit = size_t(32) << 20;
void* cpu_allocate(size_t nbytes) {
  if (nbytes == 0) return nullptr;
  void* p = nullptr;
  if (nbytes > kMallocReuseLimit && nbytes <= SIZE_MAX - kHugePage) {
    size_t rounded = (nbytes + kHugePage - 1) / kHugePage * kHugePage;
    p = std::aligned_alloc(kHugePage, rounded);
    if (p) madvise(p, rounded, MADV_HUGEPAGE);
  } else if (nbytes <= kMallocReuseLimit) {
    if (posix_memalign(&p, 64, nbytes) != 0) p = nullptr;
  }
  // PyTorch 2.15's DefaultCPUAllocator words the failure this way (its c10/core/impl/alloc_cpu.cpp line).
  IPT_CHECK(p, RuntimeError,
            "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: "
            "you tried to allocate ",
            nbytes, " bytes. Error code 12 (Cannot allocate memory)");
  return p;
}
void cpu_deallocate(void* p) { std::free(p); }
void cpu_copy(const Tensor& self, const Tensor& src, bool non_blocking) { native::copy_cpu_(self, src, non_blocking); }

const BackendInterface kCpuBackend = {
    "cpu", DeviceType::CPU, cpu_allocate, cpu_deallocate, register_CPU_kernels, nullptr, nullptr, cpu_copy,
};
}  // namespace

void register_cpu_backend() { register_backend(&kCpuBackend); }

}  // namespace ipt
