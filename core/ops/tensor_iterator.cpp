#include "core/ops/tensor_iterator.h"

#include <charconv>

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

TensorIterator::TensorIterator(std::initializer_list<Tensor> outputs, std::initializer_list<Tensor> inputs) {
  const Tensor* ops[kMaxOperands];
  int n = 0;
  IPT_CHECK(outputs.size() + inputs.size() <= static_cast<size_t>(kMaxOperands), RuntimeError,
            "TensorIterator: more than ", kMaxOperands, " operands");
  for (const Tensor& t : outputs) ops[n++] = &t;
  for (const Tensor& t : inputs) ops[n++] = &t;
  init(ops, n, static_cast<int>(outputs.size()));
}

TensorIterator::TensorIterator(const Tensor& output, std::span<const Tensor> inputs) {
  IPT_CHECK(1 + inputs.size() <= static_cast<size_t>(kMaxOperands), RuntimeError, "TensorIterator: more than ",
            kMaxOperands, " operands");
  const Tensor* ops[kMaxOperands];
  int n = 0;
  ops[n++] = &output;
  for (const Tensor& t : inputs) ops[n++] = &t;
  init(ops, n, 1);
}

TensorIterator::TensorIterator(const Tensor& output, std::span<const Tensor* const> inputs) {
  IPT_CHECK(1 + inputs.size() <= static_cast<size_t>(kMaxOperands), RuntimeError, "TensorIterator: more than ",
            kMaxOperands, " operands");
  const Tensor* ops[kMaxOperands];
  int n = 0;
  ops[n++] = &output;
  for (const Tensor* t : inputs) ops[n++] = t;
  init(ops, n, 1);
}

void TensorIterator::init(const Tensor* const* operands, int n, int noutputs) {
  IPT_CHECK(noutputs >= 1, RuntimeError, "TensorIterator: no output");
  nt_ = n;
  noutputs_ = noutputs;
  const Tensor& out = *operands[0];
  const int64_t nd = out.dim();
  IPT_CHECK(nd <= kMaxDims, RuntimeError, "TensorIterator: more than ", kMaxDims, " dimensions");
  nd_ = static_cast<int>(nd);
  // Innermost first: dimension i here is the tensor's dimension nd - 1 - i.
  for (int64_t i = 0; i < nd; ++i) shape_[i] = out.sizes()[static_cast<size_t>(nd - 1 - i)];
  numel_ = out.numel();
  for (int k = 0; k < n; ++k) {
    const Tensor& t = *operands[k];
    IPT_CHECK(t.dim() <= nd, RuntimeError, "TensorIterator: an operand of ", t.dim(), " dims for an output of ", nd);
    const int64_t item = static_cast<int64_t>(element_size(t.dtype()));
    item_[k] = item;
    operand_numel_[k] = t.numel();
    int64_t* st = strides_[k];
    for (int64_t d = 0; d < nd; ++d) st[d] = 0;
    for (int64_t d = 0; d < t.dim(); ++d) {
      const int64_t size = t.sizes()[static_cast<size_t>(t.dim() - 1 - d)];
      IPT_CHECK(size == 1 || size == shape_[d], RuntimeError,
                "TensorIterator: an operand does not broadcast to the output's shape");
      if (size != 1) st[d] = t.strides()[static_cast<size_t>(t.dim() - 1 - d)] * item;
    }
    data_[k] = static_cast<char*>(t.impl()->raw_data());
  }
  reorder();
  coalesce();
  if (nd_ == 0) {
    nd_ = 1;
    shape_[0] = 1;
    for (int k = 0; k < nt_; ++k) strides_[k][0] = 0;
  }
}

// The output's smallest stride innermost, then the inputs' (PyTorch's reorder_dimensions): an
// insertion sort over a comparison that may have no opinion (a broadcast dimension).
void TensorIterator::reorder() {
  const int nd = nd_;
  if (nd <= 1) return;
  int perm[kMaxDims];
  for (int i = 0; i < nd; ++i) perm[i] = i;  // innermost first already
  auto should_swap = [&](int d0, int d1) {
    for (int k = 0; k < nt_; ++k) {
      const int64_t s0 = strides_[k][d0], s1 = strides_[k][d1];
      if (s0 == 0 || s1 == 0) continue;
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (shape_[d0] > shape_[d1]) return 1;
    }
    return 0;
  };
  bool moved = false;
  for (int i = 1; i < nd; ++i) {
    int d1 = i;
    for (int d0 = i - 1; d0 >= 0; --d0) {
      const int c = should_swap(perm[d0], perm[d1]);
      if (c > 0) {
        std::swap(perm[d0], perm[d1]);
        d1 = d0;
        moved = true;
      } else if (c < 0) {
        break;
      }
    }
  }
  if (!moved) return;
  int64_t tmp[kMaxDims];
  for (int i = 0; i < nd; ++i) tmp[i] = shape_[perm[i]];
  std::copy(tmp, tmp + nd, shape_);
  for (int k = 0; k < nt_; ++k) {
    for (int i = 0; i < nd; ++i) tmp[i] = strides_[k][perm[i]];
    std::copy(tmp, tmp + nd, strides_[k]);
  }
}

