// CPU random kernels: each draws from its generator exactly as PyTorch 2.15's CPU kernel does
// (the same transforms, in the same element order, with the same fast paths), so that a seed
// gives PyTorch's values. The transforms are in core/random/distributions.h.
#include <algorithm>
#include <cmath>
#include <mutex>
#include <numbers>

#include "backends/cpu/cpu_loops.h"
#include "backends/cpu/into_kernels.h"
#include "core/ops/generator.h"
#include "core/ops/scalar_tensor.h"
#include "core/ops/shape_rules.h"
#include "core/random/avx2_box_muller.h"
#include "core/random/distributions.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"
#include "generated/ops.h"

namespace ipt::native {

using random::CpuGenerator;

namespace {

// f(b, e) over [0, n) in pieces of at most one interrupt chunk, a stop request seen between them.
template <typename F>
void for_each_chunk(int64_t n, const F& f) {
  for (int64_t b = 0; b < n; b += cpu::kInterruptChunk) {
    check_interrupt();
    f(b, std::min(n, b + cpu::kInterruptChunk));
  }
}

// Writes draw() into every element of `self`, in TensorIterator's order (a serial kernel).
template <typename T, typename Draw>
void serial_fill(const Tensor& self, Draw&& draw) {
  T* p = static_cast<T*>(self.impl()->raw_data());
  if (self.is_contiguous()) {  // memory order is index order
    for_each_chunk(self.numel(), [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) p[i] = draw();
    });
    return;
  }
  const cpu::IterationOrder order = cpu::memory_order(self);
  std::array<std::vector<int64_t>, 1> st{order.strides};
  cpu::for_each_offsets<1>(order.sizes, st, [&](int64_t o) { p[o] = draw(); });
}

// The generator, locked for the duration of one kernel (PyTorch takes the same lock).
struct LockedGenerator {
  explicit LockedGenerator(const std::optional<Generator>& g) : gen(generator_of(g)), lock(gen.mutex()) {}
  CpuGenerator& gen;
  std::lock_guard<std::mutex> lock;
};

void check_floating(const Tensor& t, const char* kernel) {
  IPT_CHECK(is_floating(t.dtype()), NotImplementedError, "\"", kernel, "\" not implemented for '",
            dtype_cpp_name(t.dtype()), "'");
}

// Box-Muller over 8 u1 and 8 u2 double draws (PyTorch's scalar NormalFill16<double>).
void box_muller_16_double(double* data, double mean, double std) {
  for (int j = 0; j < 8; ++j) {
    const double u1 = 1.0 - data[j];
    const double u2 = data[j + 8];
    const double radius = std::sqrt(-2.0 * std::log(u1));
    const double theta = 2.0 * std::numbers::pi * u2;
    data[j] = std::fma(radius * std::cos(theta), std, mean);
    data[j + 8] = std::fma(radius * std::sin(theta), std, mean);
  }
}

// Note [normal_ of 16 or more elements]
// PyTorch's path for 16 or more contiguous elements: uniform draws in the opmath type (float
// for float16 and bfloat16, as PyTorch 2.15 does), Box-Muller over blocks of 16 (the AVX2 kernel
// for float, scalar code for double), and when the size is not a multiple of 16 the last 16
// drawn again. float and double draw every element first and transform in place; float16 and
// bfloat16 draw, transform and round one block of 16 floats at a time, which takes the same
// draws in the same order.
template <typename T>
void normal_fill(CpuGenerator& gen, T* data, int64_t size, double mean, double std) {
  using M = opmath_t<T>;
  auto fill_16 = [&](M* block) {
    if constexpr (std::is_same_v<M, float>)
      random::box_muller_16_avx2(block, static_cast<float>(mean), static_cast<float>(std));
    else box_muller_16_double(block, mean, std);
  };
  if constexpr (std::is_same_v<T, M>) {
    for_each_chunk(size, [&](int64_t b, int64_t e) {
      if constexpr (std::is_same_v<M, float>) random::uniform_floats(gen, data + b, e - b);
      else
        for (int64_t i = b; i < e; ++i) data[i] = random::uniform_real<M>(gen, M(0), M(1));
    });
    for (int64_t i = 0; i + 16 <= size; i += cpu::kInterruptChunk) {
      check_interrupt();
      const int64_t blocks = std::min(size - i, cpu::kInterruptChunk) / 16;
      if constexpr (std::is_same_v<M, float>)
        random::box_muller_blocks_avx2(data + i, blocks, static_cast<float>(mean), static_cast<float>(std));
      else
        for (int64_t b = 0; b < blocks; ++b) fill_16(data + i + 16 * b);
    }
    if (size % 16 != 0) {
      T* tail = data + size - 16;
      for (int i = 0; i < 16; ++i) tail[i] = random::uniform_real<M>(gen, M(0), M(1));
      fill_16(tail);
    }
  } else {
    M buf[16];
    auto block = [&](T* out) {
      random::uniform_floats(gen, buf, 16);
      fill_16(buf);
      for (int j = 0; j < 16; ++j) out[j] = static_cast<T>(buf[j]);
    };
    for (int64_t i = 0; i + 16 <= size; i += 16) {
      if ((i & (cpu::kInterruptChunk - 1)) == 0) check_interrupt();
      block(data + i);
    }
    if (size % 16 != 0) block(data + size - 16);
  }
}

}  // namespace

