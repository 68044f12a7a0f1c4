// The simulated GPU's kernels of the nn layers' operators: convolution, layer / batch / group
// norm, the activations, embedding's backward and pooling. As the others (Note [A simulated
// kernel] in sim_kernels.cpp): checked and shaped on the host, the CPU kernel run on the stream's
// worker over the device memory's bytes.
#include "backends/cpu/copy_kernels.h"
#include "backends/cpu/into_kernels.h"
#include "backends/sim/sim_kernel_helpers.h"
#include "backends/sim/sim_runtime.h"
#include "core/ops/norm_rules.h"
#include "core/ops/shape_rules.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {
using namespace sim_kernels;  // NOLINT: the kernels below are written with these helpers
}  // namespace ipt::native

// Convolutions: the CPU's im2col kernels on the worker, over the device memory's bytes, with a
// cuDNN-like name and cost (2 FLOPs a multiply-add).
namespace ipt::native {

namespace {

double conv_flops(const Tensor& input, const Tensor& weight, IntArrayRef out_sizes, bool transposed) {
  double macs = static_cast<double>(weight.numel());
  const IntArrayRef spatial = transposed ? input.sizes() : out_sizes;
  macs *= static_cast<double>(spatial[0]);
  for (size_t i = 2; i < spatial.size(); ++i) macs *= static_cast<double>(spatial[i]);
  return 2.0 * macs;
}

Tensor conv_forward_cuda(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                         const ConvParams& p, const char* kernel) {
  check_same_device({&input, &weight});
  check_conv_forward(input, weight, bias, p);
  Tensor out = make_empty(conv_output_sizes(input.sizes(), weight.sizes(), p), input.dtype(), kCuda);
  KernelCost c;
  c.flops = conv_flops(input, weight, out.sizes(), p.transposed);
  c.bytes = bytes_of(input) + bytes_of(weight) + bytes_of(out);
  std::vector<Access> acc = {reads(input, "self"), reads(weight, "weight")};
  std::optional<HostView> b;
  if (bias && bias->defined()) {
    acc.push_back(reads(*bias, "bias"));
    b.emplace(*bias);
  }
  launch_writing(kernel, c, out, std::move(acc), [x = HostView(input), w = HostView(weight), b, p](const Tensor& o) {
    std::optional<Tensor> bt;
    if (b) bt = b->tensor();
    copy_cpu_(o, conv_forward_cpu(x.tensor(), w.tensor(), bt, p, "conv"), false);
  });
  return out;
}

std::tuple<Tensor, Tensor, Tensor> conv_backward_cuda(const Tensor& grad_output, const Tensor& input,
                                                      const Tensor& weight, const ConvParams& p,
                                                      std::array<bool, 3> mask) {
  check_same_device({&grad_output, &input, &weight});
  Tensor gi, gw, gb;
  std::vector<Access> acc = {reads(grad_output, "grad_output"), reads(input, "self"), reads(weight, "weight")};
  if (mask[0]) gi = make_empty(input.sizes(), input.dtype(), kCuda);
  if (mask[1]) gw = make_empty(weight.sizes(), weight.dtype(), kCuda);
  if (mask[2]) gb = make_empty(std::vector<int64_t>{grad_output.sizes()[1]}, grad_output.dtype(), kCuda);
  for (const Tensor* t : {&gi, &gw, &gb})
    if (t->defined()) acc.push_back(writes(*t, "grad"));
  KernelCost c;
  c.flops = 2.0 * conv_flops(input, weight, grad_output.sizes(), p.transposed);
  c.bytes = bytes_of(grad_output) + bytes_of(input) + bytes_of(weight);
  sim::launch(
      "cudnn::conv_backward", c,
      [g = HostView(grad_output), x = HostView(input), w = HostView(weight),
       hi = gi.defined() ? std::optional<HostView>(HostView(gi)) : std::nullopt,
       hw = gw.defined() ? std::optional<HostView>(HostView(gw)) : std::nullopt,
       hb = gb.defined() ? std::optional<HostView>(HostView(gb)) : std::nullopt, p, mask] {
        auto [a, b, d] = conv_backward_cpu(g.tensor(), x.tensor(), w.tensor(), p, mask);
        if (hi) copy_cpu_(hi->tensor(), a, false);
        if (hw) copy_cpu_(hw->tensor(), b, false);
        if (hb) copy_cpu_(hb->tensor(), d, false);
      },
      sim::DeviceOp::Kind::Kernel, std::move(acc));
  return {gi, gw, gb};
}

[[maybe_unused]] const bool kSimConvBackwardRegistered =
    (register_conv_backward(DeviceType::CUDA, &conv_backward_cuda), true);

}  // namespace

Tensor slow_conv2d_forward_cuda(const Tensor& self, const Tensor& weight, IntArrayRef,
                                const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding) {
  return conv_forward_cuda(self, weight, bias, conv_params(stride, padding, {}, {}, false, 1, 2), "im2col_kernel+gemm");
}
std::tuple<Tensor, Tensor, Tensor> slow_conv2d_backward_cuda(const Tensor& grad_output, const Tensor& self,
                                                             const Tensor& weight, IntArrayRef, IntArrayRef stride,
                                                             IntArrayRef padding, std::array<bool, 3> output_mask) {
  return conv_backward_cuda(grad_output, self, weight, conv_params(stride, padding, {}, {}, false, 1, 2), output_mask);
}
Tensor slow_conv_dilated2d_cuda(const Tensor& self, const Tensor& weight, IntArrayRef,
                                const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding,
                                IntArrayRef dilation) {
  return conv_forward_cuda(self, weight, bias, conv_params(stride, padding, dilation, {}, false, 1, 2),
                           "im2col_kernel+gemm");
}
Tensor slow_conv_dilated3d_cuda(const Tensor& self, const Tensor& weight, IntArrayRef,
                                const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding,
                                IntArrayRef dilation) {
  return conv_forward_cuda(self, weight, bias, conv_params(stride, padding, dilation, {}, false, 1, 3),
                           "vol2col_kernel+gemm");
}
Tensor slow_conv_transpose2d_cuda(const Tensor& self, const Tensor& weight, IntArrayRef,
                                  const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding,
                                  IntArrayRef output_padding, IntArrayRef dilation) {
  return conv_forward_cuda(self, weight, bias, conv_params(stride, padding, dilation, output_padding, true, 1, 2),
                           "gemm+col2im_kernel");
}
Tensor slow_conv_transpose3d_cuda(const Tensor& self, const Tensor& weight, IntArrayRef,
                                  const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding,
                                  IntArrayRef output_padding, IntArrayRef dilation) {
  return conv_forward_cuda(self, weight, bias, conv_params(stride, padding, dilation, output_padding, true, 1, 3),
                           "gemm+col2vol_kernel");
}

}  // namespace ipt::native

