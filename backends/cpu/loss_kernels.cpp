// CPU kernels of the losses PyTorch 2.15 computes with kernels of its own (binary_cross_entropy
// and its backward, smooth_l1_loss, huber_loss and their backward, log_sigmoid and its backward,
// xlogy), with 2.15's arithmetic: the element-wise loss in the input's type, then the reduction
// by the mean or sum operators (apply_loss_reduction); the losses composed of operators are in
// core/ops/loss_composite_kernels.cpp.
#include <algorithm>
#include <cmath>

#include "backends/cpu/activation_vec.h"
#include "backends/cpu/pointwise_loops.h"
#include "backends/cpu/vml.h"
#include "core/ops/shape_rules.h"
#include "core/ops/tensor_iterator.h"
#include "core/parallel/parallel.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

constexpr double kBceEpsilon = 1e-12;

// reduction: 0 none, 1 mean, 2 sum (at::Reduction).
Tensor reduce_loss(const Tensor& loss, int64_t reduction) {
  if (reduction == 1) return ops::mean(loss);
  if (reduction == 2) return ops::sum(loss);
  return loss;
}

template <typename Op>
void ternary_kernel(const Tensor& out, const Tensor& a, const Tensor& b, const Tensor& c, ScalarType dt, Op op) {
  cpu::with_computation(out, {a, b, c}, dt, [&](const TensorIterator& iter) {
    visit_dtype(dt, [&]<typename T>() { cpu::cpu_kernel<T, 3>(iter, op); });
  });
}

void check_floating_loss(const Tensor& self, const char* name) {
  IPT_CHECK(is_floating(self.dtype()), NotImplementedError, "\"", name, "\" not implemented for '",
            dtype_cpp_name(self.dtype()), "'");
}

}  // namespace

// -w (y log(x) + (1 - y) log(1 - x)), each log clamped at -100.
Tensor binary_cross_entropy_cpu(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                                int64_t reduction) {
  check_floating_loss(self, "binary_cross_entropy");
  Tensor loss = make_empty(self.sizes(), self.dtype(), self.device());
  binary_into(loss, self, target, self.dtype(), [](auto x, auto y) {
    using T = decltype(x);
    if constexpr (!std::is_floating_point_v<T> && !is_reduced_float_v<T>) {
      return x;  // not reached: the input is floating (checked above)
    } else {
      using M = opmath_t<T>;
      const M in = x, t = y;
      IPT_CHECK(in >= 0 && in <= 1, RuntimeError, "all elements of input should be between 0 and 1");
      IPT_CHECK(t >= 0 && t <= 1, RuntimeError, "all elements of target should be between 0 and 1");
      return static_cast<T>((t - M(1)) * std::max(M(std::log1p(-in)), M(-100)) -
                            t * std::max(M(std::log(in)), M(-100)));
    }
  });
  if (weight && weight->defined()) ops::mul__Tensor(loss, *weight);
  return reduce_loss(loss, reduction);
}

// grad * (x - y) / max((1 - x) x, 1e-12), times the weight, over the count for the mean.
Tensor binary_cross_entropy_backward_cpu(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                                         const std::optional<Tensor>& weight, int64_t reduction) {
  Tensor grad_input = make_empty(self.sizes(), self.dtype(), self.device());
  ternary_kernel(grad_input, grad_output, self, target, self.dtype(), [](auto g, auto x, auto y) {
    using T = decltype(x);
    using M = opmath_t<T>;
    return static_cast<T>(M(g) * (M(x) - M(y)) / std::max(static_cast<M>((M(1) - M(x)) * M(x)), M(kBceEpsilon)));
  });
  if (weight && weight->defined()) ops::mul__Tensor(grad_input, *weight);
  if (reduction == 1) ops::div__Scalar(grad_input, Scalar(self.numel()));
  return grad_input;
}

// |x - y| < beta ? 0.5 (x - y)^2 / beta : |x - y| - 0.5 beta (beta 0: the L1 loss).
Tensor smooth_l1_loss_cpu(const Tensor& self, const Tensor& target, int64_t reduction, double beta) {
  IPT_CHECK(beta >= 0, RuntimeError, "smooth_l1_loss does not support negative values for beta.");
  check_floating_loss(self, "smooth_l1_cpu");
  if (beta == 0.0) return ops::l1_loss(self, target, reduction);
  const ScalarType dt = result_type({&self, &target});
  const std::vector<int64_t> sizes = broadcast_shapes(self.sizes(), target.sizes());
  Tensor loss = make_empty(sizes, dt, self.device());
  binary_into(loss, self, target, dt, [beta](auto a, auto b) {
    using T = decltype(a);
    using M = opmath_t<T>;
    const M bv = static_cast<M>(beta);
    const M z = std::abs(M(a) - M(b));
    return static_cast<T>(z < bv ? M(0.5) * z * z / bv : z - M(0.5) * bv);
  });
  return reduce_loss(loss, reduction);
}

Tensor smooth_l1_loss_backward_cpu(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                                   int64_t reduction, double beta) {
  const ScalarType dt = result_type({&self, &target});
  const double norm = reduction == 1 ? 1.0 / static_cast<double>(self.numel()) : 1.0;
  Tensor grad_input = make_empty(broadcast_shapes(self.sizes(), target.sizes()), dt, self.device());
  ternary_kernel(grad_input, self, target, grad_output, dt, [beta, norm](auto a, auto b, auto g) {
    using T = decltype(a);
    using M = opmath_t<T>;
    const M x = M(a) - M(b), n = static_cast<M>(norm), bv = static_cast<M>(beta);
    if (x <= -bv) return static_cast<T>(-n * M(g));
    if (x >= bv) return static_cast<T>(n * M(g));
    return static_cast<T>(n * x * M(g) / bv);
  });
  return grad_input;
}

