// The CPU backend: 64-byte aligned host memory and the kernels in this folder.
#include <cstdlib>

#include "core/tensor/backend.h"

namespace ipt {

void register_CPU_kernels(Dispatcher& d);  // generated RegisterCPU.cpp

namespace {
void* cpu_allocate(size_t nbytes) {
  if (nbytes == 0) return nullptr;
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
