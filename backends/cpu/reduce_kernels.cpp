// CPU reductions: sum and mean over all or some dimensions, with keepdim (the reduction engine);
// max / min (all, or along a dim with indices), argmax / argmin, amax / amin, var / std (with a
// correction) and p-norms. prod, all / any and cumsum are in prod_any_cumsum_kernels.cpp.
#include <cmath>
#include <limits>

#include "backends/cpu/cascade_sum.h"
#include "backends/cpu/reduce_loops.h"
#include "backends/cpu/reduction_rows.h"
#include "backends/cpu/reduction_dims.h"
#include "backends/cpu/copy_kernels.h"
#include "backends/cpu/cpu_loops.h"
#include "backends/cpu/vml.h"
#include "backends/cpu/wrapping.h"
#include "core/ops/shape_rules.h"
#include "core/parallel/parallel.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

// Whether the reduced dimensions of `self` all lie after the kept ones, size-1 dimensions aside
// (they do not change the order): a contiguous tensor's rows in its own memory.
bool reduced_dims_trail(const Tensor& self, const std::vector<bool>& reduced) {
  bool seen_reduced = false;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (self.sizes()[d] == 1) continue;
    if (reduced[d]) seen_reduced = true;
    else if (seen_reduced) return false;
  }
  return true;
}

// One call of PyTorch's 2-D reduction loop (its cascade_sum): dims a and b of the loop, added
// into `out` (which the whole reduction zero-fills first).
template <typename T>
void sum_2d(const T* in, T* out, cpu::LoopDim a, cpu::LoopDim b) {
  namespace cc = cpu::cascade;
  if (a.out_stride != 0 && b.out_stride == 0) std::swap(a, b);  // the reduced dim first
  if (a.out_stride != 0 && b.out_stride != 0) {                 // nothing reduced here: out += in
    for (int64_t j = 0; j < b.size; ++j)
      for (int64_t i = 0; i < a.size; ++i)
        out[i * a.out_stride + j * b.out_stride] += in[i * a.in_stride + j * b.in_stride];
    return;
  }
  const int64_t os = b.out_stride;
  constexpr int64_t L = cc::kLanes<T>;
  // Each output j is one thread's whole sum (PyTorch's parallel_dim_reduction splits the outputs
  // over the threads), so the split changes no result. When both dims are reduced (os == 0) every
  // j adds into the one output, in order, on this thread.
  const int64_t grain =
      os == 0 ? std::numeric_limits<int64_t>::max() : std::max<int64_t>(1, kGrainSize / std::max<int64_t>(a.size, 1));
  if ((a.in_stride == 1 && a.size >= L) || (a.in_stride < b.in_stride && !(b.in_stride == 1 && b.size >= L))) {
    // inner sums: each j sums a contiguous (vectorized) or strided row
    parallel_for(0, b.size, grain, [&](int64_t jb, int64_t je) {
      for (int64_t j = jb; j < je; ++j) {
        if ((j & 0xffff) == 0) check_interrupt();
        out[j * os] += cc::inner_sum(in + j * b.in_stride, a.size, a.in_stride);
      }
    });
  } else {
    // columns j, rows reduced
    parallel_for(0, b.size, grain, [&](int64_t jb, int64_t je) {
      cc::outer_sum(in, a.size, a.in_stride, b.size, b.in_stride, out, os, jb, je);
    });
  }
}

// PyTorch's summation order (cascade_sum.h, reduction_dims.h) for a float or double tensor
// summed in its own dtype, over any dims and any strides: the sums (means) are written into out
// and true is returned; false leaves other cases to the double accumulation.
bool cascade_sum(const Tensor& self, const ReductionGeometry& g, const Tensor& out, bool mean) {
  const int64_t n_out = out.numel();
  if (g.out_dtype != self.dtype() || n_out == 0 || self.numel() == 0) return false;
  if (self.dtype() != ScalarType::Float && self.dtype() != ScalarType::Double) return false;
  const std::vector<cpu::LoopDim> dims = cpu::reduction_loop_dims(self.sizes(), self.strides(), g.reduced);
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      T* o = out.data_ptr<T>();  // contiguous, laid out as the keepdim output
      std::fill(o, o + n_out, T(0));
      // The threads' slots are summed by the same cascade as a row.
      cpu::reduce_loops(self.data_ptr<T>(), o, dims, T(0), sum_2d<T>,
                        [](T& dst, const T* slots, int64_t n) { dst += cpu::cascade::inner_sum(slots, n, 1); });
      if (mean) {  // PyTorch's sum, then a division in the dtype
        const T count = static_cast<T>(self.numel() / n_out);
        for (int64_t i = 0; i < n_out; ++i) o[i] = o[i] / count;
      }
    }
  });
  return true;
}