Tensor normal_cpu_(const Tensor& self, double mean, double std, std::optional<Generator> generator) {
  IPT_CHECK(std >= 0.0, RuntimeError, "normal expects std >= 0.0, but found std ", std);
  check_floating(self, "normal_kernel_cpu");
  LockedGenerator g(generator);
  const int64_t size = self.numel();
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (is_float_v<T>) {
      if (size >= 16 && self.is_contiguous()) {
        normal_fill<T>(g.gen, static_cast<T*>(self.impl()->raw_data()), size, mean, std);
      } else {
        serial_fill<T>(self, [&] { return static_cast<T>(random::normal_double(g.gen, mean, std)); });
      }
    }
  });
  return self;
}

Tensor uniform_cpu_(const Tensor& self, double from, double to, std::optional<Generator> generator) {
  check_floating(self, "check_uniform_bounds");
  IPT_CHECK(from <= to, RuntimeError, "uniform_ expects to return a [from, to) range, but found from=", from,
            " > to=", to);
  LockedGenerator g(generator);
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (is_float_v<T>) {
      // Drawn in the opmath type; a value that rounds up to `to` becomes `from` (2.15).
      using M = opmath_t<T>;
      const M lo = static_cast<M>(from), hi = static_cast<M>(to);
      const T from_t = static_cast<T>(from), to_t = static_cast<T>(to);
      if constexpr (std::is_same_v<T, float>) {
        if (self.is_contiguous()) {  // the same draws in runs, then uniform_real's arithmetic
          float* data = static_cast<float*>(self.impl()->raw_data());
          for_each_chunk(self.numel(), [&](int64_t b, int64_t e) {
            random::uniform_floats(g.gen, data + b, e - b);
            if (lo != 0.0f || hi != 1.0f)
              for (int64_t i = b; i < e; ++i) {
                const float v = std::fma(data[i], hi - lo, lo);
                data[i] = v == to_t ? from_t : v;
              }
          });
          return;
        }
      }
      serial_fill<T>(self, [&] {
        const T v = static_cast<T>(random::uniform_real<M>(g.gen, lo, hi));
        return v == to_t ? from_t : v;
      });
    }
  });
  return self;
}

Tensor random_from_cpu_(const Tensor& self, int64_t from, std::optional<int64_t> to,
                        std::optional<Generator> generator) {
  const std::optional<uint64_t> range = random_range(self, from, to);
  LockedGenerator g(generator);
  visit_dtype(self.dtype(), [&]<typename T>() {
    if (!range) serial_fill<T>(self, [&] { return random::uniform_int_full_range<T>(g.gen); });
    else serial_fill<T>(self, [&] { return random::uniform_int_from_to<T>(g.gen, *range, from); });
  });
  return self;
}

Tensor random_cpu_(const Tensor& self, std::optional<Generator> generator) {
  LockedGenerator g(generator);
  visit_dtype(self.dtype(),
              [&]<typename T>() { serial_fill<T>(self, [&] { return random::uniform_int_full<T>(g.gen); }); });
  return self;
}

Tensor exponential_cpu_(const Tensor& self, double lambd, std::optional<Generator> generator) {
  IPT_CHECK(lambd >= 0.0, RuntimeError, "exponential_ expects lambda >= 0.0, but found lambda=", lambd);
  check_floating(self, "exponential_cpu");
  LockedGenerator g(generator);
  visit_dtype(self.dtype(), [&]<typename T>() {
    serial_fill<T>(self, [&] { return static_cast<T>(random::exponential_double(g.gen, lambd)); });
  });
  return self;
}

