// CPU max, average, adaptive average and adaptive max pooling over 2 or 3 spatial dims and their backward
// kernels, as PyTorch 2.15's contiguous kernels compute them (aten/src/ATen/native/cpu/
// MaxPoolKernel.cpp, AvgPoolKernel.cpp, AdaptiveAvgPoolKernel.cpp): each plane (a channel of a
// sample) on one thread; a window's sum in the accumulation type, in row-major order, divided
// once (average pooling) or by each window extent in turn (adaptive: sum / kh / kw); a window's
// maximum the first largest value, or the first NaN. A 2-D pool is a 3-D one with a depth of 1.
#include <array>
#include <cmath>
#include <limits>

#include "backends/cpu/copy_kernels.h"
#include "backends/cpu/into_kernels.h"
#include "backends/cpu/reduction_rows.h"
#include "core/ops/pool_rules.h"
#include "core/parallel/parallel.h"
#include "core/util/error.h"
#include "core/util/interrupt.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

// The accumulation type of a sum of T (PyTorch's opmath_type): float for float16 / bfloat16.
template <typename T>
using Acc = std::conditional_t<std::is_same_v<T, double>, double,
                               std::conditional_t<std::is_floating_point_v<T> || !std::is_arithmetic_v<T>, float, T>>;

template <typename T>
bool is_nan(T v) {
  if constexpr (std::is_integral_v<T>) return false;
  else if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  else return std::isnan(static_cast<double>(v));
}

template <typename T>
T lowest() {
  if constexpr (std::is_integral_v<T>) return std::numeric_limits<T>::lowest();
  else return static_cast<T>(-std::numeric_limits<float>::infinity());
}

// Runs f(plane) for each plane on the team.
template <typename F>
void for_planes(const PoolGeometry& g, const F& f) {
  parallel_for(0, g.planes(), 1, [&](int64_t b, int64_t e) {
    for (int64_t c = b; c < e; ++c) {
      check_interrupt();
      f(c);
    }
  });
}

// The window of output (od, oh, ow) clipped to the input, and its size before clipping to the
// input but after clipping to the padded input (avg pooling's count_include_pad divisor).
struct Window {
  int64_t lo[3], hi[3], padded_size;
};
Window avg_window(const PoolGeometry& g, const int64_t o[3]) {
  Window w;
  w.padded_size = 1;
  for (int i = 0; i < 3; ++i) {
    int64_t a = o[i] * g.s[i] - g.p[i];
    int64_t b = std::min(a + g.k[i], g.in[i] + g.p[i]);
    w.padded_size *= b - a;
    w.lo[i] = std::max<int64_t>(a, 0);
    w.hi[i] = std::min(b, g.in[i]);
  }
  return w;
}

// What average pooling divides a window's sum by: divisor_override, else the window's size
// within the padded input (count_include_pad) or within the input.
int64_t avg_divisor(const Window& w, bool count_include_pad, std::optional<int64_t> divisor_override) {
  if (divisor_override) return *divisor_override;
  if (count_include_pad) return w.padded_size;
  return (w.hi[0] - w.lo[0]) * (w.hi[1] - w.lo[1]) * (w.hi[2] - w.lo[2]);
}

template <typename F>
void for_outputs(const PoolGeometry& g, const F& f) {
  int64_t o[3];
  for (o[0] = 0; o[0] < g.out[0]; ++o[0])
    for (o[1] = 0; o[1] < g.out[1]; ++o[1])
      for (o[2] = 0; o[2] < g.out[2]; ++o[2]) f(o, (o[0] * g.out[1] + o[1]) * g.out[2] + o[2]);
}

Tensor empty_output(const PoolGeometry& g, const Tensor& like, ScalarType dtype) {
  return make_empty(g.out_sizes, dtype, like.device());
}

void check_pool_dtype(const Tensor& t, const char* name, bool allow_integers) {
  IPT_CHECK(t.dtype() != ScalarType::Bool && (allow_integers || is_floating(t.dtype())), NotImplementedError, "\"",
            name, "\" not implemented for '", dtype_cpp_name(t.dtype()), "'");
}

}  // namespace

