// CPU grid_sampler_2d and its backward, as PyTorch 2.15's AVX2 kernel computes them
// (Note [grid_sample's bits]).
//
// Note [grid_sample's bits]
// Each output position samples the input at its grid point, unnormalized to pixels:
// align_corners ? (g + 1) * (S - 1) / 2 : fma(g + 1, S / 2, -0.5), then padded (border clips,
// reflection folds into the span then clips; a NaN becomes 0) and read:
// - nearest: the pixel at the point rounded half to even;
// - bilinear: the four pixels around it, fma(se, wse, fma(sw, wsw, fma(ne, wne, nw * wnw)));
// - bicubic: 4 x 4 taps with the A = -0.75 cubic coefficients, each row summed then the rows,
//   in the fused-multiply-add pattern 2.15's compiled kernel used for that layout (below).
// Positions are taken in vectors of 8 floats or 4 doubles along the grid's rows (or along all
// of a contiguous grid at once); only bicubic's pattern depends on that: a contiguous grid, or
// float32 with zeros / border padding, sums rows as (fma(w0, v0, w1 v1) + w2 v2) + w3 v3 and
// columns as fma(w3, v3, fma(w2, v2, fma(w1, v1, w0 v0))); otherwise a whole vector sums both the
// second way and a partial vector as fma(w3, v3, fma(w2, v2, fma(w0, v0, w1 v1))).
// The backward scatters weight * gradient into grad_input (vector by vector, corner by corner,
// lane by lane) and sums each position's grid gradient over the channels with fused
// multiply-adds, times the unnormalize (and padding) derivative.
#include <array>
#include <cmath>
#include <limits>

#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "core/util/interrupt.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

enum class GridPath { Contig, Rows, Flat, General };

bool contiguous_dims(std::initializer_list<std::pair<int64_t, int64_t>> dims) {
  int64_t expected = 1;
  for (auto it = std::rbegin(dims); it != std::rend(dims); ++it) {
    if (it->first == 0) return true;
    if (it->first != 1 && it->second != expected) return false;
    expected *= it->first;
  }
  return true;
}

GridPath grid_path(const Tensor& grid) {
  const auto& s = grid.sizes();
  const auto& st = grid.strides();
  if (contiguous_dims({{s[1], st[1]}, {s[2], st[2]}, {s[3], st[3]}})) return GridPath::Contig;
  if (st[2] == 1 || s[2] == 1) return contiguous_dims({{s[1], st[1]}, {s[2], st[2]}}) ? GridPath::Flat : GridPath::Rows;
  return GridPath::General;
}

template <typename T>
struct Axis {
  T sf, max, low, span;
  bool empty, align;
  int pad;
  Axis(int64_t size, int padding, bool align_corners) : align(align_corners), pad(padding) {
    sf = align ? T(size - 1) / T(2) : T(size) / T(2);
    max = T(size - 1);
    low = align ? T(0) : T(-0.5);
    span = align ? T(size - 1) * T(2) : T(size) * T(2);
    empty = align && size <= 1;
  }
  T unnormalize(T g) const { return align ? T(g + T(1)) * sf : std::fma(T(g + T(1)), sf, T(-0.5)); }
  T clip(T v) const {
    const T lo = v > T(0) ? v : T(0);  // NaN -> 0
    return lo < max ? lo : max;
  }
  T reflect(T v) const {
    if (empty) return T(0);
    const T u = align ? v : T(v - low);
    const T a = std::abs(u);
    const T flips = std::trunc(T(a / span));
    const T extra = std::fma(-flips, span, a);
    const T rest = T(span - extra);
    const T r = std::isnan(extra) || std::isnan(rest) ? std::numeric_limits<T>::quiet_NaN() : std::min(extra, rest);
    return align ? r : T(r + low);
  }
  // reflect, with the sign of its derivative
  T reflect_grad(T v, T& sign) const {
    if (empty) {
      sign = T(0);
      return T(0);
    }
    const T u = align ? v : T(v - low);
    const T a = std::abs(u);
    const T flips = std::trunc(T(a / span));
    const T extra = std::fma(-flips, span, a);
    const T rest = T(span - extra);
    const bool flip = extra > rest;
    sign = (flip != (u < T(0))) ? T(-1) : T(1);
    return T((flip ? rest : extra) + low);
  }
  T coords(T v) const { return pad == 0 ? v : pad == 1 ? clip(v) : clip(reflect(v)); }
  // the padded coordinate and d(coordinate)/d(grid)
  T coords_grad(T g, T& m) const {
    T x = unnormalize(g);
    m = sf;
    if (pad == 0) return x;
    if (pad == 2) {
      T sign;
      x = reflect_grad(x, sign);
      m = T(sign * m);
    }
    const T lo = x > T(0) ? x : T(0);
    const T r = lo < max ? lo : max;
    if (!(lo != T(0) && r != max)) m = T(0);
    return r;
  }
};

