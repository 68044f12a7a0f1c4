// CPU kernels of torch.nn's building blocks (softmax: softmax_kernels.cpp): the
// negative log likelihood loss (forward and backward, 1-D/2-D and spatial 4-D inputs) and the
// mean squared error loss. Shapes and checks come from core/ops/shape_rules.h (shared with Meta).
#include <cmath>
#include <limits>

#include "backends/cpu/cascade_sum.h"
#include "backends/cpu/cpu_loops.h"
#include "core/ops/shape_rules.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {

// The class indices as contiguous int64 (a uint8 target, which PyTorch 2.15 also takes, converted).
Tensor long_target(const Tensor& target) {
  return target.dtype() == ScalarType::Long ? ops::contiguous(target) : ops::_to_copy(target, ScalarType::Long);
}

// Note [nll_loss as (N, C, S)]
// Both nll_loss_forward (input [C] or [N, C]) and nll_loss2d_forward (input [N, C, H, W]) read
// their contiguous input as N samples x C classes x S positions (S = H * W, or 1) and the
// target as N x S class indices. Each position whose target is not ignore_index contributes
// -weight[t] * input[n, t, s]; total_weight sums weight[t] over those positions, and
// reduction=mean divides by it (0 / 0 = nan when every target is ignored, as PyTorch).
// The sums are PyTorch's cascade in the input's own type: position i (= n * S + s) adds into
// level 0, and level j moves up into level j + 1 whenever the j-th group of `level_power` bits
// of i is zero (level_power = max(4, ceil(log2(N * S)) / 8)); the 8 levels are added at the end.
// Without weights total_weight is the count of positions not ignored.
std::tuple<Tensor, Tensor> nll_forward(const Tensor& self_in, const Tensor& target_in,
                                       const std::optional<Tensor>& weight, int64_t reduction, int64_t ignore_index,
                                       bool spatial) {
  NllLossGeometry g = nll_loss_geometry(self_in, target_in, weight, spatial);
  Tensor self = ops::contiguous(self_in), target = long_target(target_in);
  Tensor w = weight ? ops::contiguous(*weight) : Tensor();
  IPT_CHECK(!w.defined() || w.dtype() == self.dtype(), RuntimeError, "expected scalar type ",
            dtype_cpp_name(self.dtype()), " but found ", dtype_cpp_name(w.dtype()));
  Tensor total = make_empty(std::vector<int64_t>{}, self.dtype(), self.device());
  Tensor out = make_empty(reduction == 0 ? g.none_sizes : std::vector<int64_t>{}, self.dtype(), self.device());
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (is_float_v<T>) {
      const T* x = self.data_ptr<T>();
      const int64_t* t = target.data_ptr<int64_t>();
      const T* pw = w.defined() ? w.data_ptr<T>() : nullptr;
      T* po = out.data_ptr<T>();
      constexpr int kLevels = 8;
      T loss[kLevels] = {}, weights[kLevels] = {};
      const int64_t positions = g.n * g.s;
      const int64_t level_power = std::max<int64_t>(4, cpu::cascade::ceil_log2(positions) / kLevels);
      const int64_t level_mask = (int64_t(1) << level_power) - 1;
      int64_t ignored = 0;
      for (int64_t n = 0; n < g.n; ++n)
        for (int64_t s = 0; s < g.s; ++s) {
          const int64_t i = n * g.s + s;
          const int64_t cls = t[i];
          if (cls == ignore_index) {
            ++ignored;
            if (reduction == 0) po[i] = T(0);
            continue;
          }
          IPT_CHECK(cls >= 0 && cls < g.c, IndexError, "Target ", cls, " is out of bounds.");
          const T xv = x[(n * g.c + cls) * g.s + s];
          if (reduction == 0) {
            po[i] = pw ? static_cast<T>(-xv * pw[cls]) : static_cast<T>(-xv);
            continue;
          }
          if (pw) {
            loss[0] -= static_cast<T>(xv * pw[cls]);
            weights[0] += pw[cls];
          } else {
            loss[0] -= xv;
          }
          for (int j = 0; j + 1 < kLevels; ++j) {
            if ((i & (level_mask << (j * level_power))) != 0) break;
            loss[j + 1] += loss[j];
            weights[j + 1] += weights[j];
            loss[j] = T(0);
            weights[j] = T(0);
          }
        }
      if (reduction == 0) {
        total.data_ptr<T>()[0] = T(0);
      } else {
        T tw = T(0), acc = T(0);
        for (int j = 0; j < kLevels; ++j) {
          tw += weights[j];
          acc += loss[j];
        }
        if (!pw) tw = static_cast<T>(positions - ignored);
        total.data_ptr<T>()[0] = tw;
        po[0] = reduction == 1 ? static_cast<T>(acc / tw) : acc;
      }
    } else {
      IPT_FAIL(NotImplementedError, "\"nll_loss_out_frame\" not implemented for '", dtype_cpp_name(self.dtype()), "'");
    }
  });
  return {out, total};
}

}  // namespace

std::tuple<Tensor, Tensor> nll_loss_forward_cpu(const Tensor& self, const Tensor& target,
                                                const std::optional<Tensor>& weight, int64_t reduction,
                                                int64_t ignore_index) {
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
  Tensor target = long_target(target_in);
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
  Tensor d = ops::sub_Tensor(self, target);
  Tensor sq = ops::mul_Tensor(d, d);
  if (reduction == 1) return ops::mean(sq);
  if (reduction == 2) return ops::sum(sq);
  return sq;
}

}  // namespace ipt::native
