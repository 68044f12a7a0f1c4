// CPU convolutions, as PyTorch's slow (non-oneDNN) kernels compute them: for each sample, the
// input's patches unrolled into the columns of a matrix (im2col), then one matrix product with
// the weight (OpenBLAS); the backward products run the other way, and col2im adds the columns
// back into the image. 1-D and 2-D convolutions are 3-D ones with leading sizes of 1, so one
// im2col serves all; transposed convolutions are the backward of a plain one. Plain float and
// double convolutions at stride 1 over 16 or more channels skip im2col (conv_taps.h).
//
// Note [Convolution's summation order]
// PyTorch 2.15 computes a float convolution on the CPU with oneDNN, whose order of additions is
// its own; a convolution here sums in OpenBLAS's order (or conv_taps.h's), so results agree with 2.15's to float
// rounding (the reference tests compare them with a tolerance), not bit for bit. Samples run on
// the thread team; no sum's order depends on the thread count.
#include <algorithm>
#include <tuple>

#include "backends/cpu/conv_geometry.h"
#include "backends/cpu/conv_taps.h"
#include "backends/cpu/copy_kernels.h"
#include "backends/cpu/into_kernels.h"
#include "backends/cpu/reduction_rows.h"
#include "core/ops/conv_rules.h"
#include "core/parallel/parallel.h"
#include "core/util/error.h"
#include "core/util/interrupt.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

using Im2col = cpu::ConvGeometry;

// cols[(c, kd, kh, kw), (od, oh, ow)] = img[c, od*s - p + kd*d, ...], 0 outside the image.
template <typename T>
void im2col(const T* img, T* cols, const Im2col& g) {
  const int64_t K = g.kernel_size(), L = g.grid_size(), HW = g.img[1] * g.img[2];
  parallel_for(0, g.C, std::max<int64_t>(1, 32768 / std::max<int64_t>(1, K * L)), [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c)
      for (int64_t kd = 0; kd < g.k[0]; ++kd)
        for (int64_t kh = 0; kh < g.k[1]; ++kh)
          for (int64_t kw = 0; kw < g.k[2]; ++kw) {
            T* row = cols + ((c * g.k[0] + kd) * g.k[1] * g.k[2] + kh * g.k[2] + kw) * L;
            for (int64_t od = 0; od < g.grid[0]; ++od) {
              const int64_t id = od * g.s[0] - g.p[0] + kd * g.d[0];
              for (int64_t oh = 0; oh < g.grid[1]; ++oh) {
                T* dst = row + (od * g.grid[1] + oh) * g.grid[2];
                const int64_t ih = oh * g.s[1] - g.p[1] + kh * g.d[1];
                if (id < 0 || id >= g.img[0] || ih < 0 || ih >= g.img[1]) {
                  std::fill(dst, dst + g.grid[2], T(0));
                  continue;
                }
                const T* src = img + c * g.img_size() + id * HW + ih * g.img[2];
                const int64_t off = kw * g.d[2] - g.p[2];
                if (g.s[2] == 1) {
                  // iw = ow + off: zeros, then a straight copy, then zeros
                  const int64_t lo = std::clamp<int64_t>(-off, 0, g.grid[2]);
                  const int64_t hi = std::clamp<int64_t>(g.img[2] - off, lo, g.grid[2]);
                  std::fill(dst, dst + lo, T(0));
                  std::copy(src + lo + off, src + hi + off, dst + lo);
                  std::fill(dst + hi, dst + g.grid[2], T(0));
                } else {
                  for (int64_t ow = 0; ow < g.grid[2]; ++ow) {
                    const int64_t iw = ow * g.s[2] + off;
                    dst[ow] = iw >= 0 && iw < g.img[2] ? src[iw] : T(0);
                  }
                }
              }
            }
          }
  });
}

