// CPU comparisons and logical ops (eq ... ge, logical_and / or / xor / not, isnan, equal): bool
// results, computed in the operands' promoted dtype. Output geometry comes from
// core/ops/shape_rules.h (shared with Meta).
#include "backends/cpu/cpu_kernel.h"
#include "backends/cpu/into_kernels.h"
#include "backends/cpu/pointwise_loops.h"
#include "core/ops/out_rules.h"
#include "core/ops/scalar_tensor.h"
#include "core/ops/shape_rules.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

// ---- comparisons and logical ops: bool results ------------------------------------------------

namespace {
// a op b compared in the promoted dtype of a and b, written as bool.
template <typename Op>
Tensor compare_out(const Tensor& a, const Tensor& b, Op op) {
  PointwiseGeometry g = binary_geometry(a, b);
  Tensor out = make_empty_like_layout(g.sizes, ScalarType::Bool, a.device(), a.sizes() == g.sizes ? a : b);
  cpu::with_computation(
      out, {a, b}, g.compute_dtype,
      [&](const TensorIterator& iter) {
        visit_dtype(g.compute_dtype, [&]<typename T>() { cpu::cpu_kernel<T, 2, decltype(op), bool>(iter, op); });
      },
      ScalarType::Bool);
  return out;
}
template <typename Op>
Tensor bool_unary_out(const Tensor& a, Op op) {
  Tensor out = make_empty_like_layout(a.sizes(), ScalarType::Bool, a.device(), a);
  cpu::with_computation(
      out, {a}, a.dtype(),
      [&](const TensorIterator& iter) {
        visit_dtype(a.dtype(), [&]<typename T>() { cpu::cpu_kernel<T, 1, decltype(op), bool>(iter, op); });
      },
      ScalarType::Bool);
  return out;
}
}  // namespace

#define IPT_COMPARE(name, expr)                                                                  \
  Tensor name##_tensor_cpu(const Tensor& self, const Tensor& other) {                            \
    return compare_out(self, other, [](auto x, auto y) { return expr; });                        \
  }                                                                                              \
  Tensor name##_scalar_cpu(const Tensor& self, const Scalar& other) {                            \
    return compare_out(self, wrapped_scalar_tensor(other), [](auto x, auto y) { return expr; }); \
  }
IPT_COMPARE(eq, x == y)
IPT_COMPARE(ne, x != y)
IPT_COMPARE(lt, x < y)
IPT_COMPARE(le, x <= y)
IPT_COMPARE(gt, x > y)
IPT_COMPARE(ge, x >= y)
#undef IPT_COMPARE

// The logical ops compute in their inputs' common dtype and write 1 or 0 in out's dtype, whatever
// it is (logical_not_ writes into self). Their functional forms come here too.
namespace {
// A bool out (the usual one) is written directly, as the comparisons write theirs; any other
// dtype through a temporary of the inputs' dtype.
template <typename Op>
Tensor logical_binary_out(const Tensor& self, const Tensor& other, const Tensor& out, Op op) {
  PointwiseGeometry g = binary_geometry(self, other);
  resize_output_like(out, g.sizes, self.sizes() == g.sizes ? self : other);
  if (out.dtype() == ScalarType::Bool) {
    cpu::with_computation(
        out, {self, other}, g.compute_dtype,
        [&](const TensorIterator& iter) {
          visit_dtype(g.compute_dtype, [&]<typename T>() { cpu::cpu_kernel<T, 2, Op, bool>(iter, op); });
        },
        ScalarType::Bool);
    return out;
  }
  binary_into(out, self, other, g.compute_dtype, [&](auto x, auto y) { return static_cast<decltype(x)>(op(x, y)); });
  return out;
}
}  // namespace
Tensor logical_and_out_cpu(const Tensor& self, const Tensor& other, const Tensor& out) {
  return logical_binary_out(self, other, out,
                            [](auto x, auto y) { return x != decltype(x)(0) && y != decltype(y)(0); });
}
Tensor logical_or_out_cpu(const Tensor& self, const Tensor& other, const Tensor& out) {
  return logical_binary_out(self, other, out,
                            [](auto x, auto y) { return x != decltype(x)(0) || y != decltype(y)(0); });
}
Tensor logical_xor_out_cpu(const Tensor& self, const Tensor& other, const Tensor& out) {
  return logical_binary_out(self, other, out,
                            [](auto x, auto y) { return (x != decltype(x)(0)) != (y != decltype(y)(0)); });
}
Tensor logical_not_out_cpu(const Tensor& self, const Tensor& out) {
  resize_output_like(out, self.sizes(), self);
  unary_into(out, self, self.dtype(), [](auto x) { return static_cast<decltype(x)>(x == decltype(x)(0)); });
  return out;
}
Tensor isnan_cpu(const Tensor& self) {
  return bool_unary_out(self, [](auto x) { return x != x; });
}

// torch.equal: same sizes and equal values (compared after promotion, NaN != NaN).
bool equal_cpu(const Tensor& self, const Tensor& other) {
  if (self.sizes() != other.sizes()) return false;
  Tensor eq = eq_tensor_cpu(self, other);
  return all_cpu(eq).data_ptr<bool>()[0];
}

}  // namespace ipt::native
