// CPU kernels of the smooth activations silu, mish, softplus and glu and their backward
// operators, computing what PyTorch 2.15 computes: a vector lambda over SLEEF on the whole
// chunks of each contiguous run, a scalar lambda over glibc elsewhere (Note [Activations' bits]
// in activation_kernels.cpp).
#include <cmath>

#include "backends/cpu/activation_loops.h"
#include "core/tensor/index_math.h"
#include "generated/native_functions.h"
#include "generated/ops.h"

namespace ipt::native {

namespace {

using namespace activation;

// ---- silu: x / (1 + exp(-x)) ------------------------------------------------------------------
struct Silu {
  static constexpr bool lanes = true;
  template <typename C, bool>
  IPT_VEC_LANES C vec(C x) const {
    return x / (C(1) + sleef_exp(-x));
  }
  template <typename C>
  C scalar(C x) const {
    return x / (C(1) + std::exp(-x));
  }
};
struct SiluBackward {  // (grad, self): dy * sigmoid * (1 + x * (1 - sigmoid)), the last multiply-add fused
  static constexpr bool lanes = true;
  template <typename C, bool>
  IPT_VEC_LANES C vec(C dy, C x) const {
    const C sigmoid = C(1) / (C(1) + sleef_exp(-x));
    return dy * sigmoid * fmadd(x, C(1) - sigmoid, C(1));
  }
  template <typename C>
  C scalar(C dy, C x) const {
    const C sigmoid = C(1) / (C(1) + std::exp(-x));
    return dy * sigmoid * std::fma(x, C(1) - sigmoid, C(1));
  }
};

// ---- mish: x * tanh(log1p(exp(x))) --------------------------------------------------------------
struct Mish {
  static constexpr bool lanes = true;
  template <typename C, bool>
  IPT_VEC_LANES C vec(C x) const {
    return x * sleef_tanh(sleef_log1p(sleef_exp(x)));
  }
  template <typename C>
  C scalar(C x) const {
    return x * std::tanh(std::log1p(std::exp(x)));
  }
};
struct MishBackward {  // (grad, self): dy * (t + x * sigmoid * (1 - t * t)), t = tanh(softplus(x))
  template <typename C>
  static C value(C dy, C x, C sigmoid, C t) {
    return dy * std::fma(x * sigmoid, std::fma(-t, t, C(1)), t);
  }
  static constexpr bool lanes = true;
  template <typename C, bool>
  IPT_VEC_LANES C vec(C dy, C x) const {
    const C sigmoid = C(1) / (C(1) + sleef_exp(-x));
    const C t = sleef_tanh(sleef_log1p(sleef_exp(x)));
    return dy * fmadd(x * sigmoid, fmadd(-t, t, C(1)), t);
  }
  template <typename C>
  C scalar(C dy, C x) const {
    const C sigmoid = C(1) / (C(1) + std::exp(-x));
    return value(dy, x, sigmoid, std::tanh(std::log1p(std::exp(x))));
  }
};

// ---- softplus: x where x * beta > threshold, else log1p(exp(x * beta)) / beta -------------------
struct Softplus {
  double beta, threshold;
  static constexpr bool lanes = true;
  template <typename C, bool>
  IPT_VEC_LANES C vec(C x) const {
    const C b = C(beta);
    return select(x * b > C(threshold), x, sleef_log1p(sleef_exp(x * b)) / b);
  }
  template <typename C>
  C scalar(C x) const {
    const C b = C(beta);
    return x * b > C(threshold) ? x : std::log1p(std::exp(x * b)) / b;
  }
};
struct SoftplusBackward {  // (grad, self): grad * z / (z + 1) with z = exp(x * beta)
  double beta, threshold;
  static constexpr bool lanes = true;
  template <typename C, bool>
  IPT_VEC_LANES C vec(C dy, C x) const {
    const C z = sleef_exp(x * C(beta));
    return select(x * C(beta) > C(threshold), dy, dy * z / (z + C(1)));
  }
  template <typename C>
  C scalar(C dy, C x) const {
    const C z = std::exp(x * C(beta));
    return x * C(beta) > C(threshold) ? dy : dy * z / (z + C(1));
  }
};

// ---- glu: a * sigmoid(b) of the two halves ------------------------------------------------------
struct Glu {  // (first half, second half)
  static constexpr bool lanes = true;
  template <typename C, bool>
  IPT_VEC_LANES C vec(C a, C b) const {
    return a * (C(1) / (C(1) + sleef_exp(-b)));
  }
  template <typename C>
  C scalar(C a, C b) const {
    return a * (C(1) / (C(1) + std::exp(-b)));
  }
};

// glu's halves along dim, with 2.15's checks.
std::pair<int64_t, int64_t> glu_halving(const Tensor& self, int64_t dim, const char* scalars_message) {
  IPT_CHECK(self.dim() > 0, RuntimeError, scalars_message);
  const int64_t d = wrap_dim(dim, self.dim());
  const int64_t n = self.sizes()[d];
  IPT_CHECK(n % 2 == 0, RuntimeError, "Halving dimension must be even, but dimension ", d, " is size ", n);
  return {d, n / 2};
}

}  // namespace

void silu_out_cpu(const Tensor& self, const Tensor& out) { activation_into(out, self, "silu_cpu", Silu{}); }
void silu_backward_out_cpu(const Tensor& grad_output, const Tensor& self, const Tensor& grad_input) {
  activation_backward_into(grad_input, grad_output, self, "silu_backward_cpu", SiluBackward{});
}

void mish_out_cpu(const Tensor& self, const Tensor& out) { activation_into(out, self, "mish_cpu", Mish{}); }
Tensor mish_backward_cpu(const Tensor& grad_output, const Tensor& self) {
  const PointwiseGeometry g = binary_geometry(grad_output, self);
  Tensor out = make_empty(g.sizes, g.out_dtype, self.device());
  activation_backward_into(out, grad_output, self, "mish_backward_cpu", MishBackward{});
  return out;
}

void softplus_out_cpu(const Tensor& self, const Scalar& beta, const Scalar& threshold, const Tensor& out) {
  activation_into(out, self, "softplus_cpu", Softplus{beta.to_double(), threshold.to_double()});
}
void softplus_backward_out_cpu(const Tensor& grad_output, const Tensor& self, const Scalar& beta,
                               const Scalar& threshold, const Tensor& grad_input) {
  activation_backward_into(grad_input, grad_output, self, "softplus_backward_cpu",
                           SoftplusBackward{beta.to_double(), threshold.to_double()});
}

void glu_out_cpu(const Tensor& self, int64_t dim, const Tensor& out) {
  const auto [d, half] = glu_halving(self, dim, "glu does not support scalars because halving size must be even");
  activation_backward_into(out, ops::narrow(self, d, 0, half), ops::narrow(self, d, half, half), "glu_cpu", Glu{});
}

// As 2.15's glu_backward_cpu_out: the first half of grad_input is sigmoid(b) * grad, the second
// (1 - sigmoid(b)) * sigmoid(b) * a * grad, for self's halves a and b.
Tensor glu_backward_cpu(const Tensor& grad_output, const Tensor& self, int64_t dim) {
  const auto [d, half] = glu_halving(self, dim, "glu does not support 0-dimensional tensors");
  Tensor grad_input = make_empty(self.sizes(), self.dtype(), self.device());
  const Tensor first = ops::narrow(self, d, 0, half);
  const Tensor second = ops::narrow(self, d, half, half);
  const Tensor grad_first = ops::narrow(grad_input, d, 0, half);
  const Tensor grad_second = ops::narrow(grad_input, d, half, half);
  ops::sigmoid_out(second, grad_first);
  const ScalarType dt = self.dtype();
  IPT_CHECK(is_floating(dt), NotImplementedError, "\"glu_backward_cpu\" not implemented for '", dtype_cpp_name(dt),
            "'");
  cpu::with_computation(grad_second, {grad_first, first, grad_output}, dt, [&](const TensorIterator& iter) {
    visit_dtype(dt, [&]<typename T>() {
      if constexpr (is_float_v<T>) {
        using C = Compute<T>;
        cpu::cpu_kernel<T, 3>(iter, [](T s, T a, T g) { return static_cast<T>((C(1) - C(s)) * C(s) * C(a) * C(g)); });
      }
    });
  });
  ops::mul__Tensor(grad_first, grad_output);
  return grad_input;
}

}  // namespace ipt::native