// The adjoint of im2col: img[c, ...] += every column entry that im2col read from it.
template <typename T>
void col2im_add(const T* cols, T* img, const Im2col& g) {
  const int64_t L = g.grid_size(), HW = g.img[1] * g.img[2];
  // Channels write disjoint parts of the image; within a channel the order is fixed.
  parallel_for(0, g.C, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c)
      for (int64_t kd = 0; kd < g.k[0]; ++kd)
        for (int64_t kh = 0; kh < g.k[1]; ++kh)
          for (int64_t kw = 0; kw < g.k[2]; ++kw) {
            const T* row = cols + ((c * g.k[0] + kd) * g.k[1] * g.k[2] + kh * g.k[2] + kw) * L;
            for (int64_t od = 0; od < g.grid[0]; ++od) {
              const int64_t id = od * g.s[0] - g.p[0] + kd * g.d[0];
              if (id < 0 || id >= g.img[0]) continue;
              for (int64_t oh = 0; oh < g.grid[1]; ++oh) {
                const int64_t ih = oh * g.s[1] - g.p[1] + kh * g.d[1];
                if (ih < 0 || ih >= g.img[1]) continue;
                const T* src = row + (od * g.grid[1] + oh) * g.grid[2];
                T* dst = img + c * g.img_size() + id * HW + ih * g.img[2];
                for (int64_t ow = 0; ow < g.grid[2]; ++ow) {
                  const int64_t iw = ow * g.s[2] - g.p[2] + kw * g.d[2];
                  if (iw >= 0 && iw < g.img[2]) dst[iw] += src[ow];
                }
              }
            }
          }
  });
}

// The im2col of a plain convolution's input (image: the input, grid: the output), or of a
// transposed one's (image: the output, grid: the input), for `channels` channels.
Im2col geometry(IntArrayRef image, IntArrayRef grid, IntArrayRef weight, const ConvParams& p, int64_t channels) {
  Im2col g;
  g.C = channels;
  const int64_t nd = static_cast<int64_t>(image.size()) - 2, lead = 3 - nd;
  for (int64_t i = 0; i < nd; ++i) {
    const size_t a = static_cast<size_t>(i + 2), j = static_cast<size_t>(i);
    g.img[lead + i] = image[a];
    g.grid[lead + i] = grid[a];
    g.k[lead + i] = weight[a];
    g.s[lead + i] = p.stride[j];
    g.p[lead + i] = p.padding[j];
    g.d[lead + i] = p.dilation[j];
  }
  return g;
}

// A (rows, cols) matrix over a contiguous tensor's memory from element `offset`.
Tensor matrix(const Tensor& t, int64_t offset, int64_t rows, int64_t cols) {
  return make_view(t, {rows, cols}, {cols, 1}, t.storage_offset() + offset);
}

// m's transpose, as a view.
Tensor transposed(const Tensor& m) {
  return make_view(m, {m.sizes()[1], m.sizes()[0]}, {m.strides()[1], m.strides()[0]}, m.storage_offset());
}

void check_float(const Tensor& t, const char* what) {
  IPT_CHECK(is_floating(t.dtype()), NotImplementedError, "\"", what, "\" not implemented for '",
            dtype_cpp_name(t.dtype()), "'");
}

void check_same_dtype(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias) {
  IPT_CHECK(input.dtype() == weight.dtype(), RuntimeError, "expected scalar type ", dtype_cpp_name(input.dtype()),
            " but found ", dtype_cpp_name(weight.dtype()));
  if (bias && bias->defined())
    IPT_CHECK(bias->dtype() == input.dtype(), RuntimeError, "expected scalar type ", dtype_cpp_name(input.dtype()),
              " but found ", dtype_cpp_name(bias->dtype()));
}

}  // namespace

