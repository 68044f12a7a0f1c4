// CPU factories: allocation, arange's fill, random fills.
#include <cmath>
#include <random>

#include "backends/cpu/cpu_loops.h"
#include "core/ops/generator.h"
#include "core/ops/scalar_tensor.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

int64_t arange_length(const Scalar& start, const Scalar& end, const Scalar& step);

Tensor empty_cpu(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory, std::optional<MemoryFormat> memory_format) {
  return make_empty(size, dtype.value_or(ScalarType::Float), Device(DeviceType::CPU));
}

Tensor empty_strided_cpu(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                         std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  IPT_CHECK(size.size() == stride.size(), RuntimeError, "mismatch in length of strides and shape");
  ScalarType dt = dtype.value_or(ScalarType::Float);
  int64_t span = numel_of(size) == 0 ? 0 : 1;
  for (size_t i = 0; i < size.size() && span; ++i) span += (size[i] - 1) * stride[i];
  Tensor base = make_empty(std::vector<int64_t>{span}, dt, Device(DeviceType::CPU));
  Tensor out = make_view(base, std::vector<int64_t>(size.begin(), size.end()),
                         std::vector<int64_t>(stride.begin(), stride.end()), 0);
  out.impl()->set_is_view(false);  // a new tensor (its storage is nobody else's), not a view
  return out;
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

template <typename Dist>
static Tensor random_fill(const Tensor& self, Dist dist, const std::optional<Generator>& generator) {
  auto& gen = engine_of(generator);
  visit_dtype(self.dtype(), [&]<typename T>() {
    T* p = static_cast<T*>(self.impl()->raw_data());
    std::array<std::vector<int64_t>, 1> st{self.strides()};
    cpu::for_each_offsets<1>(self.sizes(), st, [&](int64_t o) { p[o] = static_cast<T>(dist(gen)); });
  });
  return self;
}

Tensor normal_cpu_(const Tensor& self, double mean, double std, std::optional<Generator> generator) {
  IPT_CHECK(std >= 0.0, RuntimeError, "normal expects std >= 0.0, but found std ", std);
  IPT_CHECK(is_floating(self.dtype()), RuntimeError, "\"normal_kernel_cpu\" not implemented for '",
            dtype_cpp_name(self.dtype()), "'");
  return random_fill(self, std::normal_distribution<double>(mean, std), generator);
}

Tensor uniform_cpu_(const Tensor& self, double from, double to, std::optional<Generator> generator) {
  IPT_CHECK(is_floating(self.dtype()), RuntimeError, "\"check_uniform_bounds\" not implemented for '",
            dtype_cpp_name(self.dtype()), "'");
  IPT_CHECK(from <= to, RuntimeError, "uniform_ expects to return a [from, to) range, but found from=", from, " > to=", to);
  return random_fill(self, std::uniform_real_distribution<double>(from, to), generator);
}

// linspace: start + step * i for the first half, end - step * (steps - 1 - i) for the second (so
// both ends are exact), as PyTorch's kernel; integer dtypes step in double and truncate.
Tensor linspace_out_cpu(const Scalar& start, const Scalar& end, int64_t steps, const Tensor& out) {
  check_space(steps, out, "linspace_cpu");
  out.impl()->resize_contiguous({steps});
  visit_dtype(out.dtype(), [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      using S = std::conditional_t<std::is_integral_v<T>, double, opmath_t<T>>;
      const T s = start.to<T>(), e = end.to<T>();
      const S step = steps > 1 ? (static_cast<S>(e) - static_cast<S>(s)) / static_cast<S>(steps - 1) : S(0);
      const int64_t halfway = steps / 2;
      T* p = out.data_ptr<T>();
      if (steps == 1) p[0] = s;  // one step is start (PyTorch fills it)
      for (int64_t i = 0; steps > 1 && i < steps; ++i)
        p[i] = i < halfway ? static_cast<T>(s + step * static_cast<S>(i)) : static_cast<T>(e - step * static_cast<S>(steps - i - 1));
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
      const double x = (steps == 1 || !is_floating(out.dtype()) || i < halfway) ? s + step * static_cast<double>(i)
                                                                  : e - step * static_cast<double>(steps - i - 1);
      p[i] = static_cast<T>(std::pow(base, x));
    }
  });
  return out;
}

// Integers uniform in [from, to) (to defaults to the largest value the dtype holds exactly).
Tensor random_from_cpu_(const Tensor& self, int64_t from, std::optional<int64_t> to, std::optional<Generator> generator) {
  const int64_t hi = random_upper_bound(self, from, to);
  std::uniform_int_distribution<int64_t> dist(from, hi - 1);
  return random_fill(self, dist, generator);
}

// normal(mean tensor, std number): N(0, std) samples shifted by mean.
Tensor normal_tensor_float_cpu(const Tensor& mean, double std, std::optional<Generator> generator) {
  IPT_CHECK(std >= 0.0, RuntimeError, "normal expects std >= 0.0, but found std ", std);
  Tensor out = make_empty(mean.sizes(), mean.dtype(), mean.device());
  normal_cpu_(out, 0.0, std, generator);
  return add_cpu_(out, mean, 1);
}

// normal(mean number, std tensor): N(0, 1) samples scaled by std and shifted by mean.
Tensor normal_float_tensor_cpu(double mean, const Tensor& std, std::optional<Generator> generator) {
  check_normal_std(std);
  Tensor out = make_empty(std.sizes(), std.dtype(), std.device());
  normal_cpu_(out, 0.0, 1.0, generator);
  mul_cpu_(out, std);
  return add_cpu_(out, wrapped_scalar_tensor(mean), 1);
}

// normal(mean tensor, std tensor): the two broadcast together.
Tensor normal_tensor_tensor_cpu(const Tensor& mean, const Tensor& std, std::optional<Generator> generator) {
  check_normal_std(std);
  Tensor out = make_empty(broadcast_shapes(mean.sizes(), std.sizes()), promote_types(mean.dtype(), std.dtype()), mean.device());
  normal_cpu_(out, 0.0, 1.0, generator);
  mul_cpu_(out, std);
  return add_cpu_(out, mean, 1);
}

}  // namespace ipt::native
