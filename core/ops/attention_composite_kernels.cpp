// scaled_dot_product_attention through PyTorch 2.15's math path, and its _safe_softmax; with the
// composites of the tensor queries and copies that have no kernel of their own (sym_size and its
// kin, copy, masked_scatter).
//
// Note [Attention's math path]
// PyTorch 2.15 on a CPU picks its flash-attention kernel for scaled_dot_product_attention when it
// can (ScaledDotProductFlashAttentionForCpuBackward0 in the graph), and the math path otherwise.
// This project always takes the math path, whose chain of operators the Dispatch view shows:
// q and k each scaled by sqrt(scale) (1 / sqrt(E) unless given), q k^T, the mask added (a causal
// mask is the lower triangle, -inf above it), _safe_softmax (a row of -inf gives zeros), dropout,
// and the product with v. The values agree with 2.15's flash kernel within float rounding.
#include <cmath>
#include <limits>

#include "core/ops/scalar_tensor.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"
#include "generated/ops.h"

namespace ipt::native {

// softmax, with rows that are -inf everywhere giving 0 (not NaN).
Tensor _safe_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  Tensor out = ops::softmax_int(self, dim, dtype);
  const std::vector<int64_t> d = {dim};
  Tensor masked = ops::eq_Scalar(self, Scalar(-std::numeric_limits<double>::infinity()));
  Tensor all_masked = ops::all_dim(masked, dim, true);
  return ops::where_self(all_masked, ops::zeros_like(out), out);
}

std::tuple<Tensor, Tensor> _scaled_dot_product_attention_math(const Tensor& query, const Tensor& key,
                                                              const Tensor& value,
                                                              const std::optional<Tensor>& attn_mask, double dropout_p,
                                                              bool is_causal, const std::optional<Tensor>& dropout_mask,
                                                              std::optional<double> scale, bool enable_gqa) {
  const ScalarType origin = query.dtype();
  const bool reduced = origin == ScalarType::Half || origin == ScalarType::BFloat16;
  const Tensor q_acc = reduced ? ops::_to_copy(query, ScalarType::Float) : query;
  const Tensor k_acc = reduced ? ops::_to_copy(key, ScalarType::Float) : key;
  const Tensor v_acc = reduced ? ops::_to_copy(value, ScalarType::Float) : value;
  const bool negative = scale && *scale < 0.0;
  const double s = scale ? std::abs(*scale) : 1.0 / std::sqrt(static_cast<double>(query.sizes().back()));
  const double factor = std::sqrt(s);
  const Tensor q = ops::mul_Tensor(q_acc, wrapped_scalar_tensor(Scalar(negative ? 0.0 - factor : factor)));
  std::optional<Tensor> mask = attn_mask;
  if (is_causal) {
    IPT_CHECK(!attn_mask || !attn_mask->defined(), RuntimeError,
              "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True");
    const int64_t l = q.sizes()[q.sizes().size() - 2], src = key.sizes()[key.sizes().size() - 2];
    Tensor keep = ops::tril(ops::ones(std::vector<int64_t>{l, src}, ScalarType::Bool, std::nullopt, query.device()), 0);
    mask = keep;
  }
  if (mask && mask->defined() && mask->dtype() == ScalarType::Bool) {
    // convert_boolean_attn_mask: 0 where attended, -inf elsewhere
    mask = ops::masked_fill_Scalar(ops::zeros_like(*mask, q.dtype()), ops::logical_not(*mask),
                                   Scalar(-std::numeric_limits<double>::infinity()));
  }
  Tensor k = k_acc, v = v_acc;
  if (enable_gqa && q.dim() >= 3 && key.sizes()[key.dim() - 3] != q.sizes()[q.dim() - 3]) {
    const int64_t groups = q.sizes()[q.dim() - 3] / key.sizes()[key.dim() - 3];
    k = ops::repeat_interleave_self_int(k, groups, k.dim() - 3, std::nullopt);
    v = ops::repeat_interleave_self_int(v, groups, v.dim() - 3, std::nullopt);
  }
  Tensor attn = ops::matmul(q, ops::mul_Tensor(ops::transpose_int(k, -2, -1), wrapped_scalar_tensor(Scalar(factor))));
  if (mask && mask->defined()) attn = ops::add__Tensor(attn, *mask, 1);
  attn = ops::_safe_softmax(attn, -1, std::nullopt);
  Tensor weights = attn;
  if (dropout_p > 0.0) {
    if (dropout_mask && dropout_mask->defined())
      weights = ops::mul_Tensor(ops::masked_fill_Scalar(attn, ops::logical_not(*dropout_mask), Scalar(0.0)),
                                wrapped_scalar_tensor(Scalar(1.0 / (1.0 - dropout_p))));
    else weights = ops::dropout(attn, dropout_p, true);
  }
  Tensor out = ops::matmul(weights, v);
  if (out.dtype() != origin) out = ops::_to_copy(out, origin);
  return {out, attn.dtype() != origin ? ops::_to_copy(attn, origin) : attn};
}

Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const std::optional<Tensor>& attn_mask, double dropout_p, bool is_causal,
                                    std::optional<double> scale, bool enable_gqa) {
  IPT_CHECK(query.dim() >= 2 && key.dim() >= 2 && value.dim() >= 2, RuntimeError,
            "scaled_dot_product_attention: query, key and value must have at least 2 dimensions");
  IPT_CHECK(query.dtype() == key.dtype() && query.dtype() == value.dtype(), RuntimeError,
            "Expected query, key, and value to have the same dtype, but got query.dtype: ",
            dtype_element_name(query.dtype()), " key.dtype: ", dtype_element_name(key.dtype()),
            " and value.dtype: ", dtype_element_name(value.dtype()), " instead.");
  return std::get<0>(ops::_scaled_dot_product_attention_math(query, key, value, attn_mask, dropout_p, is_causal,
                                                             std::nullopt, scale, enable_gqa));
}

// ---- sizes as symbols (torch.ops.aten.sym_size and kin; no Python function, as in PyTorch) ----
int64_t sym_size(const Tensor& self, int64_t dim) {
  return self.sizes()[static_cast<size_t>(wrap_dim(dim, self.dim()))];
}
int64_t sym_numel(const Tensor& self) { return self.numel(); }
// Every memory format this project has (contiguous, preserve) asks for the row-major layout.
bool sym_is_contiguous(const Tensor& self, MemoryFormat) { return self.is_contiguous(); }
int64_t sym_storage_offset(const Tensor& self) { return self.storage_offset(); }
int64_t sym_stride(const Tensor& self, int64_t dim) {
  return self.strides()[static_cast<size_t>(wrap_dim(dim, self.dim()))];
}

// copy_'s functional form: a copy of self (its strides kept) overwritten by src.
Tensor copy(const Tensor& self, const Tensor& src, bool non_blocking) {
  Tensor r = ops::empty_strided(self.sizes(), self.strides(), self.dtype(), std::nullopt, self.device());
  if (self.numel() > 0) ops::copy_(r, self, false);
  return ops::copy_(r, src, non_blocking);
}

// self with source's elements, in order, where mask is true (mask broadcast to self).
Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source) {
  const std::vector<int64_t> shape = broadcast_shapes(self.sizes(), mask.sizes());
  Tensor out = ops::clone(ops::expand(self, shape), MemoryFormat::Contiguous);
  return ops::masked_scatter_(out, ops::expand(mask, shape), source);
}

}  // namespace ipt::native
