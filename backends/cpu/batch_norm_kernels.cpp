// CPU batch norm (native_batch_norm and its backward), with PyTorch 2.15's arithmetic.
//
// Note [Batch norm's bits]
// PyTorch picks its kernel by HW, the product of the dims after the channels:
//   HW > 1 (NCHW): each channel on one thread. float sums in a double accumulator, element by
//     element (the squares rounded to float first); double sums in order, its compiler having
//     fused the last square of a plane when HW % 4 is odd. The backward reduces each plane as
//     vec::reduce_all / map2_reduce_all do (lane-wise, a fused tail, AVX2's horizontal add) and
//     adds the planes' sums in double for float.
//   HW == 1 ((N, C)): rows split over the threads into per-thread rows of sums (fused squares),
//     the threads' rows then added in double; so these results depend on the thread count, as
//     PyTorch's do. A batch no larger than the thread count takes one of two small-batch paths.
//   The statistics (Normalization.cpp) have no fused multiply-adds: invstd = 1 / sqrt(var + eps)
//   in double, the unbiased running variance divided in the tensor's type then blended in double.
//   The output is fma(x, alpha, beta) with alpha = invstd * weight, beta = fma(-alpha, mean, bias).
//   A gradient that is not contiguous (y.sum().backward() gives an expanded one) takes PyTorch's
//   generic path: at::sum for the bias, a double dot product, nothing fused.
// The multiply-adds written as std::fma are the ones PyTorch's build fused; this file is compiled
// so that the compiler fuses no others.
#include <cmath>
#include <tuple>

#include "backends/cpu/copy_kernels.h"
#include "backends/cpu/layer_norm_avx2.h"
#include "backends/cpu/vml.h"
#include "backends/cpu/reduction_rows.h"
#include "core/parallel/parallel.h"
#include "core/util/error.h"
#include "core/util/interrupt.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

template <typename T>
constexpr int kLanes = sizeof(T) == 4 ? 8 : 4;

// The accumulator of a float sum (double), of a double sum (double).
using D = double;

struct Layout {
  int64_t N0 = 1, C = 1, HW = 1;
  int64_t n() const { return N0 * HW; }
};

Layout layout_of(const Tensor& input) {
  IPT_CHECK(input.dim() >= 2, RuntimeError, "batch_norm: expected an input with at least 2 dims (N, C, ...), got ",
            input.dim());
  Layout l;
  l.N0 = input.sizes()[0];
  l.C = input.sizes()[1];
  for (int64_t d = 2; d < input.dim(); ++d) l.HW *= input.sizes()[d];
  return l;
}

// The rows of an (n, C) input that PyTorch's parallel_for(0, n, 1) gives thread t, and the
// thread count P its per-thread buffers have.
struct RowSplit {
  int P;
  int64_t chunk;
};
RowSplit row_split(int64_t n) {
  const int P = get_num_threads();
  const int64_t nt = std::max<int64_t>(1, std::min<int64_t>(P, n));
  return {P, (n + nt - 1) / nt};
}

template <typename T>
void stats_contiguous(const T* x, const Layout& l, T* mean, T* var_sum) {
  parallel_for(0, l.C, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      check_interrupt();
      if constexpr (std::is_same_v<T, float>) {
        D s = 0;
        for (int64_t n = 0; n < l.N0; ++n)
          for (int64_t i = 0; i < l.HW; ++i) s += static_cast<D>(x[(n * l.C + c) * l.HW + i]);
        const float m = static_cast<float>(s / static_cast<D>(l.n()));
        D acc = 0;
        for (int64_t n = 0; n < l.N0; ++n)
          for (int64_t i = 0; i < l.HW; ++i) {
            const float d = x[(n * l.C + c) * l.HW + i] - m;
            acc += static_cast<D>(d * d);
          }
        mean[c] = m;
        var_sum[c] = static_cast<float>(acc);
      } else {
        double s = 0;
        for (int64_t n = 0; n < l.N0; ++n)
          for (int64_t i = 0; i < l.HW; ++i) s += x[(n * l.C + c) * l.HW + i];
        const double m = s / static_cast<double>(l.n());
        double acc = 0;
        const bool fuse_last = l.HW % 4 == 1 || l.HW % 4 == 3;
        for (int64_t n = 0; n < l.N0; ++n)
          for (int64_t i = 0; i < l.HW; ++i) {
            const double d = x[(n * l.C + c) * l.HW + i] - m;
            acc = (fuse_last && i == l.HW - 1) ? std::fma(d, d, acc) : acc + d * d;
          }
        mean[c] = m;
        var_sum[c] = acc;
      }
    }
  });
}

