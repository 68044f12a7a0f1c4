#pragma once
// The simulated GPU's kernels for operators that name no CUDA kernel: each operator's CPU kernel
// launched on the device (Note [The CPU kernel on the simulated GPU] in
// backends/sim/cpu_fallback.h). The generator writes one call of the runtime's template per
// operator, with its argument names and which arguments it writes.

#include <string>
#include <vector>

#include "tools/codegen/op.h"

namespace ipt::codegen {

// Whether an operator that is not structured gets the CPU kernel as its CUDA kernel: it has a
// CPU kernel and no CUDA or composite one, is no view, and returns nothing, a Tensor, a tuple of
// Tensors or a list of them.
bool wants_sim_fallback(const Op& op);

// The body of the CUDA kernel of such an operator: launches its CPU kernel (through the
// dispatcher's CPU entry) after its Meta kernel has shaped the results, or, when it has no Meta
// kernel, runs it on the host after the stream.
std::string sim_fallback_body(const Op& op);

// The CUDA impl call of a structured group without one: launches the CPU impl `cpu_impl` over
// the inputs and `out` (its Meta function has already run).
std::string sim_fallback_structured_impl(const Op& out_op, const std::string& cpu_impl);

}  // namespace ipt::codegen
