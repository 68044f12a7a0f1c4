#include "core/ops/remap_rules.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/tensor/index_math.h"
#include "core/util/error.h"

namespace ipt::native {

std::vector<int64_t> flip_dims(const Tensor& self, IntArrayRef dims) {
  std::vector<int64_t> wrapped;
  for (int64_t d : dims) {
    const int64_t w = wrap_dim(d, self.dim());
    IPT_CHECK(std::find(wrapped.begin(), wrapped.end(), w) == wrapped.end(), RuntimeError, "dim ", w,
              " appears multiple times in the list of dims");
    wrapped.push_back(w);
  }
  return wrapped;
}

IndexMaps flip_maps(const Tensor& self, IntArrayRef dims) {
  IndexMaps maps(static_cast<size_t>(self.dim()));
  const std::vector<int64_t> flipped = flip_dims(self, dims);
  if (self.dim() == 0) return maps;  // a 0-dim tensor's dim 0 (or -1) has one element: nothing moves
  for (int64_t d : flipped) {
    const int64_t n = self.sizes()[static_cast<size_t>(d)];
    auto& m = maps[static_cast<size_t>(d)];
    m.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) m[static_cast<size_t>(i)] = n - 1 - i;
  }
  return maps;
}

namespace {

// PyTorch 2.15's padding::check_valid_input: `spatial` dims, with or without a batch dim; only
// the batch may be empty.
void check_pad_input(const Tensor& self, IntArrayRef padding, int64_t spatial) {
  IPT_CHECK(static_cast<int64_t>(padding.size()) == 2 * spatial, RuntimeError, "padding size is expected to be ",
            2 * spatial, ", but got: ", padding.size());
  const int64_t nd = self.dim();
  bool valid = nd == spatial + 1 || nd == spatial + 2;
  for (int64_t d = nd == spatial + 2 ? 1 : 0; valid && d < nd; ++d) valid = self.sizes()[static_cast<size_t>(d)] != 0;
  IPT_CHECK(valid, RuntimeError, "Expected ", spatial + 1, "D or ", spatial + 2,
            "D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: ",
            int_list_str(self.sizes()));
}

const char* const kDimNames[3] = {"D", "H", "W"};

}  // namespace

std::vector<int64_t> pad_output_sizes(const Tensor& self, IntArrayRef padding, int64_t spatial, bool reflection) {
  check_pad_input(self, padding, spatial);
  const int64_t nd = self.dim();
  std::vector<int64_t> out = self.sizes();
  // (left, right) of the last dim first: Argument #4 is the width, #6 the height, #8 the depth.
  for (int64_t k = 0; k < spatial; ++k) {
    const size_t d = static_cast<size_t>(nd - 1 - k);
    const int64_t lo = padding[static_cast<size_t>(2 * k)], hi = padding[static_cast<size_t>(2 * k + 1)];
    if (reflection)
      IPT_CHECK(lo < self.sizes()[d] && hi < self.sizes()[d], RuntimeError, "Argument #", 4 + 2 * k,
                ": Padding size should be less than the corresponding input dimension, but got: padding (", lo, ", ",
                hi, ") at dimension ", d, " of input ", int_list_str(self.sizes()));
    out[d] = self.sizes()[d] + lo + hi;
  }
  bool positive = true;
  for (int64_t k = 0; k < spatial; ++k) positive = positive && out[static_cast<size_t>(nd - 1 - k)] >= 1;
  if (!positive) {
    if (spatial == 1)
      IPT_FAIL(RuntimeError, "input (W: ", self.sizes()[static_cast<size_t>(nd - 1)],
               ") is too small. Calculated output W: ", out[static_cast<size_t>(nd - 1)]);
    std::string calculated, input;
    for (int64_t k = spatial - 1; k >= 0; --k) {
      const size_t d = static_cast<size_t>(nd - 1 - k);
      const char* name = kDimNames[3 - 1 - k];
      calculated += std::string(calculated.empty() ? "" : " ") + name + ": " + std::to_string(out[d]);
      input += std::string(input.empty() ? "" : ", ") + name + ": " + std::to_string(self.sizes()[d]);
    }
    IPT_FAIL(RuntimeError, "Calculated output ", calculated, " must be >= 1 in every dimension (input ", input, ")");
  }
  return out;
}