// |x - y| < delta ? 0.5 (x - y)^2 : delta (|x - y| - 0.5 delta).
Tensor huber_loss_cpu(const Tensor& self, const Tensor& target, int64_t reduction, double delta) {
  IPT_CHECK(delta > 0, RuntimeError, "huber_loss does not support non-positive values for delta.");
  check_floating_loss(self, "huber_cpu");
  const ScalarType dt = result_type({&self, &target});
  Tensor loss = make_empty(broadcast_shapes(self.sizes(), target.sizes()), dt, self.device());
  binary_into(loss, self, target, dt, [delta](auto a, auto b) {
    using T = decltype(a);
    using M = opmath_t<T>;
    const M d = static_cast<M>(delta), z = std::abs(M(a) - M(b));
    return static_cast<T>(z < d ? M(0.5) * z * z : d * (z - M(0.5) * d));
  });
  return reduce_loss(loss, reduction);
}

Tensor huber_loss_backward_cpu(const Tensor& grad_output, const Tensor& self, const Tensor& target, int64_t reduction,
                               double delta) {
  const ScalarType dt = result_type({&self, &target});
  const double norm = reduction == 1 ? 1.0 / static_cast<double>(self.numel()) : 1.0;
  Tensor grad_input = make_empty(broadcast_shapes(self.sizes(), target.sizes()), dt, self.device());
  ternary_kernel(grad_input, self, target, grad_output, dt, [delta, norm](auto a, auto b, auto g) {
    using T = decltype(a);
    using M = opmath_t<T>;
    const M x = M(a) - M(b), n = static_cast<M>(norm), d = static_cast<M>(delta);
    if (x <= -d) return static_cast<T>(-n * M(g) * d);
    if (x >= d) return static_cast<T>(n * M(g) * d);
    return static_cast<T>(n * x * M(g));
  });
  return grad_input;
}

// log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|)); the buffer keeps exp(-|x|) for the backward.
// 2.15 computes every element with SLEEF's vector exp and log1p: here a vector at a time
// (log_sigmoid_vectors) where the CPU has AVX2, and the rest one element at a time through the
// same functions.
namespace {
template <typename T>
IPT_VEC_LANES int64_t log_sigmoid_vectors(const T* in, T* out, T* buffer, int64_t n) {
  using V = activation::VecOf<T>;
  int64_t i = 0;
  for (; i + V::kSize <= n; i += V::kSize) {
    const V v = V::load(in + i);
    const V e = activation::sleef_exp(-vabs(v));
    e.store(buffer + i);
    (select(V(0) < v, V(0), v) - activation::sleef_log1p(e)).store(out + i);  // std::min(v, 0)
  }
  return i;
}
}  // namespace

std::tuple<Tensor, Tensor> log_sigmoid_forward_cpu(const Tensor& self) {
  check_floating_loss(self, "log_sigmoid_cpu");
  const Tensor x = ops::contiguous(self, MemoryFormat::Contiguous);
  Tensor out = make_empty(self.sizes(), self.dtype(), self.device());
  Tensor buffer = make_empty(self.sizes(), self.dtype(), self.device());
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (std::is_floating_point_v<T> || is_reduced_float_v<T>) {
      using M = opmath_t<T>;
      const T* in = x.data_ptr<T>();
      T* o = out.data_ptr<T>();
      T* b = buffer.data_ptr<T>();
      parallel_for(0, x.numel(), TensorIterator::kDefaultGrain, [&](int64_t begin, int64_t end) {
        int64_t i = begin;
        if constexpr (std::is_floating_point_v<T>)
          if (cpu::has_avx2()) i += log_sigmoid_vectors(in + begin, o + begin, b + begin, end - begin);
        for (; i < end; ++i) {
          const M v = in[i];
          const M e = cpu::vml::exp(-std::abs(v));
          b[i] = static_cast<T>(e);
          o[i] = static_cast<T>(std::min(v, M(0)) - cpu::vml::log1p(e));
        }
      });
    }
  });
  return {out, buffer};
}

// (max_deriv - sign * buffer / (1 + buffer)) * grad: max_deriv 1 and sign 1 for x < 0, else 0
// and -1.
Tensor log_sigmoid_backward_cpu(const Tensor& grad_output, const Tensor& self, const Tensor& buffer) {
  Tensor grad_input = make_empty(self.sizes(), self.dtype(), self.device());
  ternary_kernel(grad_input, self, buffer, grad_output, self.dtype(), [](auto a, auto b, auto c) {
    using T = decltype(a);
    using M = opmath_t<T>;
    const bool negative = M(a) < M(0);
    const M max_deriv = negative ? M(1) : M(0), sign = negative ? M(1) : M(-1);
    return static_cast<T>((max_deriv - sign * (M(b) / (M(1) + M(b)))) * M(c));
  });
  return grad_input;
}

// x log(y), 0 where x is 0 (NaN where y is NaN).
void xlogy_out_cpu(const Tensor& self, const Tensor& other, const Tensor& out) {
  const ScalarType dt = binary_dtype(self, other, PromoteInts::ToFloat);
  binary_into(out, self, other, dt, [](auto x, auto y) {
    using T = decltype(x);
    using M = opmath_t<T>;
    if (std::isnan(static_cast<double>(y))) return static_cast<T>(NAN);
    if (M(x) == M(0)) return static_cast<T>(0);
    return static_cast<T>(M(x) * std::log(M(y)));
  });
}

}  // namespace ipt::native
