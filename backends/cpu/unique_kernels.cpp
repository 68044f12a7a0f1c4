// CPU kernels of torch.unique and torch.unique_consecutive: _unique2 (the distinct elements,
// sorted), unique_consecutive (runs of equal elements), unique_dim and unique_dim_consecutive
// (the same over the slices along a dim).
//
// Note [unique's order]
// As 2.15's CPU kernels, _unique2 always sorts (its `sorted` flag changes nothing), stably, with
// NaN last; elements equal under == form one group (-0.0 and 0.0 together, shown as the first
// of the group), while each NaN is a group of its own. unique_dim orders the slices
// lexicographically. The inverse has the input's shape (unique_dim: the dim's size) and maps
// each element to its group; the counts give each group's size. An inverse or counts that was
// not asked for is an empty tensor.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "core/util/interrupt.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

using Result3 = std::tuple<Tensor, Tensor, Tensor>;

Tensor long_tensor(const std::vector<int64_t>& values, std::span<const int64_t> sizes, Device device) {
  Tensor t = make_empty(sizes, ScalarType::Long, device);
  std::copy(values.begin(), values.end(), t.data_ptr<int64_t>());
  return t;
}

Tensor empty_long(Device device) { return make_empty(std::vector<int64_t>{0}, ScalarType::Long, device); }

template <typename T>
bool less_nan_last(T a, T b) {
  if constexpr (std::is_same_v<T, bool> || std::numeric_limits<T>::is_integer) {
    return a < b;
  } else {
    const bool na = std::isnan(static_cast<double>(a)), nb = std::isnan(static_cast<double>(b));
    return na || nb ? !na && nb : a < b;
  }
}

// Groups the n elements (or slices) in `order`: group[k] for each position of order, and each
// group's first position in order. `same(a, b)` says whether two elements belong together.
template <typename Same>
void group_runs(const std::vector<int64_t>& order, Same same, std::vector<int64_t>& group_of,
                std::vector<int64_t>& firsts, std::vector<int64_t>& counts) {
  group_of.assign(order.size(), 0);
  for (size_t k = 0; k < order.size(); ++k) {
    if (k == 0 || !same(order[k - 1], order[k])) {
      firsts.push_back(order[k]);
      counts.push_back(0);
    }
    ++counts.back();
    group_of[static_cast<size_t>(order[k])] = static_cast<int64_t>(firsts.size()) - 1;
  }
}

// unique over the flattened elements: sorted, or runs in place (consecutive).
Result3 unique_elements(const Tensor& self, bool sort, bool return_inverse, bool return_counts) {
  const Tensor flat = ops::contiguous(self, MemoryFormat::Contiguous);
  const int64_t n = self.numel();
  std::vector<int64_t> order(static_cast<size_t>(n)), group_of, firsts, counts;
  std::iota(order.begin(), order.end(), int64_t{0});
  Tensor out;
  visit_dtype(self.dtype(), [&]<typename T>() {
    const T* x = flat.data_ptr<T>();
    if (sort)
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return less_nan_last(x[a], x[b]); });
    check_interrupt();
    group_runs(
        order, [&](int64_t a, int64_t b) { return x[a] == x[b]; }, group_of, firsts, counts);
    out = make_empty(std::vector<int64_t>{static_cast<int64_t>(firsts.size())}, self.dtype(), self.device());
    T* y = out.data_ptr<T>();
    for (size_t g = 0; g < firsts.size(); ++g) y[g] = x[firsts[g]];
  });
  Tensor inverse = return_inverse ? long_tensor(group_of, self.sizes(), self.device()) : empty_long(self.device());
  Tensor count = return_counts
                     ? long_tensor(counts, std::vector<int64_t>{static_cast<int64_t>(counts.size())}, self.device())
                     : empty_long(self.device());
  return {out, inverse, count};
}

// unique over the slices along dim: sorted lexicographically, or runs in place.
Result3 unique_slices(const Tensor& self, int64_t dim, bool sort, bool return_inverse, bool return_counts) {
  const int64_t d = wrap_dim(dim, self.dim());
  const int64_t n = self.sizes()[static_cast<size_t>(d)];
  const Tensor rows = ops::contiguous(ops::movedim_int(self, d, 0), MemoryFormat::Contiguous);
  const int64_t width = n == 0 ? 0 : self.numel() / n;
  std::vector<int64_t> order(static_cast<size_t>(n)), group_of, firsts, counts;
  std::iota(order.begin(), order.end(), int64_t{0});
  visit_dtype(self.dtype(), [&]<typename T>() {
    const T* x = rows.data_ptr<T>();
    auto row = [&](int64_t r) { return x + r * width; };
    if (sort)
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        return std::lexicographical_compare(row(a), row(a) + width, row(b), row(b) + width);
      });
    check_interrupt();
    group_runs(
        order, [&](int64_t a, int64_t b) { return std::equal(row(a), row(a) + width, row(b)); }, group_of, firsts,
        counts);
  });
  const Tensor picked = ops::index_select(
      rows, 0, long_tensor(firsts, std::vector<int64_t>{static_cast<int64_t>(firsts.size())}, self.device()));
  Tensor inverse =
      return_inverse ? long_tensor(group_of, std::vector<int64_t>{n}, self.device()) : empty_long(self.device());
  Tensor count = return_counts
                     ? long_tensor(counts, std::vector<int64_t>{static_cast<int64_t>(counts.size())}, self.device())
                     : empty_long(self.device());
  return {ops::movedim_int(picked, 0, d), inverse, count};
}

}  // namespace

Result3 _unique2_cpu(const Tensor& self, bool, bool return_inverse, bool return_counts) {
  return unique_elements(self, true, return_inverse, return_counts);
}

std::tuple<Tensor, Tensor> _unique_cpu(const Tensor& self, bool, bool return_inverse) {
  auto [out, inverse, counts] = unique_elements(self, true, return_inverse, false);
  (void)counts;
  return {out, inverse};
}

Result3 unique_dim_cpu(const Tensor& self, int64_t dim, bool, bool return_inverse, bool return_counts) {
  return unique_slices(self, dim, true, return_inverse, return_counts);
}

Result3 unique_dim_consecutive_cpu(const Tensor& self, int64_t dim, bool return_inverse, bool return_counts) {
  return unique_slices(self, dim, false, return_inverse, return_counts);
}

Result3 unique_consecutive_cpu(const Tensor& self, bool return_inverse, bool return_counts,
                               std::optional<int64_t> dim) {
  if (!dim || (*dim == 0 && self.dim() == 1)) return unique_elements(self, false, return_inverse, return_counts);
  return unique_slices(self, *dim, false, return_inverse, return_counts);
}

}  // namespace ipt::native
