// CPU layer norm and group norm, with PyTorch 2.15's arithmetic (Note [Layer norm's bits] in
// layer_norm_impl.h): rows on the thread team, each row's statistics and outputs on one thread.
// float16 and bfloat16 compute in float and round the results (PyTorch's mixed-type kernels
// keep float statistics too; their bits are not matched here).
#include <tuple>

#include "backends/cpu/copy_kernels.h"
#include "backends/cpu/layer_norm_avx2.h"
#include "backends/cpu/layer_norm_impl.h"
#include "backends/cpu/vml.h"
#include "backends/cpu/reduction_rows.h"
#include "core/ops/norm_rules.h"
#include "core/parallel/parallel.h"
#include "core/util/error.h"
#include "core/util/interrupt.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

namespace lnm = layer_norm_math;

// The rows on AVX2 and FMA where the CPU has them (one instruction a fused multiply-add), else
// the portable build of the same operations (layer_norm_impl.h).
template <typename T>
void moments(const T* x, int64_t N, T& mean, T& var) {
  if (cpu::has_avx2()) layer_norm_avx2::moments(x, N, mean, var);
  else lnm::rowwise_moments(x, N, mean, var);
}
template <typename T>
void forward_row(const T* x, T* y, int64_t N, T mean, T rstd, const T* gamma, const T* beta) {
  if (cpu::has_avx2()) layer_norm_avx2::forward_row(x, y, N, mean, rstd, gamma, beta);
  else lnm::layer_norm_row(x, y, N, mean, rstd, gamma, beta);
}
template <typename T>
void backward_row(const T* dy, const T* x, T mean, T a, const T* gamma, T* dx, T* gpart, T* bpart, int64_t N) {
  if (cpu::has_avx2()) layer_norm_avx2::backward_row(dy, x, mean, a, gamma, dx, gpart, bpart, N);
  else lnm::layer_norm_backward_row(dy, x, mean, a, gamma, dx, gpart, bpart, N);
}

// t in the dtype the kernels compute in: float or double (a copy for float16 / bfloat16).
Tensor computed(const Tensor& t, ScalarType dt) {
  if (t.dtype() == dt) return contiguous_data(t);
  Tensor out = make_empty(t.sizes(), dt, t.device());
  return copy_cpu_(out, t, false);
}

Tensor as_dtype(const Tensor& t, ScalarType dt) {
  if (t.dtype() == dt) return t;
  Tensor out = make_empty(t.sizes(), dt, t.device());
  return copy_cpu_(out, t, false);
}

ScalarType compute_dtype(const Tensor& input) {
  IPT_CHECK(is_floating(input.dtype()), RuntimeError, "\"LayerNormKernelImpl\" not implemented for '",
            dtype_cpp_name(input.dtype()), "'");
  return input.dtype() == ScalarType::Double ? ScalarType::Double : ScalarType::Float;
}

std::optional<Tensor> computed_opt(const std::optional<Tensor>& t, ScalarType dt) {
  if (!t || !t->defined()) return std::nullopt;
  return computed(*t, dt);
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> layer_norm_cpu(const Tensor& input, IntArrayRef normalized_shape,
                                                  const std::optional<Tensor>& weight,
                                                  const std::optional<Tensor>& bias, double eps) {
  const LayerNormGeometry geo = check_layer_norm(input, normalized_shape, weight, bias);
  const ScalarType dt = compute_dtype(input);
  const Tensor x = computed(input, dt);
  const std::optional<Tensor> w = computed_opt(weight, dt), b = computed_opt(bias, dt);
  Tensor y = make_empty(input.sizes(), dt, input.device());
  Tensor mean = make_empty(geo.stat_sizes, dt, input.device()), rstd = make_empty(geo.stat_sizes, dt, input.device());
  if (geo.M > 0 && geo.N > 0) {
    visit_dtype(dt, [&]<typename T>() {
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        const T* xp = x.data_ptr<T>();
        T *yp = y.data_ptr<T>(), *mp = mean.data_ptr<T>(), *rp = rstd.data_ptr<T>();
        const T* gp = w ? w->data_ptr<T>() : nullptr;
        const T* bp = b ? b->data_ptr<T>() : nullptr;
        const T e = static_cast<T>(eps);
        parallel_for(0, geo.M, 1, [&](int64_t r0, int64_t r1) {
          for (int64_t r = r0; r < r1; ++r) {
            if ((r & 0xff) == 0) check_interrupt();
            T mu, var;
            moments(xp + r * geo.N, geo.N, mu, var);
            const T rs = T(1) / std::sqrt(var + e);
            forward_row(xp + r * geo.N, yp + r * geo.N, geo.N, mu, rs, gp, bp);
            mp[r] = mu;
            rp[r] = rs;
          }
        });
      }
    });
  }
  return {as_dtype(y, input.dtype()), as_dtype(mean, input.dtype()), as_dtype(rstd, input.dtype())};
}

