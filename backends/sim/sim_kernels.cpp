// The simulated GPU's kernels (the CUDA entries of native_functions.yaml).
//
// Note [A simulated kernel]
// On the host, as a CUDA kernel's launcher does: the operands are checked and the output's
// shape and dtype found (by the operator's Meta kernel), the output is allocated from the
// caching allocator on the current stream, and the kernel is launched with its modeled cost.
// On the stream's worker, later: the operator's CPU kernel computes over CPU views of the same
// bytes (HostView), writing straight into the output (the "into" kernels of
// backends/cpu/into_kernels.h) or, in place, where the tensor is; so a simulated kernel moves
// the bytes the CPU kernel moves and no more. Only sum still makes its result and copies it
// in (a reduction's output is small). Host code never waits, except for what must reach the
// host (.item()).
#include <atomic>

#include "backends/cpu/copy_kernels.h"
#include "backends/cpu/into_kernels.h"
#include "backends/sim/sim_runtime.h"
#include "core/ops/shape_rules.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

using sim::Access;
using sim::bytes_of;
using sim::reads;
using sim::writes;
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

// Runs `compute(out)` on the worker: a CPU kernel writing into the output's bytes.
template <typename F>
void launch_writing(const char* name, const KernelCost& cost, const Tensor& out, std::vector<Access> accesses, F compute) {
  accesses.push_back(writes(out, "out"));
  sim::launch(name, cost, [o = HostView(out), compute] { compute(o.tensor()); }, sim::DeviceOp::Kind::Kernel,
              std::move(accesses));
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
  sim::launch("fill_kernel_cuda", c, [s = HostView(self), value] { fill_cpu_(s.tensor(), value); },
              sim::DeviceOp::Kind::Kernel, {writes(self, "self")});
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
    launch_writing("vectorized_elementwise_kernel<" #op ">", pointwise_cost(out, {&self, &other}), out,  \
                   {reads(self, "self"), reads(other, "other")},                                          \
                   [a = HostView(self), b = HostView(other), alpha](const Tensor& o) {                    \
                     op##_into_cpu(o, a.tensor(), b.tensor(), alpha);                                     \
                   });                                                                                    \
    return out;                                                                                           \
  }                                                                                                       \
  Tensor op##_cuda_(const Tensor& self, const Tensor& other, const Scalar& alpha) {                      \
    meta##_(self, other, alpha);                                                                          \
    sim::launch("vectorized_elementwise_kernel<" #op "_>", pointwise_cost(self, {&self, &other}),          \
                [a = HostView(self), b = HostView(other), alpha] { op##_cpu_(a.tensor(), b.tensor(), alpha); }, \
                sim::DeviceOp::Kind::Kernel, {reads(other, "other"), writes(self, "self")});                \
    return self;                                                                                          \
  }
IPT_SIM_BINARY(add, binary_meta_alpha)
IPT_SIM_BINARY(sub, binary_meta_alpha)
#undef IPT_SIM_BINARY

#define IPT_SIM_BINARY_NO_ALPHA(op, meta)                                                                 \
  Tensor op##_cuda(const Tensor& self, const Tensor& other) {                                             \
    Tensor out = output_like(meta(self, other), self.sizes() == other.sizes() ? self : other);            \
    launch_writing("vectorized_elementwise_kernel<" #op ">", pointwise_cost(out, {&self, &other}), out,  \
                   {reads(self, "self"), reads(other, "other")},                                          \
                   [a = HostView(self), b = HostView(other)](const Tensor& o) {                           \
                     op##_into_cpu(o, a.tensor(), b.tensor());                                            \
                   });                                                                                    \
    return out;                                                                                           \
  }                                                                                                       \
  Tensor op##_cuda_(const Tensor& self, const Tensor& other) {                                            \
    binary_meta_(self, other);                                                                            \
    sim::launch("vectorized_elementwise_kernel<" #op "_>", pointwise_cost(self, {&self, &other}),          \
                [a = HostView(self), b = HostView(other)] { op##_cpu_(a.tensor(), b.tensor()); },           \
                sim::DeviceOp::Kind::Kernel, {reads(other, "other"), writes(self, "self")});                \
    return self;                                                                                          \
  }
IPT_SIM_BINARY_NO_ALPHA(mul, binary_meta)
IPT_SIM_BINARY_NO_ALPHA(div, binary_meta_float)
#undef IPT_SIM_BINARY_NO_ALPHA

Tensor relu_cuda(const Tensor& self) {
  Tensor out = output_like(unary_meta(self), self);
  launch_writing("vectorized_elementwise_kernel<relu>", pointwise_cost(out, {&self}), out, {reads(self, "self")},
                 [a = HostView(self)](const Tensor& o) { relu_into_cpu(o, a.tensor()); });
  return out;
}