// convert_to_int_of_same_size: truncation; NaN, infinities and out of range give INT_MIN.
template <typename T>
int64_t to_index(T v) {
  using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  constexpr double lo = static_cast<double>(std::numeric_limits<I>::min());
  if (!(std::isfinite(v) && static_cast<double>(v) >= lo && static_cast<double>(v) < -lo))
    return std::numeric_limits<I>::min();
  return static_cast<int64_t>(static_cast<I>(std::trunc(v)));
}

// The 4-term weighted sums in the contraction patterns of 2.15's compiled kernel.
enum class Sum4 { A00, B11, A11 };
template <typename T>
T sum4(const T* w, const T* v, Sum4 p) {
  T acc;
  if (p == Sum4::A00) {
    acc = std::fma(w[0], v[0], T(w[1] * v[1]));
    acc = T(acc + T(w[2] * v[2]));
    return T(acc + T(w[3] * v[3]));
  }
  acc = p == Sum4::B11 ? std::fma(w[1], v[1], T(w[0] * v[0])) : std::fma(w[0], v[0], T(w[1] * v[1]));
  acc = std::fma(w[2], v[2], acc);
  return std::fma(w[3], v[3], acc);
}

template <typename T>
void cubic_coefficients(T t, T* c, bool outer_fused) {
  const T A = T(-0.75);
  auto outer = [&](T x) {
    if (outer_fused) return std::fma(std::fma(std::fma(A, x, T(3.75)), x, T(-6)), x, T(3));
    T p = T(T(A * x) + T(3.75));
    p = T(T(p * x) - T(6));
    return T(T(p * x) + T(3));
  };
  auto inner = [&](T x) { return std::fma(T(std::fma(T(1.25), x, T(-2.25)) * x), x, T(1)); };
  c[0] = outer(T(t + T(1)));
  c[1] = inner(t);
  c[2] = inner(T(T(1) - t));
  c[3] = outer(T(T(2) - t));
}

template <typename T>
void cubic_grad_coefficients(T t, T* c, bool fused) {
  auto lin = [&](T a, T x, T b) { return fused ? std::fma(a, x, b) : T(T(a * x) + b); };
  const T x0 = T(T(-1) - t), x1 = T(T(0) - t), x2 = T(T(1) - t), x3 = T(T(2) - t);
  c[0] = lin(lin(T(2.25), x0, T(7.5)), x0, T(6.0));
  c[1] = T(lin(T(-3.75), x1, T(-4.5)) * x1);
  c[2] = T(lin(T(3.75), x2, T(-4.5)) * x2);
  c[3] = lin(lin(T(-2.25), x3, T(7.5)), x3, T(-6.0));
}

// The vectors of output positions (flat offsets into Ho * Wo), in the kernel's order.
template <typename F>
void for_each_vector(int64_t ho, int64_t wo, int64_t step, GridPath path, F f) {
  if (path == GridPath::Contig || path == GridPath::Flat) {
    for (int64_t s = 0; s < ho * wo; s += step) f(s, std::min(step, ho * wo - s));
  } else {
    for (int64_t h = 0; h < ho; ++h)
      for (int64_t w = 0; w < wo; w += step) f(h * wo + w, std::min(step, wo - w));
  }
}

