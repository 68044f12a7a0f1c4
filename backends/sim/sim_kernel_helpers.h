#pragma once
// What the simulated GPU's kernels share (Note [A simulated kernel] in sim_kernels.cpp): the
// device, the cost of a pointwise kernel, and the launch of a CPU kernel that writes into a
// device output on the stream's worker.
#include <initializer_list>
#include <vector>

#include "backends/sim/sim_runtime.h"
#include "core/tensor/tensor.h"

namespace ipt::native::sim_kernels {

using sim::Access;
using sim::bytes_of;
using sim::HostView;
using sim::KernelCost;
using sim::reads;
using sim::writes;

inline const Device kCuda(DeviceType::CUDA, 0);

inline KernelCost pointwise_cost(const Tensor& out, std::initializer_list<const Tensor*> in) {
  KernelCost c;
  c.flops = static_cast<double>(out.numel());
  c.bytes = bytes_of(out);
  for (const Tensor* t : in) c.bytes += bytes_of(*t);
  return c;
}

// A CUDA output shaped as the Meta kernel's result, laid out as `like` when it has its shape.
inline Tensor output_like(const Tensor& meta, const Tensor& like) {
  return make_empty_like_layout(meta.sizes(), meta.dtype(), kCuda, like);
}

// Runs `compute(out)` on the worker: a CPU kernel writing into the output's bytes.
template <typename F>
void launch_writing(const char* name, const KernelCost& cost, const Tensor& out, std::vector<Access> accesses,
                    F compute, const char* out_name = "out") {
  accesses.push_back(writes(out, out_name));
  sim::launch(
      name, cost, [o = HostView(out), compute] { compute(o.tensor()); }, sim::DeviceOp::Kind::Kernel,
      std::move(accesses));
}

}  // namespace ipt::native::sim_kernels