// Sums `self` into an output of geometry g; divides by the reduced count when `mean`.
Tensor reduce_sum(const Tensor& self, const ReductionGeometry& g, bool mean) {
  Tensor out = make_empty(g.out_sizes, g.out_dtype, self.device());
  // Accumulate in double (floating) or int64 (integral) per output element.
  std::vector<int64_t> acc_sizes;  // output shape with reduced dims kept as 1
  for (int64_t d = 0; d < self.dim(); ++d) acc_sizes.push_back(g.reduced[d] ? 1 : self.sizes()[d]);
  std::vector<int64_t> acc_strides = contiguous_strides(acc_sizes);
  for (int64_t d = 0; d < self.dim(); ++d)
    if (g.reduced[d]) acc_strides[d] = 0;
  const int64_t n_out = numel_of(acc_sizes);
  const int64_t count = n_out == 0 ? 0 : self.numel() / std::max<int64_t>(n_out, 1);
  const void* src = self.impl()->raw_data();
  std::array<std::vector<int64_t>, 2> st{self.strides(), acc_strides};
  auto finish = [&](auto& acc) {
    for (int64_t i = 0; i < n_out; ++i) {
      double v = static_cast<double>(acc[i]);
      // mean is PyTorch's sum followed by a division in the output dtype: the sum is rounded first.
      // float16 and bfloat16 sum into float and divide there, rounding once at the end (2.15).
      if (mean)
        v = visit_dtype(out.dtype(), [&]<typename T>() {
          using M = opmath_t<T>;
          if (count == 0) return static_cast<double>(NAN);
          if constexpr (is_reduced_float_v<T>)
            return static_cast<double>(static_cast<T>(static_cast<float>(v) / static_cast<float>(count)));
          else return static_cast<double>(static_cast<T>(static_cast<M>(static_cast<T>(v)) / static_cast<M>(count)));
        });
      if (is_floating(out.dtype()) || mean) cpu::store_as<double>(out.impl()->raw_data(), out.dtype(), i, v);
      else cpu::store_as<int64_t>(out.impl()->raw_data(), out.dtype(), i, static_cast<int64_t>(acc[i]));
    }
  };
  if (is_floating(g.out_dtype) || mean) {
    if (cascade_sum(self, g, out, mean)) return out;
    std::vector<double> acc(static_cast<size_t>(n_out), 0.0);
    if (self.dtype() == ScalarType::Float) {
      const float* p = static_cast<const float*>(src);
      cpu::for_each_offsets<2>(self.sizes(), st, [&](int64_t i, int64_t o) { acc[o] += p[i]; });
    } else {
      cpu::for_each_offsets<2>(self.sizes(), st,
                               [&](int64_t i, int64_t o) { acc[o] += cpu::load_as<double>(src, self.dtype(), i); });
    }
    finish(acc);
  } else {
    std::vector<int64_t> acc(static_cast<size_t>(n_out), 0);
    cpu::for_each_offsets<2>(self.sizes(), st, [&](int64_t i, int64_t o) {
      acc[o] = cpu::wrapping_add(acc[o], cpu::load_as<int64_t>(src, self.dtype(), i));
    });
    finish(acc);
  }
  return out;
}

}  // namespace

Tensor sum_dim_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype) {
  return reduce_sum(self, reduction_geometry(self, dim, keepdim, dtype, "sum"), false);
}

Tensor mean_dim_cpu(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype) {
  return reduce_sum(self, reduction_geometry(self, dim, keepdim, dtype, "mean"), true);
}

