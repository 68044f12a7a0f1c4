// CPU factories: allocation, arange's fill, random fills.
#include <cmath>

#include "backends/cpu/cpu_loops.h"
#include "backends/cpu/vml.h"
#include "core/parallel/parallel.h"
#include "core/ops/scalar_tensor.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

int64_t arange_length(const Scalar& start, const Scalar& end, const Scalar& step);

Tensor empty_cpu(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory,
                 std::optional<MemoryFormat> memory_format) {
  return make_empty(size, dtype.value_or(ScalarType::Float), Device(DeviceType::CPU));
}

Tensor empty_strided_cpu(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                         std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  return make_empty_strided(size, stride, dtype.value_or(ScalarType::Float), Device(DeviceType::CPU));
}

Tensor arange_out_cpu(const Scalar& start, const Scalar& end, const Scalar& step, const Tensor& out) {
  int64_t n = arange_length(start, end, step);
  out.impl()->resize_contiguous({n});
  visit_dtype(out.dtype(), [&]<typename T>() {
    T* p = out.data_ptr<T>();
    if (is_integral(out.dtype(), false) && !start.is_floating() && !step.is_floating()) {
      for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(start.to_long() + i * step.to_long());
    } else {
      double s = start.to_double(), st = step.to_double();
      for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(s + static_cast<double>(i) * st);
    }
  });
  return out;
}

// Note [linspace in 2.15]
// linspace as PyTorch 2.15's CPU kernel fills it, one element at a time: start + step * i below
// halfway (steps / 2), end - step * (steps - 1 - i) from there on, so both ends are exact. The
// step and values are computed in double for integer types (the values truncate), in float for
// float16 and bfloat16 (rounded once, the product rounded before the sum), in the output type
// otherwise, where the multiply-adds are fused, as the compiled kernel fuses them. The elements
// are split over threads (each is computed on its own, so the values do not depend on it).
template <typename T, typename S>
[[gnu::always_inline]] inline void linspace_fill(T* p, S s, S e, S step, int64_t steps, int64_t b, int64_t end) {
  constexpr bool fused = std::is_same_v<T, S>;
  for (int64_t i = b; i < end; ++i) {
    S v;
    if constexpr (fused)
      v = i < steps / 2 ? std::fma(step, static_cast<S>(i), s) : std::fma(-step, static_cast<S>(steps - i - 1), e);
    else v = i < steps / 2 ? s + step * static_cast<S>(i) : e - step * static_cast<S>(steps - i - 1);
    p[i] = static_cast<T>(v);
  }
}
template <typename T, typename S>
void linspace_fill_any(T* p, S s, S e, S step, int64_t steps, int64_t b, int64_t end) {
  linspace_fill(p, s, e, step, steps, b, end);
}
template <typename T, typename S>
[[gnu::target("avx2,fma")]] void linspace_fill_avx2(T* p, S s, S e, S step, int64_t steps, int64_t b, int64_t end) {
  linspace_fill(p, s, e, step, steps, b, end);  // std::fma one instruction
}

Tensor linspace_out_cpu(const Scalar& start, const Scalar& end, int64_t steps, const Tensor& out) {
  check_space(steps, out, "linspace_cpu");
  out.impl()->resize_contiguous({steps});
  visit_dtype(out.dtype(), [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      using S = std::conditional_t<std::is_integral_v<T>, double, opmath_t<T>>;
      const S s = static_cast<S>(start.to<T>()), e = static_cast<S>(end.to<T>());
      const S step = steps > 1 ? (e - s) / static_cast<S>(steps - 1) : S(0);
      T* p = out.data_ptr<T>();
      if (steps == 1) p[0] = static_cast<T>(s);  // one step is start (PyTorch fills it)
      if (steps <= 1) return;
      const bool avx2 = cpu::has_avx2();
      parallel_for(0, steps, kGrainSize, [&](int64_t b, int64_t e_) {
        if (avx2) linspace_fill_avx2(p, s, e, step, steps, b, e_);
        else linspace_fill_any(p, s, e, step, steps, b, e_);
      });
    }
  });
  return out;
}

Tensor logspace_out_cpu(const Scalar& start, const Scalar& end, int64_t steps, double base, const Tensor& out) {
  check_space(steps, out, "logspace_cpu");
  out.impl()->resize_contiguous({steps});
  const double s = start.to_double(), e = end.to_double();
  const double step = steps > 1 ? (e - s) / static_cast<double>(steps - 1) : 0.0;
  const int64_t halfway = steps / 2;
  visit_dtype(out.dtype(), [&]<typename T>() {
    T* p = out.data_ptr<T>();
    for (int64_t i = 0; i < steps; ++i) {
      const double x = (steps == 1 || !is_floating(out.dtype()) || i < halfway)
                           ? s + step * static_cast<double>(i)
                           : e - step * static_cast<double>(steps - i - 1);
      p[i] = static_cast<T>(std::pow(base, x));
    }
  });
  return out;
}

}  // namespace ipt::native