// Layer norm: the CPU kernel on the worker, its results copied into the device outputs.
namespace ipt::native {

std::tuple<Tensor, Tensor, Tensor> layer_norm_cuda(const Tensor& input, IntArrayRef normalized_shape,
                                                   const std::optional<Tensor>& weight,
                                                   const std::optional<Tensor>& bias, double eps) {
  const LayerNormGeometry g = check_layer_norm(input, normalized_shape, weight, bias);
  Tensor y = make_empty(input.sizes(), input.dtype(), kCuda);
  Tensor mean = make_empty(g.stat_sizes, input.dtype(), kCuda), rstd = make_empty(g.stat_sizes, input.dtype(), kCuda);
  std::vector<Access> acc = {reads(input, "input"), writes(y, "out"), writes(mean, "mean"), writes(rstd, "rstd")};
  std::optional<HostView> w, b;
  if (weight && weight->defined()) {
    acc.push_back(reads(*weight, "weight"));
    w.emplace(*weight);
  }
  if (bias && bias->defined()) {
    acc.push_back(reads(*bias, "bias"));
    b.emplace(*bias);
  }
  KernelCost c;
  c.flops = 8.0 * static_cast<double>(input.numel());
  c.bytes = 2 * bytes_of(input);
  const std::vector<int64_t> shape(normalized_shape.begin(), normalized_shape.end());
  sim::launch(
      "vectorized_layer_norm_kernel", c,
      [x = HostView(input), w, b, shape, eps, hy = HostView(y), hm = HostView(mean), hr = HostView(rstd)] {
        std::optional<Tensor> wt, bt;
        if (w) wt = w->tensor();
        if (b) bt = b->tensor();
        auto [o, m, r] = layer_norm_cpu(x.tensor(), shape, wt, bt, eps);
        copy_cpu_(hy.tensor(), o, false);
        copy_cpu_(hm.tensor(), m, false);
        copy_cpu_(hr.tensor(), r, false);
      },
      sim::DeviceOp::Kind::Kernel, std::move(acc));
  return {y, mean, rstd};
}

std::tuple<Tensor, Tensor, Tensor> layer_norm_backward_cuda(const Tensor& grad_out, const Tensor& input,
                                                            IntArrayRef normalized_shape, const Tensor& mean,
                                                            const Tensor& rstd, const std::optional<Tensor>& weight,
                                                            const std::optional<Tensor>& bias,
                                                            std::array<bool, 3> output_mask) {
  check_layer_norm(input, normalized_shape, weight, bias);
  const std::vector<int64_t> shape(normalized_shape.begin(), normalized_shape.end());
  Tensor dx = output_mask[0] ? make_empty(input.sizes(), input.dtype(), kCuda) : Tensor();
  Tensor dw = output_mask[1] ? make_empty(shape, input.dtype(), kCuda) : Tensor();
  Tensor db = output_mask[2] ? make_empty(shape, input.dtype(), kCuda) : Tensor();
  std::vector<Access> acc = {reads(grad_out, "grad_out"), reads(input, "input"), reads(mean, "mean"),
                             reads(rstd, "rstd")};
  for (const Tensor* t : {&dx, &dw, &db})
    if (t->defined()) acc.push_back(writes(*t, "grad"));
  std::optional<HostView> w, b, hx, hw, hb;
  if (weight && weight->defined()) w.emplace(*weight);
  if (bias && bias->defined()) b.emplace(*bias);
  if (dx.defined()) hx.emplace(dx);
  if (dw.defined()) hw.emplace(dw);
  if (db.defined()) hb.emplace(db);
  KernelCost c;
  c.flops = 10.0 * static_cast<double>(input.numel());
  c.bytes = 3 * bytes_of(input);
  sim::launch(
      "layer_norm_grad_input_kernel", c,
      [g = HostView(grad_out), x = HostView(input), m = HostView(mean), r = HostView(rstd), w, b, shape, output_mask,
       hx, hw, hb] {
        std::optional<Tensor> wt, bt;
        if (w) wt = w->tensor();
        if (b) bt = b->tensor();
        auto [a, d, e] =
            layer_norm_backward_cpu(g.tensor(), x.tensor(), shape, m.tensor(), r.tensor(), wt, bt, output_mask);
        if (hx) copy_cpu_(hx->tensor(), a, false);
        if (hw) copy_cpu_(hw->tensor(), d, false);
        if (hb) copy_cpu_(hb->tensor(), e, false);
      },
      sim::DeviceOp::Kind::Kernel, std::move(acc));
  return {dx, dw, db};
}

}  // namespace ipt::native

