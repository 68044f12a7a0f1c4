// CPU bilinear upsampling (upsample_bilinear2d) and its backward for NCHW tensors, bit for bit
// with PyTorch 2.15's AVX2 kernels.
//
// Note [Bilinear upsampling's bits]
// PyTorch 2.15 computes, for each output index along a dim, two source indices and weights
// (UpSample.h): the scale is in the opmath type T (float, double), a given scale factor becomes
// T(1.0 / scale); the source position is scale * (o + 0.5) - 0.5 (clamped at 0), or scale * o with
// align_corners; its floor is taken as floorf((float) position) for both types; a dim whose output
// size equals its input size takes index o with weights 1 and 0. GCC fused some of its
// multiply-adds (the AVX2 build has -mfma and contracts), which this file writes as std::fma and
// compiles with -ffp-contract=off:
//   - the position's scale * x - 0.5 is one fma, except in the float forward's generic kernel;
//   - the forward has two kernels: "channels last" when the output's H + W <= 128, or the input
//     is 1x1 with more than 3 channels, or one thread runs 3 channels; otherwise the generic one.
//     Generic: t0 = fma(x00, wl0, x01 * wl1), t1 likewise on the second row, out = fma(t0, hl0,
//     t1 * hl1). Channels last, with w00 = hl0 * wl0 and so on: the channels of an image in whole
//     vectors (8 floats, 4 doubles) fuse as fma(i00, w00, fma(i01, w01, fma(i11, w11, i10 * w10))),
//     the remaining channels as fma(i11, w11, fma(i10, w10, fma(i00, w00, i01 * w01)));
//   - the backward adds into the gradient in place, in (oh, ow, 00, 01, 10, 11) order, each as
//     gi = fma(h * w, g, gi).
// The recipe was found by disassembling 2.15's kernels and checking it bit for bit against 2.15
// (tests/reference/programs/ops_flip_pad_upsample.py).
#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/cpu/vml.h"
#include "core/ops/remap_rules.h"
#include "core/parallel/parallel.h"
#include "core/util/error.h"
#include "core/util/interrupt.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

// One output index's two source indices and their weights along a dim.
template <typename W>
struct Taps {
  int64_t i0 = 0, i1 = 0;
  W l0 = 1, l1 = 0;
};

template <typename W>
std::vector<Taps<W>> linear_taps(int64_t in, int64_t out, bool align_corners, std::optional<double> scale, bool fused) {
  W s;
  if (align_corners) s = out > 1 ? static_cast<W>(in - 1) / static_cast<W>(out - 1) : W(0);
  else s = scale && *scale > 0 ? static_cast<W>(1.0 / *scale) : static_cast<W>(in) / static_cast<W>(out);
  std::vector<Taps<W>> taps(static_cast<size_t>(out));
  for (int64_t o = 0; o < out; ++o) {
    Taps<W>& t = taps[static_cast<size_t>(o)];
    if (out == in) {
      t.i0 = t.i1 = o;
      continue;
    }
    W real;
    if (align_corners) {
      real = s * static_cast<W>(o);
    } else {
      const W x = static_cast<W>(o) + W(0.5);
      real = fused ? std::fma(s, x, W(-0.5)) : s * x - W(0.5);
      if (real < 0) real = 0;
    }
    t.i0 = std::min(static_cast<int64_t>(std::floor(static_cast<float>(real))), in - 1);
    const W lambda = std::min(std::max(real - static_cast<W>(t.i0), W(0)), W(1));
    t.i1 = t.i0 + (t.i0 < in - 1 ? 1 : 0);
    t.l1 = lambda;
    t.l0 = W(1) - lambda;
  }
  return taps;
}

// Each kernel's inner part is compiled twice: for any x86-64, where std::fma is a libm call, and
// for AVX2 and FMA, where it is one instruction (the same value either way).
#define IPT_FMA_VARIANTS(name, params, args)            \
  template <typename T>                                 \
  void name##_any params {                              \
    name##_body<T> args;                                \
  }                                                     \
  template <typename T>                                 \
  [[gnu::target("avx2,fma")]] void name##_avx2 params { \
    name##_body<T> args;                                \
  }                                                     \
  template <typename T>                                 \
  void name params {                                    \
    if (cpu::has_avx2()) name##_avx2<T> args;           \
    else name##_any<T> args;                            \
  }

