// CPU factories: allocation, arange's fill, random fills.
#include <random>

#include "backends/cpu/cpu_loops.h"
#include "core/ops/generator.h"
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
  return random_fill(self, std::normal_distribution<double>(mean, std), generator);
}

Tensor uniform_cpu_(const Tensor& self, double from, double to, std::optional<Generator> generator) {
  IPT_CHECK(from <= to, RuntimeError, "uniform_ expects to return a [from, to) range, but found from=", from, " > to=", to);
  return random_fill(self, std::uniform_real_distribution<double>(from, to), generator);
}

}  // namespace ipt::native