// The activations: structured impls, as the unary and binary ones above.
namespace ipt::native {

namespace {
// A pointwise kernel writing `out` from the inputs, in place when out is the first of them.
template <typename F>
void launch_pointwise(const char* name, const Tensor& out, std::initializer_list<const Tensor*> inputs,
                      std::initializer_list<const char*> names, F compute) {
  const bool in_place = out.is_same(**inputs.begin());
  std::vector<Access> acc;
  auto n = names.begin();
  for (const Tensor* t : inputs) {
    if (!(in_place && t == *inputs.begin())) acc.push_back(reads(*t, *n));
    ++n;
  }
  launch_writing(name, pointwise_cost(out, inputs), out, std::move(acc), std::move(compute),
                 in_place ? *names.begin() : "out");
}
}  // namespace

void gelu_out_cuda(const Tensor& self, std::string_view approximate, const Tensor& out) {
  launch_pointwise(
      "vectorized_elementwise_kernel<gelu>", out, {&self}, {"self"},
      [a = HostView(self), ap = std::string(approximate)](const Tensor& o) { gelu_into_cpu(o, a.tensor(), ap); });
}
void gelu_backward_out_cuda(const Tensor& grad_output, const Tensor& self, std::string_view approximate,
                            const Tensor& grad_input) {
  launch_pointwise("vectorized_elementwise_kernel<gelu_backward>", grad_input, {&grad_output, &self},
                   {"grad_output", "self"},
                   [g = HostView(grad_output), a = HostView(self), ap = std::string(approximate)](const Tensor& o) {
                     gelu_backward_into_cpu(o, g.tensor(), a.tensor(), ap);
                   });
}
void elu_out_cuda(const Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale,
                  const Tensor& out) {
  launch_pointwise("vectorized_elementwise_kernel<elu>", out, {&self}, {"self"},
                   [a = HostView(self), alpha, scale, input_scale](const Tensor& o) {
                     elu_into_cpu(o, a.tensor(), alpha, scale, input_scale);
                   });
}
void elu_backward_out_cuda(const Tensor& grad_output, const Scalar& alpha, const Scalar& scale,
                           const Scalar& input_scale, bool is_result, const Tensor& self_or_result,
                           const Tensor& grad_input) {
  launch_pointwise(
      "vectorized_elementwise_kernel<elu_backward>", grad_input, {&grad_output, &self_or_result},
      {"grad_output", "self_or_result"},
      [g = HostView(grad_output), a = HostView(self_or_result), alpha, scale, input_scale, is_result](const Tensor& o) {
        elu_backward_into_cpu(o, g.tensor(), alpha, scale, input_scale, is_result, a.tensor());
      });
}
void leaky_relu_out_cuda(const Tensor& self, const Scalar& negative_slope, const Tensor& out) {
  launch_pointwise(
      "vectorized_elementwise_kernel<leaky_relu>", out, {&self}, {"self"},
      [a = HostView(self), negative_slope](const Tensor& o) { leaky_relu_into_cpu(o, a.tensor(), negative_slope); });
}
void leaky_relu_backward_out_cuda(const Tensor& grad_output, const Tensor& self, const Scalar& negative_slope, bool,
                                  const Tensor& grad_input) {
  launch_pointwise("vectorized_elementwise_kernel<leaky_relu_backward>", grad_input, {&grad_output, &self},
                   {"grad_output", "self"},
                   [g = HostView(grad_output), a = HostView(self), negative_slope](const Tensor& o) {
                     leaky_relu_backward_into_cpu(o, g.tensor(), a.tensor(), negative_slope);
                   });
}
Tensor hardtanh_backward_cuda(const Tensor& grad_output, const Tensor& self, const Scalar& min_val,
                              const Scalar& max_val) {
  check_same_device({&grad_output, &self});
  const PointwiseGeometry g = binary_geometry(grad_output, self);
  Tensor out = make_empty(g.sizes, g.out_dtype, kCuda);
  launch_pointwise("vectorized_elementwise_kernel<hardtanh_backward>", out, {&grad_output, &self},
                   {"grad_output", "self"},
                   [gr = HostView(grad_output), a = HostView(self), min_val, max_val](const Tensor& o) {
                     hardtanh_backward_into_cpu(o, gr.tensor(), a.tensor(), min_val, max_val);
                   });
  return out;
}

}  // namespace ipt::native

