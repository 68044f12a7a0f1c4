#include "core/ops/tensor_iterator.h"

#include <algorithm>
#include <numeric>

#include "core/parallel/parallel.h"
#include "core/util/error.h"
#include "core/util/interrupt.h"

namespace ipt {

namespace {
// Elements one 2-D loop call covers at most, so a stop request is seen between calls (Note
// [Stopping a kernel]). A multiple of every vector block, so it moves no block boundary.
constexpr int64_t kInterruptChunk = int64_t(1) << 16;
}  // namespace

TensorIterator::TensorIterator(std::vector<Tensor> outputs, std::vector<Tensor> inputs)
    : noutputs_(static_cast<int>(outputs.size())) {
  IPT_CHECK(!outputs.empty(), RuntimeError, "TensorIterator: no output");
  operands_ = std::move(outputs);
  for (Tensor& t : inputs) operands_.push_back(std::move(t));
  const Tensor& out = operands_[0];
  const int64_t nd = out.dim();
  // Innermost first: dimension i here is the tensor's dimension nd - 1 - i.
  shape_.assign(out.sizes().rbegin(), out.sizes().rend());
  numel_ = out.numel();
  for (const Tensor& t : operands_) {
    IPT_CHECK(t.dim() <= nd, RuntimeError, "TensorIterator: an operand of ", t.dim(), " dims for an output of ", nd);
    const int64_t item = static_cast<int64_t>(element_size(t.dtype()));
    std::vector<int64_t> st(static_cast<size_t>(nd), 0);
    for (int64_t d = 0; d < t.dim(); ++d) {
      const int64_t size = t.sizes()[static_cast<size_t>(t.dim() - 1 - d)];
      IPT_CHECK(size == 1 || size == shape_[static_cast<size_t>(d)], RuntimeError,
                "TensorIterator: an operand does not broadcast to the output's shape");
      if (size != 1) st[static_cast<size_t>(d)] = t.strides()[static_cast<size_t>(t.dim() - 1 - d)] * item;
    }
    strides_.push_back(std::move(st));
    data_.push_back(static_cast<char*>(t.impl()->raw_data()));
  }
  reorder();
  coalesce();
  if (shape_.empty()) {
    shape_.push_back(1);
    for (auto& st : strides_) st.push_back(0);
  }
}

// The output's smallest stride innermost, then the inputs' (PyTorch's reorder_dimensions): an
// insertion sort over a comparison that may have no opinion (a broadcast dimension).
void TensorIterator::reorder() {
  const size_t nd = shape_.size();
  if (nd <= 1) return;
  std::vector<size_t> perm(nd);
  std::iota(perm.begin(), perm.end(), 0);  // innermost first already
  auto should_swap = [&](size_t d0, size_t d1) {
    for (const auto& st : strides_) {
      const int64_t s0 = st[d0], s1 = st[d1];
      if (s0 == 0 || s1 == 0) continue;
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (shape_[d0] > shape_[d1]) return 1;
    }
    return 0;
  };
  for (size_t i = 1; i < nd; ++i) {
    size_t d1 = i;
    for (size_t d0 = i; d0-- > 0;) {
      const int c = should_swap(perm[d0], perm[d1]);
      if (c > 0) {
        std::swap(perm[d0], perm[d1]);
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  std::vector<int64_t> shape(nd);
  for (size_t i = 0; i < nd; ++i) shape[i] = shape_[perm[i]];
  shape_ = std::move(shape);
  for (auto& st : strides_) {
    std::vector<int64_t> s(nd);
    for (size_t i = 0; i < nd; ++i) s[i] = st[perm[i]];
    st = std::move(s);
  }
}

// Merges dimension d into the one below it wherever every operand steps through the two as one.
void TensorIterator::coalesce() {
  const size_t nd = shape_.size();
  if (nd <= 1) return;
  auto can_coalesce = [&](size_t d0, size_t d1) {
    if (shape_[d0] == 1 || shape_[d1] == 1) return true;
    for (const auto& st : strides_)
      if (st[d0] * shape_[d0] != st[d1]) return false;
    return true;
  };
  size_t prev = 0;
  for (size_t d = 1; d < nd; ++d) {
    if (can_coalesce(prev, d)) {
      if (shape_[prev] == 1)
        for (auto& st : strides_) st[prev] = st[d];
      shape_[prev] *= shape_[d];
    } else {
      ++prev;
      if (prev != d) {
        for (auto& st : strides_) st[prev] = st[d];
        shape_[prev] = shape_[d];
      }
    }
  }
  shape_.resize(prev + 1);
  for (auto& st : strides_) st.resize(prev + 1);
}

bool TensorIterator::is_contiguous() const {
  if (shape_.size() != 1) return false;
  for (int k = 0; k < ntensors(); ++k)
    if (strides_[static_cast<size_t>(k)][0] !=
        static_cast<int64_t>(element_size(operands_[static_cast<size_t>(k)].dtype())))
      return false;
  return true;
}

bool TensorIterator::is_scalar(int k) const {
  for (int64_t s : strides_[static_cast<size_t>(k)])
    if (s != 0) return false;
  return true;
}

void TensorIterator::set_scalar_operand(int k, void* value) {
  IPT_CHECK(k >= noutputs_ && k < ntensors() && operands_[static_cast<size_t>(k)].numel() == 1, RuntimeError,
            "TensorIterator: operand ", k, " is no one-element input");
  data_[static_cast<size_t>(k)] = static_cast<char*>(value);
  for (int64_t& s : strides_[static_cast<size_t>(k)]) s = 0;
}

int TensorIterator::threads(int64_t grain_size) const {
  if (numel_ < grain_size) return 1;
  return detail::threads_for(0, numel_, grain_size);
}

std::string TensorIterator::shape_text() const {
  std::string s = "[";
  for (size_t i = shape_.size(); i-- > 0;) s += std::to_string(shape_[i]) + (i ? ", " : "]");
  return s;
}

std::string TensorIterator::chunks_text(int64_t grain_size) const {
  const int n = threads(grain_size);
  const int64_t chunk = (numel_ + n - 1) / n;
  std::string s;
  for (int t = 0; t < n && t * chunk < numel_; ++t)
    s += (t ? " [" : "[") + std::to_string(t * chunk) + ", " + std::to_string(std::min(numel_, (t + 1) * chunk)) + ")";
  return s;
}

std::string TensorIterator::plan(int64_t grain_size) const {
  std::string s = std::to_string(shape_.size()) + (shape_.size() == 1 ? " dim " : " dims ") + shape_text();
  s += is_contiguous() ? " contiguous" : " strided";
  const int n = threads(grain_size);
  s += ", " + std::to_string(n) + (n == 1 ? " thread" : " threads");
  return s;
}

void TensorIterator::run(Loop2d loop, const void* ctx, int64_t grain_size) const {
  if (numel_ == 0) return;
  if (numel_ < grain_size || get_num_threads() == 1) {
    serial(loop, ctx, 0, numel_);
    return;
  }
  parallel_for(0, numel_, grain_size, [&](int64_t b, int64_t e) { serial(loop, ctx, b, e); });
}

// Walks [begin, end) of the flattened index space (innermost dimension fastest) in 2-D steps:
// the rest of a row, or whole rows at once when the range starts at a row's beginning.
void TensorIterator::serial(Loop2d loop, const void* ctx, int64_t begin, int64_t end) const {
  if (begin >= end) return;
  const size_t nd = shape_.size(), nt = operands_.size();
  std::vector<int64_t> index(nd, 0);
  for (size_t d = 0, rest = static_cast<size_t>(begin); d < nd; ++d) {
    index[d] = static_cast<int64_t>(rest % static_cast<size_t>(shape_[d]));
    rest /= static_cast<size_t>(shape_[d]);
  }
  std::vector<int64_t> step_strides(2 * nt, 0);
  for (size_t k = 0; k < nt; ++k) {
    step_strides[k] = strides_[k][0];
    step_strides[nt + k] = nd > 1 ? strides_[k][1] : 0;
  }
  std::vector<char*> ptrs(nt);
  int64_t offset = begin;
  while (offset < end) {
    check_interrupt();
    int64_t size0 = std::min(shape_[0] - index[0], end - offset);
    int64_t size1 = 1;
    if (index[0] == 0 && size0 == shape_[0] && nd > 1)
      size1 = std::min(shape_[1] - index[1], (end - offset) / shape_[0]);
    if (size0 > kInterruptChunk) {
      size0 = kInterruptChunk;
      size1 = 1;
    } else if (size0 * size1 > kInterruptChunk) size1 = std::max<int64_t>(1, kInterruptChunk / size0);
    for (size_t k = 0; k < nt; ++k) {
      char* p = data_[k];
      for (size_t d = 0; d < nd; ++d) p += index[d] * strides_[k][d];
      ptrs[k] = p;
    }
    loop(ctx, ptrs.data(), step_strides.data(), size0, size1);
    offset += size0 * size1;
    // Advance the index by size0 * size1 elements.
    index[0] += size0;
    if (size1 > 1 || index[0] == shape_[0]) {
      index[0] = 0;
      int64_t carry = size1 > 1 ? size1 : 1;
      for (size_t d = 1; d < nd && carry; ++d) {
        index[d] += carry;
        carry = index[d] / shape_[d];
        index[d] %= shape_[d];
      }
    }
  }
}

}  // namespace ipt