void check_grid_sampler(const Tensor& input, const Tensor& grid) {
  IPT_CHECK(input.dim() > 0, IndexError, "Dimension specified as 0 but tensor has no dimensions");
  IPT_CHECK(grid.dim() > 0 && input.sizes()[0] == grid.sizes()[0], RuntimeError,
            "grid_sampler(): expected grid and input to have same batch size, but got input with sizes ",
            int_list_str(input.sizes()), " and grid with sizes ", int_list_str(grid.sizes()));
  IPT_CHECK(grid.sizes().back() == input.dim() - 2, RuntimeError, "grid_sampler(): expected grid to have size ",
            input.dim() - 2, " in last dimension, but got grid with sizes ", int_list_str(grid.sizes()));
  for (int64_t d = 2; d < input.dim(); ++d)
    IPT_CHECK(input.sizes()[static_cast<size_t>(d)] != 0, RuntimeError,
              "grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes ",
              int_list_str(input.sizes()), " with dimension ", d, " being empty");
  IPT_CHECK(input.dim() == 4 && grid.dim() == 4, RuntimeError,
            "grid_sampler(): expected 4D input and grid with same number of dimensions, but got input with sizes ",
            int_list_str(input.sizes()), " and grid with sizes ", int_list_str(grid.sizes()));
  IPT_CHECK(is_floating(input.dtype()) && input.dtype() != ScalarType::Half && input.dtype() != ScalarType::BFloat16,
            NotImplementedError, "\"grid_sampler_2d_cpu_kernel_impl\" not implemented for '",
            dtype_cpp_name(input.dtype()), "'");
  IPT_CHECK(grid.dtype() == input.dtype(), RuntimeError, "expected scalar type ", dtype_cpp_name(input.dtype()),
            " but found ", dtype_cpp_name(grid.dtype()));
}

}  // namespace