// ---- max pooling ------------------------------------------------------------------------------
// window(i, o, lo, hi, step) gives the input window of output index o along dim i (of 3); the
// windows along each dim are worked out once, before the planes.
template <typename Window>
std::tuple<Tensor, Tensor> max_pool_windows_cpu(const Tensor& self, const PoolGeometry& g, const char* name,
                                                bool allow_integers, const Window& window) {
  check_pool_dtype(self, name, allow_integers);
  const Tensor x = contiguous_data(self);
  Tensor out = empty_output(g, self, self.dtype()), indices = empty_output(g, self, ScalarType::Long);
  struct Span {
    int64_t lo, hi, step;
  };
  std::array<std::vector<Span>, 3> spans;
  for (int i = 0; i < 3; ++i)
    for (int64_t o = 0; o < g.out[i]; ++o) {
      Span sp{};
      window(i, o, sp.lo, sp.hi, sp.step);
      spans[static_cast<size_t>(i)].push_back(sp);
    }
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      const T* xp = x.data_ptr<T>();
      T* op = out.data_ptr<T>();
      int64_t* ip = indices.data_ptr<int64_t>();
      const int64_t in_h = g.in[1], in_w = g.in[2];
      for_planes(g, [&](int64_t c) {
        const T* in = xp + c * g.in_plane();
        T* o_val = op + c * g.out_plane();
        int64_t* o_idx = ip + c * g.out_plane();
        for (const Span& d : spans[0])
          for (const Span& h : spans[1])
            for (const Span& w : spans[2]) {
              int64_t maxindex = (d.lo * in_h + h.lo) * in_w + w.lo;
              Acc<T> maxval = static_cast<Acc<T>>(lowest<T>());
              for (int64_t id = d.lo; id < d.hi; id += d.step)
                for (int64_t ih = h.lo; ih < h.hi; ih += h.step) {
                  const int64_t row = (id * in_h + ih) * in_w;
                  for (int64_t iw = w.lo; iw < w.hi; iw += w.step) {
                    // a select, not a branch: which element wins is data, and mispredicted
                    // branches cost more than the window's loads
                    const Acc<T> v = static_cast<Acc<T>>(in[row + iw]);
                    const bool take = (v > maxval) | is_nan(v);
                    maxval = take ? v : maxval;
                    maxindex = take ? row + iw : maxindex;
                  }
                }
              *o_val++ = static_cast<T>(maxval);
              *o_idx++ = maxindex;
            }
      });
    }
  });
  return {out, indices};
}

std::tuple<Tensor, Tensor> max_pool_with_indices_cpu(const Tensor& self, const PoolGeometry& g) {
  return max_pool_windows_cpu(self, g, g.dims == 2 ? "max_pool2d" : "max_pool3d_cpu", true,
                              [&](int i, int64_t o, int64_t& lo, int64_t& hi, int64_t& step) {
                                lo = o * g.s[i] - g.p[i];
                                hi = std::min(lo + (g.k[i] - 1) * g.d[i] + 1, g.in[i]);
                                while (lo < 0) lo += g.d[i];
                                step = g.d[i];
                              });
}

// Adaptive max pooling: adaptive average pooling's windows, their first largest value (or last NaN);
// floating types only.
static std::tuple<Tensor, Tensor> adaptive_max_pool_cpu(const Tensor& self, const PoolGeometry& g) {
  return max_pool_windows_cpu(self, g, g.dims == 2 ? "adaptive_max_pool2d" : "adaptive_max_pool3d_cpu", false,
                              [&](int i, int64_t o, int64_t& lo, int64_t& hi, int64_t& step) {
                                lo = adaptive_start(o, g.out[i], g.in[i]);
                                hi = adaptive_end(o, g.out[i], g.in[i]);
                                step = 1;
                              });
}

// The gradient of max pooling (and of adaptive max pooling: `name` for its messages) goes to each
// window's maximum, at the positions `indices` holds.
static Tensor max_pool_indices_backward_cpu(const Tensor& grad_output, const Tensor& self, const Tensor& indices,
                                            const PoolGeometry& g, const char* name, bool allow_integers = true) {
  check_pool_dtype(self, name, allow_integers);
  const Tensor go = contiguous_data(grad_output), idx = contiguous_data(indices);
  Tensor grad_input = make_empty(self.sizes(), self.dtype(), self.device());
  fill_cpu_(grad_input, 0);
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      const T* gp = go.data_ptr<T>();
      const int64_t* ip = idx.data_ptr<int64_t>();
      T* gi = grad_input.data_ptr<T>();
      for_planes(g, [&](int64_t c) {
        for (int64_t at = 0; at < g.out_plane(); ++at) {
          const int64_t index = ip[c * g.out_plane() + at];
          if (index != -1) gi[c * g.in_plane() + index] += gp[c * g.out_plane() + at];
        }
      });
    }
  });
  return grad_input;
}

