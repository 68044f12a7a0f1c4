// Note [Stride-1 convolutions tap by tap] (conv_taps.h): the padded image, the packed weights,
// the products and the copy out with the bias.
#include "backends/cpu/conv_taps.h"

#include <algorithm>
#include <string>
#include <vector>

#include "backends/cpu/into_kernels.h"
#include "backends/cpu/vml.h"
#include "core/parallel/parallel.h"
#include "core/trace/recorder.h"
#include "core/util/interrupt.h"

namespace ipt::cpu {

namespace {

// The padded image's sizes and the products' columns: up to the last output position.
struct TapGrid {
  int64_t padded[3] = {1, 1, 1};
  int64_t columns = 0;
  int64_t plane() const { return padded[0] * padded[1] * padded[2]; }
};

TapGrid tap_grid(const ConvGeometry& g) {
  TapGrid t;
  for (int i = 0; i < 3; ++i) t.padded[i] = g.img[i] + 2 * g.p[i];
  t.columns = ((g.grid[0] - 1) * t.padded[1] + g.grid[1] - 1) * t.padded[2] + g.grid[2];
  return t;
}

// Each tap's offset in the padded image, in (kd, kh, kw) order.
std::vector<int64_t> tap_shifts(const ConvGeometry& g, const TapGrid& t) {
  std::vector<int64_t> shifts;
  for (int64_t kd = 0; kd < g.k[0]; ++kd)
    for (int64_t kh = 0; kh < g.k[1]; ++kh)
      for (int64_t kw = 0; kw < g.k[2]; ++kw)
        shifts.push_back((kd * g.d[0] * t.padded[1] + kh * g.d[1]) * t.padded[2] + kw * g.d[2]);
  return shifts;
}

// One sample's group of g.C channels at x, copied into the middle of `padded` (its borders are
// zero already and stay so).
template <typename T>
void pad_image(const T* x, T* padded, const ConvGeometry& g, const TapGrid& t) {
  for (int64_t c = 0; c < g.C; ++c)
    for (int64_t d = 0; d < g.img[0]; ++d)
      for (int64_t h = 0; h < g.img[1]; ++h)
        std::copy_n(x + ((c * g.img[0] + d) * g.img[1] + h) * g.img[2], g.img[2],
                    padded + c * t.plane() + ((d + g.p[0]) * t.padded[1] + h + g.p[1]) * t.padded[2] + g.p[2]);
}

// Where output row (d, h) sits in a row of the products: at d * slab + h * row.
struct RowAt {
  int64_t slab, row;
};

// y (out_c, grid) = the valid columns of acc (ld columns a row), plus the bias (null: none).
template <typename T>
void copy_out(const T* acc, int64_t ld, RowAt at, const T* bias, T* y, const ConvGeometry& g, int64_t out_c) {
  for (int64_t o = 0; o < out_c; ++o)
    for (int64_t d = 0; d < g.grid[0]; ++d)
      for (int64_t h = 0; h < g.grid[1]; ++h) {
        const T* src = acc + o * ld + d * at.slab + h * at.row;
        T* dst = y + ((o * g.grid[0] + d) * g.grid[1] + h) * g.grid[2];
        if (bias) {
          const T b = bias[o];
          for (int64_t w = 0; w < g.grid[2]; ++w) dst[w] = src[w] + b;
        } else {
          std::copy_n(src, g.grid[2], dst);
        }
      }
}

// The vector kernel this CPU runs (null: none) and its register block.
struct TapKernel {
  void (*run)(const TapProduct&) = nullptr;
  int64_t rows = 1, columns = 1;
  const char* isa = "";
};

TapKernel tap_kernel() {
  if (has_avx512()) return {avx512::tap_product, avx512::kTapRows, avx512::kTapColumns, "AVX-512"};
  if (has_avx2()) return {avx2::tap_product, avx2::kTapRows, avx2::kTapColumns, "AVX2"};
  return {};
}

// float on the vector kernel. Samples go one a thread; a sample alone (or fewer samples than
// threads) splits its row blocks over the team instead.
void forward_float(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out,
                   const ConvGeometry& g, int64_t G, int64_t out_c, const TapKernel& k) {
  const TapGrid t = tap_grid(g);
  const std::vector<int64_t> shifts = tap_shifts(g, t);
  const int64_t taps = g.kernel_size(), in_c = g.C, N = input.sizes()[0];
  const int64_t row_blocks = (out_c + k.rows - 1) / k.rows;
  // The columns as register blocks: either each output row rounded up to whole blocks, or all of
  // them in one run with the padding's columns between rows, whichever computes fewer.
  const int64_t round = k.columns, grid_rows = g.grid[0] * g.grid[1];
  const int64_t row_blocks_a_row = (g.grid[2] + round - 1) / round;
  const int64_t flat_blocks = (t.columns + round - 1) / round;
  const bool by_rows = grid_rows * row_blocks_a_row <= flat_blocks;
  TapProduct layout{};
  RowAt at{};
  if (by_rows) {
    layout.tile_rows = grid_rows;
    layout.row_tiles = row_blocks_a_row;
    layout.grid_h = g.grid[1];
    layout.in_slab = t.padded[1] * t.padded[2];
    layout.in_row = t.padded[2];
    layout.out_row = row_blocks_a_row * round;
    at = {g.grid[1] * layout.out_row, layout.out_row};
  } else {
    layout.tile_rows = 1;
    layout.row_tiles = flat_blocks;
    layout.grid_h = 1;
    at = {t.padded[1] * t.padded[2], t.padded[2]};
  }
  const int64_t columns = layout.tile_rows * layout.row_tiles * round;
  // how far the last block reads past the padded image
  const int64_t overrun = by_rows ? layout.out_row - g.grid[2] : flat_blocks * round - t.columns;
  const int64_t block_weights = in_c * taps * k.rows;
  // (group, row block, channel, tap, row), zero past out_c
  std::vector<float> packed(static_cast<size_t>(G * row_blocks * block_weights), 0.f);
  const float* w = weight.data_ptr<float>();
  for (int64_t gi = 0; gi < G; ++gi)
    for (int64_t o = 0; o < out_c; ++o)
      for (int64_t c = 0; c < in_c; ++c)
        for (int64_t tap = 0; tap < taps; ++tap)
          packed[static_cast<size_t>(((gi * row_blocks + o / k.rows) * in_c + c) * taps * k.rows + tap * k.rows +
                                     o % k.rows)] = w[((gi * out_c + o) * in_c + c) * taps + tap];
  const int64_t in_len = g.img_size(), out_len = g.grid_size();
  const bool traced = trace::tracing_enabled();
  if (traced) {
    trace::KernelDetail d;
    d.fields = {{"kernel", std::string(k.isa) + ", a block of " + std::to_string(k.rows) + " output channels x " +
                               std::to_string(k.columns) + " positions in registers"},
                {"taps", std::to_string(taps) + " (no im2col)"},
                {"padded image", (t.padded[0] > 1 ? std::to_string(t.padded[0]) + "x" : std::string()) +
                                     std::to_string(t.padded[1]) + "x" + std::to_string(t.padded[2]) + " per channel"},
                {"positions computed / kept", std::to_string(columns) + " / " + std::to_string(out_len) +
                                                  (by_rows ? " (row by row)" : " (one run)")},
                {"threads", N > 1 ? "one sample each" : "blocks of output channels"}};
    trace::Recorder::current().begin(trace::Category::Kernel, "conv_stride1_taps", std::move(d));
  }
  const float* x = input.data_ptr<float>();
  float* y = out.data_ptr<float>();
  const float* b = bias.defined() ? bias.data_ptr<float>() : nullptr;
  parallel_for(0, N, 1, [&](int64_t n0, int64_t n1) {
    // the padded image, readable `columns` past each tap's shift
    std::vector<float> padded(static_cast<size_t>(in_c * t.plane() + overrun), 0.f);
    std::vector<float> acc(static_cast<size_t>(row_blocks * k.rows * columns));
    for (int64_t n = n0; n < n1; ++n) {
      check_interrupt();
      for (int64_t gi = 0; gi < G; ++gi) {
        pad_image(x + (n * G + gi) * in_c * in_len, padded.data(), g, t);
        TapProduct p = layout;
        p.weights = packed.data() + gi * row_blocks * block_weights;
        p.image = padded.data();
        p.shifts = shifts.data();
        p.channels = in_c;
        p.plane = t.plane();
        p.taps = taps;
        p.out = acc.data();
        p.ld = columns;
        parallel_for(0, row_blocks, 1, [&](int64_t r0, int64_t r1) {
          TapProduct part = p;
          part.row_block_begin = r0;
          part.row_block_end = r1;
          k.run(part);
        });
        copy_out(acc.data(), columns, at, b ? b + gi * out_c : nullptr, y + (n * G + gi) * out_c * out_len, g, out_c);
      }
    }
  });
  if (traced) trace::Recorder::current().end(trace::Category::Kernel, "conv_stride1_taps");
}

// double, or float without a vector kernel: one BLAS product per tap.
template <typename T>
void forward_blas(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out,
                  const ConvGeometry& g, int64_t G, int64_t out_c) {
  const TapGrid t = tap_grid(g);
  const std::vector<int64_t> shifts = tap_shifts(g, t);
  const int64_t taps = g.kernel_size(), in_c = g.C, N = input.sizes()[0];
  // (group, tap, out_c, in_c): one matrix a tap
  Tensor w_taps = make_empty(std::vector<int64_t>{G * taps * out_c * in_c}, weight.dtype(), weight.device());
  const T* w = weight.data_ptr<T>();
  T* wt = w_taps.data_ptr<T>();
  for (int64_t gi = 0; gi < G; ++gi)
    for (int64_t o = 0; o < out_c; ++o)
      for (int64_t c = 0; c < in_c; ++c)
        for (int64_t tap = 0; tap < taps; ++tap)
          wt[((gi * taps + tap) * out_c + o) * in_c + c] = w[((gi * out_c + o) * in_c + c) * taps + tap];
  const int64_t in_len = g.img_size(), out_len = g.grid_size();
  const T* b = bias.defined() ? bias.data_ptr<T>() : nullptr;
  parallel_for(0, N, 1, [&](int64_t n0, int64_t n1) {
    Tensor padded = make_empty(std::vector<int64_t>{in_c * t.plane()}, input.dtype(), input.device());
    Tensor acc = make_empty(std::vector<int64_t>{out_c, t.columns}, input.dtype(), input.device());
    std::fill_n(padded.data_ptr<T>(), in_c * t.plane(), T(0));
    for (int64_t n = n0; n < n1; ++n) {
      check_interrupt();
      for (int64_t gi = 0; gi < G; ++gi) {
        pad_image(input.data_ptr<T>() + (n * G + gi) * in_c * in_len, padded.data_ptr<T>(), g, t);
        for (int64_t tap = 0; tap < taps; ++tap)
          native::gemm_into_cpu(acc, make_view(w_taps, {out_c, in_c}, {in_c, 1}, (gi * taps + tap) * out_c * in_c),
                                make_view(padded, {in_c, t.columns}, {t.plane(), 1}, shifts[static_cast<size_t>(tap)]),
                                1, tap == 0 ? 0 : 1);
        copy_out(acc.data_ptr<T>(), t.columns, RowAt{t.padded[1] * t.padded[2], t.padded[2]},
                 b ? b + gi * out_c : nullptr, out.data_ptr<T>() + (n * G + gi) * out_c * out_len, g, out_c);
      }
    }
  });
}

}  // namespace

bool conv_by_taps(const ConvGeometry& g, ScalarType dtype) {
  if (dtype != ScalarType::Float && dtype != ScalarType::Double) return false;
  if (g.C < 16 || g.kernel_size() == 1) return false;
  for (int i = 0; i < 3; ++i)
    if (g.s[i] != 1) return false;
  return tap_grid(g).columns <= 2 * g.grid_size();
}

void conv_forward_by_taps(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out,
                          const ConvGeometry& g, int64_t groups, int64_t out_c) {
  if (input.dtype() == ScalarType::Float) {
    if (const TapKernel k = tap_kernel(); k.run) return forward_float(input, weight, bias, out, g, groups, out_c, k);
    return forward_blas<float>(input, weight, bias, out, g, groups, out_c);
  }
  forward_blas<double>(input, weight, bias, out, g, groups, out_c);
}

}  // namespace ipt::cpu
