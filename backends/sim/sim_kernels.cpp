// The simulated GPU's kernels (the CUDA entries of native_functions.yaml).
//
// Note [A simulated kernel]
// On the host, as a CUDA kernel's launcher does: the operands are checked and the output's
// shape and dtype found (by the operator's Meta kernel), the output is allocated from the
// caching allocator on the current stream, and the kernel is launched with its modeled cost.
// On the stream's worker, later: the operator's CPU kernel computes over CPU views of the same
// bytes (HostView). Functional CPU kernels make their own result, which is then copied into
// the output; in-place kernels write where they are. Host code never waits, except for
// what must reach the host (.item()).
#include "backends/cpu/copy_kernels.h"
#include "backends/sim/sim_runtime.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

using sim::bytes_of;
using sim::HostView;
using sim::KernelCost;

const Device kCuda(DeviceType::CUDA, 0);

KernelCost pointwise_cost(const Tensor& out, std::initializer_list<const Tensor*> in) {
  KernelCost c;
  c.flops = static_cast<double>(out.numel());
  c.bytes = bytes_of(out);
  for (const Tensor* t : in) c.bytes += bytes_of(*t);
  return c;
}

// A CUDA output shaped as the Meta kernel's result, laid out as `like` when it has its shape.
Tensor output_like(const Tensor& meta, const Tensor& like) {
  return make_empty_like_layout(meta.sizes(), meta.dtype(), kCuda, like);
}

// Runs a functional CPU kernel on the worker and copies its result into `out`.
template <typename F>
void launch_into(const char* name, const KernelCost& cost, const Tensor& out, F compute) {
  sim::launch(name, cost, [o = HostView(out), compute] { copy_cpu_(o.tensor(), compute(), false); });
}

}  // namespace

Tensor empty_cuda(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout>, std::optional<Device>,
                  std::optional<bool>, std::optional<MemoryFormat>) {
  return make_empty(size, dtype.value_or(ScalarType::Float), kCuda);
}

Tensor empty_strided_cuda(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype, std::optional<Layout>,
                          std::optional<Device>, std::optional<bool>) {
  return make_empty_strided(size, stride, dtype.value_or(ScalarType::Float), kCuda);
}

Tensor fill_cuda_(const Tensor& self, const Scalar& value) {
  KernelCost c;
  c.bytes = bytes_of(self);
  sim::launch("fill_kernel_cuda", c, [s = HostView(self), value] { fill_cpu_(s.tensor(), value); });
  return self;
}

// .item(): the value must reach the host, so the host waits for the stream.
Scalar _local_scalar_dense_cuda(const Tensor& self) {
  sim::synchronize_stream(sim::current_stream());
  return _local_scalar_dense_cpu(HostView(self).tensor());
}

#define IPT_SIM_BINARY(op, meta)                                                                          \
  Tensor op##_cuda(const Tensor& self, const Tensor& other, const Scalar& alpha) {                       \
    Tensor out = output_like(meta(self, other, alpha), self.sizes() == other.sizes() ? self : other);     \
    launch_into("vectorized_elementwise_kernel<" #op ">", pointwise_cost(out, {&self, &other}), out,     \
                [a = HostView(self), b = HostView(other), alpha] { return op##_cpu(a.tensor(), b.tensor(), alpha); }); \
    return out;                                                                                           \
  }                                                                                                       \
  Tensor op##_cuda_(const Tensor& self, const Tensor& other, const Scalar& alpha) {                      \
    meta##_(self, other, alpha);                                                                          \
    sim::launch("vectorized_elementwise_kernel<" #op "_>", pointwise_cost(self, {&self, &other}),          \
                [a = HostView(self), b = HostView(other), alpha] { op##_cpu_(a.tensor(), b.tensor(), alpha); }); \
    return self;                                                                                          \
  }
IPT_SIM_BINARY(add, binary_meta_alpha)
IPT_SIM_BINARY(sub, binary_meta_alpha)
#undef IPT_SIM_BINARY

#define IPT_SIM_BINARY_NO_ALPHA(op, meta)                                                                 \
  Tensor op##_cuda(const Tensor& self, const Tensor& other) {                                             \
    Tensor out = output_like(meta(self, other), self.sizes() == other.sizes() ? self : other);            \
    launch_into("vectorized_elementwise_kernel<" #op ">", pointwise_cost(out, {&self, &other}), out,     \
                [a = HostView(self), b = HostView(other)] { return op##_cpu(a.tensor(), b.tensor()); });    \
    return out;                                                                                           \
  }                                                                                                       \
  Tensor op##_cuda_(const Tensor& self, const Tensor& other) {                                            \
    binary_meta_(self, other);                                                                            \
    sim::launch("vectorized_elementwise_kernel<" #op "_>", pointwise_cost(self, {&self, &other}),          \
                [a = HostView(self), b = HostView(other)] { op##_cpu_(a.tensor(), b.tensor()); });          \
    return self;                                                                                          \
  }
IPT_SIM_BINARY_NO_ALPHA(mul, binary_meta)
IPT_SIM_BINARY_NO_ALPHA(div, binary_meta_float)
#undef IPT_SIM_BINARY_NO_ALPHA

Tensor relu_cuda(const Tensor& self) {
  Tensor out = output_like(unary_meta(self), self);
  launch_into("vectorized_elementwise_kernel<relu>", pointwise_cost(out, {&self}), out,
              [a = HostView(self)] { return relu_cpu(a.tensor()); });
  return out;
}

Tensor sum_dim_cuda(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype) {
  Tensor meta = reduce_meta(self, dim, keepdim, dtype);
  Tensor out = make_empty(meta.sizes(), meta.dtype(), kCuda);
  KernelCost c;
  c.flops = static_cast<double>(self.numel());
  c.bytes = bytes_of(self) + bytes_of(out);
  std::optional<std::vector<int64_t>> dims;
  if (dim) dims.emplace(dim->begin(), dim->end());
  launch_into("reduce_kernel<sum>", c, out, [a = HostView(self), dims, keepdim, dtype] {
    return dims ? sum_dim_cpu(a.tensor(), IntArrayRef(*dims), keepdim, dtype)
                : sum_dim_cpu(a.tensor(), std::nullopt, keepdim, dtype);
  });
  return out;
}

// mm: 2·M·N·K FLOPs, on the tensor cores in TF32 when allow_tf32 (or
// set_float32_matmul_precision("high")) lets float32 matmuls use them.
Tensor mm_cuda(const Tensor& self, const Tensor& mat2) {
  Tensor out = make_empty(mm_meta(self, mat2).sizes(), self.dtype(), kCuda);
  KernelCost c;
  c.flops = 2.0 * static_cast<double>(self.size(0)) * static_cast<double>(self.size(1)) * static_cast<double>(mat2.size(1));
  c.bytes = bytes_of(self) + bytes_of(mat2) + bytes_of(out);
  const bool tf32 = self.dtype() == ScalarType::Float && sim::allow_tf32();
  if (tf32) c.math = sim::MathMode::TF32;
  if (self.dtype() == ScalarType::BFloat16 || self.dtype() == ScalarType::Half) c.math = sim::MathMode::BF16;
  launch_into(tf32 ? "ampere_tf32_s1688gemm_128x128" : "ampere_sgemm_128x64_nn", c, out,
              [a = HostView(self), b = HostView(mat2)] { return mm_cpu(a.tensor(), b.tensor()); });
  return out;
}

}  // namespace ipt::native
