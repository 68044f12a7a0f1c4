// CPU kernels of cdist and pdist (_cdist_forward, _pdist_forward) and their backward kernels.
//
// Note [Distance kernels' bits]
// Both kernels reduce |a - b| over the features of each pair of rows, with p cast to the
// element type first; p = 0 counts the non-zero differences, p = 1 sums them, p = 2 sums their
// squares then takes the square root, p = inf takes the largest, and any other p sums d^p and
// takes the 1/p-th power in double. They differ in order, as 2.15's do:
// - cdist runs each pair as one scalar loop in feature order. For p = 2, 2.15's compiled loop
//   rounds each square before adding except on the last (cols % V) features (V = 4 floats or 2
//   doubles), where it adds with one fused multiply-add; d^p is libm's pow; p = inf skips NaN.
// - pdist runs each pair on Vectorized lanes (8 floats or 4 doubles): lane l takes features
//   l, l + L, ..., the last partial vector only its first lanes; then the lanes are added as
//   AVX2's horizontal tree adds floats, ((a0+a4)+(a2+a6))+((a1+a5)+(a3+a7)), or in order for
//   doubles. Rows narrower than L are folded left to right. d^p is SLEEF's pow, and p = inf
//   propagates NaN.
// The backward kernels sum, for each row, the gradient of every pair it is in, in pair order.
#include <cmath>

#include "backends/cpu/vml.h"
#include "core/ops/distance_rules.h"
#include "core/parallel/parallel.h"
#include "core/util/error.h"
#include "core/util/interrupt.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

enum class Norm { Zero, One, Two, Inf, General };

template <typename T>
Norm norm_of(T p) {
  if (p == T(0)) return Norm::Zero;
  if (p == T(1)) return Norm::One;
  if (p == T(2)) return Norm::Two;
  if (std::isinf(p)) return Norm::Inf;
  return Norm::General;
}

template <typename T>
T finish(T agg, Norm n, T p) {
  if (n == Norm::Two) return std::sqrt(agg);
  if (n == Norm::General) return static_cast<T>(std::pow(static_cast<double>(agg), 1.0 / static_cast<double>(p)));
  return agg;
}

template <typename T>
T cdist_pair(const T* a, const T* b, int64_t m, Norm n, T p) {
  constexpr int64_t V = std::is_same_v<T, float> ? 4 : 2;
  T agg = 0;
  switch (n) {
    case Norm::Zero:
      for (int64_t x = 0; x < m; ++x) {
        const T d = std::abs(a[x] - b[x]);
        agg += std::isnan(d) ? d : std::min(std::ceil(d), T(1));
      }
      break;
    case Norm::One:
      for (int64_t x = 0; x < m; ++x) agg += std::abs(a[x] - b[x]);
      break;
    case Norm::Two: {
      const int64_t body = m - m % V;
      for (int64_t x = 0; x < body; ++x) {
        const T d = std::abs(a[x] - b[x]);
        const T sq = d * d;
        agg += sq;
      }
      for (int64_t x = body; x < m; ++x) {
        const T d = std::abs(a[x] - b[x]);
        agg = std::fma(d, d, agg);
      }
      break;
    }
    case Norm::Inf:
      for (int64_t x = 0; x < m; ++x) {
        const T d = std::abs(a[x] - b[x]);
        agg = agg < d ? d : agg;
      }
      break;
    case Norm::General:
      for (int64_t x = 0; x < m; ++x) agg += std::pow(std::abs(a[x] - b[x]), p);
      break;
  }
  return finish(agg, n, p);
}

template <typename T>
T sleef_pow(T x, T y) {
  return cpu::has_avx2() ? cpu::sleef_avx2::pow(x, y) : std::pow(x, y);
}

// pdist's map and reduce on one lane.
template <typename T>
T lane_map(T d, Norm n, T p) {
  switch (n) {
    case Norm::Zero: return std::isnan(d) ? d : std::min(std::ceil(d), T(1));
    case Norm::Two: return d * d;
    case Norm::General: return sleef_pow(d, p);
    default: return d;
  }
}
template <typename T>
T lane_reduce(T x, T y, Norm n) {
  if (n == Norm::Inf) return std::isnan(x) || std::isnan(y) ? std::numeric_limits<T>::quiet_NaN() : std::max(x, y);
  return x + y;
}

