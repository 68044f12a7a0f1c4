// CompositeExplicitAutograd factories: built from empty + an in-place fill, as in PyTorch.
#include <cmath>

#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

using OptDtype = std::optional<ScalarType>;
using OptLayout = std::optional<Layout>;
using OptDevice = std::optional<Device>;
using OptBool = std::optional<bool>;

// Like clone (Note [clone preserves dense layouts]): the default memory format keeps the strides
// of a dense, non-overlapping tensor (zeros_like(x.t()) is transposed too); others get dense
// strides in their own stride order (PyTorch's infer_dense_strides).
Tensor empty_like(const Tensor& self, OptDtype dtype, OptLayout layout, OptDevice device, OptBool pin_memory,
                  std::optional<MemoryFormat> memory_format) {
  if (memory_format.value_or(MemoryFormat::Preserve) == MemoryFormat::Preserve && !self.is_contiguous())
    return ops::empty_strided(self.sizes(),
                              is_non_overlapping_and_dense(self.sizes(), self.strides())
                                  ? self.strides()
                                  : infer_dense_strides(self.sizes(), self.strides()),
                              dtype.value_or(self.dtype()), layout, device.value_or(self.device()), pin_memory);
  return ops::empty_memory_format(self.sizes(), dtype.value_or(self.dtype()), layout, device.value_or(self.device()),
                                  pin_memory, std::nullopt);
}

Tensor zeros(IntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice device, OptBool pin_memory) {
  // PyTorch 2.15's zeros checks its sizes itself, before the allocation's own check.
  for (int64_t s : size) IPT_CHECK(s >= 0, RuntimeError, "zeros: Dimension size must be non-negative.");
  Tensor t = ops::empty_memory_format(size, dtype, layout, device, pin_memory, std::nullopt);
  return ops::fill__Scalar(t, 0);
}

Tensor ones(IntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice device, OptBool pin_memory) {
  Tensor t = ops::empty_memory_format(size, dtype, layout, device, pin_memory, std::nullopt);
  return ops::fill__Scalar(t, 1);
}

Tensor full(IntArrayRef size, const Scalar& fill_value, OptDtype dtype, OptLayout layout, OptDevice device,
            OptBool pin_memory) {
  // Like PyTorch: the dtype follows the fill value when none is given.
  ScalarType dt = dtype.value_or(fill_value.is_floating() ? ScalarType::Float
                                 : fill_value.is_bool()   ? ScalarType::Bool
                                                          : ScalarType::Long);
  Tensor t = ops::empty_memory_format(size, dt, layout, device, pin_memory, std::nullopt);
  return ops::fill__Scalar(t, fill_value);
}

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, OptDtype dtype, OptLayout layout,
              OptDevice device, OptBool pin_memory) {
  bool any_float = start.is_floating() || end.is_floating() || step.is_floating();
  ScalarType dt = dtype.value_or(any_float ? ScalarType::Float : ScalarType::Long);
  Tensor out = ops::empty_memory_format(std::vector<int64_t>{0}, dt, layout, device, pin_memory, std::nullopt);
  return ops::arange_start_out(start, end, step, out);
}

Tensor arange(const Scalar& start, const Scalar& end, OptDtype dtype, OptLayout layout, OptDevice device,
              OptBool pin_memory) {
  return arange(start, end, Scalar(int64_t(1)), dtype, layout, device, pin_memory);
}

Tensor arange(const Scalar& end, OptDtype dtype, OptLayout layout, OptDevice device, OptBool pin_memory) {
  return arange(Scalar(int64_t(0)), end, Scalar(int64_t(1)), dtype, layout, device, pin_memory);
}

Tensor randn(IntArrayRef size, std::optional<Generator> generator, OptDtype dtype, OptLayout layout, OptDevice device,
             OptBool pin_memory) {
  ScalarType dt = dtype.value_or(ScalarType::Float);
  IPT_CHECK(is_floating(dt), NotImplementedError, "\"normal_kernel_cpu\" not implemented for '", dtype_cpp_name(dt),
            "'");
  Tensor t = ops::empty_memory_format(size, dt, layout, device, pin_memory, std::nullopt);
  return ops::normal_(t, 0.0, 1.0, generator);
}