template <typename T>
void stats_rows(const T* x, const Layout& l, T* mean, T* var_sum) {
  const int64_t n = l.n(), C = l.C;
  const RowSplit split = row_split(n);
  if (n > split.P) {
    std::vector<T> buf(static_cast<size_t>(split.P * C), T(0));
    auto each_thread = [&](const auto& row_op) {
      parallel_for(0, n, 1, [&](int64_t r0, int64_t r1) {
        T* b = buf.data() + (r0 / split.chunk) * C;
        for (int64_t r = r0; r < r1; ++r) row_op(x + r * C, b);
      });
    };
    each_thread([&](const T* row, T* b) {
      for (int64_t c = 0; c < C; ++c) b[c] = row[c] + b[c];
    });
    for (int64_t c = 0; c < C; ++c) {
      D s = 0.0;
      for (int t = 0; t < split.P; ++t) s += static_cast<D>(buf[static_cast<size_t>(t * C + c)]);
      mean[c] = static_cast<T>(s / static_cast<D>(n));
    }
    std::fill(buf.begin(), buf.end(), T(0));
    each_thread([&](const T* row, T* b) {
      for (int64_t c = 0; c < C; ++c) {
        const T d = row[c] - mean[c];
        b[c] = std::fma(d, d, b[c]);
      }
    });
    for (int64_t c = 0; c < C; ++c) {
      D s = 0.0;
      for (int t = 0; t < split.P; ++t) s += static_cast<D>(buf[static_cast<size_t>(t * C + c)]);
      var_sum[c] = static_cast<T>(s);
    }
    return;
  }
  if (split.P == 1 || C <= 16 || C > 2048) {  // PyTorch's second small-batch method
    for (int64_t c = 0; c < C; ++c) {
      T m = 0;
      for (int64_t r = 0; r < n; ++r) m = x[r * C + c] + m;
      m = m / static_cast<T>(n);
      T v = 0;
      for (int64_t r = 0; r < n; ++r) {
        const T d = x[r * C + c] - m;
        v = std::fma(d, d, v);
      }
      mean[c] = m;
      var_sum[c] = v;
    }
    return;
  }
  // the first small-batch method: the contiguous recipe over the rows
  for (int64_t c = 0; c < C; ++c) {
    if constexpr (std::is_same_v<T, float>) {
      D s = 0;
      for (int64_t r = 0; r < n; ++r) s += static_cast<D>(x[r * C + c]);
      const float m = static_cast<float>(s / static_cast<D>(n));
      D acc = 0;
      for (int64_t r = 0; r < n; ++r) {
        const float d = x[r * C + c] - m;
        acc += static_cast<D>(d * d);
      }
      mean[c] = m;
      var_sum[c] = static_cast<float>(acc);
    } else {
      double s = 0;
      for (int64_t r = 0; r < n; ++r) s += x[r * C + c];
      const double m = s / static_cast<double>(n);
      double acc = 0;
      for (int64_t r = 0; r < n; ++r) {
        const double d = x[r * C + c] - m;
        acc = (n % 2 == 1 && r == n - 1) ? std::fma(d, d, acc) : acc + d * d;
      }
      mean[c] = m;
      var_sum[c] = acc;
    }
  }
}

