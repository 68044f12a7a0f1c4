// Double backward of the convolution and normalization backward operators, and group norm's
// differentiable backward: the formulas of PyTorch 2.15's FunctionsManual.cpp and
// Convolution.cpp, operator for operator, so a graph built with create_graph=True has 2.15's
// nodes and 2.15's values.

#include "core/autograd/formulas.h"
#include "core/dispatch/local_dispatch_key_set.h"
#include "core/util/error.h"

namespace ipt::autograd {

namespace {

int64_t product(IntArrayRef sizes, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t i = from; i < to; ++i) n *= sizes[i];
  return n;
}

Tensor add_or(const Tensor& acc, const Tensor& term) { return acc.defined() ? ops::add__Tensor(acc, term) : term; }

Tensor sum_keep(const Tensor& t, int64_t dim) { return ops::sum_dim_IntList(t, std::vector<int64_t>{dim}, true); }

// A list of one value stands for that value in every spatial dim.
Sizes expand_param(IntArrayRef v, int64_t dim) {
  if (v.size() == 1) return Sizes(static_cast<size_t>(dim), v[0]);
  return Sizes(v.begin(), v.end());
}

Tensor in_dtype_of(const Tensor& t, const Tensor& like) {
  return t.dtype() == like.dtype() ? t : ops::_to_copy(t, like.dtype());
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> layer_norm_double_backward(const Tensor& input_t, const std::optional<Tensor>& gamma,
                                                              const Tensor& ggI, const Tensor& ggG, const Tensor& ggB,
                                                              const Tensor& gO_t, const Tensor& mean_t,
                                                              const Tensor& rstd_t, IntArrayRef normalized_shape,
                                                              const std::array<bool, 3>& /*output_mask*/) {
  const auto sizes = input_t.sizes();
  const size_t axis = sizes.size() - normalized_shape.size();
  const int64_t M = product(sizes, 0, axis), N = product(sizes, axis, sizes.size());
  const Tensor input = ops::reshape(input_t, std::vector<int64_t>{M, N});
  const Tensor gO = ops::reshape(gO_t, std::vector<int64_t>{M, N});
  const Tensor save_mean = ops::reshape(mean_t, std::vector<int64_t>{M, 1});
  const Tensor save_invstd = ops::reshape(rstd_t, std::vector<int64_t>{M, 1});
  const bool affine = gamma.has_value() && gamma->defined();
  Tensor g, ggG_e, ggB_e, ggI_e;
  if (affine) {
    g = ops::reshape(*gamma, std::vector<int64_t>{1, N});
    if (ggG.defined()) ggG_e = ops::reshape(ggG, std::vector<int64_t>{1, N});
    if (ggB.defined()) ggB_e = ops::reshape(ggB, std::vector<int64_t>{1, N});
  } else {
    g = ops::ones(std::vector<int64_t>{1}, input.dtype(), std::nullopt, input.device());
  }
  if (ggI.defined()) ggI_e = ops::reshape(ggI, std::vector<int64_t>{M, N});
  const Tensor mu = in_dtype_of(save_mean, input);
  const Tensor xmu = ops::sub_Tensor(input, mu);
  const Tensor r = in_dtype_of(save_invstd, input);
  const Tensor r2 = ops::pow_Tensor_Scalar(r, Scalar(int64_t(2)));
  const Tensor r3 = ops::pow_Tensor_Scalar(r, Scalar(int64_t(3)));
  const Tensor xmu_r3 = ops::mul_Tensor(xmu, r3);
  const Scalar n(N);

  Tensor gI;
  if (ggI_e.defined()) {
    const Tensor gxhat = ops::mul_Tensor(gO, g);
    const Tensor gxhat_mu_sum = sum_keep(ops::mul_Tensor(gxhat, xmu), 1);
    const Tensor gxhat_sum = sum_keep(gxhat, 1);
    const Tensor ggI_sum = sum_keep(ggI_e, 1);
    const Tensor ggI_mu_sum = sum_keep(ops::mul_Tensor(ggI_e, xmu), 1);
    Tensor all_sub = ops::div__Scalar(ops::mul_Tensor(ggI_sum, gxhat_sum), n);
    all_sub = ops::sub__Tensor(all_sub, sum_keep(ops::mul_Tensor(ggI_e, gxhat), 1));
    all_sub = ops::add__Tensor(all_sub, ops::mul__Scalar(ops::mul_Tensor(ops::mul_Tensor(r2, gxhat_mu_sum), ggI_mu_sum),
                                                         Scalar(3.0 / static_cast<double>(N))));
    const Tensor gI_0t = ops::div__Scalar(ops::mul_Tensor(xmu_r3, all_sub), n);
    const Tensor gI_1t = ops::mul_Tensor(ops::div__Scalar(ops::mul_Tensor(ggI_mu_sum, r3), n),
                                         ops::sub_Tensor(ops::div_Scalar(gxhat_sum, n), gxhat));
    const Tensor gI_2t = ops::mul_Tensor(ops::div__Scalar(ops::mul_Tensor(gxhat_mu_sum, r3), n),
                                         ops::sub_Tensor(ops::div_Scalar(ggI_sum, n), ggI_e));
    gI = ops::add__Tensor(ops::add__Tensor(gI_0t, gI_1t), gI_2t);
  }
  if (affine && ggG_e.defined()) {
    const Tensor t0 = ops::mul_Tensor(ops::mul_Tensor(gO, ggG_e), r);
    const Tensor t1 = ops::div__Scalar(ops::mul_Tensor(r, sum_keep(ops::mul_Tensor(gO, ggG_e), 1)), Scalar(-N));
    const Tensor t2 = ops::div__Scalar(
        ops::mul_Tensor(xmu_r3, sum_keep(ops::mul_Tensor(ops::mul_Tensor(gO, ggG_e), xmu), 1)), Scalar(-N));
    gI = add_or(gI, ops::add__Tensor(ops::add__Tensor(t0, t1), t2));
  }
  if (gI.defined()) gI = ops::reshape(gI, input_t.sizes());

  // The first backward's grad_input for an output gradient gOl and a scale gl.
  auto first_bwd = [&](const Tensor& gOl, const Tensor& gl) {
    const Tensor h0 = ops::div__Scalar(ops::mul_Tensor(gl, r), n);
    Tensor h1 = ops::mul_Scalar(gOl, n);
    h1 = ops::sub__Tensor(h1, sum_keep(gOl, 1));
    h1 = ops::sub__Tensor(h1, ops::mul_Tensor(ops::mul_Tensor(xmu, r2), sum_keep(ops::mul_Tensor(gOl, xmu), 1)));
    return ops::mul_Tensor(h0, h1);
  };
  Tensor gG;
  if (affine && ggI_e.defined()) {
    gG = first_bwd(ggI_e, ops::ones(std::vector<int64_t>{}, r.dtype(), std::nullopt, r.device()));
    gG = ops::sum_dim_IntList(ops::mul_Tensor(gO, gG), std::vector<int64_t>{0}, false);
    gG = ops::reshape(gG, gamma->sizes());
  }
  Tensor ggO;
  if (ggI_e.defined()) ggO = first_bwd(ggI_e, g);
  if (ggG_e.defined()) ggO = add_or(ggO, ops::mul_Tensor(ops::mul_Tensor(ggG_e, xmu), r));
  if (ggB_e.defined()) ggO = add_or(ggO, ggB_e);
  if (ggO.defined()) ggO = ops::reshape(ops::expand(ggO, std::vector<int64_t>{M, N}), input_t.sizes());
  return {gI, gG, ggO};
}

std::tuple<Tensor, Tensor, Tensor> convolution_double_backward(
    const Tensor& ggI, const Tensor& ggW, const Tensor& ggb, const Tensor& gO, const Tensor& weight,
    const Tensor& input, IntArrayRef stride_, IntArrayRef padding_, IntArrayRef dilation_, bool transposed,
    IntArrayRef output_padding_, int64_t groups, const std::array<bool, 3>& /*output_mask*/) {
  const int64_t dim = weight.dim() - 2;
  const Sizes stride = expand_param(stride_, dim), padding = expand_param(padding_, dim);
  const Sizes dilation = expand_param(dilation_, dim), output_padding = expand_param(output_padding_, dim);
  // 2.15 infers a grouped 3-D convolution's groups from the shapes.
  if (!transposed && input.dim() > 4) groups = weight.size(1) > 0 ? input.size(1) / weight.size(1) : -1;
  const bool nonempty = input.numel() != 0;

  Tensor ggO;
  if (nonempty) {
    if (ggI.defined())
      ggO = ops::convolution(ggI, weight, std::nullopt, stride, padding, dilation, transposed, output_padding, groups);
    if (ggW.defined()) {
      const Tensor t =
          ops::convolution(input, ggW, std::nullopt, stride, padding, dilation, transposed, output_padding, groups);
      ggO = ggO.defined() ? ops::add_Tensor(ggO, t) : t;
    }
  }
  if (ggb.defined()) {
    Sizes new_size(static_cast<size_t>(gO.dim()), 1);
    new_size[1] = ggb.size(0);
    const Tensor ggb_exp = ops::expand(ops::view(ops::contiguous(ggb), new_size), gO.sizes());
    ggO = ggO.defined() ? ops::add_Tensor(ggO, ggb_exp) : ggb_exp;
  }

  Tensor gW;
  if (ggI.defined() && nonempty) {
    // The weight's gradient is a convolution over the batch: stride and dilation trade places.
    const Tensor gOt = ops::transpose_int(gO, 0, 1), ggIt = ops::transpose_int(ggI, 0, 1);
    auto conv = [&](const Tensor& o, const Tensor& i) {
      return transposed ? ops::convolution(o, i, std::nullopt, dilation, padding, stride, false, output_padding, 1)
                        : ops::convolution(i, o, std::nullopt, dilation, padding, stride, false, output_padding, 1);
    };
    Tensor gWt;
    if (groups == 1) {
      gWt = conv(gOt, ggIt);
    } else {
      std::vector<Tensor> parts;
      const int64_t gi = ggIt.size(0) / groups, go = gOt.size(0) / groups;
      for (int64_t k = 0; k < groups; ++k)
        parts.push_back(conv(ops::narrow(gOt, 0, k * go, go), ops::narrow(ggIt, 0, k * gi, gi)));
      gWt = ops::cat(parts, 1);
    }
    gW = ops::transpose_int(gWt, 0, 1);
    for (int64_t i = 2; i < gW.dim(); ++i)
      if (gW.size(i) > weight.size(i)) gW = ops::narrow(gW, i, 0, weight.size(i));
  }

  Tensor gI;
  if (nonempty && ggW.defined()) {
    if (transposed) {
      gI = ops::convolution(gO, ggW, std::nullopt, stride, padding, dilation, false, output_padding, groups);
      for (int64_t i = 2; i < gI.dim(); ++i)
        if (gI.size(i) > input.size(i)) gI = ops::narrow(gI, i, 0, input.size(i));
    } else {
      // The output padding the forward's stride rounding lost.
      Sizes op = output_padding;
      for (int64_t i = 0; i < dim; ++i) {
        const int64_t k = weight.size(2 + i);
        const int64_t expected = (k - 1) * dilation[i] - 2 * padding[i] + (stride[i] * (gO.size(2 + i) - 1) + 1);
        if (expected != input.size(2 + i)) op[i] = input.size(2 + i) - expected;
      }
      gI = ops::convolution(gO, ggW, std::nullopt, stride, padding, dilation, true, op, groups);
    }
  }
  return {ggO, gI, gW};
}

namespace {

// d(var, mean over `dims` with keepdim)/d(self), for var's and mean's gradients (either may be
// undefined), as 2.15's var_mean_backward with correction 0.
Tensor var_mean_backward(const Tensor& gvar, const Tensor& gmean, const Tensor& self, int64_t dim) {
  const int64_t K = self.size(dim);
  Tensor gself;
  if (gvar.defined())
    gself = ops::mul_Tensor(ops::mul_Scalar(gvar, Scalar(2.0 / static_cast<double>(K))),
                            ops::sub_Tensor(self, ops::mean_dim(self, std::vector<int64_t>{dim}, true)));
  if (gmean.defined()) {
    const Tensor aux = ops::div_Scalar(ops::expand(gmean, self.sizes()), Scalar(K));
    gself = gself.defined() ? ops::add_Tensor(gself, aux) : aux;
  }
  return gself;
}

// 2.15's infinitely_differentiable_native_group_norm_backward: the backward written in
// differentiable operators, for a graph that will itself be differentiated.
std::tuple<Tensor, Tensor, Tensor> group_norm_backward_composite(const Tensor& dY, const Tensor& X, const Tensor& mean,
                                                                 const Tensor& rstd, const std::optional<Tensor>& gamma,
                                                                 int64_t N, int64_t C, int64_t HxW, int64_t G,
                                                                 const std::array<bool, 3>& mask) {
  if (!dY.defined()) return {};
  const int64_t D = C / G;
  const Scalar s(1.0 / static_cast<double>(D * HxW));
  const Tensor X_t = ops::reshape(X, std::vector<int64_t>{N, G, D, HxW});
  const Tensor mean_t = ops::reshape(mean, std::vector<int64_t>{N, G, 1, 1});
  const Tensor rstd_t = ops::reshape(rstd, std::vector<int64_t>{N, G, 1, 1});
  const Tensor dY_t = ops::reshape(dY, std::vector<int64_t>{N, G, D, HxW});
  const Tensor ds = sum_keep(ops::mul_Tensor(dY_t, X_t), 3);
  const Tensor db = sum_keep(dY_t, 3);
  const bool affine = gamma.has_value() && gamma->defined();
  Tensor dX, dgamma, dbeta;
  if (mask[0]) {
    const Tensor gamma_t = affine ? ops::reshape(*gamma, std::vector<int64_t>{1, G, D, 1}) : Tensor();
    const Tensor rstd_cube = ops::mul_Tensor(ops::mul_Tensor(rstd_t, rstd_t), rstd_t);
    const Tensor a = affine ? ops::mul_Tensor(rstd_t, gamma_t) : rstd_t;
    Tensor b = sum_keep(affine ? ops::mul_Tensor(ds, gamma_t) : ds, 2);
    Tensor c = sum_keep(affine ? ops::mul_Tensor(db, gamma_t) : db, 2);
    b = ops::mul_Scalar(ops::mul_Tensor(ops::sub_Tensor(ops::mul_Tensor(c, mean_t), b), rstd_cube), s);
    c = ops::sub_Tensor(ops::mul_Tensor(ops::neg(b), mean_t), ops::mul_Scalar(ops::mul_Tensor(c, rstd_t), s));
    dX =
        ops::reshape(ops::add_Tensor(ops::add_Tensor(ops::mul_Tensor(a, dY_t), ops::mul_Tensor(b, X_t)), c), X.sizes());
  }
  if (mask[1])
    dgamma =
        ops::reshape(ops::sum_dim_IntList(ops::mul_Tensor(ops::sub_Tensor(ds, ops::mul_Tensor(db, mean_t)), rstd_t),
                                          std::vector<int64_t>{0}, false),
                     std::vector<int64_t>{C});
  if (mask[2]) dbeta = ops::reshape(ops::sum_dim_IntList(db, std::vector<int64_t>{0}, false), std::vector<int64_t>{C});
  return {dX, dgamma, dbeta};
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> native_group_norm_backward_dispatcher(const std::vector<Tensor>& grads,
                                                                         const Tensor& X, const Tensor& mean,
                                                                         const Tensor& rstd,
                                                                         const std::optional<Tensor>& gamma, int64_t N,
                                                                         int64_t C, int64_t HxW, int64_t group,
                                                                         const std::array<bool, 3>& mask) {
  const Tensor& dY = grads[0];
  const Tensor dmean = grads.size() > 1 ? grads[1] : Tensor();
  const Tensor drstd = grads.size() > 2 ? grads[2] : Tensor();
  Tensor dX, dgamma, dbeta;
  if (grad_mode_enabled()) {
    std::tie(dX, dgamma, dbeta) = group_norm_backward_composite(dY, X, mean, rstd, gamma, N, C, HxW, group, mask);
  } else if (dY.defined()) {
    // The fused kernel, which reads a contiguous gradient.
    std::tie(dX, dgamma, dbeta) =
        ops::native_group_norm_backward(ops::contiguous(dY), X, mean, rstd, gamma, N, C, HxW, group, mask);
  } else {
    const Tensor& like = gamma.has_value() && gamma->defined() ? *gamma : X;
    if (mask[1]) dgamma = ops::zeros(std::vector<int64_t>{C}, like.dtype(), std::nullopt, like.device());
    if (mask[2]) dbeta = ops::zeros(std::vector<int64_t>{C}, like.dtype(), std::nullopt, like.device());
  }
  if (mask[0] && (dmean.defined() || drstd.defined())) {
    Tensor dvar;
    if (drstd.defined()) {
      const Tensor rv = ops::reshape(rstd, std::vector<int64_t>{N, group, 1});
      dvar = ops::mul_Tensor(ops::mul_Tensor(ops::mul_Tensor(ops::mul_Scalar(rv, Scalar(-0.5)), rv), rv),
                             ops::view(drstd, std::vector<int64_t>{N, group, 1}));
    }
    const Tensor Xr = ops::reshape(X, std::vector<int64_t>{N, group, (C / group) * HxW});
    const Tensor dm = dmean.defined() ? ops::reshape(dmean, std::vector<int64_t>{N, group, 1}) : Tensor();
    const Tensor vm = ops::reshape(var_mean_backward(dvar, dm, Xr, 2), X.sizes());
    dX = dX.defined() ? ops::add_Tensor(dX, vm) : vm;
  }
  return {dX, dgamma, dbeta};
}

}  // namespace ipt::autograd