Tensor randn(IntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice device, OptBool pin_memory) {
  return randn(size, std::nullopt, dtype, layout, device, pin_memory);
}

Tensor rand(IntArrayRef size, std::optional<Generator> generator, OptDtype dtype, OptLayout layout, OptDevice device,
            OptBool pin_memory) {
  ScalarType dt = dtype.value_or(ScalarType::Float);
  IPT_CHECK(is_floating(dt), NotImplementedError, "\"check_uniform_bounds\" not implemented for '", dtype_cpp_name(dt),
            "'");
  Tensor t = ops::empty_memory_format(size, dt, layout, device, pin_memory, std::nullopt);
  return ops::uniform_(t, 0.0, 1.0, generator);
}

Tensor rand(IntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice device, OptBool pin_memory) {
  return rand(size, std::nullopt, dtype, layout, device, pin_memory);
}

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, OptDtype dtype, OptLayout layout,
                OptDevice device, OptBool pin_memory) {
  IPT_CHECK(steps >= 0, RuntimeError, "number of steps must be non-negative");
  Tensor out = ops::empty_memory_format(std::vector<int64_t>{steps}, dtype.value_or(ScalarType::Float), layout, device,
                                        pin_memory, std::nullopt);
  return ops::linspace_out(start, end, steps, out);
}

Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base, OptDtype dtype, OptLayout layout,
                OptDevice device, OptBool pin_memory) {
  IPT_CHECK(steps >= 0, RuntimeError, "number of steps must be non-negative");
  Tensor out = ops::empty_memory_format(std::vector<int64_t>{steps}, dtype.value_or(ScalarType::Float), layout, device,
                                        pin_memory, std::nullopt);
  return ops::logspace_out(start, end, steps, base, out);
}

// eye(n, m): zeros with ones on the main diagonal.
Tensor eye(int64_t n, int64_t m, OptDtype dtype, OptLayout layout, OptDevice device, OptBool pin_memory) {
  IPT_CHECK(n >= 0, RuntimeError, "n must be greater or equal to 0, got ", n);
  IPT_CHECK(m >= 0, RuntimeError, "m must be greater or equal to 0, got ", m);
  Tensor out = ops::zeros(std::vector<int64_t>{n, m}, dtype, layout, device, pin_memory);
  ops::fill__Scalar(ops::diagonal(out), 1);
  return out;
}

Tensor eye(int64_t n, OptDtype dtype, OptLayout layout, OptDevice device, OptBool pin_memory) {
  return eye(n, n, dtype, layout, device, pin_memory);
}

// A 0-dim tensor holding s (float32 unless a dtype is given, whatever the number's type).
Tensor scalar_tensor(const Scalar& s, OptDtype dtype, OptLayout layout, OptDevice device, OptBool pin_memory) {
  Tensor t = ops::empty_memory_format(std::vector<int64_t>{}, dtype.value_or(ScalarType::Float), layout, device,
                                      pin_memory, std::nullopt);
  return ops::fill__Scalar(t, s);
}

Tensor rand_like(const Tensor& self, OptDtype dtype, OptLayout layout, OptDevice device, OptBool pin_memory,
                 std::optional<MemoryFormat> memory_format) {
  return ops::uniform_(ops::empty_like(self, dtype, layout, device, pin_memory, memory_format), 0.0, 1.0);
}

Tensor randn_like(const Tensor& self, OptDtype dtype, OptLayout layout, OptDevice device, OptBool pin_memory,
                  std::optional<MemoryFormat> memory_format) {
  return ops::normal_(ops::empty_like(self, dtype, layout, device, pin_memory, memory_format), 0.0, 1.0);
}

// randint: integers uniform in [low, high), int64 unless a dtype is given.
Tensor randint(int64_t low, int64_t high, IntArrayRef size, std::optional<Generator> generator, OptDtype dtype,
               OptLayout layout, OptDevice device, OptBool pin_memory) {
  Tensor t = ops::empty_memory_format(size, dtype.value_or(ScalarType::Long), layout, device, pin_memory, std::nullopt);
  return ops::random__from(t, low, high, generator);
}

Tensor randint(int64_t low, int64_t high, IntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice device,
               OptBool pin_memory) {
  return randint(low, high, size, std::nullopt, dtype, layout, device, pin_memory);
}