// out = conv(input, weight) + bias for every group, plain or transposed (Note [Convolution's
// summation order]). input (N, C, ...), weight (O, C / groups, ...) or, transposed,
// (C, O / groups, ...).
Tensor conv_forward_cpu(const Tensor& input_, const Tensor& weight_, const std::optional<Tensor>& bias,
                        const ConvParams& p, const char* name) {
  check_float(input_, name);
  check_same_dtype(input_, weight_, bias);
  const Tensor input = contiguous_data(input_), weight = contiguous_data(weight_);
  Tensor out = make_empty(conv_output_sizes(input.sizes(), weight.sizes(), p), input.dtype(), input.device());
  if (out.numel() == 0) return out;
  const int64_t N = input.sizes()[0], G = p.groups;
  const int64_t in_c = input.sizes()[1] / G, out_c = out.sizes()[1] / G;
  const int64_t in_len = input.numel() / std::max<int64_t>(1, N * input.sizes()[1]);
  const int64_t out_len = out.numel() / (N * out.sizes()[1]);
  // plain: cols = im2col(x) (in_c*K, out_len); y = W (out_c, in_c*K) @ cols
  // transposed: cols = W^T (out_c*K, in_c) @ x (in_c, in_len); y = col2im(cols)
  const Im2col g = p.transposed ? geometry(out.sizes(), input.sizes(), weight.sizes(), p, out_c)
                                : geometry(input.sizes(), out.sizes(), weight.sizes(), p, in_c);
  const bool has_bias = bias && bias->defined();
  const Tensor b = has_bias ? contiguous_data(*bias) : Tensor();
  const int64_t wg = weight.numel() / G;  // one group's weight
  if (!p.transposed && cpu::conv_by_taps(g, input.dtype())) {
    cpu::conv_forward_by_taps(input, weight, b, out, g, G, out_c);
    return out;
  }
  visit_dtype(input.dtype(), [&]<typename T>() {
    if constexpr (is_float_v<T>) {
      // One sample a thread; BLAS runs on that thread (gemm_into splits only outside a parallel region).
      parallel_for(0, N, 1, [&](int64_t n0, int64_t n1) {
        Tensor cols;
        if (!g.identity())
          cols = make_empty(std::vector<int64_t>{g.rows(), g.grid_size()}, input.dtype(), input.device());
        for (int64_t n = n0; n < n1; ++n) {
          check_interrupt();
          for (int64_t gi = 0; gi < G; ++gi) {
            const int64_t x_off = (n * G + gi) * in_c * in_len, y_off = (n * G + gi) * out_c * out_len;
            if (!p.transposed) {
              Tensor y = matrix(out, y_off, out_c, out_len);
              if (!g.identity()) im2col(input.data_ptr<T>() + x_off, cols.data_ptr<T>(), g);
              const Tensor c = g.identity() ? matrix(input, x_off, in_c, in_len) : cols;
              if (has_bias) {
                T* yp = out.data_ptr<T>() + y_off;
                for (int64_t o = 0; o < out_c; ++o)
                  std::fill(yp + o * out_len, yp + (o + 1) * out_len, b.data_ptr<T>()[gi * out_c + o]);
              }
              gemm_into_cpu(y, matrix(weight, gi * wg, out_c, g.rows()), c, 1, has_bias ? 1 : 0);
            } else {
              const Tensor w = transposed(matrix(weight, gi * wg, in_c, g.rows()));
              T* yp = out.data_ptr<T>() + y_off;
              if (g.identity()) {
                gemm_into_cpu(matrix(out, y_off, out_c, out_len), w, matrix(input, x_off, in_c, in_len), 1, 0);
              } else {
                gemm_into_cpu(cols, w, matrix(input, x_off, in_c, in_len), 1, 0);
                std::fill(yp, yp + out_c * out_len, T(0));
                col2im_add(cols.data_ptr<T>(), yp, g);
              }
              if (has_bias)
                for (int64_t o = 0; o < out_c; ++o)
                  for (int64_t i = 0; i < out_len; ++i) yp[o * out_len + i] += b.data_ptr<T>()[gi * out_c + o];
            }
          }
        }
      });
    }
  });
  return out;
}