std::tuple<Tensor, Tensor, Tensor> layer_norm_backward_cpu(const Tensor& grad_out, const Tensor& input,
                                                           IntArrayRef normalized_shape, const Tensor& mean,
                                                           const Tensor& rstd, const std::optional<Tensor>& weight,
                                                           const std::optional<Tensor>& bias,
                                                           std::array<bool, 3> output_mask) {
  const LayerNormGeometry geo = check_layer_norm(input, normalized_shape, weight, bias);
  const ScalarType dt = compute_dtype(input);
  const Tensor dy = computed(grad_out, dt), x = computed(input, dt), mu = computed(mean, dt), rs = computed(rstd, dt);
  const std::optional<Tensor> w = computed_opt(weight, dt);
  Tensor dx, dgamma, dbeta;
  if (output_mask[0]) dx = make_empty(input.sizes(), dt, input.device());
  const std::vector<int64_t> param_sizes(normalized_shape.begin(), normalized_shape.end());
  if (output_mask[1]) dgamma = make_empty(param_sizes, dt, input.device());
  if (output_mask[2]) dbeta = make_empty(param_sizes, dt, input.device());
  visit_dtype(dt, [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const int64_t M = geo.M, N = geo.N;
      const int threads = get_num_threads();
      // Each thread's partial dgamma and dbeta (PyTorch's buffer of [2][threads][N]).
      std::vector<T> parts(static_cast<size_t>(2 * threads * N), T(0));
      const T* dyp = dy.data_ptr<T>();
      const T* xp = x.data_ptr<T>();
      const T* mp = mu.data_ptr<T>();
      const T* rp = rs.data_ptr<T>();
      const T* gp = w ? w->data_ptr<T>() : nullptr;
      T* dxp = dx.defined() ? dx.data_ptr<T>() : nullptr;
      const int64_t chunk = M == 0 ? 1 : (M + std::min<int64_t>(threads, M) - 1) / std::min<int64_t>(threads, M);
      if (M > 0 && N > 0)
        parallel_for(0, M, 1, [&](int64_t r0, int64_t r1) {
          const int64_t t = r0 / chunk;  // the thread that PyTorch's OpenMP loop gives this chunk
          T* gpart = dgamma.defined() ? parts.data() + t * N : nullptr;
          T* bpart = dbeta.defined() ? parts.data() + (threads + t) * N : nullptr;
          for (int64_t r = r0; r < r1; ++r) {
            if ((r & 0xff) == 0) check_interrupt();
            backward_row(dyp + r * N, xp + r * N, mp[r], rp[r], gp, dxp ? dxp + r * N : nullptr, gpart, bpart, N);
          }
        });
      for (int which = 0; which < 2; ++which) {
        Tensor& out = which == 0 ? dgamma : dbeta;
        if (!out.defined()) continue;
        T* op = out.data_ptr<T>();
        for (int64_t j = 0; j < N; ++j) {
          T s = T(0);
          for (int t = 0; t < threads; ++t) s = s + parts[static_cast<size_t>((which * threads + t) * N + j)];
          op[j] = s;
        }
      }
    }
  });
  return {dx.defined() ? as_dtype(dx, input.dtype()) : dx,
          dgamma.defined() && weight && weight->defined() ? as_dtype(dgamma, weight->dtype()) : dgamma,
          dbeta.defined() && bias && bias->defined() ? as_dtype(dbeta, bias->dtype()) : dbeta};
}

}  // namespace ipt::native