namespace {

// x is "more max" than best: larger, or NaN (NaN wins and keeps the first NaN).
template <bool Max, typename T>
bool better(T x, T best) {
  if constexpr (is_float_v<T>) {
    if (std::isnan(best)) return false;
    if (std::isnan(x)) return true;
  }
  return Max ? x > best : x < best;
}

// The extreme value of a contiguous run: W lanes side by side, which the compiler turns into
// vector max / min, and a NaN check on the side (a NaN anywhere wins: the first one).
template <bool Max, typename T>
T extreme_of(const T* p, int64_t n) {
  constexpr int64_t W = 8;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
    if (n >= W && cpu::has_avx2()) return Max ? cpu::rows_avx2::row_max(p, n) : cpu::rows_avx2::row_min(p, n);
  T best = p[0];
  int64_t k = 0;
  if (n >= 2 * W) {
    T lanes[W];
    bool nan[W] = {};
    for (int64_t l = 0; l < W; ++l) lanes[l] = p[l];
    for (k = W; k + W <= n; k += W)
      for (int64_t l = 0; l < W; ++l) {
        const T x = p[k + l];
        lanes[l] = (Max ? x > lanes[l] : x < lanes[l]) ? x : lanes[l];
        if constexpr (is_float_v<T>) nan[l] |= x != x;
      }
    bool any_nan = false;
    for (int64_t l = 0; l < W; ++l) {
      any_nan |= nan[l] || lanes[l] != lanes[l];
      if (Max ? lanes[l] > best : lanes[l] < best) best = lanes[l];
    }
    if (any_nan)
      for (int64_t i = 0; i < n; ++i)
        if (std::isnan(p[i])) return p[i];
  }
  for (; k < n; ++k)
    if (better<Max>(p[k], best)) best = p[k];
  return best;
}

// The first position of a run's extreme value (of its first NaN, if any), and that element.
template <bool Max, typename T>
std::pair<T, int64_t> extreme_at(const T* p, int64_t n) {
  const T best = extreme_of<Max>(p, n);
  int64_t k = 0;
  if constexpr (is_float_v<T>)
    if (std::isnan(best)) {
      while (!std::isnan(p[k])) ++k;
      return {p[k], k};
    }
  while (!(p[k] == best)) ++k;
  return {p[k], k};
}

template <bool Max>
Tensor minmax_all(const Tensor& self) {
  check_minmax_all(self, Max ? "max" : "min");
  Tensor x = contiguous_data(self);
  Tensor out = make_empty(std::vector<int64_t>{}, self.dtype(), self.device());
  visit_dtype(self.dtype(), [&]<typename T>() {
    const T* p = x.data_ptr<T>();
    const int64_t n = x.numel();
    // One partial per thread's range (max and min are the same in any order).
    const T best = parallel_reduce(
        int64_t(0), n, kGrainSize, p[0],
        [&](int64_t b, int64_t e, T acc) {
          for (int64_t c = b; c < e; c += cpu::kInterruptChunk) {
            check_interrupt();
            const T v = extreme_of<Max>(p + c, std::min(e - c, cpu::kInterruptChunk));
            if (better<Max>(v, acc)) acc = v;
          }
          return acc;
        },
        [](T a, T b) { return better<Max>(b, a) ? b : a; });
    out.data_ptr<T>()[0] = best;
  });
  return out;
}

// values and indices along d (the first position of the extreme value, or of the first NaN); the
// outer rows are split over threads.
template <bool Max>
std::tuple<Tensor, Tensor> minmax_dim(const Tensor& self, int64_t dim, bool keepdim, const char* name) {
  const int64_t d = minmax_dim_check(self, dim, name);
  std::vector<int64_t> out_sizes = sizes_without_dim(self, d, keepdim);
  Tensor values = make_empty(out_sizes, self.dtype(), self.device());
  Tensor indices = make_empty(out_sizes, ScalarType::Long, self.device());
  if (self.numel() == 0) return {values, indices};
  DimRows r = dim_rows(self, d);
  visit_dtype(self.dtype(), [&]<typename T>() {
    const T* p = r.data.data_ptr<T>();
    T* pv = values.data_ptr<T>();
    int64_t* pi = indices.data_ptr<int64_t>();
    const int64_t grain = std::max<int64_t>(1, kGrainSize / (r.len * r.inner));
    parallel_for(0, r.outer, grain, [&](int64_t ob, int64_t oe) {
      for (int64_t o = ob; o < oe; ++o) {
        check_interrupt();
        const T* block = p + o * r.len * r.inner;
        T* bv = pv + o * r.inner;
        int64_t* bi = pi + o * r.inner;
        if (r.inner == 1) {
          std::tie(*bv, *bi) = extreme_at<Max>(block, r.len);
          continue;
        }
        for (int64_t i = 0; i < r.inner; ++i) bv[i] = block[i], bi[i] = 0;
        for (int64_t k = 1; k < r.len; ++k) {
          const T* row = block + k * r.inner;
          for (int64_t i = 0; i < r.inner; ++i)
            if (better<Max>(row[i], bv[i])) bv[i] = row[i], bi[i] = k;
        }
      }
    });
  });
  return {values, indices};
}

template <bool Max>
Tensor arg_minmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim, const char* name) {
  IPT_CHECK(self.dtype() != ScalarType::Bool, NotImplementedError, name, "(): does not support bool input");
  if (dim) return std::get<1>(minmax_dim<Max>(self, *dim, keepdim, name));
  IPT_CHECK(self.numel() > 0, IndexError, name, "(): Expected reduction dim to be specified for input.numel() == 0.");
  Tensor flat = make_view(contiguous_data(self), {self.numel()}, {1}, 0);
  Tensor idx = std::get<1>(minmax_dim<Max>(flat, 0, false, name));
  if (keepdim)
    return make_view(idx, std::vector<int64_t>(static_cast<size_t>(self.dim()), 1),
                     std::vector<int64_t>(static_cast<size_t>(self.dim()), 1), 0);
  return idx;
}

}  // namespace

