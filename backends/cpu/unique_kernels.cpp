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
#include <bit>
#include <cstdint>
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

// (key, position) pairs sorted by key with an LSD radix sort, 11 bits a pass: stable, so equal
// keys keep their positions' order (a stable sort's).
template <typename K>
void radix_sort_keyed(std::vector<std::pair<K, int64_t>>& v) {
  if (v.empty()) return;
  // Only the bits in which keys differ from the smallest need passes.
  K lo = v[0].first, hi = v[0].first;
  for (const auto& e : v) lo = std::min(lo, e.first), hi = std::max(hi, e.first);
  const int bits = static_cast<int>(std::bit_width(static_cast<K>(hi - lo)));
  constexpr int kBits = 11, kBins = 1 << kBits;
  std::vector<std::pair<K, int64_t>> tmp(v.size());
  std::vector<size_t> start(kBins + 1);
  for (int shift = 0; shift < bits; shift += kBits) {
    std::fill(start.begin(), start.end(), 0);
    const auto digit = [&](K k) { return static_cast<size_t>((static_cast<K>(k - lo) >> shift) & (kBins - 1)); };
    for (const auto& e : v) ++start[digit(e.first) + 1];
    for (int b = 0; b < kBins; ++b) start[b + 1] += start[b];
    for (const auto& e : v) tmp[start[digit(e.first)]++] = e;
    v.swap(tmp);
  }
}

// Sorted unique of integers (and bools): by counting when the values span a small range, else by
// sorting a copy, each element's group then found by binary search. Equal integers are one value,
// so which of them comes first does not matter.
template <typename T>
void unique_integers(const T* x, int64_t n, std::vector<T>& values, std::vector<int64_t>& group_of,
                     std::vector<int64_t>& counts, bool want_inverse) {
  if (n == 0) return;
  using W = std::conditional_t<std::is_same_v<T, bool>, int64_t, T>;
  const auto [lo_it, hi_it] = std::minmax_element(x, x + n, [](T a, T b) { return W(a) < W(b); });
  const W lo = *lo_it, hi = *hi_it;
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  if (span < std::max<uint64_t>(uint64_t{1} << 16, 2 * static_cast<uint64_t>(n))) {
    std::vector<int64_t> bins(span + 1, 0);
    for (int64_t i = 0; i < n; ++i) ++bins[static_cast<uint64_t>(W(x[i])) - static_cast<uint64_t>(lo)];
    std::vector<int64_t> group(bins.size(), -1);
    for (size_t b = 0; b < bins.size(); ++b) {
      if (!bins[b]) continue;
      group[b] = static_cast<int64_t>(values.size());
      values.push_back(static_cast<T>(static_cast<W>(static_cast<uint64_t>(lo) + b)));
      counts.push_back(bins[b]);
    }
    if (want_inverse) {
      group_of.resize(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i)
        group_of[static_cast<size_t>(i)] = group[static_cast<uint64_t>(W(x[i])) - static_cast<uint64_t>(lo)];
    }
    return;
  }
  // Keys in the values' order (the sign bit flipped), radix-sorted.
  using K = std::make_unsigned_t<W>;
  constexpr K flip = std::is_signed_v<W> ? K(K(1) << (8 * sizeof(K) - 1)) : K(0);
  std::vector<std::pair<K, int64_t>> keyed(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) keyed[static_cast<size_t>(i)] = {static_cast<K>(static_cast<K>(W(x[i])) ^ flip), i};
  radix_sort_keyed(keyed);
  if (want_inverse) group_of.resize(static_cast<size_t>(n));
  for (size_t k = 0; k < keyed.size(); ++k) {
    if (k == 0 || keyed[k].first != keyed[k - 1].first) {
      values.push_back(x[keyed[k].second]);
      counts.push_back(0);
    }
    ++counts.back();
    if (want_inverse) group_of[static_cast<size_t>(keyed[k].second)] = static_cast<int64_t>(values.size()) - 1;
  }
}

// unique over the flattened elements: sorted, or runs in place (consecutive).
Result3 unique_elements(const Tensor& self, bool sort, bool return_inverse, bool return_counts) {
  const Tensor flat = ops::contiguous(self, MemoryFormat::Contiguous);
  const int64_t n = self.numel();
  std::vector<int64_t> group_of, firsts, counts;
  Tensor out;
  visit_dtype(self.dtype(), [&]<typename T>() {
    const T* x = flat.data_ptr<T>();
    if constexpr (std::is_integral_v<T>) {
      if (sort) {
        std::vector<T> values;
        unique_integers(x, n, values, group_of, counts, return_inverse);
        check_interrupt();
        out = make_empty(std::vector<int64_t>{static_cast<int64_t>(values.size())}, self.dtype(), self.device());
        std::copy(values.begin(), values.end(), out.data_ptr<T>());
        return;
      }
    }
    std::vector<int64_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), int64_t{0});
    if constexpr (std::is_floating_point_v<T>) {
      if (sort) {
        // (key, position) pairs, the key an unsigned integer in the values' order (-0.0 as 0.0,
        // every NaN last): a stable sort's order with plain integer compares.
        using K = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
        constexpr K sign = K(1) << (8 * sizeof(K) - 1);
        std::vector<std::pair<K, int64_t>> keyed(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) {
          const T v = x[i];
          const K b = std::bit_cast<K>(v == T(0) ? T(0) : v);
          keyed[static_cast<size_t>(i)] = {std::isnan(v) ? ~K(0) : ((b & sign) ? ~b : b | sign), i};
        }
        radix_sort_keyed(keyed);
        for (int64_t i = 0; i < n; ++i) order[static_cast<size_t>(i)] = keyed[static_cast<size_t>(i)].second;
      }
    } else if (sort) {
      // (value, position) pairs sorted by value, then position: a stable sort's order, with the
      // values read in place (an index sort reads them scattered).
      std::vector<std::pair<T, int64_t>> keyed(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) keyed[static_cast<size_t>(i)] = {x[i], i};
      std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
        return less_nan_last(a.first, b.first) || (!less_nan_last(b.first, a.first) && a.second < b.second);
      });
      for (int64_t i = 0; i < n; ++i) order[static_cast<size_t>(i)] = keyed[static_cast<size_t>(i)].second;
    }
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