// The gradients of conv_forward_cpu's input, weight and bias, each only where output_mask asks.
std::tuple<Tensor, Tensor, Tensor> conv_backward_cpu(const Tensor& grad_output_, const Tensor& input_,
                                                     const Tensor& weight_, const ConvParams& p,
                                                     std::array<bool, 3> output_mask) {
  check_float(input_, "convolution_backward");
  const Tensor gout = contiguous_data(grad_output_), input = contiguous_data(input_), weight = contiguous_data(weight_);
  const int64_t N = input.sizes()[0], G = p.groups;
  const int64_t in_c = input.sizes()[1] / G, out_c = gout.sizes()[1] / G;
  const int64_t in_len = input.numel() / std::max<int64_t>(1, N * input.sizes()[1]);
  const int64_t out_len = gout.numel() / std::max<int64_t>(1, N * gout.sizes()[1]);
  const Im2col g = p.transposed ? geometry(gout.sizes(), input.sizes(), weight.sizes(), p, out_c)
                                : geometry(input.sizes(), gout.sizes(), weight.sizes(), p, in_c);
  const int64_t wg = weight.numel() / G;
  Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[0]) grad_input = make_empty(input.sizes(), input.dtype(), input.device());
  if (output_mask[1]) {
    grad_weight = make_empty(weight.sizes(), weight.dtype(), weight.device());
    fill_cpu_(grad_weight, 0);
  }
  if (output_mask[2]) {
    std::vector<int64_t> dims = {0};
    for (int64_t d = 2; d < gout.dim(); ++d) dims.push_back(d);
    grad_bias = sum_dim_cpu(gout, IntArrayRef(dims), false, std::nullopt);
  }
  if (input.numel() == 0 || gout.numel() == 0) {
    if (grad_input.defined()) fill_cpu_(grad_input, 0);
    return {grad_input, grad_weight, grad_bias};
  }
  visit_dtype(input.dtype(), [&]<typename T>() {
    if constexpr (is_float_v<T>) {
      if (output_mask[0]) {
        parallel_for(0, N, 1, [&](int64_t n0, int64_t n1) {
          Tensor cols;
          if (!g.identity())
            cols = make_empty(std::vector<int64_t>{g.rows(), g.grid_size()}, input.dtype(), input.device());
          for (int64_t n = n0; n < n1; ++n) {
            check_interrupt();
            for (int64_t gi = 0; gi < G; ++gi) {
              const int64_t x_off = (n * G + gi) * in_c * in_len, y_off = (n * G + gi) * out_c * out_len;
              if (!p.transposed) {
                // dcols = W^T (in_c*K, out_c) @ dy (out_c, out_len); dx = col2im(dcols)
                const Tensor w = transposed(matrix(weight, gi * wg, out_c, g.rows()));
                if (g.identity()) {
                  gemm_into_cpu(matrix(grad_input, x_off, in_c, in_len), w, matrix(gout, y_off, out_c, out_len), 1, 0);
                } else {
                  gemm_into_cpu(cols, w, matrix(gout, y_off, out_c, out_len), 1, 0);
                  T* xp = grad_input.data_ptr<T>() + x_off;
                  std::fill(xp, xp + in_c * in_len, T(0));
                  col2im_add(cols.data_ptr<T>(), xp, g);
                }
              } else {
                // dx = W (in_c, out_c*K) @ im2col(dy) (out_c*K, in_len)
                const Tensor w = matrix(weight, gi * wg, in_c, g.rows());
                if (g.identity()) {
                  gemm_into_cpu(matrix(grad_input, x_off, in_c, in_len), w, matrix(gout, y_off, out_c, out_len), 1, 0);
                } else {
                  im2col(gout.data_ptr<T>() + y_off, cols.data_ptr<T>(), g);
                  gemm_into_cpu(matrix(grad_input, x_off, in_c, in_len), w, cols, 1, 0);
                }
              }
            }
          }
        });
      }
      if (output_mask[1]) {
        // Samples in order, each product added into the weight's gradient (BLAS may split one
        // product over the team: its blocks are the weight's rows or columns, not the samples).
        Tensor cols;
        if (!g.identity())
          cols = make_empty(std::vector<int64_t>{g.rows(), g.grid_size()}, input.dtype(), input.device());
        for (int64_t n = 0; n < N; ++n) {
          check_interrupt();
          for (int64_t gi = 0; gi < G; ++gi) {
            const int64_t x_off = (n * G + gi) * in_c * in_len, y_off = (n * G + gi) * out_c * out_len;
            if (!p.transposed) {
              // dW (out_c, in_c*K) += dy (out_c, out_len) @ im2col(x)^T (out_len, in_c*K)
              if (!g.identity()) im2col(input.data_ptr<T>() + x_off, cols.data_ptr<T>(), g);
              const Tensor c = g.identity() ? matrix(input, x_off, in_c, in_len) : cols;
              gemm_into_cpu(matrix(grad_weight, gi * wg, out_c, g.rows()), matrix(gout, y_off, out_c, out_len),
                            transposed(c), 1, 1);
            } else {
              // dW (in_c, out_c*K) += x (in_c, in_len) @ im2col(dy)^T (in_len, out_c*K)
              if (!g.identity()) im2col(gout.data_ptr<T>() + y_off, cols.data_ptr<T>(), g);
              const Tensor c = g.identity() ? matrix(gout, y_off, out_c, out_len) : cols;
              gemm_into_cpu(matrix(grad_weight, gi * wg, in_c, g.rows()), matrix(input, x_off, in_c, in_len),
                            transposed(c), 1, 1);
            }
          }
        }
      }
    }
  });
  return {grad_input, grad_weight, grad_bias};
}

}  // namespace ipt::native