namespace {
// amax / amin over any dims on the reduction engine: the largest (smallest) element, NaN if any
// (the same in any order). A contiguous reduced row takes the vectorized extreme_of.
template <bool Max, typename T>
T pick(T acc, T x) {
  if constexpr (is_float_v<T>)
    if (acc != acc) return acc;
  return better<Max>(x, acc) ? x : acc;
}

template <bool Max>
Tensor amax_impl(const Tensor& self, IntArrayRef dim, bool keepdim) {
  const ReductionGeometry g = amax_geometry(self, dim, keepdim, Max ? "amax" : "amin");
  Tensor out = make_empty(g.out_sizes, self.dtype(), self.device());
  if (self.numel() == 0) return out;
  const std::vector<cpu::LoopDim> dims = cpu::reduction_loop_dims(self.sizes(), self.strides(), g.reduced);
  visit_dtype(self.dtype(), [&]<typename T>() {
    T identity;
    if constexpr (std::is_same_v<T, bool>) identity = !Max;
    else if constexpr (is_float_v<T>) identity = static_cast<T>(Max ? -INFINITY : INFINITY);
    else identity = Max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
    cpu::fold_reduce(
        self.data_ptr<T>(), out.data_ptr<T>(), out.numel(), dims, identity,
        [](const T* x, int64_t n, T acc) { return pick<Max>(acc, extreme_of<Max>(x, n)); },
        [](T acc, T x) { return pick<Max>(acc, x); });
  });
  return out;
}

}  // namespace

Tensor amax_cpu(const Tensor& self, IntArrayRef dim, bool keepdim) { return amax_impl<true>(self, dim, keepdim); }
Tensor amin_cpu(const Tensor& self, IntArrayRef dim, bool keepdim) { return amax_impl<false>(self, dim, keepdim); }

Tensor max_all_cpu(const Tensor& self) { return minmax_all<true>(self); }
Tensor min_all_cpu(const Tensor& self) { return minmax_all<false>(self); }
std::tuple<Tensor, Tensor> max_dim_cpu(const Tensor& self, int64_t dim, bool keepdim) {
  return minmax_dim<true>(self, dim, keepdim, "max");
}
std::tuple<Tensor, Tensor> min_dim_cpu(const Tensor& self, int64_t dim, bool keepdim) {
  return minmax_dim<false>(self, dim, keepdim, "min");
}
Tensor argmax_cpu(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_minmax<true>(self, dim, keepdim, "argmax");
}
Tensor argmin_cpu(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_minmax<false>(self, dim, keepdim, "argmin");
}

