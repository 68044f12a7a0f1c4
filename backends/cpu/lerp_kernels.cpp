// torch.lerp: self + weight * (end - self), as PyTorch's CPU kernel computes it.
//
// Note [lerp's two forms and its fused multiply-add]
// PyTorch evaluates lerp in one of two algebraically equal forms, picked per element by the
// weight: for |weight| < 0.5, self + weight * (end - self); otherwise
// end - (end - self) * (1 - weight), which stays exact at weight == 1. Its vectorized loop (and,
// in the AVX2 build, the scalar tail too) computes each as one fused multiply-add,
// fma(weight, end - self, self) or fma(weight - 1, end - self, end): one rounding, not two. The
// results differ from the unfused form in the last bit for about one element in five, and
// torch.optim.Adam's moving average (exp_avg.lerp_(grad, 1 - beta1)) carries that difference
// into every step. std::fma gives the single rounding on every CPU. Half and BFloat16 compute
// in float (opmath) and round once at the end.
#include <cmath>

#include "backends/cpu/cpu_kernel.h"
#include "backends/cpu/cpu_loops.h"
#include "core/ops/shape_rules.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

template <typename T>
T lerp_value(T self, T end, T weight) {
  const T diff = end - self;
  return std::abs(weight) < T(0.5) ? std::fma(weight, diff, self) : std::fma(weight - T(1), diff, end);
}

void check_lerp_dtypes(const Tensor& self, const Tensor& end, const Tensor* weight) {
  IPT_CHECK(self.dtype() == end.dtype(), RuntimeError, "expected dtype ", dtype_element_name(self.dtype()),
            " for `end` but got dtype ", dtype_element_name(end.dtype()));
  if (weight)
    IPT_CHECK(self.dtype() == weight->dtype(), RuntimeError, "expected dtype ", dtype_element_name(self.dtype()),
              " for `weight` but got dtype ", dtype_element_name(weight->dtype()));
}

// lerp with a number weight, first cast to the tensors' dtype, then to its opmath type O; which
// of lerp_value's two forms it takes is the same for every element (Small: |weight| < 0.5), so it
// is picked once and the loop vectorizes.
template <typename T, bool Small>
struct LerpScalarOp {
  using O = opmath_t<T>;
  O weight;
  static constexpr bool fused_multiply_add = true;
  T operator()(T self, T end) const {
    const O s = O(self), e = O(end), diff = e - s;
    if constexpr (Small) return static_cast<T>(std::fma(weight, diff, s));
    else return static_cast<T>(std::fma(weight - O(1), diff, e));
  }
};
// lerp with a weight tensor.
template <typename T>
struct LerpTensorOp {
  using O = opmath_t<T>;
  static constexpr bool fused_multiply_add = true;
  T operator()(T self, T end, T weight) const { return static_cast<T>(lerp_value<O>(O(self), O(end), O(weight))); }
};

// out[i] = lerp(self[i], end[i], weight) (weight a number) or lerp(self[i], end[i], weight[i]),
// on the pointwise engine.
void lerp_into(const Tensor& out, const Tensor& self, const Tensor& end, const Tensor* weight, const Scalar& w) {
  const ScalarType dt = out.dtype();
  IPT_CHECK(is_floating(dt), NotImplementedError, "\"lerp_kernel_", weight ? "tensor" : "scalar",
            "\" not implemented for '", dtype_cpp_name(dt), "'");
  visit_dtype(dt, [&]<typename T>() {
    if constexpr (is_float_v<T>) {
      using O = opmath_t<T>;
      if (weight) {
        cpu::with_computation(out, {self, end, *weight}, dt,
                              [&](const TensorIterator& iter) { cpu::cpu_kernel<T, 3>(iter, LerpTensorOp<T>{}); });
      } else {
        const O wv = static_cast<O>(static_cast<T>(w.to<O>()));
        cpu::with_computation(out, {self, end}, dt, [&](const TensorIterator& iter) {
          if (std::abs(wv) < O(0.5)) cpu::cpu_kernel<T, 2>(iter, LerpScalarOp<T, true>{wv});
          else cpu::cpu_kernel<T, 2>(iter, LerpScalarOp<T, false>{wv});
        });
      }
    }
  });
}

Tensor lerp_out_of_place(const Tensor& self, const Tensor& end, const Tensor* weight, const Scalar& w) {
  check_lerp_dtypes(self, end, weight);
  PointwiseGeometry g = weight ? ternary_geometry(self, end, *weight) : binary_geometry(self, end);
  Tensor out = make_empty_like_layout(g.sizes, self.dtype(), self.device(), self.sizes() == g.sizes ? self : end);
  lerp_into(out, self, end, weight, w);
  return out;
}

Tensor lerp_in_place(const Tensor& self, const Tensor& end, const Tensor* weight, const Scalar& w) {
  check_lerp_dtypes(self, end, weight);
  if (weight) inplace_ternary_geometry(self, end, *weight);
  else inplace_binary_geometry(self, end);
  lerp_into(self, self, end, weight, w);
  return self;
}

Scalar zero_dim_value(const Tensor& t) { return Scalar(cpu::load_as<double>(t.impl()->raw_data(), t.dtype(), 0)); }

}  // namespace

Tensor lerp_scalar_cpu(const Tensor& self, const Tensor& end, const Scalar& weight) {
  return lerp_out_of_place(self, end, nullptr, weight);
}
Tensor lerp_scalar_cpu_(const Tensor& self, const Tensor& end, const Scalar& weight) {
  return lerp_in_place(self, end, nullptr, weight);
}
// A 0-dim weight of another dtype takes no part in the dtype check: it is read as a number.
Tensor lerp_tensor_cpu(const Tensor& self, const Tensor& end, const Tensor& weight) {
  if (weight.dim() == 0 && weight.dtype() != self.dtype())
    return lerp_out_of_place(self, end, nullptr, zero_dim_value(weight));
  return lerp_out_of_place(self, end, &weight, Scalar(0.0));
}
Tensor lerp_tensor_cpu_(const Tensor& self, const Tensor& end, const Tensor& weight) {
  if (weight.dim() == 0 && weight.dtype() != self.dtype())
    return lerp_in_place(self, end, nullptr, zero_dim_value(weight));
  return lerp_in_place(self, end, &weight, Scalar(0.0));
}

}  // namespace ipt::native