// Merges dimension d into the one below it wherever every operand steps through the two as one.
void TensorIterator::coalesce() {
  const int nd = nd_;
  if (nd <= 1) return;
  auto can_coalesce = [&](int d0, int d1) {
    if (shape_[d0] == 1 || shape_[d1] == 1) return true;
    for (int k = 0; k < nt_; ++k)
      if (strides_[k][d0] * shape_[d0] != strides_[k][d1]) return false;
    return true;
  };
  int prev = 0;
  for (int d = 1; d < nd; ++d) {
    if (can_coalesce(prev, d)) {
      if (shape_[prev] == 1)
        for (int k = 0; k < nt_; ++k) strides_[k][prev] = strides_[k][d];
      shape_[prev] *= shape_[d];
    } else {
      ++prev;
      if (prev != d) {
        for (int k = 0; k < nt_; ++k) strides_[k][prev] = strides_[k][d];
        shape_[prev] = shape_[d];
      }
    }
  }
  nd_ = prev + 1;
}

bool TensorIterator::is_contiguous() const {
  if (nd_ != 1) return false;
  for (int k = 0; k < nt_; ++k)
    if (strides_[k][0] != item_[k]) return false;
  return true;
}

bool TensorIterator::is_scalar(int k) const {
  for (int d = 0; d < nd_; ++d)
    if (strides_[k][d] != 0) return false;
  return true;
}

void TensorIterator::set_scalar_operand(int k, void* value) {
  IPT_CHECK(k >= noutputs_ && k < nt_ && operand_numel_[k] == 1, RuntimeError, "TensorIterator: operand ", k,
            " is no one-element input");
  data_[k] = static_cast<char*>(value);
  for (int d = 0; d < nd_; ++d) strides_[k][d] = 0;
}

int TensorIterator::threads(int64_t grain_size) const {
  if (numel_ < grain_size) return 1;
  return detail::threads_for(0, numel_, grain_size);
}

namespace {
void append_number(std::string& s, int64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  s.append(buf, r.ptr);
}
}  // namespace

std::string TensorIterator::shape_text() const {
  std::string s;
  s.reserve(static_cast<size_t>(8 * nd_ + 2));
  s += '[';
  for (int i = nd_; i-- > 0;) {
    append_number(s, shape_[i]);
    s += i ? ", " : "]";
  }
  return s;
}

std::string TensorIterator::chunks_text(int64_t grain_size) const {
  const int n = threads(grain_size);
  const int64_t chunk = (numel_ + n - 1) / n;
  std::string s;
  s.reserve(static_cast<size_t>(32 * n));
  for (int t = 0; t < n && t * chunk < numel_; ++t) {
    s += t ? " [" : "[";
    append_number(s, t * chunk);
    s += ", ";
    append_number(s, std::min(numel_, (t + 1) * chunk));
    s += ')';
  }
  return s;
}

std::string TensorIterator::plan(int64_t grain_size) const {
  std::string s = std::to_string(nd_) + (nd_ == 1 ? " dim " : " dims ") + shape_text();
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
  const int nd = nd_, nt = nt_;
  int64_t step_strides[2 * kMaxOperands];
  for (int k = 0; k < nt; ++k) {
    step_strides[k] = strides_[k][0];
    step_strides[nt + k] = nd > 1 ? strides_[k][1] : 0;
  }
  char* ptrs[kMaxOperands];
  if (nd == 1 && end - begin <= kInterruptChunk) {  // one row, one call (a small tensor's whole run)
    check_interrupt();
    for (int k = 0; k < nt; ++k) ptrs[k] = data_[k] + begin * strides_[k][0];
    loop(ctx, ptrs, step_strides, end - begin, 1);
    return;
  }
  int64_t index[kMaxDims];
  for (int d = 0; d < nd; ++d) index[d] = 0;
  for (uint64_t rest = static_cast<uint64_t>(begin), d = 0; rest != 0 && d < static_cast<uint64_t>(nd); ++d) {
    index[d] = static_cast<int64_t>(rest % static_cast<uint64_t>(shape_[d]));
    rest /= static_cast<uint64_t>(shape_[d]);
  }
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
    } else if (size0 * size1 > kInterruptChunk) {
      size1 = std::max<int64_t>(1, kInterruptChunk / size0);
    }
    for (int k = 0; k < nt; ++k) {
      char* p = data_[k];
      for (int d = 0; d < nd; ++d) p += index[d] * strides_[k][d];
      ptrs[k] = p;
    }
    loop(ctx, ptrs, step_strides, size0, size1);
    offset += size0 * size1;
    // Advance the index by size0 * size1 elements.
    index[0] += size0;
    if (size1 > 1 || index[0] == shape_[0]) {
      index[0] = 0;
      int64_t carry = size1;
      for (int d = 1; d < nd && carry; ++d) {
        index[d] += carry;
        carry = index[d] / shape_[d];
        index[d] %= shape_[d];
      }
    }
  }
}

}  // namespace ipt