Tensor max_pool_backward_cpu(const Tensor& grad_output, const Tensor& self, const Tensor& indices,
                             const PoolGeometry& g) {
  return max_pool_indices_backward_cpu(grad_output, self, indices, g,
                                       g.dims == 2 ? "max_pool2d_backward" : "max_pool3d_backward");
}

std::tuple<Tensor, Tensor> max_pool2d_with_indices_cpu(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                                       IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return max_pool_with_indices_cpu(
      self, pool_geometry(self, kernel_size, stride, padding, dilation, ceil_mode, 2, "max_pool2d"));
}
std::tuple<Tensor, Tensor> max_pool3d_with_indices_cpu(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                                       IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return max_pool_with_indices_cpu(
      self, pool_geometry(self, kernel_size, stride, padding, dilation, ceil_mode, 3, "max_pool3d"));
}
Tensor max_pool2d_with_indices_backward_cpu(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel_size,
                                            IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                                            bool ceil_mode, const Tensor& indices) {
  return max_pool_backward_cpu(grad_output, self, indices,
                               pool_geometry(self, kernel_size, stride, padding, dilation, ceil_mode, 2, "max_pool2d"));
}
Tensor max_pool3d_with_indices_backward_cpu(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel_size,
                                            IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                                            bool ceil_mode, const Tensor& indices) {
  return max_pool_backward_cpu(grad_output, self, indices,
                               pool_geometry(self, kernel_size, stride, padding, dilation, ceil_mode, 3, "max_pool3d"));
}

// ---- average pooling --------------------------------------------------------------------------
Tensor avg_pool_cpu(const Tensor& self, const PoolGeometry& g, bool count_include_pad,
                    std::optional<int64_t> divisor_override) {
  check_pool_dtype(self, g.dims == 2 ? "avg_pool2d_out_frame" : "avg_pool3d_out_frame", true);
  IPT_CHECK(!divisor_override || *divisor_override != 0, RuntimeError, "divisor must be not zero");
  const Tensor x = contiguous_data(self);
  Tensor out = empty_output(g, self, self.dtype());
  // Each dim's windows (avg_window's, one dim at a time), worked out once before the planes.
  struct Span {
    int64_t lo, hi, padded;
  };
  std::array<std::vector<Span>, 3> spans;
  for (int i = 0; i < 3; ++i)
    for (int64_t o = 0; o < g.out[i]; ++o) {
      const int64_t a = o * g.s[i] - g.p[i], b = std::min(a + g.k[i], g.in[i] + g.p[i]);
      spans[static_cast<size_t>(i)].push_back({std::max<int64_t>(a, 0), std::min(b, g.in[i]), b - a});
    }
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      using A = Acc<T>;
      const T* xp = x.data_ptr<T>();
      T* op = out.data_ptr<T>();
      for_planes(g, [&](int64_t c) {
        const T* in = xp + c * g.in_plane();
        T* dst = op + c * g.out_plane();
        for (const Span& d : spans[0])
          for (const Span& h : spans[1])
            for (const Span& w : spans[2]) {
              if (d.lo >= d.hi || h.lo >= h.hi || w.lo >= w.hi) {
                *dst++ = T(0);
                continue;
              }
              const int64_t divide = divisor_override    ? *divisor_override
                                     : count_include_pad ? d.padded * h.padded * w.padded
                                                         : (d.hi - d.lo) * (h.hi - h.lo) * (w.hi - w.lo);
              A sum = 0;
              for (int64_t id = d.lo; id < d.hi; ++id)
                for (int64_t ih = h.lo; ih < h.hi; ++ih) {
                  const T* row = in + (id * g.in[1] + ih) * g.in[2];
                  for (int64_t iw = w.lo; iw < w.hi; ++iw) sum += static_cast<A>(row[iw]);
                }
              *dst++ = static_cast<T>(sum / static_cast<A>(divide));
            }
      });
    }
  });
  return out;
}

