// CPU tril and triu (the structured impls): the lower or upper triangle of the last two dims,
// from `diagonal` (0 the main diagonal, > 0 above it), zeros elsewhere; in place or not.
#include <algorithm>

#include "core/parallel/parallel.h"
#include "core/util/error.h"
#include "core/util/interrupt.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

// out[..., i, j] = keep(j - i) ? self[..., i, j] : 0.
template <bool Lower>
void triangle(const Tensor& self, int64_t diagonal, const Tensor& out) {
  const bool direct = out.is_contiguous();
  const Tensor in = self.is_same(out) && direct ? self : ops::contiguous(self, MemoryFormat::Contiguous);
  Tensor dst = direct ? out : make_empty(out.sizes(), out.dtype(), out.device());
  const int64_t rows = self.sizes()[static_cast<size_t>(self.dim() - 2)], cols = self.sizes().back();
  const int64_t mats = rows * cols == 0 ? 0 : self.numel() / (rows * cols);
  const bool in_place = in.is_same(dst);
  // the diagonal brought into the matrix's range, where i + diag cannot overflow
  const int64_t diag = std::clamp<int64_t>(diagonal, -(rows + cols + 1), rows + cols + 1);
  visit_dtype(self.dtype(), [&]<typename T>() {
    const T* x = in.data_ptr<T>();
    T* y = dst.data_ptr<T>();
    parallel_for(0, mats * rows, std::max<int64_t>(1, 32768 / std::max<int64_t>(cols, 1)), [&](int64_t b, int64_t e) {
      check_interrupt();
      for (int64_t r = b; r < e; ++r) {
        const int64_t i = r % rows;
        const T* xr = x + r * cols;
        T* yr = y + r * cols;
        // The row splits at one column: kept before it and zero after (lower), or the reverse.
        const int64_t split = std::clamp<int64_t>(Lower ? i + diag + 1 : i + diag, 0, cols);
        const int64_t keep_from = Lower ? 0 : split, keep_to = Lower ? split : cols;
        const int64_t zero_from = Lower ? split : 0, zero_to = Lower ? cols : split;
        if (!in_place) std::copy(xr + keep_from, xr + keep_to, yr + keep_from);
        std::fill(yr + zero_from, yr + zero_to, T(0));
      }
    });
  });
  if (!direct) ops::copy_(out, dst, false);
}

}  // namespace

void tril_out_cpu(const Tensor& self, int64_t diagonal, const Tensor& out) { triangle<true>(self, diagonal, out); }
void triu_out_cpu(const Tensor& self, int64_t diagonal, const Tensor& out) { triangle<false>(self, diagonal, out); }

}  // namespace ipt::native