template <typename T>
T pdist_pair(const T* a, const T* b, int64_t m, Norm n, T p) {
  constexpr int64_t L = std::is_same_v<T, float> ? 8 : 4;
  auto mapped = [&](int64_t x) { return lane_map(std::abs(a[x] - b[x]), n, p); };
  if (m < L) {
    T r = mapped(0);
    for (int64_t x = 1; x < m; ++x) r = lane_reduce(r, mapped(x), n);
    return finish(r, n, p);
  }
  T acc[L];
  for (int64_t l = 0; l < L; ++l) acc[l] = mapped(l);
  int64_t d = L;
  for (; d + L <= m; d += L)
    for (int64_t l = 0; l < L; ++l) acc[l] = lane_reduce(acc[l], mapped(d + l), n);
  for (int64_t l = 0; d + l < m; ++l) acc[l] = lane_reduce(acc[l], mapped(d + l), n);
  T r;
  if constexpr (L == 8) {
    T s[4];
    for (int l = 0; l < 4; ++l) s[l] = lane_reduce(acc[l], acc[l + 4], n);
    r = lane_reduce(lane_reduce(s[0], s[2], n), lane_reduce(s[1], s[3], n), n);
  } else {
    r = acc[0];
    for (int64_t l = 1; l < L; ++l) r = lane_reduce(r, acc[l], n);
  }
  return finish(r, n, p);
}

// d/da of the pair's distance times its gradient g, for one feature's difference.
template <typename T>
T pair_grad(T diff, T g, T dist, Norm n, T p) {
  const T sign = diff > 0 ? T(1) : (diff < 0 ? T(-1) : T(0));
  switch (n) {
    case Norm::Zero: return T(0);
    case Norm::One: return g * sign;
    case Norm::Two: return dist == T(0) ? T(0) : g * diff / dist;
    case Norm::Inf: return g * sign * (std::abs(diff) == dist ? T(1) : T(0));
    case Norm::General:
      if (dist == T(0) || (diff == T(0) && p < T(1))) return T(0);
      if (p < T(2)) return sign * std::pow(std::abs(diff), p - 1) * g / std::pow(dist, p - 1);
      return diff * std::pow(std::abs(diff), p - 2) * g / std::pow(dist, p - 1);
  }
  return T(0);
}

void check_kernel_dtype(const Tensor& t, const char* name) {
  IPT_CHECK(t.dtype() == ScalarType::Float || t.dtype() == ScalarType::Double, NotImplementedError, "\"", name,
            "\" not implemented for '", dtype_cpp_name(t.dtype()), "'");
}

}  // namespace

Tensor _cdist_forward_cpu(const Tensor& x1, const Tensor& x2, double p, std::optional<int64_t> compute_mode) {
  check_cdist(x1, x2, p, compute_mode);
  const CdistPlan plan = cdist_plan(x1, x2);
  if (plan.r1 == 0 || plan.r2 == 0 || plan.batch == 0) return make_empty(plan.out_sizes, x1.dtype(), x1.device());
  if (plan.cols == 0) return ops::zeros(plan.out_sizes, x1.dtype(), std::nullopt, x1.device());
  check_kernel_dtype(x1, "cdist");
  IPT_CHECK(x1.dtype() == x2.dtype(), RuntimeError, "expected scalar type ", dtype_cpp_name(x1.dtype()), " but found ",
            dtype_cpp_name(x2.dtype()));
  Tensor out = make_empty(plan.out_sizes, x1.dtype(), x1.device());
  visit_dtype(x1.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T pt = static_cast<T>(p);
      const Norm n = norm_of(pt);
      const T* a = plan.x1.data_ptr<T>();
      const T* b = plan.x2.data_ptr<T>();
      T* y = out.data_ptr<T>();
      const int64_t pairs = plan.batch * plan.r1 * plan.r2, m = plan.cols;
      parallel_for(0, pairs, std::max<int64_t>(1, 32768 / std::max<int64_t>(m, 1)), [&](int64_t first, int64_t last) {
        check_interrupt();
        for (int64_t k = first; k < last; ++k) {
          const int64_t bi = k / (plan.r1 * plan.r2), i = (k / plan.r2) % plan.r1, j = k % plan.r2;
          y[k] = cdist_pair(a + (bi * plan.r1 + i) * m, b + (bi * plan.r2 + j) * m, m, n, pt);
        }
      });
    }
  });
  return out;
}

