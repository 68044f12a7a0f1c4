#pragma once
// The loop a PyTorch 2.15 reduction runs over its input, as TensorIterator builds it, so that a
// sum can add in the same order: the dims are ordered innermost first, reduced dims before kept
// ones, then by the input's strides (equal strides: the smaller dim first), and neighbours that
// line up in memory (or have size 1) are merged. The output is the reduction's contiguous
// keepdim tensor with stride 0 along the reduced dims. Strides are in elements.

#include <cstdint>
#include <utility>
#include <vector>

namespace ipt::cpu {

struct LoopDim {
  int64_t size = 1;
  int64_t in_stride = 0;
  int64_t out_stride = 0;
};

inline std::vector<LoopDim> reduction_loop_dims(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                                                const std::vector<bool>& reduced) {
  const int64_t nd = static_cast<int64_t>(sizes.size());
  std::vector<int64_t> out_strides(static_cast<size_t>(nd), 0);
  int64_t s = 1;
  for (int64_t d = nd - 1; d >= 0; --d) {
    out_strides[static_cast<size_t>(d)] = reduced[static_cast<size_t>(d)] ? 0 : s;
    if (!reduced[static_cast<size_t>(d)]) s *= sizes[static_cast<size_t>(d)];
  }
  // 1 when dims a and b (a inner of b for now) should swap, -1 when not, 0 when undecided.
  auto should_swap = [&](int64_t a, int64_t b) -> int {
    const int64_t o0 = out_strides[static_cast<size_t>(a)], o1 = out_strides[static_cast<size_t>(b)];
    if ((o0 == 0) != (o1 == 0)) return o1 == 0 ? 1 : -1;  // reduced dims move inward
    const int64_t ops[2][2] = {{o0, o1}, {strides[static_cast<size_t>(a)], strides[static_cast<size_t>(b)]}};
    for (const auto& st : ops) {
      if (st[0] == 0 || st[1] == 0) continue;
      if (st[0] < st[1]) return -1;
      if (st[0] > st[1]) return 1;
      if (sizes[static_cast<size_t>(a)] > sizes[static_cast<size_t>(b)]) return 1;
    }
    return 0;
  };
  std::vector<int64_t> perm(static_cast<size_t>(nd));
  for (int64_t i = 0; i < nd; ++i) perm[static_cast<size_t>(i)] = nd - 1 - i;  // innermost first
  for (int64_t i = 1; i < nd; ++i) {  // TensorIterator's insertion sort (ties keep their place)
    int64_t d1 = i;
    for (int64_t d0 = i - 1; d0 >= 0; --d0) {
      const int c = should_swap(perm[static_cast<size_t>(d0)], perm[static_cast<size_t>(d1)]);
      if (c > 0) {
        std::swap(perm[static_cast<size_t>(d0)], perm[static_cast<size_t>(d1)]);
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  std::vector<LoopDim> dims;
  for (int64_t p : perm)
    dims.push_back(
        {sizes[static_cast<size_t>(p)], strides[static_cast<size_t>(p)], out_strides[static_cast<size_t>(p)]});
  if (dims.size() <= 1) return dims.empty() ? std::vector<LoopDim>{LoopDim{}} : dims;
  size_t prev = 0;
  for (size_t d = 1; d < dims.size(); ++d) {
    const LoopDim& a = dims[prev];
    const LoopDim& b = dims[d];
    const bool merge =
        a.size == 1 || b.size == 1 || (a.size * a.in_stride == b.in_stride && a.size * a.out_stride == b.out_stride);
    if (merge) {
      if (a.size == 1) {
        dims[prev].in_stride = b.in_stride;
        dims[prev].out_stride = b.out_stride;
      }
      dims[prev].size *= b.size;
    } else {
      dims[++prev] = b;
    }
  }
  dims.resize(prev + 1);
  return dims;
}

}  // namespace ipt::cpu
