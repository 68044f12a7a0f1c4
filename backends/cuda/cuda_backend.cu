// The CUDA backend: device memory through cudart. Registered only when a GPU is usable:
// without one (or without a driver) cudaGetDeviceCount fails, which means "no GPU".
#include <cuda_runtime.h>

#include "core/tensor/backend.h"

namespace ipt {

void register_CUDA_kernels(Dispatcher& d);  // generated RegisterCUDA.cpp

namespace {
void* cuda_allocate(size_t nbytes) {
  void* p = nullptr;
  if (nbytes && cudaMalloc(&p, nbytes) != cudaSuccess) return nullptr;
  return p;
}
void cuda_deallocate(void* p) {
  if (p) cudaFree(p);
}
void to_host(void* dst, const void* src, size_t n) { cudaMemcpy(dst, src, n, cudaMemcpyDeviceToHost); }
void from_host(void* dst, const void* src, size_t n) { cudaMemcpy(dst, src, n, cudaMemcpyHostToDevice); }

const BackendInterface kCudaBackend = {
    "cuda", DeviceType::CUDA, cuda_allocate, cuda_deallocate, register_CUDA_kernels, to_host, from_host, nullptr,
};
}  // namespace

int cuda_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) return 0;
  return n;
}

void register_cuda_backend() {
  if (cuda_device_count() > 0) register_backend(&kCudaBackend);
}

}  // namespace ipt
