// CPU kernels of torch.nn's building blocks: softmax and log_softmax along one dim, the
// negative log likelihood loss (forward and backward, 1-D/2-D and spatial 4-D inputs) and the
// mean squared error loss. Shapes and checks come from core/ops/shape_rules.h (shared with Meta).
#include <cmath>
#include <limits>

#include "backends/cpu/cpu_loops.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

// softmax / log_softmax of a contiguous tensor along `d`: the input is (outer, len, inner).
template <bool Log>
Tensor softmax_impl(const Tensor& self_in, int64_t dim) {
  const int64_t d = softmax_dim(self_in, dim, Log);
  const bool last = self_in.dim() == 0 || d == self_in.dim() - 1;
  cpu::refuse_half(self_in, Log ? (last ? "log_softmax_lastdim_kernel_impl" : "log_softmax_kernel_impl")
                                : (last ? "softmax_lastdim_kernel_impl" : "softmax_kernel_impl"));
  Tensor self = ops::contiguous(self_in);
  Tensor out = make_empty(self.sizes(), self.dtype(), self.device());
  if (self.numel() == 0) return out;
  int64_t outer = 1, len = 1, inner = 1;
  for (int64_t i = 0; i < self.dim(); ++i) {
    if (i < d) outer *= self.sizes()[i];
    else if (i == d) len = self.sizes()[i];
    else inner *= self.sizes()[i];
  }
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (is_float_v<T>) {
      const T* x = self.data_ptr<T>();
      T* y = out.data_ptr<T>();
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          const int64_t base = o * len * inner + i;
          T mx = -std::numeric_limits<T>::infinity();
          for (int64_t k = 0; k < len; ++k) mx = std::max(mx, x[base + k * inner]);
          if (std::isinf(mx) && mx < 0) mx = 0;  // all -inf: exp gives 0s, as PyTorch
          double sum = 0;
          for (int64_t k = 0; k < len; ++k) sum += std::exp(static_cast<double>(x[base + k * inner] - mx));
          if constexpr (Log) {
            const double lse = std::log(sum);
            for (int64_t k = 0; k < len; ++k)
              y[base + k * inner] = static_cast<T>(static_cast<double>(x[base + k * inner] - mx) - lse);
          } else {
            for (int64_t k = 0; k < len; ++k)
              y[base + k * inner] = static_cast<T>(std::exp(static_cast<double>(x[base + k * inner] - mx)) / sum);
          }
        }
    }
  });
  return out;
}

// Note [nll_loss as (N, C, S)]
// Both nll_loss_forward (input [C] or [N, C]) and nll_loss2d_forward (input [N, C, H, W]) read
// their contiguous input as N samples x C classes x S positions (S = H * W, or 1) and the
// target as N x S class indices. Each position whose target is not ignore_index contributes
// -weight[t] * input[n, t, s]; total_weight sums weight[t] over those positions, and
// reduction=mean divides by it (0 / 0 = nan when every target is ignored, as PyTorch).
std::tuple<Tensor, Tensor> nll_forward(const Tensor& self_in, const Tensor& target_in, const std::optional<Tensor>& weight,
                                       int64_t reduction, int64_t ignore_index, bool spatial) {
  NllLossGeometry g = nll_loss_geometry(self_in, target_in, weight, spatial);
  Tensor self = ops::contiguous(self_in), target = ops::contiguous(target_in);
  Tensor w = weight ? ops::contiguous(*weight) : Tensor();
  Tensor total = make_empty(std::vector<int64_t>{}, self.dtype(), self.device());
  Tensor out = make_empty(reduction == 0 ? g.none_sizes : std::vector<int64_t>{}, self.dtype(), self.device());
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (is_float_v<T>) {
      const T* x = self.data_ptr<T>();
      const int64_t* t = target.data_ptr<int64_t>();
      std::vector<double> wv = w.defined() ? to_double_vector(w) : std::vector<double>();
      T* po = out.data_ptr<T>();
      double acc = 0, tw = 0;
      for (int64_t n = 0; n < g.n; ++n)
        for (int64_t s = 0; s < g.s; ++s) {
          const int64_t cls = t[n * g.s + s];
          double v = 0;
          if (cls != ignore_index) {
            IPT_CHECK(cls >= 0 && cls < g.c, IndexError, "Target ", cls, " is out of bounds.");
            const double wt = wv.empty() ? 1.0 : wv[static_cast<size_t>(cls)];
            v = -wt * static_cast<double>(x[(n * g.c + cls) * g.s + s]);
            acc += v;
            tw += wt;
          }
          if (reduction == 0) po[n * g.s + s] = static_cast<T>(v);
        }
      total.data_ptr<T>()[0] = static_cast<T>(reduction == 0 ? 0.0 : tw);
      if (reduction == 1) po[0] = static_cast<T>(acc / tw);
      else if (reduction == 2) po[0] = static_cast<T>(acc);
    } else {
      IPT_FAIL(RuntimeError, "\"nll_loss_out_frame\" not implemented for '", dtype_cpp_name(self.dtype()), "'");
    }
  });
  return {out, total};
}

}  // namespace