Tensor randint(int64_t high, IntArrayRef size, std::optional<Generator> generator, OptDtype dtype, OptLayout layout,
               OptDevice device, OptBool pin_memory) {
  return randint(0, high, size, generator, dtype, layout, device, pin_memory);
}

Tensor randint(int64_t high, IntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice device, OptBool pin_memory) {
  return randint(0, high, size, std::nullopt, dtype, layout, device, pin_memory);
}

// randperm: a random permutation of 0..n-1 (Fisher-Yates in the out kernel).
Tensor randperm(int64_t n, std::optional<Generator> generator, OptDtype dtype, OptLayout layout, OptDevice device,
                OptBool pin_memory) {
  Tensor t = ops::empty_memory_format(std::vector<int64_t>{n}, dtype.value_or(ScalarType::Long), layout, device,
                                      pin_memory, std::nullopt);
  return ops::randperm_generator_out(n, generator, t);
}

Tensor randperm(int64_t n, OptDtype dtype, OptLayout layout, OptDevice device, OptBool pin_memory) {
  return randperm(n, std::nullopt, dtype, layout, device, pin_memory);
}

Tensor random_to_(const Tensor& self, int64_t to, std::optional<Generator> generator) {
  return ops::random__from(self, 0, to, generator);
}

// bernoulli(p): 1 with probability p[i] for each element; bernoulli(self, p): with probability p.
Tensor bernoulli(const Tensor& self, std::optional<Generator> generator) {
  return ops::bernoulli__Tensor(
      ops::empty_like(self, std::nullopt, std::nullopt, std::nullopt, std::nullopt, MemoryFormat::Contiguous), self,
      generator);
}

Tensor bernoulli(const Tensor& self, double p, std::optional<Generator> generator) {
  return ops::bernoulli__float(
      ops::empty_like(self, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt), p, generator);
}

// normal(mean, std, size): N(mean, std) samples of the given size.
Tensor normal(double mean, double std, IntArrayRef size, std::optional<Generator> generator, OptDtype dtype,
              OptLayout layout, OptDevice device, OptBool pin_memory) {
  Tensor t = ops::empty_memory_format(size, dtype, layout, device, pin_memory, std::nullopt);
  return ops::normal_(t, mean, std, generator);
}

// Tensor.new_*: a new tensor with self's dtype and device unless others are given.
Tensor new_empty(const Tensor& self, IntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice device,
                 OptBool pin_memory) {
  return ops::empty_memory_format(size, dtype.value_or(self.dtype()), layout, device.value_or(self.device()),
                                  pin_memory, std::nullopt);
}

Tensor new_zeros(const Tensor& self, IntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice device,
                 OptBool pin_memory) {
  return ops::zero_(ops::new_empty(self, size, dtype, layout, device, pin_memory));
}

Tensor new_ones(const Tensor& self, IntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice device,
                OptBool pin_memory) {
  return ops::fill__Scalar(ops::new_empty(self, size, dtype, layout, device, pin_memory), 1);
}

Tensor new_full(const Tensor& self, IntArrayRef size, const Scalar& fill_value, OptDtype dtype, OptLayout layout,
                OptDevice device, OptBool pin_memory) {
  return ops::fill__Scalar(ops::new_empty(self, size, dtype, layout, device, pin_memory), fill_value);
}

// Shared by the CPU and Meta arange kernels: the number of elements, with PyTorch's checks.
int64_t arange_length(const Scalar& start, const Scalar& end, const Scalar& step) {
  double s = start.to_double(), e = end.to_double(), st = step.to_double();
  IPT_CHECK(st != 0, RuntimeError, "step must be nonzero");
  IPT_CHECK(std::isfinite(s) && std::isfinite(e), RuntimeError, "unsupported range: ", s, " -> ", e);
  IPT_CHECK((st > 0 && e >= s) || (st < 0 && e <= s), RuntimeError,
            "upper bound and lower bound inconsistent with step sign");
  if (!start.is_floating() && !end.is_floating() && !step.is_floating()) {
    int64_t is = start.to_long(), ie = end.to_long(), ist = step.to_long();
    return (ie - is + ist + (ist > 0 ? -1 : 1)) / ist;
  }
  return static_cast<int64_t>(std::ceil((e - s) / st));
}

}  // namespace ipt::native