// normal(mean tensor, std number): N(0, std) samples shifted by mean.
Tensor normal_tensor_float_cpu(const Tensor& mean, double std, std::optional<Generator> generator) {
  IPT_CHECK(std >= 0.0, RuntimeError, "normal expects std >= 0.0, but found std ", std);
  Tensor out = make_empty(mean.sizes(), mean.dtype(), mean.device());
  normal_cpu_(out, 0.0, std, generator);
  add_into_cpu(out, out, mean, 1);
  return out;
}

// normal(mean number, std tensor): N(0, 1) samples scaled by std and shifted by mean.
Tensor normal_float_tensor_cpu(double mean, const Tensor& std, std::optional<Generator> generator) {
  check_normal_std(std);
  Tensor out = make_empty(std.sizes(), std.dtype(), std.device());
  normal_cpu_(out, 0.0, 1.0, generator);
  mul_into_cpu(out, out, std);
  add_into_cpu(out, out, wrapped_scalar_tensor(mean), 1);
  return out;
}

// normal(mean tensor, std tensor): the two broadcast together.
Tensor normal_tensor_tensor_cpu(const Tensor& mean, const Tensor& std, std::optional<Generator> generator) {
  check_normal_std(std);
  Tensor out =
      make_empty(broadcast_shapes(mean.sizes(), std.sizes()), promote_types(mean.dtype(), std.dtype()), mean.device());
  normal_cpu_(out, 0.0, 1.0, generator);
  mul_into_cpu(out, out, std);
  add_into_cpu(out, out, mean, 1);
  return out;
}

// Each element is 1 when a double U[0, 1) draw is below p.
Tensor bernoulli_scalar_cpu_(const Tensor& self, double p, std::optional<Generator> generator) {
  IPT_CHECK(0 <= p && p <= 1, RuntimeError, "bernoulli_ expects p to be in [0, 1], but got p=", p);
  LockedGenerator g(generator);
  visit_dtype(self.dtype(), [&]<typename T>() {
    serial_fill<T>(self, [&] { return static_cast<T>(random::uniform_real<double>(g.gen, 0.0, 1.0) < p ? 1 : 0); });
  });
  return self;
}

// p broadcast to self; float32 (and Half) probabilities compare with a float draw, double ones
// with a double draw.
Tensor bernoulli_tensor_cpu_(const Tensor& self, const Tensor& p, std::optional<Generator> generator) {
  check_floating(p, "bernoulli_tensor_cpu_p_");
  const Tensor probs = ops::expand(p, self.sizes());
  for (double v : to_double_vector(probs))
    IPT_CHECK(v >= 0 && v <= 1, RuntimeError,
              "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be improved?  "
              "If so, please report an enhancement request to PyTorch.)");
  LockedGenerator g(generator);
  const bool double_draw = p.dtype() == ScalarType::Double;
  const cpu::IterationOrder order = cpu::memory_order(self);
  std::vector<int64_t> prob_strides;
  for (size_t d : order.dims) prob_strides.push_back(probs.strides()[d]);
  const void* pdata = probs.impl()->raw_data();
  visit_dtype(self.dtype(), [&]<typename T>() {
    T* out = static_cast<T*>(self.impl()->raw_data());
    std::array<std::vector<int64_t>, 2> st{order.strides, prob_strides};
    cpu::for_each_offsets<2>(order.sizes, st, [&](int64_t o, int64_t k) {
      const double pv = cpu::load_as<double>(pdata, probs.dtype(), k);
      const bool one = double_draw ? random::uniform_real<double>(g.gen, 0.0, 1.0) < pv
                                   : random::uniform_real<float>(g.gen, 0.0f, 1.0f) < static_cast<float>(pv);
      out[o] = static_cast<T>(one ? 1 : 0);
    });
  });
  return self;
}

Tensor randperm_out_cpu(int64_t n, std::optional<Generator> generator, const Tensor& out) {
  IPT_CHECK(n >= 0, RuntimeError, "n must be non-negative, got", n);
  IPT_CHECK(out.dtype() != ScalarType::Bool, NotImplementedError, "\"randperm\" not implemented for 'Bool'");
  out.impl()->resize_contiguous({n});
  LockedGenerator g(generator);
  visit_dtype(out.dtype(), [&]<typename T>() {
    T* r = out.data_ptr<T>();
    for (int64_t i = 0; i < n; ++i) r[i] = static_cast<T>(i);
    for (int64_t i = 0; i + 1 < n; ++i) {
      if ((i & (cpu::kInterruptChunk - 1)) == 0) check_interrupt();
      const int64_t z = static_cast<int64_t>(g.gen.random() % static_cast<uint64_t>(n - i));
      std::swap(r[i], r[z + i]);
    }
  });
  return out;
}