namespace ipt::native {

// embedding's backward: the CPU kernel on the worker, its result copied into the device output.
Tensor embedding_dense_backward_cuda(const Tensor& grad_output, const Tensor& indices, int64_t num_weights,
                                     int64_t padding_idx, bool scale_grad_by_freq) {
  check_same_device({&grad_output, &indices});
  const int64_t dim = grad_output.dim() == 0 ? 1 : grad_output.sizes().back();
  Tensor out = make_empty(std::vector<int64_t>{num_weights, dim}, grad_output.dtype(), kCuda);
  KernelCost c;
  c.flops = static_cast<double>(grad_output.numel());
  c.bytes = bytes_of(grad_output) + bytes_of(indices) + bytes_of(out);
  launch_writing(
      "embedding_backward_feature_kernel", c, out, {reads(grad_output, "grad"), reads(indices, "indices")},
      [g = HostView(grad_output), i = HostView(indices), num_weights, padding_idx,
       scale_grad_by_freq](const Tensor& o) {
        copy_cpu_(o, embedding_dense_backward_cpu(g.tensor(), i.tensor(), num_weights, padding_idx, scale_grad_by_freq),
                  false);
      });
  return out;
}

}  // namespace ipt::native

// Pooling: the CPU kernel on the worker over the device bytes, each result copied into its
// device output (a pooling window reads each input element a few times at most).
namespace ipt::native {

namespace {
template <typename F>
void launch_computed(const char* name, const KernelCost& cost, const std::vector<Tensor>& outputs,
                     const std::vector<std::pair<Tensor, const char*>>& inputs, F compute) {
  std::vector<Access> acc;
  std::vector<HostView> ins, outs;
  for (const auto& [t, n] : inputs) {
    acc.push_back(reads(t, n));
    ins.emplace_back(t);
  }
  for (const Tensor& t : outputs) {
    acc.push_back(writes(t, "out"));
    outs.emplace_back(t);
  }
  sim::launch(
      name, cost,
      [ins, outs, compute] {
        std::vector<Tensor> in;
        for (const HostView& h : ins) in.push_back(h.tensor());
        const std::vector<Tensor> r = compute(in);
        for (size_t i = 0; i < outs.size(); ++i) copy_cpu_(outs[i].tensor(), r[i], false);
      },
      sim::DeviceOp::Kind::Kernel, std::move(acc));
}

KernelCost pool_cost(const Tensor& in, const Tensor& out) {
  KernelCost c;
  c.flops = static_cast<double>(in.numel());
  c.bytes = bytes_of(in) + bytes_of(out);
  return c;
}

std::tuple<Tensor, Tensor> max_pool_cuda(const Tensor& self, const PoolGeometry& g, const char* name) {
  Tensor out = make_empty(g.out_sizes, self.dtype(), kCuda), indices = make_empty(g.out_sizes, ScalarType::Long, kCuda);
  launch_computed(name, pool_cost(self, out), {out, indices}, {{self, "self"}}, [g](const std::vector<Tensor>& in) {
    auto [o, i] = max_pool_with_indices_cpu(in[0], g);
    return std::vector<Tensor>{o, i};
  });
  return {out, indices};
}

Tensor max_pool_backward_cuda(const Tensor& grad_output, const Tensor& self, const Tensor& indices,
                              const PoolGeometry& g) {
  check_same_device({&grad_output, &self, &indices});
  Tensor gi = make_empty(self.sizes(), self.dtype(), kCuda);
  launch_computed("max_pool_backward_nchw", pool_cost(self, gi), {gi},
                  {{grad_output, "grad_output"}, {self, "self"}, {indices, "indices"}},
                  [g](const std::vector<Tensor>& in) {
                    return std::vector<Tensor>{max_pool_backward_cpu(in[0], in[1], in[2], g)};
                  });
  return gi;
}

Tensor avg_pool_cuda(const Tensor& self, const PoolGeometry& g, bool count_include_pad,
                     std::optional<int64_t> divisor_override, const char* name) {
  IPT_CHECK(!divisor_override || *divisor_override != 0, RuntimeError, "divisor must be not zero");
  Tensor out = make_empty(g.out_sizes, self.dtype(), kCuda);
  launch_computed(name, pool_cost(self, out), {out}, {{self, "self"}},
                  [g, count_include_pad, divisor_override](const std::vector<Tensor>& in) {
                    return std::vector<Tensor>{avg_pool_cpu(in[0], g, count_include_pad, divisor_override)};
                  });
  return out;
}

Tensor avg_pool_backward_cuda(const Tensor& grad_output, const Tensor& self, const PoolGeometry& g,
                              bool count_include_pad, std::optional<int64_t> divisor_override) {
  check_same_device({&grad_output, &self});
  Tensor gi = make_empty(self.sizes(), self.dtype(), kCuda);
  launch_computed(
      "avg_pool_backward_nchw", pool_cost(self, gi), {gi}, {{grad_output, "grad_output"}, {self, "self"}},
      [g, count_include_pad, divisor_override](const std::vector<Tensor>& in) {
        return std::vector<Tensor>{avg_pool_backward_cpu(in[0], in[1], g, count_include_pad, divisor_override)};
      });
  return gi;
}

Tensor adaptive_avg_pool_cuda(const Tensor& self, const PoolGeometry& g) {
  Tensor out = make_empty(g.out_sizes, self.dtype(), kCuda);
  launch_computed("adaptive_average_pool", pool_cost(self, out), {out}, {{self, "self"}},
                  [g](const std::vector<Tensor>& in) { return std::vector<Tensor>{adaptive_avg_pool_cpu(in[0], g)}; });
  return out;
}

Tensor adaptive_avg_pool_backward_cuda(const Tensor& grad_output, const Tensor& self, const PoolGeometry& g) {
  check_same_device({&grad_output, &self});
  Tensor gi = make_empty(self.sizes(), self.dtype(), kCuda);
  launch_computed("adaptive_average_gradinput", pool_cost(self, gi), {gi},
                  {{grad_output, "grad_output"}, {self, "self"}}, [g](const std::vector<Tensor>& in) {
                    return std::vector<Tensor>{adaptive_avg_pool_backward_cpu(in[0], in[1], g)};
                  });
  return gi;
}

std::vector<int64_t> last(IntArrayRef sizes, size_t n) {
  return {sizes.end() - static_cast<std::ptrdiff_t>(n), sizes.end()};
}
}  // namespace

std::tuple<Tensor, Tensor> max_pool2d_with_indices_cuda(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                                        IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return max_pool_cuda(self, pool_geometry(self, kernel_size, stride, padding, dilation, ceil_mode, 2, "max_pool2d"),
                       "max_pool_forward_nchw");
}
std::tuple<Tensor, Tensor> max_pool3d_with_indices_cuda(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                                        IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return max_pool_cuda(self, pool_geometry(self, kernel_size, stride, padding, dilation, ceil_mode, 3, "max_pool3d"),
                       "max_pool3d_with_indices_single_out_frame");
}
Tensor max_pool2d_with_indices_backward_cuda(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel_size,
                                             IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                                             bool ceil_mode, const Tensor& indices) {
  return max_pool_backward_cuda(
      grad_output, self, indices,
      pool_geometry(self, kernel_size, stride, padding, dilation, ceil_mode, 2, "max_pool2d"));
}
Tensor max_pool3d_with_indices_backward_cuda(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel_size,
                                             IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                                             bool ceil_mode, const Tensor& indices) {
  return max_pool_backward_cuda(
      grad_output, self, indices,
      pool_geometry(self, kernel_size, stride, padding, dilation, ceil_mode, 3, "max_pool3d"));
}
Tensor avg_pool2d_cuda(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                       bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override) {
  return avg_pool_cuda(self, pool_geometry(self, kernel_size, stride, padding, {}, ceil_mode, 2, "avg_pool2d"),
                       count_include_pad, divisor_override, "avg_pool2d_out_cuda_frame");
}
Tensor avg_pool3d_cuda(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                       bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override) {
  return avg_pool_cuda(self, pool_geometry(self, kernel_size, stride, padding, {}, ceil_mode, 3, "avg_pool3d"),
                       count_include_pad, divisor_override, "avg_pool3d_cuda_update_output");
}
Tensor avg_pool2d_backward_cuda(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel_size,
                                IntArrayRef stride, IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                                std::optional<int64_t> divisor_override) {
  return avg_pool_backward_cuda(grad_output, self,
                                pool_geometry(self, kernel_size, stride, padding, {}, ceil_mode, 2, "avg_pool2d"),
                                count_include_pad, divisor_override);
}
Tensor avg_pool3d_backward_cuda(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel_size,
                                IntArrayRef stride, IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                                std::optional<int64_t> divisor_override) {
  return avg_pool_backward_cuda(grad_output, self,
                                pool_geometry(self, kernel_size, stride, padding, {}, ceil_mode, 3, "avg_pool3d"),
                                count_include_pad, divisor_override);
}
Tensor adaptive_avg_pool2d_cuda(const Tensor& self, IntArrayRef output_size) {
  return adaptive_avg_pool_cuda(self, adaptive_pool_geometry(self, output_size, 2, "adaptive_avg_pool2d"));
}
Tensor adaptive_avg_pool3d_cuda(const Tensor& self, IntArrayRef output_size) {
  return adaptive_avg_pool_cuda(self, adaptive_pool_geometry(self, output_size, 3, "adaptive_avg_pool3d"));
}
Tensor adaptive_avg_pool2d_backward_cuda(const Tensor& grad_output, const Tensor& self) {
  return adaptive_avg_pool_backward_cuda(
      grad_output, self, adaptive_pool_geometry(self, last(grad_output.sizes(), 2), 2, "adaptive_avg_pool2d"));
}
Tensor adaptive_avg_pool3d_backward_cuda(const Tensor& grad_output, const Tensor& self) {
  return adaptive_avg_pool_backward_cuda(
      grad_output, self, adaptive_pool_geometry(self, last(grad_output.sizes(), 3), 3, "adaptive_avg_pool3d"));
}

}  // namespace ipt::native

