#include "core/ops/pool_rules.h"

#include "core/tensor/index_math.h"
#include "core/util/error.h"

namespace ipt {

namespace {

int64_t div_rtn(int64_t x, int64_t y) {
  int64_t q = x / y, r = x % y;
  if (r != 0 && ((r < 0) != (y < 0))) --q;
  return q;
}

int64_t pooling_output_shape(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dilation, bool ceil_mode) {
  IPT_CHECK(stride != 0, RuntimeError, "stride should not be zero");
  IPT_CHECK(pad >= 0, RuntimeError, "pad must be non-negative, but got pad: ", pad);
  IPT_CHECK(pad <= ((k - 1) * dilation + 1) / 2, RuntimeError,
            "pad should be at most half of effective kernel size, but got pad=", pad, ", kernel_size=", k,
            " and dilation=", dilation);
  int64_t out = div_rtn(in + 2 * pad - dilation * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0), stride) + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;
  return out;
}

// One int, or `dims` of them (PyTorch's "kernel_size must either be a single int, or a tuple of two ints").
std::vector<int64_t> one_or_all(IntArrayRef v, int dims, const std::string& what, bool may_be_empty,
                                const std::vector<int64_t>& when_empty) {
  if (v.empty() && may_be_empty) return when_empty;
  if (static_cast<int>(v.size()) == dims) return {v.begin(), v.end()};
  IPT_CHECK(v.size() == 1, RuntimeError, what);
  return std::vector<int64_t>(static_cast<size_t>(dims), v[0]);
}

std::string sizes_x(const int64_t* v, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += (i ? "x" : "") + std::to_string(v[i]);
  return s;
}

}  // namespace

PoolGeometry pool_geometry(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                           IntArrayRef dilation, bool ceil_mode, int dims, const char* name) {
  const std::string n(name), count = dims == 2 ? "two" : "three";
  const bool avg = n.rfind("avg", 0) == 0;
  const std::vector<int64_t> k = one_or_all(
      kernel_size, dims, n + ": kernel_size must either be a single int, or a tuple of " + count + " ints", false, {});
  const std::vector<int64_t> s = one_or_all(
      stride, dims, n + ": stride must either be omitted, a single int, or a tuple of " + count + " ints", true, k);
  const std::vector<int64_t> p = one_or_all(
      padding, dims, n + ": padding must either be a single int, or a tuple of " + count + " ints", false, {});
  const std::vector<int64_t> dl =
      avg ? std::vector<int64_t>(static_cast<size_t>(dims), 1)
          : one_or_all(dilation, dims, n + ": dilation must be either a single int, or a tuple of " + count + " ints",
                       false, {});
  const int64_t nd = input.dim();
  IPT_CHECK(nd == dims + 1 || nd == dims + 2, RuntimeError, "non-empty ", dims + 1, "D or ", dims + 2,
            "D (batch mode) tensor expected for input");
  PoolGeometry g;
  g.dims = dims;
  g.batch = nd == dims + 2 ? input.sizes()[0] : 1;
  g.channels = input.sizes()[nd - dims - 1];
  const int lead = 3 - dims;
  for (int i = 0; i < dims; ++i) {
    g.in[lead + i] = input.sizes()[nd - dims + i];
    g.k[lead + i] = k[static_cast<size_t>(i)];
    g.s[lead + i] = s[static_cast<size_t>(i)];
    g.p[lead + i] = p[static_cast<size_t>(i)];
    g.d[lead + i] = dl[static_cast<size_t>(i)];
  }
  // PyTorch computes the output's size (which checks the stride and padding) before the rest.
  for (int i = lead; i < 3; ++i) g.out[i] = pooling_output_shape(g.in[i], g.k[i], g.p[i], g.s[i], g.d[i], ceil_mode);
  for (int i = lead; i < 3; ++i) {
    IPT_CHECK(g.k[i] > 0, RuntimeError, "kernel size should be greater than zero, but got ",
              dims == 2 ? "kH: " + std::to_string(g.k[1]) + " kW: " + std::to_string(g.k[2])
                        : "kT: " + std::to_string(g.k[0]) + " kH: " + std::to_string(g.k[1]) +
                              " kW: " + std::to_string(g.k[2]));
    IPT_CHECK(g.s[i] > 0, RuntimeError, "stride should be greater than zero, but got ",
              dims == 2 ? "dH: " + std::to_string(g.s[1]) + " dW: " + std::to_string(g.s[2])
                        : "dT: " + std::to_string(g.s[0]) + " dH: " + std::to_string(g.s[1]) +
                              " dW: " + std::to_string(g.s[2]));
    IPT_CHECK(g.d[i] > 0, RuntimeError, "dilation should be greater than zero, but got ",
              dims == 2 ? "dilationH: " + std::to_string(g.d[1]) + " dilationW: " + std::to_string(g.d[2])
                        : "dilationT: " + std::to_string(g.d[0]) + " dilationH: " + std::to_string(g.d[1]) +
                              " dilationW: " + std::to_string(g.d[2]));
  }
  bool nonzero = input.sizes()[nd - dims - 1] != 0;
  for (int i = 0; i < dims; ++i) nonzero = nonzero && input.sizes()[nd - dims + i] != 0;
  IPT_CHECK(nonzero, RuntimeError, "Expected ", dims + 1, "D or ", dims + 2,
            "D (batch mode) tensor with optional 0 dim batch size for input, but got:", int_list_str(input.sizes()));
  bool small = false;
  for (int i = lead; i < 3; ++i) small = small || g.out[i] < 1;
  IPT_CHECK(!small, RuntimeError, "Given input size: (", g.channels, "x", sizes_x(g.in + lead, dims),
            "). Calculated output size: (", g.channels, "x", sizes_x(g.out + lead, dims),
            "). Output size is too small");
  g.out_sizes.assign(input.sizes().begin(), input.sizes().end() - dims);
  for (int i = lead; i < 3; ++i) g.out_sizes.push_back(g.out[i]);
  return g;
}