// One plane of the generic forward.
template <typename T>
[[gnu::always_inline]] inline void generic_plane_body(const T* xp, T* yp, int64_t iw, int64_t oh, int64_t ow,
                                                      const Taps<T>* th, const Taps<T>* tw) {
  for (int64_t i = 0; i < oh; ++i) {
    const Taps<T>& h = th[i];
    const T* r0 = xp + h.i0 * iw;
    const T* r1 = xp + h.i1 * iw;
    for (int64_t j = 0; j < ow; ++j) {
      const Taps<T>& w = tw[j];
      const T t0 = std::fma(r0[w.i0], w.l0, r0[w.i1] * w.l1);
      const T t1 = std::fma(r1[w.i0], w.l0, r1[w.i1] * w.l1);
      yp[i * ow + j] = std::fma(t0, h.l0, t1 * h.l1);
    }
  }
}
IPT_FMA_VARIANTS(generic_plane,
                 (const T* xp, T* yp, int64_t iw, int64_t oh, int64_t ow, const Taps<T>* th, const Taps<T>* tw),
                 (xp, yp, iw, oh, ow, th, tw))

template <typename T>
void bilinear_generic(const T* x, T* y, int64_t planes, int64_t ih, int64_t iw, int64_t oh, int64_t ow,
                      const std::vector<Taps<T>>& th, const std::vector<Taps<T>>& tw) {
  parallel_for(0, planes, 1, [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) {
      check_interrupt();
      generic_plane<T>(x + p * ih * iw, y + p * oh * ow, iw, oh, ow, th.data(), tw.data());
    }
  });
}

// One output row (all its channels) of the channels-last forward.
template <typename T>
[[gnu::always_inline]] inline void channels_last_row_body(const T* x, T* y, int64_t img, int64_t i, int64_t c,
                                                          int64_t ih, int64_t iw, int64_t oh, int64_t ow,
                                                          const Taps<T>* th, const Taps<T>* tw) {
  const int64_t lanes = sizeof(T) == 4 ? 8 : 4, vec_end = c - c % lanes;
  const Taps<T>& h = th[i];
  for (int64_t j = 0; j < ow; ++j) {
    const Taps<T>& w = tw[j];
    const T w00 = h.l0 * w.l0, w01 = h.l0 * w.l1, w10 = h.l1 * w.l0, w11 = h.l1 * w.l1;
    for (int64_t ch = 0; ch < c; ++ch) {
      const T* xp = x + (img * c + ch) * ih * iw;
      const T i00 = xp[h.i0 * iw + w.i0], i01 = xp[h.i0 * iw + w.i1];
      const T i10 = xp[h.i1 * iw + w.i0], i11 = xp[h.i1 * iw + w.i1];
      T v;
      if (ch < vec_end) v = std::fma(i00, w00, std::fma(i01, w01, std::fma(i11, w11, i10 * w10)));
      else v = std::fma(i11, w11, std::fma(i10, w10, std::fma(i00, w00, i01 * w01)));
      y[(img * c + ch) * oh * ow + i * ow + j] = v;
    }
  }
}
IPT_FMA_VARIANTS(channels_last_row,
                 (const T* x, T* y, int64_t img, int64_t i, int64_t c, int64_t ih, int64_t iw, int64_t oh, int64_t ow,
                  const Taps<T>* th, const Taps<T>* tw),
                 (x, y, img, i, c, ih, iw, oh, ow, th, tw))

// One plane of the backward: each output gradient added into its four inputs, in place.
template <typename T>
[[gnu::always_inline]] inline void backward_plane_body(const T* gp, T* ip, int64_t iw, int64_t oh, int64_t ow,
                                                       const Taps<T>* th, const Taps<T>* tw) {
  for (int64_t i = 0; i < oh; ++i) {
    const Taps<T>& h = th[i];
    for (int64_t j = 0; j < ow; ++j) {
      const Taps<T>& w = tw[j];
      const T v = gp[i * ow + j];
      T* a = ip + h.i0 * iw;
      T* b2 = ip + h.i1 * iw;
      a[w.i0] = std::fma(h.l0 * w.l0, v, a[w.i0]);
      a[w.i1] = std::fma(h.l0 * w.l1, v, a[w.i1]);
      b2[w.i0] = std::fma(h.l1 * w.l0, v, b2[w.i0]);
      b2[w.i1] = std::fma(h.l1 * w.l1, v, b2[w.i1]);
    }
  }
}
IPT_FMA_VARIANTS(backward_plane,
                 (const T* gp, T* ip, int64_t iw, int64_t oh, int64_t ow, const Taps<T>* th, const Taps<T>* tw),
                 (gp, ip, iw, oh, ow, th, tw))