// Batch norm: the CPU kernel on the worker; the running statistics are updated where they are,
// in device memory, as cuDNN updates them.
namespace ipt::native {

namespace {
std::optional<HostView> view_of(const std::optional<Tensor>& t) {
  if (!t || !t->defined()) return std::nullopt;
  return HostView(*t);
}
std::optional<Tensor> tensor_of(const std::optional<HostView>& h) {
  if (!h) return std::nullopt;
  return h->tensor();
}
}  // namespace

std::tuple<Tensor, Tensor, Tensor> batch_norm_cuda(const Tensor& input, const std::optional<Tensor>& weight,
                                                   const std::optional<Tensor>& bias,
                                                   const std::optional<Tensor>& running_mean,
                                                   const std::optional<Tensor>& running_var, bool training,
                                                   double momentum, double eps) {
  IPT_CHECK(input.dim() >= 2, RuntimeError, "batch_norm: expected an input with at least 2 dims, got ", input.dim());
  const std::vector<int64_t> stat = {training ? input.sizes()[1] : 0};
  Tensor out = make_empty(input.sizes(), input.dtype(), kCuda);
  Tensor sm = make_empty(stat, input.dtype(), kCuda), si = make_empty(stat, input.dtype(), kCuda);
  std::vector<Access> acc = {reads(input, "input"), writes(out, "out"), writes(sm, "save_mean"),
                             writes(si, "save_invstd")};
  for (const auto* t : {&weight, &bias})
    if (*t && (*t)->defined()) acc.push_back(reads(**t, "param"));
  for (const auto* t : {&running_mean, &running_var})
    if (*t && (*t)->defined()) acc.push_back(training ? writes(**t, "running_stat") : reads(**t, "running_stat"));
  KernelCost c;
  c.flops = 4.0 * static_cast<double>(input.numel());
  c.bytes = 3 * bytes_of(input);
  sim::launch(
      "batch_norm_collect_statistics_kernel", c,
      [x = HostView(input), w = view_of(weight), b = view_of(bias), rm = view_of(running_mean),
       rv = view_of(running_var), training, momentum, eps, ho = HostView(out), hm = HostView(sm), hi = HostView(si)] {
        auto [o, m, i] = batch_norm_cpu(x.tensor(), tensor_of(w), tensor_of(b), tensor_of(rm), tensor_of(rv), training,
                                        momentum, eps);
        copy_cpu_(ho.tensor(), o, false);
        copy_cpu_(hm.tensor(), m, false);
        copy_cpu_(hi.tensor(), i, false);
      },
      sim::DeviceOp::Kind::Kernel, std::move(acc));
  return {out, sm, si};
}

std::tuple<Tensor, Tensor, Tensor> batch_norm_backward_cuda(const Tensor& grad_out, const Tensor& input,
                                                            const std::optional<Tensor>& weight,
                                                            const std::optional<Tensor>& running_mean,
                                                            const std::optional<Tensor>& running_var,
                                                            const std::optional<Tensor>& save_mean,
                                                            const std::optional<Tensor>& save_invstd, bool train,
                                                            double eps, std::array<bool, 3> output_mask) {
  const std::vector<int64_t> ch = {input.sizes()[1]};
  Tensor dx = output_mask[0] ? make_empty(input.sizes(), input.dtype(), kCuda) : Tensor();
  Tensor dw = output_mask[1] ? make_empty(ch, input.dtype(), kCuda) : Tensor();
  Tensor db = output_mask[2] ? make_empty(ch, input.dtype(), kCuda) : Tensor();
  std::vector<Access> acc = {reads(grad_out, "grad_out"), reads(input, "input")};
  for (const Tensor* t : {&dx, &dw, &db})
    if (t->defined()) acc.push_back(writes(*t, "grad"));
  KernelCost c;
  c.flops = 6.0 * static_cast<double>(input.numel());
  c.bytes = 3 * bytes_of(input);
  sim::launch(
      "batch_norm_backward_kernel", c,
      [g = HostView(grad_out), x = HostView(input), w = view_of(weight), rm = view_of(running_mean),
       rv = view_of(running_var), sm = view_of(save_mean), si = view_of(save_invstd), train, eps, output_mask,
       hx = dx.defined() ? view_of(dx) : std::nullopt, hw = dw.defined() ? view_of(dw) : std::nullopt,
       hb = db.defined() ? view_of(db) : std::nullopt] {
        auto [a, d, e] = batch_norm_backward_cpu(g.tensor(), x.tensor(), tensor_of(w), tensor_of(rm), tensor_of(rv),
                                                 tensor_of(sm), tensor_of(si), train, eps, output_mask);
        if (hx) copy_cpu_(hx->tensor(), a, false);
        if (hw) copy_cpu_(hw->tensor(), d, false);
        if (hb) copy_cpu_(hb->tensor(), e, false);
      },
      sim::DeviceOp::Kind::Kernel, std::move(acc));
  return {dx, dw, db};
}

}  // namespace ipt::native

