// bincount (how many times each non-negative integer occurs, or the sum of its weights) and the
// row / column indices of a matrix's lower or upper triangle (tril_indices, triu_indices), as
// PyTorch 2.15's CPU kernels compute them.
#include <algorithm>
#include <vector>

#include "backends/cpu/reduction_rows.h"
#include "core/ops/shape_rules.h"
#include "core/util/error.h"
#include "core/util/interrupt.h"
#include "generated/native_functions.h"
#include "generated/ops.h"

namespace ipt::native {

namespace {
// The counts, or the weights summed one after another in W (float for float weights, double for
// any other), over bins [0, max(self.max() + 1, minlength)).
template <typename I>
Tensor bincount_of(const Tensor& self, const Tensor& weights, int64_t minlength) {
  const Tensor x = contiguous_data(self);
  const I* p = x.data_ptr<I>();
  const int64_t n = x.numel();
  int64_t bins = minlength;
  for (int64_t i = 0; i < n; ++i) {
    IPT_CHECK(static_cast<int64_t>(p[i]) >= 0, RuntimeError,
              "bincount only supports 1-d non-negative integral inputs.");
    bins = std::max<int64_t>(bins, static_cast<int64_t>(p[i]) + 1);
  }
  if (!weights.defined()) {
    Tensor out = ops::zeros(std::vector<int64_t>{bins}, ScalarType::Long, std::nullopt, self.device());
    int64_t* o = out.data_ptr<int64_t>();
    for (int64_t i = 0; i < n; ++i) ++o[static_cast<int64_t>(p[i])];
    return out;
  }
  const ScalarType wt = weights.dtype() == ScalarType::Float ? ScalarType::Float : ScalarType::Double;
  const Tensor w = contiguous_data(weights.dtype() == wt ? weights : ops::_to_copy(weights, wt));
  Tensor out = ops::zeros(std::vector<int64_t>{bins}, wt, std::nullopt, self.device());
  visit_dtype(wt, [&]<typename W>() {
    if constexpr (std::is_same_v<W, float> || std::is_same_v<W, double>) {
      const W* pw = w.data_ptr<W>();
      W* o = out.data_ptr<W>();
      for (int64_t i = 0; i < n; ++i) o[static_cast<int64_t>(p[i])] += pw[i];
    }
  });
  return out;
}

// (2, n) indices of the elements (r, c) of a row x col matrix with c - r <= offset (lower) or
// c - r >= offset (upper), row by row.
Tensor triangle_indices(int64_t row, int64_t col, int64_t offset, std::optional<ScalarType> dtype,
                        std::optional<Device> device, bool lower, const char* name) {
  const ScalarType dt = dtype.value_or(ScalarType::Long);
  triangle_indices_count(row, col, offset, dt, lower, name);
  std::vector<int64_t> rows, cols;
  for (int64_t r = 0; r < row; ++r) {
    const int64_t lo = lower ? 0 : std::max<int64_t>(0, r + offset);
    const int64_t hi = lower ? std::min<int64_t>(col, r + offset + 1) : col;
    for (int64_t c = lo; c < hi; ++c) {
      rows.push_back(r);
      cols.push_back(c);
    }
  }
  const int64_t n = static_cast<int64_t>(rows.size());
  Tensor out =
      ops::empty_memory_format(std::vector<int64_t>{2, n}, dt, std::nullopt, device, std::nullopt, std::nullopt);
  visit_dtype(dt, [&]<typename T>() {
    if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, int32_t>) {
      T* o = out.data_ptr<T>();
      for (int64_t i = 0; i < n; ++i) {
        o[i] = static_cast<T>(rows[static_cast<size_t>(i)]);
        o[n + i] = static_cast<T>(cols[static_cast<size_t>(i)]);
      }
    }
  });
  return out;
}
}  // namespace

Tensor bincount_cpu(const Tensor& self, const std::optional<Tensor>& weights, int64_t minlength) {
  IPT_CHECK(minlength >= 0, RuntimeError, "minlength should be >= 0");
  IPT_CHECK(!is_floating(self.dtype()) && self.dtype() != ScalarType::Bool, NotImplementedError,
            "\"bincount_cpu\" not implemented for '", dtype_cpp_name(self.dtype()), "'");
  if (self.dim() == 1 && self.numel() == 0)
    return ops::zeros(std::vector<int64_t>{minlength}, ScalarType::Long, std::nullopt, self.device());
  IPT_CHECK(self.dim() == 1, RuntimeError, "bincount only supports 1-d non-negative integral inputs.");
  const Tensor w = weights && weights->defined() ? *weights : Tensor();
  if (w.defined())
    IPT_CHECK(w.dim() == 1 && w.size(0) == self.size(0), RuntimeError,
              "weights should be 1-d and have the same length as input");
  Tensor out;
  visit_dtype(self.dtype(), [&]<typename I>() {
    if constexpr (std::is_integral_v<I> && !std::is_same_v<I, bool>) out = bincount_of<I>(self, w, minlength);
  });
  return out;
}

Tensor tril_indices_cpu(int64_t row, int64_t col, int64_t offset, std::optional<ScalarType> dtype,
                        std::optional<Layout>, std::optional<Device> device, std::optional<bool>) {
  return triangle_indices(row, col, offset, dtype, device, true, "tril_indices");
}
Tensor triu_indices_cpu(int64_t row, int64_t col, int64_t offset, std::optional<ScalarType> dtype,
                        std::optional<Layout>, std::optional<Device> device, std::optional<bool>) {
  return triangle_indices(row, col, offset, dtype, device, false, "triu_indices");
}

}  // namespace ipt::native