namespace ipt::native {

// Group norm forward with PyTorch 2.15's arithmetic (group_norm_kernel.cpp): each (sample,
// group) row's moments as layer norm's, rstd = 1 / sqrt(max(var, 0) + eps) in double, then per
// channel y = fma(s, x, fma(-s, mean, beta)) with s = rstd * gamma; (x - mean) * rstd without
// weight and bias.
std::tuple<Tensor, Tensor, Tensor> group_norm_cpu(const Tensor& input, const std::optional<Tensor>& weight,
                                                  const std::optional<Tensor>& bias, int64_t N, int64_t C, int64_t HxW,
                                                  int64_t group, double eps) {
  check_group_norm(input, weight, bias, N, C, HxW, group);
  const ScalarType dt = compute_dtype(input);
  const Tensor x = computed(input, dt);
  const std::optional<Tensor> w = computed_opt(weight, dt), b = computed_opt(bias, dt);
  Tensor y = make_empty(input.sizes(), dt, input.device());
  Tensor mean = make_empty(std::vector<int64_t>{N, group}, dt, input.device());
  Tensor rstd = make_empty(std::vector<int64_t>{N, group}, dt, input.device());
  const int64_t D = C / group, row = D * HxW;
  visit_dtype(dt, [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T* xp = x.data_ptr<T>();
      T *yp = y.data_ptr<T>(), *mp = mean.data_ptr<T>(), *rp = rstd.data_ptr<T>();
      const T* gp = w ? w->data_ptr<T>() : nullptr;
      const T* bp = b ? b->data_ptr<T>() : nullptr;
      parallel_for(0, N * group, 1, [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
          check_interrupt();
          T mu = 0, var = 0;
          if (row > 0) moments(xp + r * row, row, mu, var);
          const T rs = static_cast<T>(1.0 / std::sqrt(static_cast<double>(std::max(var, T(0))) + eps));
          mp[r] = mu;
          rp[r] = rs;
          const int64_t g = r % group;
          for (int64_t d = 0; d < D; ++d) {
            const int64_t c = g * D + d;
            const T* xr = xp + r * row + d * HxW;
            T* yr = yp + r * row + d * HxW;
            if (!gp && !bp) {
              for (int64_t i = 0; i < HxW; ++i) yr[i] = (xr[i] - mu) * rs;
            } else {
              const T s = gp ? rs * gp[c] : rs;
              const T shift = std::fma(-s, mu, bp ? bp[c] : T(0));
              // one fused multiply-add per element: one instruction in the AVX2 / FMA build
              if (cpu::has_avx2()) layer_norm_avx2::scale_shift_row(xr, yr, HxW, s, shift);
              else
                for (int64_t i = 0; i < HxW; ++i) yr[i] = std::fma(s, xr[i], shift);
            }
          }
        }
      });
    }
  });
  return {as_dtype(y, input.dtype()), as_dtype(mean, input.dtype()), as_dtype(rstd, input.dtype())};
}

