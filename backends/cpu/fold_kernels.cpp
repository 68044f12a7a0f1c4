// CPU im2col and col2im (Note [Sliding blocks], core/ops/fold_rules.h): each image (or column)
// of the batch, and each channel of it, is independent, so the threads split them; within a
// channel col2im adds the taps in PyTorch's order.
#include "core/ops/fold_rules.h"
#include "core/parallel/parallel.h"
#include "core/util/error.h"
#include "core/util/interrupt.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

// 2.15 runs both on the floating dtypes; im2col also copies bools.
void check_dtype(const Tensor& self, const char* name, bool bools) {
  IPT_CHECK(is_floating(self.dtype()) || (bools && self.dtype() == ScalarType::Bool), NotImplementedError, "\"", name,
            "\" not implemented for '", dtype_cpp_name(self.dtype()), "'");
}

// The row c_col's tap (i, j) and image channel.
struct Tap {
  int64_t channel, i, j;
};
Tap tap_of(int64_t c_col, const SlidingBlocks& b) {
  return {c_col / (b.kh * b.kw), (c_col / b.kw) % b.kh, c_col % b.kw};
}

// The image rows (or columns) that block positions 0..blocks-1 read for a tap at `offset`:
// -1 where the tap falls in the padding.
void tap_sources(std::vector<int64_t>& src, int64_t blocks, int64_t stride, int64_t pad, int64_t offset, int64_t size) {
  src.resize(static_cast<size_t>(blocks));
  for (int64_t o = 0; o < blocks; ++o) {
    const int64_t p = o * stride - pad + offset;
    src[static_cast<size_t>(o)] = p >= 0 && p < size ? p : -1;
  }
}

}  // namespace

Tensor im2col_cpu(const Tensor& self, IntArrayRef kernel_size, IntArrayRef dilation, IntArrayRef padding,
                  IntArrayRef stride) {
  const SlidingBlocks b = im2col_blocks(self, kernel_size, dilation, padding, stride);
  check_dtype(self, "im2col_out_cpu", true);
  Tensor out = make_empty(im2col_output_sizes(self, b), self.dtype(), self.device());
  if (out.numel() == 0) return out;
  const Tensor in = ops::contiguous(self, MemoryFormat::Contiguous);
  const int64_t rows = out.sizes()[static_cast<size_t>(out.dim() - 2)];
  const int64_t images = self.dim() == 4 ? self.sizes()[0] : 1;
  const int64_t channels = rows / (b.kh * b.kw), blocks = b.blocks_h * b.blocks_w;
  visit_dtype(self.dtype(), [&]<typename T>() {
    const T* x = in.data_ptr<T>();
    T* y = out.data_ptr<T>();
    parallel_for(0, images * rows, std::max<int64_t>(1, 32768 / blocks), [&](int64_t first, int64_t last) {
      check_interrupt();
      std::vector<int64_t> hs, ws;
      for (int64_t r = first; r < last; ++r) {
        const int64_t n = r / rows, c_col = r % rows;
        const Tap t = tap_of(c_col, b);
        tap_sources(hs, b.blocks_h, b.sh, b.ph, t.i * b.dh, b.height);
        tap_sources(ws, b.blocks_w, b.sw, b.pw, t.j * b.dw, b.width);
        const T* plane = x + (n * channels + t.channel) * b.height * b.width;
        T* dst = y + r * blocks;
        for (int64_t bh = 0; bh < b.blocks_h; ++bh) {
          const int64_t h = hs[static_cast<size_t>(bh)];
          T* row = dst + bh * b.blocks_w;
          for (int64_t bw = 0; bw < b.blocks_w; ++bw) {
            const int64_t w = ws[static_cast<size_t>(bw)];
            row[bw] = h >= 0 && w >= 0 ? plane[h * b.width + w] : T(0);
          }
        }
      }
    });
  });
  return out;
}

Tensor col2im_cpu(const Tensor& self, IntArrayRef output_size, IntArrayRef kernel_size, IntArrayRef dilation,
                  IntArrayRef padding, IntArrayRef stride) {
  const SlidingBlocks b = col2im_blocks(self, output_size, kernel_size, dilation, padding, stride);
  check_dtype(self, "col2im_out_cpu", false);
  Tensor out = make_empty(col2im_output_sizes(self, b), self.dtype(), self.device());
  if (out.numel() == 0) return out;
  const Tensor in = ops::contiguous(self, MemoryFormat::Contiguous);
  const int64_t taps = b.kh * b.kw, blocks = b.blocks_h * b.blocks_w, plane_size = b.height * b.width;
  const int64_t planes = out.numel() / plane_size;
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      const T* x = in.data_ptr<T>();
      T* y = out.data_ptr<T>();
      parallel_for(0, planes, std::max<int64_t>(1, 32768 / (taps * blocks)), [&](int64_t first, int64_t last) {
        check_interrupt();
        std::vector<int64_t> hs, ws;
        for (int64_t p = first; p < last; ++p) {
          T* plane = y + p * plane_size;
          for (int64_t k = 0; k < plane_size; ++k) plane[k] = T(0);
          // Plane p (image n, channel c) gathers rows p * taps .. of its image's columns.
          for (int64_t tap = 0; tap < taps; ++tap) {
            const Tap t = tap_of(tap, b);
            tap_sources(hs, b.blocks_h, b.sh, b.ph, t.i * b.dh, b.height);
            tap_sources(ws, b.blocks_w, b.sw, b.pw, t.j * b.dw, b.width);
            const T* src = x + (p * taps + tap) * blocks;
            for (int64_t bh = 0; bh < b.blocks_h; ++bh) {
              const int64_t h = hs[static_cast<size_t>(bh)];
              if (h < 0) continue;
              for (int64_t bw = 0; bw < b.blocks_w; ++bw) {
                const int64_t w = ws[static_cast<size_t>(bw)];
                if (w >= 0) plane[h * b.width + w] = static_cast<T>(plane[h * b.width + w] + src[bh * b.blocks_w + bw]);
              }
            }
          }
        }
      });
    }
  });
  return out;
}

}  // namespace ipt::native