// Unary pointwise ops: the output laid out as the input, the CPU kernel writing into it; the
// in-place form checks on the host (its Meta kernel) what the CPU kernel would refuse.
#define IPT_SIM_UNARY(op, meta, meta_)                                                                    \
  Tensor op##_cuda(const Tensor& self) {                                                                   \
    Tensor out = output_like(meta(self), self);                                                            \
    launch_writing("vectorized_elementwise_kernel<" #op ">", pointwise_cost(out, {&self}), out,            \
                   {reads(self, "self")}, [a = HostView(self)](const Tensor& o) { op##_into_cpu(o, a.tensor()); }); \
    return out;                                                                                            \
  }                                                                                                        \
  Tensor op##_cuda_(const Tensor& self) {                                                                  \
    meta_(self);                                                                                           \
    sim::launch("vectorized_elementwise_kernel<" #op "_>", pointwise_cost(self, {&self}),                   \
                [s = HostView(self)] { op##_cpu_(s.tensor()); }, sim::DeviceOp::Kind::Kernel,              \
                {writes(self, "self")});                                                                   \
    return self;                                                                                           \
  }
static void neg_in_place_check(const Tensor& self) {
  unary_meta_(self);
  check_neg_bool(self);
}
IPT_SIM_UNARY(neg, unary_meta, neg_in_place_check)
IPT_SIM_UNARY(exp, unary_meta_float, unary_meta_float_)
IPT_SIM_UNARY(log, unary_meta_float, unary_meta_float_)
IPT_SIM_UNARY(sqrt, unary_meta_float, unary_meta_float_)
IPT_SIM_UNARY(sin, unary_meta_float, unary_meta_float_)
IPT_SIM_UNARY(cos, unary_meta_float, unary_meta_float_)
IPT_SIM_UNARY(tanh, unary_meta_float, unary_meta_float_)
IPT_SIM_UNARY(sigmoid, unary_meta_float, unary_meta_float_)
#undef IPT_SIM_UNARY

Tensor sum_dim_cuda(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype) {
  Tensor meta = reduce_meta(self, dim, keepdim, dtype);
  Tensor out = make_empty(meta.sizes(), meta.dtype(), kCuda);
  KernelCost c;
  c.flops = static_cast<double>(self.numel());
  c.bytes = bytes_of(self) + bytes_of(out);
  std::optional<std::vector<int64_t>> dims;
  if (dim) dims.emplace(dim->begin(), dim->end());
  launch_writing("reduce_kernel<sum>", c, out, {reads(self, "self")}, [a = HostView(self), dims, keepdim, dtype](const Tensor& o) {
    copy_cpu_(o, dims ? sum_dim_cpu(a.tensor(), IntArrayRef(*dims), keepdim, dtype)
                      : sum_dim_cpu(a.tensor(), std::nullopt, keepdim, dtype), false);
  });
  return out;
}

// mm: 2·M·N·K FLOPs, on the tensor cores in TF32 when allow_tf32 (or
// set_float32_matmul_precision("high")) lets float32 matmuls use them.
// TF32 keeps float32's exponent and 10 of its 23 mantissa bits: each input is rounded to
// nearest before the products, which are summed in float32.
static Tensor round_to_tf32(const Tensor& t) {
  Tensor r = make_empty(t.sizes(), ScalarType::Float, Device(DeviceType::CPU));
  copy_cpu_(r, t, false);
  auto* bits = static_cast<uint32_t*>(r.impl()->storage()->data()) + r.storage_offset();
  for (int64_t i = 0; i < r.numel(); ++i)
    if ((bits[i] & 0x7f800000u) != 0x7f800000u) bits[i] = (bits[i] + 0x1000u) & ~0x1fffu;  // inf, nan as they are
  return r;
}

static std::atomic<bool> g_blas_ready{false};  // the first matmul sets up cuBLAS (Gpu::host_call)

Tensor mm_cuda(const Tensor& self, const Tensor& mat2) {
  if (!g_blas_ready.exchange(true)) {
    sim::gpu().host_call("cublasCreate_v2", sim::gpu().spec().blas_init_ns);
  }
  Tensor out = make_empty(mm_meta(self, mat2).sizes(), self.dtype(), kCuda);
  KernelCost c;
  c.flops = 2.0 * static_cast<double>(self.size(0)) * static_cast<double>(self.size(1)) * static_cast<double>(mat2.size(1));
  c.bytes = bytes_of(self) + bytes_of(mat2) + bytes_of(out);
  const bool tf32 = self.dtype() == ScalarType::Float && sim::allow_tf32();
  if (tf32) c.math = sim::MathMode::TF32;
  if (self.dtype() == ScalarType::BFloat16 || self.dtype() == ScalarType::Half) c.math = sim::MathMode::BF16;
  launch_writing(tf32 ? "ampere_tf32_s1688gemm_128x128" : "ampere_sgemm_128x64_nn", c, out,
                 {reads(self, "self"), reads(mat2, "mat2")}, [a = HostView(self), b = HostView(mat2), tf32](const Tensor& o) {
                   if (tf32) mm_into_cpu(o, round_to_tf32(a.tensor()), round_to_tf32(b.tensor()));
                   else mm_into_cpu(o, a.tensor(), b.tensor());
                 });
  return out;
}

}  // namespace ipt::native

namespace ipt::sim {
void forget_blas_setup() { native::g_blas_ready = false; }
}  // namespace ipt::sim