Tensor avg_pool_backward_cpu(const Tensor& grad_output, const Tensor& self, const PoolGeometry& g,
                             bool count_include_pad, std::optional<int64_t> divisor_override) {
  check_pool_dtype(self, g.dims == 2 ? "avg_pool2d_backward_out_frame" : "avg_pool3d_backward_out_frame", true);
  IPT_CHECK(!divisor_override || *divisor_override != 0, RuntimeError, "divisor must be not zero");
  const Tensor go = contiguous_data(grad_output);
  Tensor grad_input = make_empty(self.sizes(), self.dtype(), self.device());
  fill_cpu_(grad_input, 0);
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      const T* gp = go.data_ptr<T>();
      T* gi = grad_input.data_ptr<T>();
      for_planes(g, [&](int64_t c) {
        T* in = gi + c * g.in_plane();
        for_outputs(g, [&](const int64_t o[3], int64_t at) {
          const Window w = avg_window(g, o);
          const int64_t divide = avg_divisor(w, count_include_pad, divisor_override);
          const T delta = static_cast<T>(gp[c * g.out_plane() + at] / static_cast<T>(divide));
          for (int64_t id = w.lo[0]; id < w.hi[0]; ++id)
            for (int64_t ih = w.lo[1]; ih < w.hi[1]; ++ih)
              for (int64_t iw = w.lo[2]; iw < w.hi[2]; ++iw) in[(id * g.in[1] + ih) * g.in[2] + iw] += delta;
        });
      });
    }
  });
  return grad_input;
}

Tensor avg_pool2d_cpu(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                      bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override) {
  return avg_pool_cpu(self, pool_geometry(self, kernel_size, stride, padding, {}, ceil_mode, 2, "avg_pool2d"),
                      count_include_pad, divisor_override);
}
Tensor avg_pool3d_cpu(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                      bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override) {
  return avg_pool_cpu(self, pool_geometry(self, kernel_size, stride, padding, {}, ceil_mode, 3, "avg_pool3d"),
                      count_include_pad, divisor_override);
}
Tensor avg_pool2d_backward_cpu(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel_size,
                               IntArrayRef stride, IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                               std::optional<int64_t> divisor_override) {
  return avg_pool_backward_cpu(grad_output, self,
                               pool_geometry(self, kernel_size, stride, padding, {}, ceil_mode, 2, "avg_pool2d"),
                               count_include_pad, divisor_override);
}
Tensor avg_pool3d_backward_cpu(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel_size,
                               IntArrayRef stride, IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                               std::optional<int64_t> divisor_override) {
  return avg_pool_backward_cpu(grad_output, self,
                               pool_geometry(self, kernel_size, stride, padding, {}, ceil_mode, 3, "avg_pool3d"),
                               count_include_pad, divisor_override);
}

// ---- adaptive average pooling -------------------------------------------------------------------
Tensor adaptive_avg_pool_cpu(const Tensor& self, const PoolGeometry& g) {
  check_pool_dtype(self, g.dims == 2 ? "adaptive_avg_pool2d" : "adaptive_avg_pool3d_cpu", true);
  const Tensor x = contiguous_data(self);
  Tensor out = empty_output(g, self, self.dtype());
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      using A = Acc<T>;
      const T* xp = x.data_ptr<T>();
      T* op = out.data_ptr<T>();
      for_planes(g, [&](int64_t c) {
        const T* in = xp + c * g.in_plane();
        for_outputs(g, [&](const int64_t o[3], int64_t at) {
          int64_t lo[3], hi[3];
          for (int i = 0; i < 3; ++i) {
            lo[i] = adaptive_start(o[i], g.out[i], g.in[i]);
            hi[i] = adaptive_end(o[i], g.out[i], g.in[i]);
          }
          A sum = 0;
          for (int64_t id = lo[0]; id < hi[0]; ++id)
            for (int64_t ih = lo[1]; ih < hi[1]; ++ih)
              for (int64_t iw = lo[2]; iw < hi[2]; ++iw) sum += static_cast<A>(in[(id * g.in[1] + ih) * g.in[2] + iw]);
          // PyTorch divides by each extent in turn (a depth of 1 divides exactly)
          if (g.dims == 3) sum = sum / static_cast<A>(hi[0] - lo[0]);
          op[c * g.out_plane() + at] =
              static_cast<T>(sum / static_cast<A>(hi[1] - lo[1]) / static_cast<A>(hi[2] - lo[2]));
        });
      });
    }
  });
  return out;
}