IndexMaps pad_maps(const Tensor& self, IntArrayRef padding, int64_t spatial, bool reflection) {
  const int64_t nd = self.dim();
  const std::vector<int64_t> out = pad_output_sizes(self, padding, spatial, reflection);
  IndexMaps maps(static_cast<size_t>(nd));
  for (int64_t k = 0; k < spatial; ++k) {
    const size_t d = static_cast<size_t>(nd - 1 - k);
    const int64_t size = self.sizes()[d], pad = padding[static_cast<size_t>(2 * k)];
    auto& m = maps[d];
    m.resize(static_cast<size_t>(out[d]));
    for (int64_t j = 0; j < out[d]; ++j) {
      int64_t src;
      if (reflection) {
        // PyTorch's ReflectionPad::index, less the left padding
        if (j < pad) src = pad * 2 - j;
        else if (j < size + pad) src = j;
        else src = (size + pad - 1) * 2 - j;
        src -= pad;
      } else {
        src = std::clamp<int64_t>(j - pad, 0, size - 1);
      }
      m[static_cast<size_t>(j)] = src;
    }
  }
  return maps;
}

void check_pad_backward(const Tensor& grad_output, const Tensor& self, IntArrayRef padding, int64_t spatial,
                        bool reflection) {
  const std::vector<int64_t> out = pad_output_sizes(self, padding, spatial, reflection);
  const int64_t nd = self.dim();
  for (int64_t k = 0; k < spatial; ++k) {
    const size_t d = static_cast<size_t>(nd - 1 - k);
    const char* name = kDimNames[3 - 1 - k];
    IPT_CHECK(grad_output.dim() == nd && grad_output.sizes()[d] == out[d], RuntimeError,
              "grad_output width unexpected.", " Expected: ", out[d],
              ", Got: ", grad_output.dim() == nd ? grad_output.sizes()[d] : -1, " (", name, ")");
  }
}

std::vector<int64_t> upsample2d_output_sizes(const Tensor& self, IntArrayRef output_size) {
  IPT_CHECK(output_size.size() == 2, RuntimeError, "It is expected output_size equals to 2, but got size ",
            output_size.size());
  IPT_CHECK(self.dim() == 4, RuntimeError, "It is expected input_size equals to 4, but got size ", self.dim());
  const int64_t h = self.sizes()[2], w = self.sizes()[3];
  IPT_CHECK(h > 0 && w > 0 && output_size[0] > 0 && output_size[1] > 0, RuntimeError,
            "Input and output sizes should be greater than 0, but got input (H: ", h, ", W: ", w,
            ") output (H: ", output_size[0], ", W: ", output_size[1], ")");
  IPT_CHECK(self.numel() != 0 || (self.sizes()[1] != 0), RuntimeError,
            "Non-empty 4D data tensor expected but got a tensor with sizes ", int_list_str(self.sizes()));
  return {self.sizes()[0], self.sizes()[1], output_size[0], output_size[1]};
}

void check_upsample2d_backward(const Tensor& grad_output, IntArrayRef output_size, IntArrayRef input_size) {
  IPT_CHECK(output_size.size() == 2, RuntimeError, "It is expected output_size equals to 2, but got size ",
            output_size.size());
  IPT_CHECK(input_size.size() == 4, RuntimeError, "It is expected input_size equals to 4, but got size ",
            input_size.size());
  const std::vector<int64_t> expected = {input_size[0], input_size[1], output_size[0], output_size[1]};
  IPT_CHECK(grad_output.dim() == 4, RuntimeError,
            "Expected grad_output to be a tensor of dimension 4 but got: dimension ", grad_output.dim());
  for (size_t i = 0; i < 4; ++i)
    IPT_CHECK(grad_output.sizes()[i] == expected[i], RuntimeError,
              "Expected grad_output to have the same shape as output;", " output.size(", i, ") = ", expected[i],
              " but got grad_output.size(", i, ") = ", grad_output.sizes()[i]);
}

int64_t nearest_source_index(int64_t o, int64_t in, int64_t out, std::optional<double> scale) {
  if (out == in) return o;
  if (out == 2 * in) return o >> 1;
  // compute_scales_value<float>: 1 / scale when one is given, else in / out, in float
  const float s =
      scale && *scale > 0 ? static_cast<float>(1.0 / *scale) : static_cast<float>(in) / static_cast<float>(out);
  return std::min(static_cast<int64_t>(std::floor(static_cast<float>(o) * s)), in - 1);
}

IndexMaps upsample_nearest2d_maps(IntArrayRef input_size, IntArrayRef output_size, std::optional<double> scales_h,
                                  std::optional<double> scales_w) {
  IndexMaps maps(4);
  for (int k = 0; k < 2; ++k) {
    const int64_t in = input_size[static_cast<size_t>(2 + k)], out = output_size[static_cast<size_t>(k)];
    auto& m = maps[static_cast<size_t>(2 + k)];
    m.resize(static_cast<size_t>(out));
    for (int64_t o = 0; o < out; ++o)
      m[static_cast<size_t>(o)] = nearest_source_index(o, in, out, k ? scales_w : scales_h);
  }
  return maps;
}

}  // namespace ipt::native
