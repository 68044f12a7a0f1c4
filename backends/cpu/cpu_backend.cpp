// The CPU backend: 64-byte aligned host memory and the kernels in this folder.
#include <cstdlib>

#include <sys/mman.h>

#include "core/tensor/backend.h"

namespace ipt {

void register_CPU_kernels(Dispatcher& d);  // generated RegisterCPU.cpp

namespace {
// Large blocks: 2 MiB aligned and marked for transparent huge pages, so first touch costs one
// fault per 2 MiB instead of one per 4 KiB page.
constexpr size_t kHugePage = size_t(2) << 20;
void* cpu_allocate(size_t nbytes) {
  if (nbytes == 0) return nullptr;
  if (nbytes >= kHugePage) {
    size_t rounded = (nbytes + kHugePage - 1) / kHugePage * kHugePage;
    void* p = std::aligned_alloc(kHugePage, rounded);
    if (p) madvise(p, rounded, MADV_HUGEPAGE);
    return p;
  }
  size_t rounded = (nbytes + 63) / 64 * 64;
  return std::aligned_alloc(64, rounded);
}
void cpu_deallocate(void* p) { std::free(p); }

const BackendInterface kCpuBackend = {
    "cpu", DeviceType::CPU, cpu_allocate, cpu_deallocate, register_CPU_kernels, nullptr, nullptr,
};
}  // namespace

void register_cpu_backend() { register_backend(&kCpuBackend); }

}  // namespace ipt
