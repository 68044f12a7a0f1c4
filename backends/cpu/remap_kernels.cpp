// CPU kernels of the operators whose output elements are input elements picked by index (flip,
// reflection and replication padding, nearest upsampling; core/ops/remap_rules.h), and of their
// backward operators, which add each output gradient into the element it came from.
//
// Note [Remapped copies]
// Each dim of the output has a map from output index to input index (none: the identity). The
// forward copies element bytes through the maps, its outer dims shared out on the team. The
// backward adds in the accumulation type, visiting the gradient in row-major order within each
// plane (the leading dims the maps leave alone), planes on the team: the order of PyTorch 2.15's
// padding and nearest-upsampling backward kernels, so each sum has its bits.
#include <cstring>
#include <type_traits>

#include "backends/cpu/copy_kernels.h"
#include "core/ops/remap_rules.h"
#include "core/parallel/parallel.h"
#include "core/util/error.h"
#include "core/util/interrupt.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

// Byte offsets of each index along each dim, through the map for `in`.
std::vector<std::vector<int64_t>> dim_offsets(const Tensor& t, const IndexMaps& maps, IntArrayRef out_sizes,
                                              bool mapped) {
  const int64_t es = static_cast<int64_t>(element_size(t.dtype()));
  std::vector<std::vector<int64_t>> off(out_sizes.size());
  for (size_t d = 0; d < out_sizes.size(); ++d) {
    off[d].resize(static_cast<size_t>(out_sizes[d]));
    for (int64_t i = 0; i < out_sizes[d]; ++i) {
      const int64_t src = mapped && !maps[d].empty() ? maps[d][static_cast<size_t>(i)] : i;
      off[d][static_cast<size_t>(i)] = src * t.strides()[d] * es;
    }
  }
  return off;
}

// The innermost dim's map in runs: `len` elements from out byte offset `out` and in byte offset
// `in`, the input stepping forward (step 1), backward (-1, a flip or a reflection) or not at all
// (0, a single element); the output always steps forward by one element.
struct Run {
  int64_t out, in, len, step;
};
std::vector<Run> inner_runs(const std::vector<int64_t>& oi, const std::vector<int64_t>& ii, int64_t es) {
  std::vector<Run> runs;
  for (size_t i = 0; i < oi.size();) {
    Run r{oi[i], ii[i], 1, 0};
    size_t j = i + 1;
    if (j < oi.size() && oi[j] - oi[i] == es && (ii[j] - ii[i] == es || ii[j] - ii[i] == -es)) {
      r.step = (ii[j] - ii[i]) / es;
      while (j < oi.size() && oi[j] - oi[j - 1] == es && ii[j] - ii[j - 1] == r.step * es) ++j;
      r.len = static_cast<int64_t>(j - i);
    }
    runs.push_back(r);
    i += static_cast<size_t>(r.len);
  }
  return runs;
}

template <typename E>
void remap_rows(char* out, const char* in, const std::vector<std::vector<int64_t>>& out_off,
                const std::vector<std::vector<int64_t>>& in_off, const std::vector<Run>& runs, IntArrayRef sizes,
                int64_t begin, int64_t end) {
  const size_t nd = sizes.size();
  std::vector<int64_t> idx(nd - 1);
  int64_t rest = begin;  // row `begin` as an index over the outer dims
  for (size_t d = nd - 1; d-- > 0;) {
    idx[d] = rest % sizes[d];
    rest /= sizes[d];
  }
  // The offsets of the dims before the second-to-last, summed again only when one of them steps.
  int64_t ob_outer = 0, ib_outer = 0;
  auto sum_outer = [&] {
    ob_outer = ib_outer = 0;
    for (size_t d = 0; d + 2 < nd; ++d) {
      ob_outer += out_off[d][static_cast<size_t>(idx[d])];
      ib_outer += in_off[d][static_cast<size_t>(idx[d])];
    }
  };
  sum_outer();
  for (int64_t row = begin; row < end; ++row) {
    int64_t ob = ob_outer, ib = ib_outer;
    if (nd >= 2) {
      ob += out_off[nd - 2][static_cast<size_t>(idx[nd - 2])];
      ib += in_off[nd - 2][static_cast<size_t>(idx[nd - 2])];
    }
    for (const Run& r : runs) {
      E* to = reinterpret_cast<E*>(out + ob + r.out);
      const char* i = in + ib + r.in;
      if (r.step == 1) {
        std::memcpy(to, i, static_cast<size_t>(r.len) * sizeof(E));
      } else if (r.step == -1) {
        const E* from = reinterpret_cast<const E*>(i);
        for (int64_t k = 0; k < r.len; ++k) to[k] = from[-k];
      } else {
        std::memcpy(to, i, sizeof(E));
      }
    }
    if (nd < 2) continue;
    if (++idx[nd - 2] < sizes[nd - 2]) continue;
    idx[nd - 2] = 0;
    for (size_t d = nd - 2; d-- > 0;) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
    sum_outer();
  }
}