// y = fma(x, alpha, beta) per channel.
template <typename T>
void transform(const T* x, T* y, const Layout& l, const std::vector<T>& alpha, const std::vector<T>& beta) {
  parallel_for(0, l.N0 * l.C, 1, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      const int64_t c = p % l.C;
      // one fused multiply-add per element: one instruction in the AVX2 / FMA build
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        if (cpu::has_avx2()) {
          layer_norm_avx2::scale_shift_row(x + p * l.HW, y + p * l.HW, l.HW, alpha[c], beta[c]);
          continue;
        }
      }
      for (int64_t i = 0; i < l.HW; ++i) y[p * l.HW + i] = std::fma(x[p * l.HW + i], alpha[c], beta[c]);
    }
  });
}

template <typename T>
const T* data_or_null(const std::optional<Tensor>& t) {
  return t && t->defined() ? t->data_ptr<T>() : nullptr;
}

std::optional<Tensor> contiguous_opt(const std::optional<Tensor>& t) {
  if (!t || !t->defined()) return std::nullopt;
  return contiguous_data(*t);
}

void check_float_input(const Tensor& input) {
  IPT_CHECK(input.dtype() == ScalarType::Float || input.dtype() == ScalarType::Double, NotImplementedError,
            "\"batch_norm\" not implemented for '", dtype_cpp_name(input.dtype()), "' here (float and double are)");
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> batch_norm_cpu(const Tensor& input_, const std::optional<Tensor>& weight_,
                                                  const std::optional<Tensor>& bias_,
                                                  const std::optional<Tensor>& running_mean,
                                                  const std::optional<Tensor>& running_var, bool training,
                                                  double momentum, double eps) {
  check_float_input(input_);
  const Layout l = layout_of(input_);
  const Tensor input = contiguous_data(input_);
  const std::optional<Tensor> weight = contiguous_opt(weight_), bias = contiguous_opt(bias_);
  const bool has_rm = running_mean && running_mean->defined(), has_rv = running_var && running_var->defined();
  Tensor out = make_empty(input.sizes(), input.dtype(), input.device());
  Tensor save_mean = make_empty(std::vector<int64_t>{training ? l.C : 0}, input.dtype(), input.device());
  Tensor save_invstd = make_empty(std::vector<int64_t>{training ? l.C : 0}, input.dtype(), input.device());
  if (!training) IPT_CHECK(has_rm && has_rv, RuntimeError, "running_mean must be defined in evaluation mode");
  visit_dtype(input.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T* x = input.data_ptr<T>();
      const T* w = data_or_null<T>(weight);
      const T* b = data_or_null<T>(bias);
      std::vector<T> alpha(static_cast<size_t>(l.C)), beta(static_cast<size_t>(l.C));
      if (training) {
        std::vector<T> mean(static_cast<size_t>(l.C)), var_sum(static_cast<size_t>(l.C));
        if (l.n() > 0) {
          if (l.HW > 1) stats_contiguous(x, l, mean.data(), var_sum.data());
          else stats_rows(x, l, mean.data(), var_sum.data());
        }
        const T m = static_cast<T>(momentum);
        const T n = static_cast<T>(l.n());
        T* sm = save_mean.data_ptr<T>();
        T* si = save_invstd.data_ptr<T>();
        const Tensor rm = has_rm ? contiguous_data(*running_mean) : Tensor();
        const Tensor rv = has_rv ? contiguous_data(*running_var) : Tensor();
        for (int64_t c = 0; c < l.C; ++c) {
          const T var = var_sum[static_cast<size_t>(c)] / n;
          sm[c] = mean[static_cast<size_t>(c)];
          si[c] = (var == T(0) && eps == 0.0) ? T(0) : static_cast<T>(1.0 / std::sqrt(static_cast<double>(var) + eps));
          if (has_rm) {
            T& r = rm.data_ptr<T>()[c];
            r = static_cast<T>(m * mean[static_cast<size_t>(c)]) + static_cast<T>((T(1) - m) * r);
          }
          if (has_rv) {
            T& r = rv.data_ptr<T>()[c];
            const T unbiased = var_sum[static_cast<size_t>(c)] / static_cast<T>(l.n() - 1);
            r = static_cast<T>(static_cast<double>(m) * static_cast<double>(unbiased) +
                               static_cast<double>(static_cast<T>((T(1) - m) * r)));
          }
          const T a = w ? si[c] * w[c] : si[c];
          alpha[static_cast<size_t>(c)] = a;
          beta[static_cast<size_t>(c)] = std::fma(-a, sm[c], b ? b[c] : T(0));
        }
        if (has_rm && !rm.is_same(*running_mean)) copy_cpu_(*running_mean, rm, false);
        if (has_rv && !rv.is_same(*running_var)) copy_cpu_(*running_var, rv, false);
      } else {
        const Tensor rm = contiguous_data(*running_mean), rv = contiguous_data(*running_var);
        for (int64_t c = 0; c < l.C; ++c) {
          const T invstd = T(1) / std::sqrt(rv.data_ptr<T>()[c] + static_cast<T>(eps));
          const T a = w ? invstd * w[c] : invstd;
          alpha[static_cast<size_t>(c)] = a;
          beta[static_cast<size_t>(c)] = std::fma(-a, rm.data_ptr<T>()[c], b ? b[c] : T(0));
        }
      }
      transform(x, out.data_ptr<T>(), l, alpha, beta);
    }
  });
  return {out, save_mean, save_invstd};
}