namespace ipt::native {

std::tuple<Tensor, Tensor, Tensor> group_norm_cuda(const Tensor& input, const std::optional<Tensor>& weight,
                                                   const std::optional<Tensor>& bias, int64_t N, int64_t C, int64_t HxW,
                                                   int64_t group, double eps) {
  check_group_norm(input, weight, bias, N, C, HxW, group);
  const std::vector<int64_t> stat = {N, group};
  Tensor y = make_empty(input.sizes(), input.dtype(), kCuda);
  Tensor mean = make_empty(stat, input.dtype(), kCuda), rstd = make_empty(stat, input.dtype(), kCuda);
  std::vector<std::pair<Tensor, const char*>> ins = {{input, "input"}};
  if (weight && weight->defined()) ins.emplace_back(*weight, "weight");
  if (bias && bias->defined()) ins.emplace_back(*bias, "bias");
  const bool has_w = weight && weight->defined(), has_b = bias && bias->defined();
  launch_computed("RowwiseMomentsCUDAKernel", pool_cost(input, y), {y, mean, rstd}, ins,
                  [=](const std::vector<Tensor>& in) {
                    std::optional<Tensor> w, b;
                    if (has_w) w = in[1];
                    if (has_b) b = in[has_w ? 2 : 1];
                    auto [o, m, r] = group_norm_cpu(in[0], w, b, N, C, HxW, group, eps);
                    return std::vector<Tensor>{o, m, r};
                  });
  return {y, mean, rstd};
}

std::tuple<Tensor, Tensor, Tensor> group_norm_backward_cuda(const Tensor& grad_out, const Tensor& input,
                                                            const Tensor& mean, const Tensor& rstd,
                                                            const std::optional<Tensor>& weight, int64_t N, int64_t C,
                                                            int64_t HxW, int64_t group,
                                                            std::array<bool, 3> output_mask) {
  const std::vector<int64_t> c = {C};
  std::vector<Tensor> outs;
  Tensor dx = output_mask[0] ? make_empty(input.sizes(), input.dtype(), kCuda) : Tensor();
  Tensor dw = output_mask[1] ? make_empty(c, input.dtype(), kCuda) : Tensor();
  Tensor db = output_mask[2] ? make_empty(c, input.dtype(), kCuda) : Tensor();
  for (const Tensor& t : {dx, dw, db})
    if (t.defined()) outs.push_back(t);
  std::vector<std::pair<Tensor, const char*>> ins = {
      {grad_out, "grad_out"}, {input, "input"}, {mean, "mean"}, {rstd, "rstd"}};
  const bool has_w = weight && weight->defined();
  if (has_w) ins.emplace_back(*weight, "weight");
  launch_computed(
      "GroupNormBackwardCUDAKernel", pool_cost(input, input), outs, ins, [=](const std::vector<Tensor>& in) {
        std::optional<Tensor> w;
        if (has_w) w = in[4];
        auto [a, b, e] = group_norm_backward_cpu(in[0], in[1], in[2], in[3], w, N, C, HxW, group, output_mask);
        std::vector<Tensor> r;
        for (const Tensor& t : {a, b, e})
          if (t.defined()) r.push_back(t);
        return r;
      });
  return {dx, dw, db};
}

}  // namespace ipt::native