Tensor softmax_cpu(const Tensor& self, int64_t dim, bool half_to_float) { return softmax_impl<false>(self, dim); }
Tensor log_softmax_cpu(const Tensor& self, int64_t dim, bool half_to_float) { return softmax_impl<true>(self, dim); }

std::tuple<Tensor, Tensor> nll_loss_forward_cpu(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                                                int64_t reduction, int64_t ignore_index) {
  return nll_forward(self, target, weight, reduction, ignore_index, false);
}

std::tuple<Tensor, Tensor> nll_loss2d_forward_cpu(const Tensor& self, const Tensor& target,
                                                  const std::optional<Tensor>& weight, int64_t reduction,
                                                  int64_t ignore_index) {
  return nll_forward(self, target, weight, reduction, ignore_index, true);
}

// d loss / d input: -weight[t] * grad (divided by total_weight for mean) at [n, t, s], else 0.
// Serves nll_loss_backward and nll_loss2d_backward (the input's rank tells them apart).
Tensor nll_loss_backward_cpu(const Tensor& grad_output, const Tensor& self, const Tensor& target_in,
                             const std::optional<Tensor>& weight, int64_t reduction, int64_t ignore_index,
                             const Tensor& total_weight) {
  NllLossGeometry g = nll_loss_geometry(self, target_in, weight, self.dim() == 4);
  Tensor target = ops::contiguous(target_in);
  Tensor grad = ops::contiguous(grad_output);
  Tensor out = make_empty(self.sizes(), self.dtype(), self.device());
  std::vector<double> wv = weight ? to_double_vector(*weight) : std::vector<double>();
  const double tw = element_as_double(total_weight, 0);
  visit_dtype(self.dtype(), [&]<typename T>() {
    T* po = out.data_ptr<T>();
    for (int64_t i = 0; i < out.numel(); ++i) po[i] = T(0);
    const int64_t* t = target.data_ptr<int64_t>();
    const std::vector<double> gv = to_double_vector(grad);
    for (int64_t n = 0; n < g.n; ++n)
      for (int64_t s = 0; s < g.s; ++s) {
        const int64_t cls = t[n * g.s + s];
        if (cls == ignore_index) continue;
        IPT_CHECK(cls >= 0 && cls < g.c, IndexError, "Target ", cls, " is out of bounds.");
        const double wt = wv.empty() ? 1.0 : wv[static_cast<size_t>(cls)];
        double gr = reduction == 0 ? gv[static_cast<size_t>(n * g.s + s)] : gv[0];
        if (reduction == 1) gr /= tw;
        po[(n * g.c + cls) * g.s + s] = static_cast<T>(-wt * gr);
      }
  });
  return out;
}

// (self - target)^2, reduced. Built from the pointwise and reduction operators (each appears in
// the trace below mse_loss, as the pieces of a structured kernel would).
Tensor mse_loss_cpu(const Tensor& self, const Tensor& target, int64_t reduction) {
  mse_loss_geometry(self, target, reduction);
  IPT_CHECK(result_type({&self, &target}) != ScalarType::BFloat16, RuntimeError, "\"mse_cpu\" not implemented for 'BFloat16'");
  Tensor d = ops::sub_Tensor(self, target);
  Tensor sq = ops::mul_Tensor(d, d);
  if (reduction == 1) return ops::mean(sq);
  if (reduction == 2) return ops::sum(sq);
  return sq;
}

}  // namespace ipt::native