namespace {

// One plane of the training backward's dx: ((dy - gm) - (x - mc) * k) * ic * wc, its first
// multiply-add fused where PyTorch's vectorized loop fuses it. Compiled for any x86-64, where
// std::fma is a call, and for AVX2 and FMA, where it is one instruction.
template <typename T>
struct DxPlane {
  const T* x;
  const T* dy;
  T* dx;
  int64_t n;
  T mc, k, gm, ic, wc;
};
template <typename T>
[[gnu::always_inline]] inline void dx_plane_body(const DxPlane<T>& p, bool fused) {
  if (fused)
    for (int64_t i = 0; i < p.n; ++i) p.dx[i] = (std::fma(-(p.x[i] - p.mc), p.k, p.dy[i] - p.gm) * p.ic) * p.wc;
  else
    for (int64_t i = 0; i < p.n; ++i) p.dx[i] = (((p.dy[i] - p.gm) - (p.x[i] - p.mc) * p.k) * p.ic) * p.wc;
}
template <typename T>
void dx_plane(const DxPlane<T>& p, bool fused) {
  dx_plane_body(p, fused);
}
template <typename T>
[[gnu::target("avx2,fma")]] void dx_plane_avx2(const DxPlane<T>& p, bool fused) {
  dx_plane_body(p, fused);
}

// vec::reduce_all (q null: the sum of a) or map2_reduce_all((x - mu) * dy) over a plane of n.
template <typename T>
T plane_reduce(const T* a, const T* dy, T mu, int64_t n) {
  constexpr int L = kLanes<T>;
  auto term = [&](int64_t j) { return dy ? (a[j] - mu) * dy[j] : a[j]; };
  if (n < L) {
    T s = term(0);
    for (int64_t j = 1; j < n; ++j) s = s + term(j);
    return s;
  }
  T acc[L];
  for (int l = 0; l < L; ++l) acc[l] = term(l);
  const int64_t whole = n / L;
  for (int64_t v = 1; v < whole; ++v)
    for (int l = 0; l < L; ++l) acc[l] = acc[l] + term(v * L + l);
  for (int64_t j = whole * L; j < n; ++j) {
    const int l = static_cast<int>(j - whole * L);
    acc[l] = dy ? std::fma(a[j] - mu, dy[j], acc[l]) : acc[l] + a[j];
  }
  if constexpr (L == 8) return ((acc[0] + acc[4]) + (acc[2] + acc[6])) + ((acc[1] + acc[5]) + (acc[3] + acc[7]));
  else return ((acc[0] + acc[1]) + acc[2]) + acc[3];
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> batch_norm_backward_cpu(const Tensor& grad_out, const Tensor& input_,
                                                           const std::optional<Tensor>& weight_,
                                                           const std::optional<Tensor>& running_mean,
                                                           const std::optional<Tensor>& running_var,
                                                           const std::optional<Tensor>& save_mean,
                                                           const std::optional<Tensor>& save_invstd, bool train,
                                                           double eps, std::array<bool, 3> output_mask) {
  check_float_input(input_);
  const Layout l = layout_of(input_);
  const Tensor input = contiguous_data(input_);
  const bool generic = !grad_out.is_contiguous();
  const Tensor dy_t = contiguous_data(grad_out);
  const std::optional<Tensor> weight = contiguous_opt(weight_);
  Tensor dx, dw, db;
  if (output_mask[0]) dx = make_empty(input.sizes(), input.dtype(), input.device());
  if (output_mask[1]) dw = make_empty(std::vector<int64_t>{l.C}, input.dtype(), input.device());
  if (output_mask[2]) db = make_empty(std::vector<int64_t>{l.C}, input.dtype(), input.device());
  // the bias gradient of the generic path is at::sum over all dims but the channels
  Tensor generic_sum;
  if (generic) {
    std::vector<int64_t> dims = {0};
    for (int64_t d = 2; d < input.dim(); ++d) dims.push_back(d);
    generic_sum = contiguous_data(sum_dim_cpu(grad_out, IntArrayRef(dims), false, std::nullopt));
  }
  visit_dtype(input.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T* x = input.data_ptr<T>();
      const T* dy = dy_t.data_ptr<T>();
      const T* w = data_or_null<T>(weight);
      std::vector<T> mu(static_cast<size_t>(l.C)), inv(static_cast<size_t>(l.C));
      for (int64_t c = 0; c < l.C; ++c) {
        if (train) {
          mu[static_cast<size_t>(c)] = contiguous_data(*save_mean).data_ptr<T>()[c];
          inv[static_cast<size_t>(c)] = contiguous_data(*save_invstd).data_ptr<T>()[c];
        } else {
          mu[static_cast<size_t>(c)] = contiguous_data(*running_mean).data_ptr<T>()[c];
          inv[static_cast<size_t>(c)] = static_cast<T>(
              1.0 / std::sqrt(static_cast<double>(contiguous_data(*running_var).data_ptr<T>()[c]) + eps));
        }
      }
      const T n = static_cast<T>(l.n());
      // the channels' sums of dy and of (x - mu) * dy, in T and (before rounding) in double
      std::vector<T> sum(static_cast<size_t>(l.C)), dot(static_cast<size_t>(l.C));
      std::vector<D> sumd(static_cast<size_t>(l.C)), dotd(static_cast<size_t>(l.C));
      if (generic) {
        for (int64_t c = 0; c < l.C; ++c) {
          D dp = 0;
          for (int64_t i = 0; i < l.N0; ++i)
            for (int64_t j = 0; j < l.HW; ++j) {
              const int64_t at = (i * l.C + c) * l.HW + j;
              dp += static_cast<D>(static_cast<T>((x[at] - mu[static_cast<size_t>(c)]) * dy[at]));
            }
          dot[static_cast<size_t>(c)] = static_cast<T>(dp);
          dotd[static_cast<size_t>(c)] = dp;
          sum[static_cast<size_t>(c)] = generic_sum.data_ptr<T>()[c];
        }
      } else if (l.HW > 1) {
        parallel_for(0, l.C, 1, [&](int64_t c0, int64_t c1) {
          for (int64_t c = c0; c < c1; ++c) {
            D s = 0, dp = 0;
            for (int64_t i = 0; i < l.N0; ++i) {
              const int64_t at = (i * l.C + c) * l.HW;
              s += static_cast<D>(plane_reduce<T>(dy + at, nullptr, T(0), l.HW));
              dp += static_cast<D>(plane_reduce<T>(x + at, dy + at, mu[static_cast<size_t>(c)], l.HW));
            }
            sum[static_cast<size_t>(c)] = static_cast<T>(s);
            dot[static_cast<size_t>(c)] = static_cast<T>(dp);
            sumd[static_cast<size_t>(c)] = s;
            dotd[static_cast<size_t>(c)] = dp;
          }
        });
      } else {
        const int64_t rows = l.n(), C = l.C;
        const RowSplit split = row_split(rows);
        std::vector<T> sbuf(static_cast<size_t>(split.P * C), T(0)), dbuf(static_cast<size_t>(split.P * C), T(0));
        if (rows > 0)
          parallel_for(0, rows, 1, [&](int64_t r0, int64_t r1) {
            const int64_t t = r0 / split.chunk;
            for (int64_t r = r0; r < r1; ++r)
              for (int64_t c = 0; c < C; ++c) {
                T& s = sbuf[static_cast<size_t>(t * C + c)];
                T& d = dbuf[static_cast<size_t>(t * C + c)];
                s = s + dy[r * C + c];
                d = std::fma(x[r * C + c] - mu[static_cast<size_t>(c)], dy[r * C + c], d);
              }
          });
        for (int64_t c = 0; c < C; ++c) {
          D s = 0, d = 0;
          for (int t = 0; t < split.P; ++t) {
            s += static_cast<D>(sbuf[static_cast<size_t>(t * C + c)]);
            d += static_cast<D>(dbuf[static_cast<size_t>(t * C + c)]);
          }
          sum[static_cast<size_t>(c)] = static_cast<T>(s);
          dot[static_cast<size_t>(c)] = static_cast<T>(d);
        }
      }
      if (dx.defined()) {
        T* dxp = dx.data_ptr<T>();
        const int64_t tail_from = l.HW == 1 && !generic ? l.C / kLanes<T> * kLanes<T> : l.C;
        parallel_for(0, l.N0 * l.C, 1, [&](int64_t p0, int64_t p1) {
          for (int64_t p = p0; p < p1; ++p) {
            const size_t c = static_cast<size_t>(p % l.C);
            const T wc = w ? w[c] : T(1), ic = inv[c], mc = mu[c];
            if (!train) {
              for (int64_t i = 0; i < l.HW; ++i) dxp[p * l.HW + i] = (dy[p * l.HW + i] * ic) * wc;
              continue;
            }
            T k, gm;
            if (l.HW == 1 && !generic) {
              k = ((dot[c] * ic) * ic) / n;
              gm = sum[c] / n;
            } else {
              k = static_cast<T>(static_cast<T>(static_cast<T>(dot[c] * ic) * ic) / n);
              gm = generic ? static_cast<T>(sum[c] / n) : static_cast<T>(sumd[c] / static_cast<D>(l.n()));
            }
            const DxPlane<T> plane{x + p * l.HW, dy + p * l.HW, dxp + p * l.HW, l.HW, mc, k, gm, ic, wc};
            const bool fused = !generic && static_cast<int64_t>(c) < tail_from;
            if (cpu::has_avx2()) dx_plane_avx2(plane, fused);
            else dx_plane(plane, fused);
          }
        });
      }
      for (int64_t c = 0; c < l.C; ++c) {
        if (dw.defined()) {
          dw.data_ptr<T>()[c] =
              l.HW == 1 && !generic
                  ? dot[static_cast<size_t>(c)] * inv[static_cast<size_t>(c)]
                  : static_cast<T>(dotd[static_cast<size_t>(c)] * static_cast<D>(inv[static_cast<size_t>(c)]));
        }
        if (db.defined()) db.data_ptr<T>()[c] = sum[static_cast<size_t>(c)];
      }
    }
  });
  return {dx, dw, db};
}

}  // namespace ipt::native