Tensor grid_sampler_2d_cpu(const Tensor& input_in, const Tensor& grid, int64_t mode, int64_t padding_mode,
                           bool align_corners) {
  check_grid_sampler(input_in, grid);
  const Tensor input = ops::contiguous(input_in, MemoryFormat::Contiguous);
  const int64_t n = input.sizes()[0], c = input.sizes()[1], h = input.sizes()[2], w = input.sizes()[3];
  const int64_t ho = grid.sizes()[1], wo = grid.sizes()[2];
  Tensor out = make_empty(std::vector<int64_t>{n, c, ho, wo}, input.dtype(), input.device());
  if (out.numel() == 0) return out;
  const GridPath path = grid_path(grid);
  const int pad = static_cast<int>(padding_mode);
  visit_dtype(input.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const int64_t step = sizeof(T) == 4 ? 8 : 4;
      const Axis<T> ax(w, pad, align_corners), ay(h, pad, align_corners);
      const T* in = input.data_ptr<T>();
      const T* gp = grid.data_ptr<T>();
      T* o = out.data_ptr<T>();
      const auto& gs = grid.strides();
      auto read = [&](int64_t b, int64_t ch, int64_t ix, int64_t iy, bool ok) -> T {
        return ok ? in[((b * c + ch) * h + iy) * w + ix] : T(0);
      };
      auto inside = [&](int64_t ix, int64_t iy) { return ix > -1 && ix < w && iy > -1 && iy < h; };
      for (int64_t b = 0; b < n; ++b) {
        check_interrupt();
        for_each_vector(ho, wo, step, path, [&](int64_t first, int64_t len) {
          const bool tail = len < step;
          for (int64_t k = first; k < first + len; ++k) {
            const int64_t oh = k / wo, ow = k % wo;
            const T* g = gp + b * gs[0] + oh * gs[1] + ow * gs[2];
            const T gx = g[0], gy = g[gs[3]];
            if (mode == 1) {
              const int64_t ix = to_index(std::nearbyint(ax.coords(ax.unnormalize(gx))));
              const int64_t iy = to_index(std::nearbyint(ay.coords(ay.unnormalize(gy))));
              const bool ok = pad != 0 || inside(ix, iy);
              for (int64_t ch = 0; ch < c; ++ch) o[((b * c + ch) * ho * wo) + k] = read(b, ch, ix, iy, ok);
            } else if (mode == 0) {
              const T x = ax.coords(ax.unnormalize(gx)), y = ay.coords(ay.unnormalize(gy));
              const T xw = std::floor(x), yn = std::floor(y);
              const T we = T(x - xw), e = T(T(1) - we), ns = T(y - yn), s = T(T(1) - ns);
              const int64_t ixw = to_index(xw), iyn = to_index(yn), ixe = ixw + 1, iys = iyn + 1;
              bool ok[4];
              if (pad == 0) {
                ok[0] = inside(ixw, iyn), ok[1] = inside(ixe, iyn), ok[2] = inside(ixw, iys), ok[3] = inside(ixe, iys);
              } else {
                ok[0] = true, ok[1] = ixe < w, ok[2] = iys < h, ok[3] = ixe < w && iys < h;
              }
              const T wts[4] = {T(s * e), T(s * we), T(ns * e), T(ns * we)};
              for (int64_t ch = 0; ch < c; ++ch) {
                const T v[4] = {read(b, ch, ixw, iyn, ok[0]), read(b, ch, ixe, iyn, ok[1]),
                                read(b, ch, ixw, iys, ok[2]), read(b, ch, ixe, iys, ok[3])};
                o[((b * c + ch) * ho * wo) + k] = sum4(v, wts, Sum4::B11);
              }
            } else {
              const T x = ax.unnormalize(gx), y = ay.unnormalize(gy);
              const T ix = std::floor(x), iy = std::floor(y);
              T cx[4], cy[4];
              cubic_coefficients(T(x - ix), cx, false);
              cubic_coefficients(T(y - iy), cy, false);
              Sum4 px, py;
              if (path == GridPath::Contig || (sizeof(T) == 4 && pad != 2)) px = Sum4::A00, py = Sum4::B11;
              else if (tail) px = py = Sum4::A11;
              else px = py = Sum4::B11;
              int64_t tx[4], ty[4];
              bool okx[4], oky[4];
              for (int t = 0; t < 4; ++t) {
                tx[t] = to_index(ax.coords(T(ix + T(t - 1))));
                ty[t] = to_index(ay.coords(T(iy + T(t - 1))));
                okx[t] = pad != 0 || (tx[t] > -1 && tx[t] < w);
                oky[t] = pad != 0 || (ty[t] > -1 && ty[t] < h);
              }
              for (int64_t ch = 0; ch < c; ++ch) {
                T rows[4];
                for (int i = 0; i < 4; ++i) {
                  T v[4];
                  for (int t = 0; t < 4; ++t) v[t] = read(b, ch, tx[t], ty[i], okx[t] && oky[i]);
                  rows[i] = sum4(cx, v, px);
                }
                o[((b * c + ch) * ho * wo) + k] = sum4(cy, rows, py);
              }
            }
          }
        });
      }
    }
  });
  return out;
}