// Group norm backward: the sums of dy and dy * x per (sample, channel) in double, then PyTorch's
// coefficients (values within rounding of 2.15's; its order of sums is not reproduced).
std::tuple<Tensor, Tensor, Tensor> group_norm_backward_cpu(const Tensor& grad_out, const Tensor& input,
                                                           const Tensor& mean, const Tensor& rstd,
                                                           const std::optional<Tensor>& weight, int64_t N, int64_t C,
                                                           int64_t HxW, int64_t group,
                                                           std::array<bool, 3> output_mask) {
  check_group_norm(input, weight, std::nullopt, N, C, HxW, group);
  const ScalarType dt = compute_dtype(input);
  const Tensor dy = computed(grad_out, dt), x = computed(input, dt), mu = computed(mean, dt), rs = computed(rstd, dt);
  const std::optional<Tensor> w = computed_opt(weight, dt);
  Tensor dx, dgamma, dbeta;
  if (output_mask[0]) dx = make_empty(input.sizes(), dt, input.device());
  if (output_mask[1]) dgamma = make_empty(std::vector<int64_t>{C}, dt, input.device());
  if (output_mask[2]) dbeta = make_empty(std::vector<int64_t>{C}, dt, input.device());
  const int64_t D = C / group;
  visit_dtype(dt, [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T *dyp = dy.data_ptr<T>(), *xp = x.data_ptr<T>(), *mp = mu.data_ptr<T>(), *rp = rs.data_ptr<T>();
      const T* gp = w ? w->data_ptr<T>() : nullptr;
      std::vector<double> ds(static_cast<size_t>(N * C)), db(static_cast<size_t>(N * C));
      for (int64_t nc = 0; nc < N * C; ++nc) {
        double a = 0, b = 0;
        for (int64_t i = 0; i < HxW; ++i) {
          a += static_cast<double>(dyp[nc * HxW + i]) * static_cast<double>(xp[nc * HxW + i]);
          b += static_cast<double>(dyp[nc * HxW + i]);
        }
        ds[static_cast<size_t>(nc)] = a;
        db[static_cast<size_t>(nc)] = b;
      }
      if (dx.defined()) {
        T* dxp = dx.data_ptr<T>();
        const double s = 1.0 / static_cast<double>(D * HxW);
        for (int64_t n = 0; n < N; ++n)
          for (int64_t g = 0; g < group; ++g) {
            const double m = mp[n * group + g], r = rp[n * group + g];
            double ds_g = 0, db_g = 0;
            for (int64_t d = 0; d < D; ++d) {
              const int64_t c = g * D + d;
              const double gamma = gp ? gp[c] : 1.0;
              ds_g += ds[static_cast<size_t>(n * C + c)] * gamma;
              db_g += db[static_cast<size_t>(n * C + c)] * gamma;
            }
            const double c2 = (db_g * m - ds_g) * r * r * r * s;
            const double c3 = -c2 * m - db_g * r * s;
            for (int64_t d = 0; d < D; ++d) {
              const int64_t c = g * D + d;
              const double c1 = r * (gp ? gp[c] : 1.0);
              for (int64_t i = 0; i < HxW; ++i) {
                const int64_t at = (n * C + c) * HxW + i;
                dxp[at] = static_cast<T>(c1 * dyp[at] + c2 * xp[at] + c3);
              }
            }
          }
      }
      for (int64_t c = 0; c < C; ++c) {
        double dgv = 0, dbv = 0;
        for (int64_t n = 0; n < N; ++n) {
          const int64_t g = c / D;
          dgv += (ds[static_cast<size_t>(n * C + c)] - db[static_cast<size_t>(n * C + c)] * mp[n * group + g]) *
                 rp[n * group + g];
          dbv += db[static_cast<size_t>(n * C + c)];
        }
        if (dgamma.defined()) dgamma.data_ptr<T>()[c] = static_cast<T>(dgv);
        if (dbeta.defined()) dbeta.data_ptr<T>()[c] = static_cast<T>(dbv);
      }
    }
  });
  return {dx.defined() ? as_dtype(dx, input.dtype()) : dx, dgamma.defined() ? as_dtype(dgamma, input.dtype()) : dgamma,
          dbeta.defined() ? as_dtype(dbeta, input.dtype()) : dbeta};
}

}  // namespace ipt::native