namespace ipt::native {

namespace {
// The backend ops take one group and the input's batch dim; their kernel_size must be the weight's.
void check_kernel_size(const Tensor& weight, IntArrayRef kernel_size) {
  for (size_t i = 0; i < kernel_size.size() && i + 2 < static_cast<size_t>(weight.dim()); ++i)
    IPT_CHECK(kernel_size[i] == weight.sizes()[i + 2], RuntimeError, "Expected kernel_size ", int_list_str(kernel_size),
              " to match the weight's spatial sizes ", int_list_str(weight.sizes()));
}

[[maybe_unused]] const bool kConvBackwardRegistered =
    (register_conv_backward(DeviceType::CPU, &conv_backward_cpu), true);
}  // namespace

Tensor slow_conv2d_forward_cpu(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                               const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding) {
  check_kernel_size(weight, kernel_size);
  return conv_forward_cpu(self, weight, bias, conv_params(stride, padding, {}, {}, false, 1, 2), "slow_conv2d_cpu");
}

std::tuple<Tensor, Tensor, Tensor> slow_conv2d_backward_cpu(const Tensor& grad_output, const Tensor& self,
                                                            const Tensor& weight, IntArrayRef kernel_size,
                                                            IntArrayRef stride, IntArrayRef padding,
                                                            std::array<bool, 3> output_mask) {
  check_kernel_size(weight, kernel_size);
  return conv_backward_cpu(grad_output, self, weight, conv_params(stride, padding, {}, {}, false, 1, 2), output_mask);
}

Tensor slow_conv_dilated2d_cpu(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                               const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding,
                               IntArrayRef dilation) {
  check_kernel_size(weight, kernel_size);
  return conv_forward_cpu(self, weight, bias, conv_params(stride, padding, dilation, {}, false, 1, 2),
                          "slow_conv_dilated<>");
}

Tensor slow_conv_dilated3d_cpu(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                               const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding,
                               IntArrayRef dilation) {
  check_kernel_size(weight, kernel_size);
  return conv_forward_cpu(self, weight, bias, conv_params(stride, padding, dilation, {}, false, 1, 3),
                          "slow_conv_dilated<>");
}

Tensor slow_conv3d_forward_cpu(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                               const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding) {
  check_kernel_size(weight, kernel_size);
  return conv_forward_cpu(self, weight, bias, conv_params(stride, padding, {}, {}, false, 1, 3), "slow_conv3d_cpu");
}

Tensor slow_conv_transpose2d_cpu(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                                 const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding,
                                 IntArrayRef output_padding, IntArrayRef dilation) {
  check_kernel_size(weight, kernel_size);
  return conv_forward_cpu(self, weight, bias, conv_params(stride, padding, dilation, output_padding, true, 1, 2),
                          "slow_conv_transpose2d_out_cpu");
}

Tensor slow_conv_transpose3d_cpu(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                                 const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding,
                                 IntArrayRef output_padding, IntArrayRef dilation) {
  check_kernel_size(weight, kernel_size);
  return conv_forward_cpu(self, weight, bias, conv_params(stride, padding, dilation, output_padding, true, 1, 3),
                          "slow_conv_transpose3d_out_cpu");
}

}  // namespace ipt::native
