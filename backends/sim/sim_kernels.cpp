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
#include "backends/sim/cpu_fallback.h"
#include "backends/sim/sim_kernel_helpers.h"
#include "backends/sim/sim_runtime.h"
#include "core/ops/norm_rules.h"
#include "core/ops/shape_rules.h"
#include "core/util/error.h"
#include "generated/native_functions.h"
#include "generated/ops.h"

namespace ipt::native {

using namespace sim_kernels;  // NOLINT: the kernels below are written with these helpers

Tensor empty_cuda(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout>, std::optional<Device>,
                  std::optional<bool>, std::optional<MemoryFormat>) {
  return make_empty(size, dtype.value_or(ScalarType::Float), kCuda);
}

// tril_indices / triu_indices: the host computes the indices and copies them to the device.
Tensor tril_indices_cuda(int64_t row, int64_t col, int64_t offset, std::optional<ScalarType> dtype,
                         std::optional<Layout> layout, std::optional<Device>, std::optional<bool> pin_memory) {
  return sim_fallback::to_device(tril_indices_cpu(row, col, offset, dtype, layout, std::nullopt, pin_memory));
}
Tensor triu_indices_cuda(int64_t row, int64_t col, int64_t offset, std::optional<ScalarType> dtype,
                         std::optional<Layout> layout, std::optional<Device>, std::optional<bool> pin_memory) {
  return sim_fallback::to_device(triu_indices_cpu(row, col, offset, dtype, layout, std::nullopt, pin_memory));
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

// torch.equal (2.15's cuda_equal): different sizes are unequal, an empty pair or the same view of
// one storage equal; otherwise eq(self, other).all(), whose value the host reads (so it waits).
bool equal_cuda(const Tensor& self, const Tensor& other) {
  IPT_CHECK(self.device() == other.device(), RuntimeError,
            "Cannot compare two tensors on different devices. Got: ", self.device().str(), " and ",
            other.device().str());
  if (self.sizes() != other.sizes()) return false;
  if (self.numel() == 0) return true;
  if (self.storage().get() == other.storage().get() && self.storage_offset() == other.storage_offset() &&
      self.dtype() == other.dtype() && self.strides() == other.strides())
    return true;
  return ops::_local_scalar_dense(ops::all(ops::eq_Tensor(self, other))).to_bool();
}

// .item(): the value must reach the host, so the host waits for the stream.
Scalar _local_scalar_dense_cuda(const Tensor& self) {
  sim::synchronize_stream(sim::current_stream());
  return _local_scalar_dense_cpu(HostView(self).tensor());
}

// The structured impls (Note [Structured kernels] in core/ops/structured.h): the generated
// wrappers have run the meta function on the host and made `out` (self, in place), so the
// launch only queues the CPU's into kernel over device memory.
#define IPT_SIM_BINARY_OUT(op, ...)                                                                                  \
  void op##_out_cuda(const Tensor& self, const Tensor& other __VA_OPT__(, const Scalar& alpha), const Tensor& out) { \
    const bool in_place = out.is_same(self);                                                                         \
    std::vector<Access> acc = {reads(other, "other")};                                                               \
    if (!in_place) acc.insert(acc.begin(), reads(self, "self"));                                                     \
    launch_writing(                                                                                                  \
        in_place ? "vectorized_elementwise_kernel<" #op "_>" : "vectorized_elementwise_kernel<" #op ">",             \
        pointwise_cost(out, {&self, &other}), out, std::move(acc),                                                   \
        [a = HostView(self), b = HostView(other) __VA_OPT__(, alpha)](const Tensor& o) {                             \
          op##_into_cpu(o, a.tensor(), b.tensor() __VA_OPT__(, alpha));                                              \
        },                                                                                                           \
        in_place ? "self" : "out");                                                                                  \
  }
IPT_SIM_BINARY_OUT(add, alpha)
IPT_SIM_BINARY_OUT(sub, alpha)
IPT_SIM_BINARY_OUT(mul)
IPT_SIM_BINARY_OUT(div)
IPT_SIM_BINARY_OUT(maximum)
IPT_SIM_BINARY_OUT(minimum)
IPT_SIM_BINARY_OUT(atan2)
IPT_SIM_BINARY_OUT(fmod)
IPT_SIM_BINARY_OUT(bitwise_and)
IPT_SIM_BINARY_OUT(bitwise_or)
IPT_SIM_BINARY_OUT(bitwise_xor)
IPT_SIM_BINARY_OUT(bitwise_left_shift)
IPT_SIM_BINARY_OUT(bitwise_right_shift)
#undef IPT_SIM_BINARY_OUT

Tensor relu_cuda(const Tensor& self) {
  Tensor out = output_like(unary_meta(self), self);
  launch_writing("vectorized_elementwise_kernel<relu>", pointwise_cost(out, {&self}), out, {reads(self, "self")},
                 [a = HostView(self)](const Tensor& o) { relu_into_cpu(o, a.tensor()); });
  return out;
}

// Unary pointwise ops: structured impls, as the binary ones.
#define IPT_SIM_UNARY_OUT(op)                                                                                \
  void op##_out_cuda(const Tensor& self, const Tensor& out) {                                                \
    const bool in_place = out.is_same(self);                                                                 \
    launch_writing(                                                                                          \
        in_place ? "vectorized_elementwise_kernel<" #op "_>" : "vectorized_elementwise_kernel<" #op ">",     \
        pointwise_cost(out, {&self}), out,                                                                   \
        in_place ? std::vector<Access>{} : std::vector<Access>{reads(self, "self")},                         \
        [a = HostView(self)](const Tensor& o) { op##_into_cpu(o, a.tensor()); }, in_place ? "self" : "out"); \
  }
IPT_SIM_UNARY_OUT(neg)
IPT_SIM_UNARY_OUT(exp)
IPT_SIM_UNARY_OUT(log)
IPT_SIM_UNARY_OUT(sqrt)
IPT_SIM_UNARY_OUT(sin)
IPT_SIM_UNARY_OUT(cos)
IPT_SIM_UNARY_OUT(tanh)
IPT_SIM_UNARY_OUT(sigmoid)
IPT_SIM_UNARY_OUT(asin)
IPT_SIM_UNARY_OUT(acos)
IPT_SIM_UNARY_OUT(atan)
IPT_SIM_UNARY_OUT(sinh)
IPT_SIM_UNARY_OUT(cosh)
IPT_SIM_UNARY_OUT(asinh)
IPT_SIM_UNARY_OUT(acosh)
IPT_SIM_UNARY_OUT(atanh)
IPT_SIM_UNARY_OUT(log2)
IPT_SIM_UNARY_OUT(log10)
IPT_SIM_UNARY_OUT(log1p)
IPT_SIM_UNARY_OUT(expm1)
IPT_SIM_UNARY_OUT(erf)
IPT_SIM_UNARY_OUT(round)
IPT_SIM_UNARY_OUT(trunc)
IPT_SIM_UNARY_OUT(bitwise_not)
IPT_SIM_UNARY_OUT(signbit)
#undef IPT_SIM_UNARY_OUT

Tensor sum_dim_cuda(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype) {
  Tensor meta = reduce_meta(self, dim, keepdim, dtype);
  Tensor out = make_empty(meta.sizes(), meta.dtype(), kCuda);
  KernelCost c;
  c.flops = static_cast<double>(self.numel());
  c.bytes = bytes_of(self) + bytes_of(out);
  std::optional<std::vector<int64_t>> dims;
  if (dim) dims.emplace(dim->begin(), dim->end());
  launch_writing("reduce_kernel<sum>", c, out, {reads(self, "self")},
                 [a = HostView(self), dims, keepdim, dtype](const Tensor& o) {
                   copy_cpu_(o,
                             dims ? sum_dim_cpu(a.tensor(), IntArrayRef(*dims), keepdim, dtype)
                                  : sum_dim_cpu(a.tensor(), std::nullopt, keepdim, dtype),
                             false);
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

void mm_out_cuda(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  check_same_device({&self, &mat2});
  if (!g_blas_ready.exchange(true)) {
    sim::gpu().host_call("cublasCreate_v2", sim::gpu().spec().blas_init_ns);
  }
  KernelCost c;
  c.flops =
      2.0 * static_cast<double>(self.size(0)) * static_cast<double>(self.size(1)) * static_cast<double>(mat2.size(1));
  c.bytes = bytes_of(self) + bytes_of(mat2) + bytes_of(out);
  const bool tf32 = self.dtype() == ScalarType::Float && sim::allow_tf32();
  if (tf32) c.math = sim::MathMode::TF32;
  if (self.dtype() == ScalarType::BFloat16 || self.dtype() == ScalarType::Half) c.math = sim::MathMode::BF16;
  launch_writing(tf32 ? "ampere_tf32_s1688gemm_128x128" : "ampere_sgemm_128x64_nn", c, out,
                 {reads(self, "self"), reads(mat2, "mat2")},
                 [a = HostView(self), b = HostView(mat2), tf32](const Tensor& o) {
                   const Tensor x = tf32 ? round_to_tf32(a.tensor()) : a.tensor();
                   const Tensor y = tf32 ? round_to_tf32(b.tensor()) : b.tensor();
                   if (o.is_contiguous()) {
                     mm_into_cpu(o, x, y);
                     return;
                   }
                   Tensor product = make_empty(o.sizes(), o.dtype(), Device(DeviceType::CPU));  // BLAS writes dense
                   mm_into_cpu(product, x, y);
                   copy_cpu_(o, product, false);
                 });
}

}  // namespace ipt::native

namespace ipt::sim {
void forget_blas_setup() { native::g_blas_ready = false; }
}  // namespace ipt::sim