// out[i...] = in[maps(i...)] (Note [Remapped copies]).
void remap_copy(const Tensor& out, const Tensor& in, const IndexMaps& maps) {
  if (out.numel() == 0) return;
  if (out.dim() == 0) {
    copy_cpu_(out, in, false);
    return;
  }
  const auto out_off = dim_offsets(out, maps, out.sizes(), false);
  const auto in_off = dim_offsets(in, maps, out.sizes(), true);
  char* o = static_cast<char*>(out.impl()->storage()->data()) +
            out.storage_offset() * static_cast<int64_t>(element_size(out.dtype()));
  const char* i = static_cast<const char*>(in.impl()->storage()->data()) +
                  in.storage_offset() * static_cast<int64_t>(element_size(in.dtype()));
  const int64_t inner = out.sizes().back(), rows = out.numel() / inner;
  const std::vector<Run> runs =
      inner_runs(out_off.back(), in_off.back(), static_cast<int64_t>(element_size(out.dtype())));
  parallel_for(0, rows, std::max<int64_t>(1, 32768 / std::max<int64_t>(inner, 1)), [&](int64_t b, int64_t e) {
    check_interrupt();
    switch (element_size(out.dtype())) {
      case 1: remap_rows<uint8_t>(o, i, out_off, in_off, runs, out.sizes(), b, e); break;
      case 2: remap_rows<uint16_t>(o, i, out_off, in_off, runs, out.sizes(), b, e); break;
      case 4: remap_rows<uint32_t>(o, i, out_off, in_off, runs, out.sizes(), b, e); break;
      default: remap_rows<uint64_t>(o, i, out_off, in_off, runs, out.sizes(), b, e); break;
    }
  });
}

// grad_input[maps(i...)] += grad_output[i...] (Note [Remapped copies]); the first `planes` dims
// are not remapped.
void remap_accumulate(const Tensor& grad_input, const Tensor& grad_output, const IndexMaps& maps, int64_t planes) {
  const Tensor go = ops::contiguous(grad_output, MemoryFormat::Contiguous);
  const int64_t nd = go.dim();
  int64_t plane_count = 1, plane_out = 1, plane_in = 1;
  for (int64_t d = 0; d < nd; ++d) {
    if (d < planes) plane_count *= go.sizes()[static_cast<size_t>(d)];
    else {
      plane_out *= go.sizes()[static_cast<size_t>(d)];
      plane_in *= grad_input.sizes()[static_cast<size_t>(d)];
    }
  }
  // Within a plane: each gradient element's input offset (row-major, grad_input contiguous).
  std::vector<int64_t> target(static_cast<size_t>(plane_out));
  {
    std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
    for (int64_t k = 0; k < plane_out; ++k) {
      int64_t off = 0;
      for (int64_t d = planes; d < nd; ++d) {
        const size_t du = static_cast<size_t>(d);
        const int64_t src = maps[du].empty() ? idx[du] : maps[du][static_cast<size_t>(idx[du])];
        off = off * grad_input.sizes()[du] + src;
      }
      target[static_cast<size_t>(k)] = off;
      for (int64_t d = nd - 1; d >= planes; --d) {
        const size_t du = static_cast<size_t>(d);
        if (++idx[du] < go.sizes()[du]) break;
        idx[du] = 0;
      }
    }
  }
  visit_dtype(go.dtype(), [&]<typename T>() {
    if constexpr (std::is_floating_point_v<T> || is_reduced_float_v<T>) {
      using Acc = opmath_t<T>;
      const T* g = go.data_ptr<T>();
      T* gi = grad_input.data_ptr<T>();
      parallel_for(0, plane_count, 1, [&](int64_t b, int64_t e) {
        std::vector<Acc> buf(static_cast<size_t>(plane_in));
        for (int64_t p = b; p < e; ++p) {
          check_interrupt();
          std::fill(buf.begin(), buf.end(), Acc(0));
          const T* gp = g + p * plane_out;
          for (int64_t k = 0; k < plane_out; ++k)
            buf[static_cast<size_t>(target[static_cast<size_t>(k)])] += Acc(gp[k]);
          for (int64_t k = 0; k < plane_in; ++k) gi[p * plane_in + k] = static_cast<T>(buf[static_cast<size_t>(k)]);
        }
      });
    } else {
      IPT_FAIL(RuntimeError, "a gradient must be floating point, not ", dtype_element_name(go.dtype()));
    }
  });
}