// multinomial: without replacement (or for one sample), argmax / top-k of p / q with q ~ Exp(1)
// drawn for every element (the exponential trick PyTorch uses); with replacement, a binary search
// of a double U[0, 1) draw in each row's normalised cumulative sums.
Tensor multinomial_cpu(const Tensor& self, int64_t n_sample, bool replacement, std::optional<Generator> generator) {
  check_multinomial(self, n_sample, replacement);
  const int64_t n_cat = self.sizes().back();
  const int64_t n_dist = self.dim() == 2 ? self.sizes()[0] : 1;
  std::vector<int64_t> out_sizes =
      self.dim() == 2 ? std::vector<int64_t>{n_dist, n_sample} : std::vector<int64_t>{n_sample};
  Tensor result = make_empty(out_sizes, ScalarType::Long, self.device());
  int64_t* res = result.data_ptr<int64_t>();
  const Tensor probs = ops::contiguous(self);
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (is_float_v<T>) {
      using A = opmath_t<T>;
      const T* pr = probs.data_ptr<T>();
      if (!replacement || n_sample == 1) {
        for (int64_t k = 0; k < n_dist * n_cat; ++k) {  // every element first, then the sums
          const double v = static_cast<double>(pr[k]);
          IPT_CHECK(v < INFINITY && v >= 0, RuntimeError,
                    "probability tensor contains either `inf`, `nan` or element < 0");
        }
        for (int64_t i = 0; i < n_dist; ++i) {
          double row = 0;
          for (int64_t j = 0; j < n_cat; ++j) row += static_cast<double>(pr[i * n_cat + j]);
          IPT_CHECK(row != 0, RuntimeError, "invalid multinomial distribution (sum of probabilities <= 0)");
        }
        std::vector<T> q(static_cast<size_t>(n_dist * n_cat));
        {
          LockedGenerator g(generator);
          for (auto& v : q) v = static_cast<T>(random::exponential_double(g.gen, 1.0));
        }
        for (size_t k = 0; k < q.size(); ++k) q[k] = static_cast<T>(static_cast<A>(pr[k]) / static_cast<A>(q[k]));
        for (int64_t i = 0; i < n_dist; ++i) {
          std::vector<int64_t> idx(static_cast<size_t>(n_cat));
          for (int64_t j = 0; j < n_cat; ++j) idx[j] = j;
          const T* row = q.data() + i * n_cat;
          // The first n_sample of a stable sort, descending (NaN first), ties in position order:
          // a strict order, so selecting them and then sorting them gives that sort's first ones.
          const auto before = [&](int64_t a, int64_t b) {
            const A x = static_cast<A>(row[a]), y = static_cast<A>(row[b]);
            const bool xn = std::isnan(x), yn = std::isnan(y);
            if (xn != yn) return xn;
            if (!xn && x != y) return x > y;
            return a < b;
          };
          if (n_sample < n_cat) std::nth_element(idx.begin(), idx.begin() + n_sample, idx.end(), before);
          std::sort(idx.begin(), idx.begin() + n_sample, before);
          for (int64_t j = 0; j < n_sample; ++j) res[i * n_sample + j] = idx[j];
        }
        return;
      }
      LockedGenerator g(generator);
      std::vector<A> cum(static_cast<size_t>(n_cat));
      for (int64_t i = 0; i < n_dist; ++i) {
        A sum = 0;
        for (int64_t j = 0; j < n_cat; ++j) {
          const A v = static_cast<A>(pr[i * n_cat + j]);
          IPT_CHECK(v >= 0, RuntimeError, "invalid multinomial distribution (encountering probability entry < 0)");
          IPT_CHECK(std::isfinite(v), RuntimeError,
                    "invalid multinomial distribution (encountering probability entry = infinity or NaN)");
          sum += v;
          cum[j] = sum;
        }
        IPT_CHECK(sum > 0, RuntimeError, "invalid multinomial distribution (sum of probabilities <= 0)");
        for (auto& c : cum) c /= sum;
        for (int64_t j = 0; j < n_sample; ++j) {
          const double u = random::uniform_real<double>(g.gen, 0.0, 1.0);
          cum[n_cat - 1] = 1;  // the last bucket always closes the distribution
          int64_t left = 0, right = n_cat;
          while (right - left > 0) {
            const int64_t mid = left + (right - left) / 2;
            if (cum[mid] < u) left = mid + 1;
            else right = mid;
          }
          res[i * n_sample + j] = left;
        }
      }
    }
  });
  return result;
}

}  // namespace ipt::native