PoolGeometry adaptive_pool_geometry(const Tensor& input, IntArrayRef output_size, int dims, const char* name) {
  IPT_CHECK(static_cast<int>(output_size.size()) == dims, RuntimeError, name, ": output_size must be ", dims);
  const int64_t nd = input.dim();
  IPT_CHECK(nd == dims + 1 || nd == dims + 2, RuntimeError, name, "(): Expected ", dims + 1, "D or ", dims + 2,
            "D tensor, but got ", int_list_str(input.sizes()));
  for (int64_t i = nd - dims; i < nd; ++i)
    IPT_CHECK(input.sizes()[i] > 0, RuntimeError, name,
              "(): Expected input to have non-zero size for non-batch dimensions, but input has sizes ",
              int_list_str(input.sizes()), " with dimension ", i, " being empty");
  PoolGeometry g;
  g.dims = dims;
  g.batch = nd == dims + 2 ? input.sizes()[0] : 1;
  g.channels = input.sizes()[nd - dims - 1];
  const int lead = 3 - dims;
  for (int i = 0; i < dims; ++i) {
    g.in[lead + i] = input.sizes()[nd - dims + i];
    g.out[lead + i] = output_size[static_cast<size_t>(i)];
    IPT_CHECK(g.out[lead + i] >= 0, RuntimeError, name,
              ": elements of output_size must be greater than or equal to 0 but received {", int_list_str(output_size),
              "}");
  }
  g.out_sizes.assign(input.sizes().begin(), input.sizes().end() - dims);
  for (int i = lead; i < 3; ++i) g.out_sizes.push_back(g.out[i]);
  return g;
}

PoolGeometry adaptive_max_pool_geometry(const Tensor& input, IntArrayRef output_size, int dims, const char* name) {
  const int64_t nd = input.dim();
  IPT_CHECK(nd == dims + 1 || nd == dims + 2, RuntimeError, name, "(): Expected ", dims + 1, "D or ", dims + 2,
            "D tensor, but got: ", int_list_str(input.sizes()));
  for (int64_t i = 1; i < nd; ++i)
    IPT_CHECK(input.sizes()[static_cast<size_t>(i)] > 0, RuntimeError, name,
              "(): Expected input to have non-zero size for non-batch dimensions, but input has sizes ",
              int_list_str(input.sizes()), " with dimension ", i, " being empty");
  IPT_CHECK(static_cast<int>(output_size.size()) == dims, RuntimeError, name,
            "(): internal error: output_size.size() must be ", dims);
  std::vector<int64_t> out_sizes(input.sizes().begin(), input.sizes().end() - dims);
  out_sizes.insert(out_sizes.end(), output_size.begin(), output_size.end());
  for (int64_t v : output_size)
    IPT_CHECK(v >= 0, RuntimeError, "Trying to create tensor with negative dimension ", v, ": ",
              int_list_str(out_sizes));
  return adaptive_pool_geometry(input, output_size, dims, name);
}

}  // namespace ipt