Tensor adaptive_avg_pool_backward_cpu(const Tensor& grad_output, const Tensor& self, const PoolGeometry& g) {
  const Tensor go = contiguous_data(grad_output);
  Tensor grad_input = make_empty(self.sizes(), self.dtype(), self.device());
  fill_cpu_(grad_input, 0);
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      using A = Acc<T>;
      const T* gp = go.data_ptr<T>();
      T* gi = grad_input.data_ptr<T>();
      for_planes(g, [&](int64_t c) {
        T* in = gi + c * g.in_plane();
        for_outputs(g, [&](const int64_t o[3], int64_t at) {
          int64_t lo[3], hi[3];
          for (int i = 0; i < 3; ++i) {
            lo[i] = adaptive_start(o[i], g.out[i], g.in[i]);
            hi[i] = adaptive_end(o[i], g.out[i], g.in[i]);
          }
          A delta = static_cast<A>(gp[c * g.out_plane() + at]);
          if (g.dims == 3) delta = delta / static_cast<A>(hi[0] - lo[0]);
          delta = delta / static_cast<A>(hi[1] - lo[1]) / static_cast<A>(hi[2] - lo[2]);
          for (int64_t id = lo[0]; id < hi[0]; ++id)
            for (int64_t ih = lo[1]; ih < hi[1]; ++ih)
              for (int64_t iw = lo[2]; iw < hi[2]; ++iw) {
                T& dst = in[(id * g.in[1] + ih) * g.in[2] + iw];
                dst = static_cast<T>(static_cast<A>(dst) + delta);
              }
        });
      });
    }
  });
  return grad_input;
}

Tensor adaptive_avg_pool2d_cpu(const Tensor& self, IntArrayRef output_size) {
  return adaptive_avg_pool_cpu(self, adaptive_pool_geometry(self, output_size, 2, "adaptive_avg_pool2d"));
}
Tensor adaptive_avg_pool3d_cpu(const Tensor& self, IntArrayRef output_size) {
  return adaptive_avg_pool_cpu(self, adaptive_pool_geometry(self, output_size, 3, "adaptive_avg_pool3d"));
}
Tensor adaptive_avg_pool2d_backward_cpu(const Tensor& grad_output, const Tensor& self) {
  const int64_t nd = grad_output.dim();
  const std::vector<int64_t> out(grad_output.sizes().end() - 2, grad_output.sizes().end());
  (void)nd;
  return adaptive_avg_pool_backward_cpu(grad_output, self, adaptive_pool_geometry(self, out, 2, "adaptive_avg_pool2d"));
}
Tensor adaptive_avg_pool3d_backward_cpu(const Tensor& grad_output, const Tensor& self) {
  const std::vector<int64_t> out(grad_output.sizes().end() - 3, grad_output.sizes().end());
  return adaptive_avg_pool_backward_cpu(grad_output, self, adaptive_pool_geometry(self, out, 3, "adaptive_avg_pool3d"));
}

std::tuple<Tensor, Tensor> adaptive_max_pool2d_cpu(const Tensor& self, IntArrayRef output_size) {
  return adaptive_max_pool_cpu(self, adaptive_max_pool_geometry(self, output_size, 2, "adaptive_max_pool2d"));
}
std::tuple<Tensor, Tensor> adaptive_max_pool3d_cpu(const Tensor& self, IntArrayRef output_size) {
  return adaptive_max_pool_cpu(self, adaptive_max_pool_geometry(self, output_size, 3, "adaptive_max_pool3d"));
}
// The gradient goes to each window's maximum, at the positions indices holds (max pooling's).
Tensor adaptive_max_pool2d_backward_cpu(const Tensor& grad_output, const Tensor& self, const Tensor& indices) {
  const std::vector<int64_t> out(grad_output.sizes().end() - 2, grad_output.sizes().end());
  return max_pool_indices_backward_cpu(grad_output, self, indices,
                                       adaptive_pool_geometry(self, out, 2, "adaptive_max_pool2d"),
                                       "adaptive_max_pool2d_backward", false);
}
Tensor adaptive_max_pool3d_backward_cpu(const Tensor& grad_output, const Tensor& self, const Tensor& indices) {
  const std::vector<int64_t> out(grad_output.sizes().end() - 3, grad_output.sizes().end());
  return max_pool_indices_backward_cpu(grad_output, self, indices,
                                       adaptive_pool_geometry(self, out, 3, "adaptive_max_pool3d"),
                                       "adaptive_max_pool3d_backward_cpu", false);
}

}  // namespace ipt::native