std::tuple<Tensor, Tensor> grid_sampler_2d_backward_cpu(const Tensor& grad_output, const Tensor& input_in,
                                                        const Tensor& grid, int64_t mode, int64_t padding_mode,
                                                        bool align_corners, std::array<bool, 2> output_mask) {
  check_grid_sampler(input_in, grid);
  const Tensor input = ops::contiguous(input_in, MemoryFormat::Contiguous);
  const int64_t n = input.sizes()[0], c = input.sizes()[1], h = input.sizes()[2], w = input.sizes()[3];
  const int64_t ho = grid.sizes()[1], wo = grid.sizes()[2];
  const std::vector<int64_t> want{n, c, ho, wo};
  IPT_CHECK(grad_output.sizes() == want, ValueError, "grid_sampler(): expected grad_output to have sizes ",
            int_list_str(want), " but got grad_output with sizes ", int_list_str(grad_output.sizes()));
  const bool need_input = output_mask[0];
  Tensor grad_input = need_input ? ops::zeros(input.sizes(), input.dtype(), std::nullopt, input.device()) : Tensor();
  Tensor grad_grid = make_empty(std::vector<int64_t>{n, ho, wo, 2}, grid.dtype(), grid.device());
  const Tensor go = ops::contiguous(grad_output, MemoryFormat::Contiguous);
  if (go.numel() == 0) {
    ops::zero_(grad_grid);
    return {grad_input, grad_grid};
  }
  const GridPath path = grid_path(grid);
  const int pad = static_cast<int>(padding_mode);
  visit_dtype(input.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const int64_t step = sizeof(T) == 4 ? 8 : 4;
      const Axis<T> ax(w, pad, align_corners), ay(h, pad, align_corners);
      const T* in = input.data_ptr<T>();
      const T* gp = grid.data_ptr<T>();
      const T* gop = go.data_ptr<T>();
      T* gi = need_input ? grad_input.data_ptr<T>() : nullptr;
      T* gg = grad_grid.data_ptr<T>();
      const auto& gs = grid.strides();
      auto inside = [&](int64_t ix, int64_t iy) { return ix > -1 && ix < w && iy > -1 && iy < h; };
      auto at = [&](int64_t b, int64_t ch, int64_t ix, int64_t iy) { return ((b * c + ch) * h + iy) * w + ix; };
      for (int64_t b = 0; b < n; ++b) {
        check_interrupt();
        for_each_vector(ho, wo, step, path, [&](int64_t first, int64_t len) {
          auto gout = [&](int64_t ch, int64_t k) { return gop[(b * c + ch) * ho * wo + k]; };
          auto grid_at = [&](int64_t k, int comp) {
            return gp[b * gs[0] + (k / wo) * gs[1] + (k % wo) * gs[2] + comp * gs[3]];
          };
          if (mode == 1) {
            for (int64_t k = first; k < first + len; ++k) {
              gg[(b * ho * wo + k) * 2] = T(0);
              gg[(b * ho * wo + k) * 2 + 1] = T(0);
            }
            if (!need_input) return;
            for (int64_t ch = 0; ch < c; ++ch)
              for (int64_t k = first; k < first + len; ++k) {
                const int64_t ix = to_index(std::nearbyint(ax.coords(ax.unnormalize(grid_at(k, 0)))));
                const int64_t iy = to_index(std::nearbyint(ay.coords(ay.unnormalize(grid_at(k, 1)))));
                if (pad != 0 || inside(ix, iy)) gi[at(b, ch, ix, iy)] += gout(ch, k);
              }
            return;
          }
          if (mode == 0) {
            struct Point {
              int64_t ix[4], iy[4];
              bool ok[4];
              T wts[4], we, e, ns, s, mx, my;
            };
            Point pts[8];
            for (int64_t l = 0; l < len; ++l) {
              Point& p = pts[l];
              const T x = ax.coords_grad(grid_at(first + l, 0), p.mx), y = ay.coords_grad(grid_at(first + l, 1), p.my);
              const T xw = std::floor(x), yn = std::floor(y);
              p.we = T(x - xw), p.e = T(T(1) - p.we), p.ns = T(y - yn), p.s = T(T(1) - p.ns);
              const int64_t ixw = to_index(xw), iyn = to_index(yn);
              const int64_t xs[4] = {ixw, ixw + 1, ixw, ixw + 1}, ys[4] = {iyn, iyn, iyn + 1, iyn + 1};
              for (int q = 0; q < 4; ++q) p.ix[q] = xs[q], p.iy[q] = ys[q];
              if (pad == 0) {
                for (int q = 0; q < 4; ++q) p.ok[q] = inside(xs[q], ys[q]);
              } else {
                p.ok[0] = true, p.ok[1] = ixw + 1 < w, p.ok[2] = iyn + 1 < h, p.ok[3] = ixw + 1 < w && iyn + 1 < h;
              }
              p.wts[0] = T(p.s * p.e), p.wts[1] = T(p.s * p.we), p.wts[2] = T(p.ns * p.e), p.wts[3] = T(p.ns * p.we);
            }
            if (need_input)
              for (int q = 0; q < 4; ++q)
                for (int64_t ch = 0; ch < c; ++ch)
                  for (int64_t l = 0; l < len; ++l) {
                    const Point& p = pts[l];
                    if (p.ok[q]) gi[at(b, ch, p.ix[q], p.iy[q])] += T(p.wts[q] * gout(ch, first + l));
                  }
            for (int64_t l = 0; l < len; ++l) {
              const Point& p = pts[l];
              T gx = T(0), gy = T(0);
              for (int64_t ch = 0; ch < c; ++ch) {
                T v[4];
                for (int q = 0; q < 4; ++q) v[q] = p.ok[q] ? in[at(b, ch, p.ix[q], p.iy[q])] : T(0);
                const T tx = std::fma(T(v[3] - v[2]), p.ns, T(T(v[1] - v[0]) * p.s));
                const T ty = std::fma(T(v[3] - v[1]), p.we, T(T(v[2] - v[0]) * p.e));
                const T g = gout(ch, first + l);
                gx = std::fma(tx, g, gx);
                gy = std::fma(ty, g, gy);
              }
              gg[(b * ho * wo + first + l) * 2] = T(gx * p.mx);
              gg[(b * ho * wo + first + l) * 2 + 1] = T(gy * p.my);
            }
            return;
          }
          // bicubic
          bool outer_fused = false, grad_fused = false;
          if (sizeof(T) == 4 && !need_input) {
            if (path != GridPath::General) outer_fused = grad_fused = true;
            else if (pad != 2) grad_fused = true;
          }
          struct Taps {
            T cx[4], cy[4], cxg[4], cyg[4], gx = T(0), gy = T(0);
            int64_t tx[4], ty[4];
          };
          Taps tp[8];
          for (int64_t l = 0; l < len; ++l) {
            Taps& t = tp[l];
            const T x = ax.unnormalize(grid_at(first + l, 0)), y = ay.unnormalize(grid_at(first + l, 1));
            const T ix = std::floor(x), iy = std::floor(y);
            cubic_coefficients(T(x - ix), t.cx, outer_fused);
            cubic_coefficients(T(y - iy), t.cy, outer_fused);
            cubic_grad_coefficients(T(x - ix), t.cxg, grad_fused);
            cubic_grad_coefficients(T(y - iy), t.cyg, grad_fused);
            for (int q = 0; q < 4; ++q) {
              t.tx[q] = to_index(ax.coords(T(ix + T(q - 1))));
              t.ty[q] = to_index(ay.coords(T(iy + T(q - 1))));
            }
          }
          // Channel by channel, tap by tap, lane by lane, as 2.15 scatters them.
          for (int64_t ch = 0; ch < c; ++ch)
            for (int i = 0; i < 4; ++i)
              for (int j = 0; j < 4; ++j)
                for (int64_t l = 0; l < len; ++l) {
                  Taps& t = tp[l];
                  const int64_t a = t.tx[i], bb = t.ty[j];
                  const bool ok = pad != 0 || inside(a, bb);
                  const T g = gout(ch, first + l);
                  if (need_input && ok) gi[at(b, ch, a, bb)] += T(T(g * t.cx[i]) * t.cy[j]);
                  const T vg = T((ok ? in[at(b, ch, a, bb)] : T(0)) * g);
                  t.gx = std::fma(-T(vg * t.cxg[i]), t.cy[j], t.gx);
                  t.gy = std::fma(-T(vg * t.cyg[j]), t.cx[i], t.gy);
                }
          for (int64_t l = 0; l < len; ++l) {
            gg[(b * ho * wo + first + l) * 2] = T(tp[l].gx * ax.sf);
            gg[(b * ho * wo + first + l) * 2 + 1] = T(tp[l].gy * ay.sf);
          }
        });
      }
    }
  });
  return {grad_input, grad_grid};
}

}  // namespace ipt::native