namespace {
// Note [var's order of operations]
// var with divisor max(0, N - correction) (0 / 0 = NaN, x / 0 = inf, as PyTorch); std = sqrt.
// Over a whole float or double tensor PyTorch 2.15 takes the mean in the tensor's dtype (its
// mean kernel), then adds (x - mean)^2 in double over each thread's range and the threads'
// partials in order. Over some dims this computes each output's mean and sum of squares in
// double, two passes (PyTorch's Welford in double gives the same float and double results
// except in rare last bits of a double).
// ss + (x[0] - mean)^2 + (x[1] - mean)^2 + ..., one addition after another, in double. Not
// inlined: inside the caller GCC kept the running sum in memory, a store and load per element.
template <typename T>
[[gnu::noinline]] double squares_from(const T* x, int64_t n, double mean, double ss) {
  for (int64_t i = 0; i < n; ++i) {
    const double dx = static_cast<double>(x[i]) - mean;
    ss += dx * dx;
  }
  return ss;
}

template <typename T>
double var_all(const Tensor& self, double dof) {
  const Tensor m = reduce_sum(self, reduction_geometry(self, std::nullopt, false, std::nullopt, "mean"), true);
  const double mean = static_cast<double>(m.data_ptr<T>()[0]);
  Tensor x = contiguous_data(self);
  const T* p = x.data_ptr<T>();
  const double ss = parallel_reduce(
      int64_t(0), x.numel(), kGrainSize, 0.0,
      [&](int64_t b, int64_t e, double acc) {
        double local = 0;
        for (int64_t c = b; c < e; c += cpu::kInterruptChunk) {
          check_interrupt();
          local = squares_from(p + c, std::min(e - c, cpu::kInterruptChunk), mean, local);
        }
        return acc + local;
      },
      [](double a, double b) { return a + b; });
  return ss / dof;
}

Tensor var_impl(const Tensor& self, std::optional<IntArrayRef> dim, std::optional<int64_t> correction, bool keepdim,
                bool take_sqrt) {
  ReductionGeometry g = var_geometry(self, dim, keepdim);
  Tensor out = make_empty(g.out_sizes, self.dtype(), self.device());
  if (out.numel() == 1 && self.numel() > 0 &&
      (self.dtype() == ScalarType::Float || self.dtype() == ScalarType::Double)) {
    const double dof = std::max<double>(0.0, static_cast<double>(self.numel() - correction.value_or(1)));
    visit_dtype(self.dtype(), [&]<typename T>() {
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        const double v = var_all<T>(self, dof);
        out.data_ptr<T>()[0] = static_cast<T>(take_sqrt ? std::sqrt(v) : v);
      }
    });
    return out;
  }
  Rows r = rows_of(self, g.reduced);
  const double dof = std::max<double>(0.0, static_cast<double>(r.len - correction.value_or(1)));
  visit_dtype(self.dtype(), [&]<typename T>() {
    const T* src = r.data.data_ptr<T>();
    T* dst = out.data_ptr<T>();
    parallel_for(0, r.outer, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(r.len, 1)),
                 [&](int64_t ob, int64_t oe) {
                   for (int64_t o = ob; o < oe; ++o) {
                     check_interrupt();
                     const T* row = src + o * r.len;
                     double mean = 0;
                     for (int64_t k = 0; k < r.len; ++k) mean += static_cast<double>(row[k]);
                     mean /= static_cast<double>(r.len);
                     double ss = 0;
                     for (int64_t k = 0; k < r.len; ++k) {
                       const double c = static_cast<double>(row[k]) - mean;
                       ss += c * c;
                     }
                     const double v = ss / dof;
                     dst[o] = static_cast<T>(take_sqrt ? std::sqrt(v) : v);
                   }
                 });
  });
  return out;
}
}  // namespace

Tensor var_correction_cpu(const Tensor& self, std::optional<IntArrayRef> dim, std::optional<int64_t> correction,
                          bool keepdim) {
  return var_impl(self, dim, correction, keepdim, false);
}
Tensor std_correction_cpu(const Tensor& self, std::optional<IntArrayRef> dim, std::optional<int64_t> correction,
                          bool keepdim) {
  return var_impl(self, dim, correction, keepdim, true);
}