Tensor _cdist_backward_cpu(const Tensor& grad, const Tensor& x1, const Tensor& x2, double p, const Tensor& cdist) {
  check_cdist(x1, x2, p, std::nullopt);
  const CdistPlan plan = cdist_plan(x1, x2);
  std::vector<int64_t> sizes(plan.out_sizes.begin(), plan.out_sizes.end() - 2);
  sizes.push_back(plan.r1);
  sizes.push_back(plan.cols);
  if (plan.r1 == 0 || plan.r2 == 0 || plan.cols == 0 || plan.batch == 0) return ops::zeros_like(x1);
  const int64_t pairs = plan.batch * plan.r1 * plan.r2;
  IPT_CHECK(grad.numel() == pairs && cdist.numel() == pairs && grad.dtype() == x1.dtype() &&
                cdist.dtype() == x1.dtype() && x2.dtype() == x1.dtype(),
            RuntimeError, "_cdist_backward: grad and cdist must hold the ", pairs,
            " distances of x1 and x2, in their dtype");
  Tensor out = ops::zeros(sizes, x1.dtype(), std::nullopt, x1.device());
  const Tensor g = ops::contiguous(grad, MemoryFormat::Contiguous),
               d = ops::contiguous(cdist, MemoryFormat::Contiguous);
  visit_dtype(x1.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T pt = static_cast<T>(p);
      const Norm n = norm_of(pt);
      const T *a = plan.x1.data_ptr<T>(), *b = plan.x2.data_ptr<T>(), *gp = g.data_ptr<T>(), *dp = d.data_ptr<T>();
      T* y = out.data_ptr<T>();
      const int64_t m = plan.cols;
      parallel_for(0, plan.batch * plan.r1, 1, [&](int64_t first, int64_t last) {
        for (int64_t row = first; row < last; ++row) {
          const int64_t bi = row / plan.r1;
          const T* ai = a + row * m;
          T* yi = y + row * m;
          for (int64_t j = 0; j < plan.r2; ++j) {
            const T* bj = b + (bi * plan.r2 + j) * m;
            const int64_t k = row * plan.r2 + j;
            for (int64_t x = 0; x < m; ++x) yi[x] += pair_grad(ai[x] - bj[x], gp[k], dp[k], n, pt);
          }
        }
      });
    }
  });
  return out;
}

Tensor _pdist_forward_cpu(const Tensor& self, double p) {
  IPT_CHECK(self.dim() == 2, RuntimeError, "pdist only supports 2D tensors, got: ", self.dim(), "D");
  IPT_CHECK(self.is_contiguous(), RuntimeError, "_pdist_forward requires contiguous input");
  check_kernel_dtype(self, "pdist");
  const int64_t rows = self.sizes()[0], m = self.sizes()[1];
  if (rows <= 1) return make_empty(std::vector<int64_t>{0}, self.dtype(), self.device());
  const int64_t pairs = rows * (rows - 1) / 2;
  if (m == 0) return ops::zeros(std::vector<int64_t>{pairs}, self.dtype(), std::nullopt, self.device());
  Tensor out = make_empty(std::vector<int64_t>{pairs}, self.dtype(), self.device());
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T pt = static_cast<T>(p);
      const Norm n = norm_of(pt);
      const T* x = self.data_ptr<T>();
      T* y = out.data_ptr<T>();
      parallel_for(0, rows, 1, [&](int64_t first, int64_t last) {
        check_interrupt();
        for (int64_t i = first; i < last; ++i) {
          int64_t k = i * rows - i * (i + 1) / 2;  // the pair (i, i + 1)
          for (int64_t j = i + 1; j < rows; ++j, ++k) y[k] = pdist_pair(x + i * m, x + j * m, m, n, pt);
        }
      });
    }
  });
  return out;
}

Tensor _pdist_backward_cpu(const Tensor& grad, const Tensor& self, double p, const Tensor& pdist) {
  check_pdist(self, 0.0);
  const int64_t rows = self.sizes()[0], m = self.sizes()[1];
  Tensor out = ops::zeros_like(self);
  if (rows <= 1 || m == 0) return out;
  const int64_t pairs = rows * (rows - 1) / 2;
  IPT_CHECK(
      grad.numel() == pairs && pdist.numel() == pairs && grad.dtype() == self.dtype() && pdist.dtype() == self.dtype(),
      RuntimeError, "_pdist_backward: grad and pdist must hold the ", pairs, " distances of self's rows, in its dtype");
  const Tensor x = ops::contiguous(self, MemoryFormat::Contiguous);
  const Tensor g = ops::contiguous(grad, MemoryFormat::Contiguous),
               d = ops::contiguous(pdist, MemoryFormat::Contiguous);
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T pt = static_cast<T>(p);
      const Norm n = norm_of(pt);
      const T *xp = x.data_ptr<T>(), *gp = g.data_ptr<T>(), *dp = d.data_ptr<T>();
      T* y = out.data_ptr<T>();
      int64_t k = 0;
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = i + 1; j < rows; ++j, ++k)
          for (int64_t c = 0; c < m; ++c) {
            const T r = pair_grad(xp[i * m + c] - xp[j * m + c], gp[k], dp[k], n, pt);
            y[i * m + c] += r;
            y[j * m + c] -= r;
          }
    }
  });
  return out;
}

}  // namespace ipt::native
