#pragma once
// The one simulated device (cuda:0) of this process: its Gpu, its caching allocator, each
// thread's current stream, and the launch helper its kernels use.
#include <functional>
#include <string>

#include "backends/sim/caching_allocator.h"
#include "backends/sim/sim_gpu.h"
#include "core/tensor/tensor.h"

namespace ipt::sim {

Gpu& gpu();
CachingAllocator& allocator();
StreamId current_stream();
void set_current_stream(StreamId s);
bool allow_tf32();

// What a kernel computes with on a stream's worker: a CPU tensor over the same bytes as a
// simulated-GPU tensor, owning nothing (the block stays the allocator's; stream order, or
// record_stream, is what keeps it from being reused too early, as on a GPU). CPU tensors
// (the 0-dim scalars PyTorch lets into GPU kernels) are passed through as they are.
struct HostView {
  Tensor cpu;  // set for a CPU operand
  void* data = nullptr;
  size_t nbytes = 0;
  ScalarType dtype = ScalarType::Float;
  std::vector<int64_t> sizes, strides;
  int64_t offset = 0;
  explicit HostView(const Tensor& t);
  Tensor tensor() const;  // on the worker
};

// Enqueues `work` on the current stream; returns at once. A CUDA error left by earlier work
// is raised here, as CUDA reports asynchronous errors at the next call.
// `accesses` are the kernel's operands, for the hazard check (reads() / writes()).
void launch(const char* name, const KernelCost& cost, std::function<void()> work,
            DeviceOp::Kind kind = DeviceOp::Kind::Kernel, std::vector<Access> accesses = {});
// A kernel's operand for the hazard check (a CPU operand is nobody's race).
Access reads(const Tensor& t, const char* arg);
Access writes(const Tensor& t, const char* arg);
// Raises the first error a worker met (as CUDA does at the next synchronizing call).
void raise_async_error();
// The host waits for stream s, then raises what its work left behind.
void synchronize_stream(StreamId s);
// The next matmul sets up cuBLAS again (a new program: Note [Each run on a fresh device]).
void forget_blas_setup();
// numel × element size: what a kernel's modeled cost counts for an operand.
double bytes_of(const Tensor& t);

}  // namespace ipt::sim