Tensor pad_cpu(const Tensor& self, IntArrayRef padding, int64_t spatial, bool reflection) {
  const std::vector<int64_t> sizes = pad_output_sizes(self, padding, spatial, reflection);
  IPT_CHECK(self.dtype() != ScalarType::Bool, NotImplementedError, "\"", reflection ? "reflection" : "replication",
            "_pad", spatial, "d\" not implemented for 'Bool'");
  Tensor out = make_empty(sizes, self.dtype(), self.device());
  remap_copy(out, self, pad_maps(self, padding, spatial, reflection));
  return out;
}

Tensor pad_backward_cpu(const Tensor& grad_output, const Tensor& self, IntArrayRef padding, int64_t spatial,
                        bool reflection) {
  check_pad_backward(grad_output, self, padding, spatial, reflection);
  Tensor grad_input = make_empty(self.sizes(), grad_output.dtype(), self.device());
  if (grad_input.numel() == 0) return grad_input;
  remap_accumulate(grad_input, grad_output, pad_maps(self, padding, spatial, reflection), self.dim() - spatial);
  return grad_input;
}

}  // namespace

Tensor flip_cpu(const Tensor& self, IntArrayRef dims) {
  const IndexMaps maps = flip_maps(self, dims);
  Tensor out = make_empty_like_layout(self.sizes(), self.dtype(), self.device(), self);
  remap_copy(out, self, maps);
  return out;
}

Tensor reflection_pad1d_cpu(const Tensor& self, IntArrayRef padding) { return pad_cpu(self, padding, 1, true); }
Tensor reflection_pad1d_backward_cpu(const Tensor& grad_output, const Tensor& self, IntArrayRef padding) {
  return pad_backward_cpu(grad_output, self, padding, 1, true);
}
Tensor reflection_pad2d_cpu(const Tensor& self, IntArrayRef padding) { return pad_cpu(self, padding, 2, true); }
Tensor reflection_pad2d_backward_cpu(const Tensor& grad_output, const Tensor& self, IntArrayRef padding) {
  return pad_backward_cpu(grad_output, self, padding, 2, true);
}
Tensor reflection_pad3d_cpu(const Tensor& self, IntArrayRef padding) { return pad_cpu(self, padding, 3, true); }
Tensor reflection_pad3d_backward_cpu(const Tensor& grad_output, const Tensor& self, IntArrayRef padding) {
  return pad_backward_cpu(grad_output, self, padding, 3, true);
}
Tensor replication_pad1d_cpu(const Tensor& self, IntArrayRef padding) { return pad_cpu(self, padding, 1, false); }
Tensor replication_pad1d_backward_cpu(const Tensor& grad_output, const Tensor& self, IntArrayRef padding) {
  return pad_backward_cpu(grad_output, self, padding, 1, false);
}
Tensor replication_pad2d_cpu(const Tensor& self, IntArrayRef padding) { return pad_cpu(self, padding, 2, false); }
Tensor replication_pad2d_backward_cpu(const Tensor& grad_output, const Tensor& self, IntArrayRef padding) {
  return pad_backward_cpu(grad_output, self, padding, 2, false);
}
Tensor replication_pad3d_cpu(const Tensor& self, IntArrayRef padding) { return pad_cpu(self, padding, 3, false); }
Tensor replication_pad3d_backward_cpu(const Tensor& grad_output, const Tensor& self, IntArrayRef padding) {
  return pad_backward_cpu(grad_output, self, padding, 3, false);
}

Tensor upsample_nearest2d_cpu(const Tensor& self, IntArrayRef output_size, std::optional<double> scales_h,
                              std::optional<double> scales_w) {
  const std::vector<int64_t> sizes = upsample2d_output_sizes(self, output_size);
  IPT_CHECK(is_floating(self.dtype()) || self.dtype() == ScalarType::Byte, NotImplementedError,
            "\"upsample_nearest2d_channels_last\" not implemented for '", dtype_cpp_name(self.dtype()), "'");
  Tensor out = make_empty(sizes, self.dtype(), self.device());
  remap_copy(out, self, upsample_nearest2d_maps(self.sizes(), output_size, scales_h, scales_w));
  return out;
}

Tensor upsample_nearest2d_backward_cpu(const Tensor& grad_output, IntArrayRef output_size, IntArrayRef input_size,
                                       std::optional<double> scales_h, std::optional<double> scales_w) {
  check_upsample2d_backward(grad_output, output_size, input_size);
  Tensor grad_input = make_empty(input_size, grad_output.dtype(), grad_output.device());
  if (grad_input.numel() == 0) return grad_input;
  remap_accumulate(grad_input, grad_output, upsample_nearest2d_maps(input_size, output_size, scales_h, scales_w), 2);
  return grad_input;
}

}  // namespace ipt::native