// One row's p-norm in PyTorch 2.15's order and precision (float and double accumulate in their
// own type).
//
// Note [The 2-norm's summation order]
// linalg_vector_norm's p = 2 over a contiguous last dimension is a vectorized loop (AVX2: 8 float
// or 4 double lanes) that adds each square to its lane with a separate multiply and add (no
// FMA); the lanes are then added left to right into the first. The rest of the row (fewer than
// one vector) is a scalar loop `acc += x * x` that the compiler contracts to an FMA; for float it
// also vectorizes the multiplies of that loop 4 at a time, so in a float tail of 4 or more the
// first 4 squares are rounded before they are added (in order) and only the last ones are FMAs.
// Every other row (a strided reduction, other p) is one accumulator in row order, with the
// square rounded before the add; |x| for p = 1, pow(|x|, p) then pow(sum, 1/p) otherwise.
template <typename T>
T norm_row(const T* x, int64_t n, double p, bool vectorized) {
  if (p == 2 && vectorized) {
    constexpr int64_t L = std::is_same_v<T, float> ? 8 : 4;
    T lanes[L] = {};
    const int64_t vec_end = n - n % L;
    for (int64_t d = 0; d < vec_end; d += L)
      for (int64_t l = 0; l < L; ++l) {
        const T sq = x[d + l] * x[d + l];
        lanes[l] = lanes[l] + sq;
      }
    T acc = lanes[0];
    for (int64_t l = 1; l < L; ++l) acc = acc + lanes[l];
    int64_t d = vec_end;
    if constexpr (std::is_same_v<T, float>) {
      const int64_t tail = n - vec_end;
      for (const int64_t end = d + tail - tail % 4; d < end; ++d) {
        const T sq = x[d] * x[d];
        acc = acc + sq;
      }
    }
    for (; d < n; ++d) acc = std::fma(x[d], x[d], acc);
    return std::sqrt(acc);
  }
  T acc = 0;
  const T tp = static_cast<T>(p);
  for (int64_t k = 0; k < n; ++k) {
    if (p == 2) {
      const T sq = x[k] * x[k];
      acc = acc + sq;
    } else if (p == 1) {
      acc = acc + std::abs(x[k]);
    } else {
      acc = acc + std::pow(std::abs(x[k]), tp);
    }
  }
  if (p == 2) return std::sqrt(acc);
  if (p == 1) return acc;
  return std::pow(acc, static_cast<T>(1) / tp);
}

// p-norm over `dim` (all dims when empty): inf / -inf are max / min |x|, 0 counts nonzeros.
Tensor norm_cpu(const Tensor& self, const std::optional<Scalar>& p_opt, IntArrayRef dim, bool keepdim) {
  ReductionGeometry g = norm_geometry(self, dim, keepdim);
  const double p = p_opt ? p_opt->to_double() : 2.0;
  Rows r = rows_of(self, g.reduced);
  Tensor out = make_empty(g.out_sizes, self.dtype(), self.device());
  const void* src = r.data.impl()->raw_data();
  // The rows are the input's own memory when it is contiguous and the reduced dims are its last.
  const bool last_dims = self.is_contiguous() && reduced_dims_trail(self, g.reduced);
  const bool own_precision = (self.dtype() == ScalarType::Float || self.dtype() == ScalarType::Double) &&
                             !std::isinf(p) && p != 0 && g.out_dtype == self.dtype();
  for (int64_t o = 0; o < r.outer; ++o) {
    if (own_precision) {
      visit_dtype(self.dtype(), [&]<typename T>() {
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
          out.data_ptr<T>()[o] = norm_row<T>(static_cast<const T*>(src) + o * r.len, r.len, p, last_dims);
      });
      continue;
    }
    double acc = std::isinf(p) ? (p > 0 ? 0.0 : INFINITY) : 0.0;
    bool nan = false;
    for (int64_t k = 0; k < r.len; ++k) {
      const double a = std::abs(cpu::load_as<double>(src, self.dtype(), o * r.len + k));
      nan = nan || std::isnan(a);
      if (std::isinf(p)) acc = p > 0 ? std::max(acc, a) : std::min(acc, a);
      else if (p == 0) acc += a != 0 ? 1.0 : 0.0;
      else if (p == 1) acc += a;
      else if (p == 2) acc += a * a;
      else acc += std::pow(a, p);
    }
    double v = acc;
    if (nan) v = NAN;
    else if (p == 2) v = std::sqrt(acc);
    else if (!std::isinf(p) && p != 0 && p != 1) v = std::pow(acc, 1.0 / p);
    cpu::store_as<double>(out.impl()->raw_data(), out.dtype(), o, v);
  }
  return out;
}

// linalg.vector_norm (torch.norm and Tensor.norm in 2.15): the p-norm kernel above, in `dtype`
// when one is given (the input converted to it first, never narrowed).
Tensor linalg_vector_norm_cpu(const Tensor& self, const Scalar& ord, std::optional<IntArrayRef> dim, bool keepdim,
                              std::optional<ScalarType> dtype) {
  check_vector_norm_args(self, dtype);
  Tensor in = self;
  if (dtype && *dtype != self.dtype()) {
    in = make_empty(self.sizes(), *dtype, self.device());
    copy_cpu_(in, self, false);
  }
  return norm_cpu(in, ord, dim.value_or(IntArrayRef{}), keepdim);
}

}  // namespace ipt::native