#undef IPT_FMA_VARIANTS

template <typename T>
void bilinear_channels_last(const T* x, T* y, int64_t n, int64_t c, int64_t ih, int64_t iw, int64_t oh, int64_t ow,
                            const std::vector<Taps<T>>& th, const std::vector<Taps<T>>& tw) {
  parallel_for(0, n * oh, 1, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      check_interrupt();
      channels_last_row<T>(x, y, r / oh, r % oh, c, ih, iw, oh, ow, th.data(), tw.data());
    }
  });
}

}  // namespace

Tensor upsample_bilinear2d_cpu(const Tensor& self, IntArrayRef output_size, bool align_corners,
                               std::optional<double> scales_h, std::optional<double> scales_w) {
  const std::vector<int64_t> sizes = upsample2d_output_sizes(self, output_size);
  IPT_CHECK(self.dtype() == ScalarType::Float || self.dtype() == ScalarType::Double, NotImplementedError,
            "\"upsample_bilinear2d_channels_last\" not implemented for '", dtype_cpp_name(self.dtype()), "'");
  Tensor out = make_empty(sizes, self.dtype(), self.device());
  if (out.numel() == 0) return out;
  const Tensor in = ops::contiguous(self, MemoryFormat::Contiguous);
  const int64_t n = sizes[0], c = sizes[1], ih = self.sizes()[2], iw = self.sizes()[3];
  const int64_t oh = sizes[2], ow = sizes[3];
  const bool channels_last = (ih * iw == 1 && c > 3) || oh + ow <= 128 || (get_num_threads() == 1 && c == 3);
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      // the float generic kernel's positions are not fused (Note [Bilinear upsampling's bits])
      const bool fused = channels_last || std::is_same_v<T, double>;
      const auto th = linear_taps<T>(ih, oh, align_corners, scales_h, fused);
      const auto tw = linear_taps<T>(iw, ow, align_corners, scales_w, fused);
      if (channels_last) bilinear_channels_last(in.data_ptr<T>(), out.data_ptr<T>(), n, c, ih, iw, oh, ow, th, tw);
      else bilinear_generic(in.data_ptr<T>(), out.data_ptr<T>(), n * c, ih, iw, oh, ow, th, tw);
    }
  });
  return out;
}

Tensor upsample_bilinear2d_backward_cpu(const Tensor& grad_output, IntArrayRef output_size, IntArrayRef input_size,
                                        bool align_corners, std::optional<double> scales_h,
                                        std::optional<double> scales_w) {
  check_upsample2d_backward(grad_output, output_size, input_size);
  IPT_CHECK(grad_output.dtype() == ScalarType::Float || grad_output.dtype() == ScalarType::Double, NotImplementedError,
            "\"upsample_bilinear2d_backward_out_frame\" not implemented for '", dtype_cpp_name(grad_output.dtype()),
            "'");
  Tensor grad_input = ops::zeros(input_size, grad_output.dtype(), std::nullopt, grad_output.device());
  if (grad_input.numel() == 0) return grad_input;
  const Tensor go = ops::contiguous(grad_output, MemoryFormat::Contiguous);
  const int64_t planes = input_size[0] * input_size[1], ih = input_size[2], iw = input_size[3];
  const int64_t oh = output_size[0], ow = output_size[1];
  visit_dtype(go.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const auto th = linear_taps<T>(ih, oh, align_corners, scales_h, true);
      const auto tw = linear_taps<T>(iw, ow, align_corners, scales_w, true);
      const T* g = go.data_ptr<T>();
      T* gi = grad_input.data_ptr<T>();
      parallel_for(0, planes, 1, [&](int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p) {
          check_interrupt();
          backward_plane<T>(g + p * oh * ow, gi + p * ih * iw, iw, oh, ow, th.data(), tw.data());
        }
      });
    }
  });
  return grad_input;
}

}  // namespace ipt::native
