// embedding_bag as PyTorch writes it (CompositeImplicitAutograd): padding_idx checked and wrapped,
// then _embedding_bag when the weight (or per_sample_weights) needs a gradient, else
// _embedding_bag_forward_only (which skips the results only the backward reads).
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

using Result4 = std::tuple<Tensor, Tensor, Tensor, Tensor>;

Result4 embedding_bag_padding_idx(const Tensor& weight, const Tensor& indices, const Tensor& offsets,
                                  bool scale_grad_by_freq, int64_t mode, bool sparse,
                                  const std::optional<Tensor>& per_sample_weights, bool include_last_offset,
                                  std::optional<int64_t> padding_idx_opt) {
  int64_t padding_idx = -1;
  if (padding_idx_opt) {
    const int64_t rows = weight.size(0);
    padding_idx = *padding_idx_opt;
    IPT_CHECK(padding_idx >= -rows && padding_idx < rows, RuntimeError,
              "padding_idx must be within the number of embeddings, -", rows, " through ", rows - 1, ", but got ",
              padding_idx);
    if (padding_idx < 0) padding_idx += rows;
  }
  const bool psw_grad = per_sample_weights && per_sample_weights->defined() && per_sample_weights->requires_grad();
  const Tensor idx = ops::contiguous(indices, MemoryFormat::Contiguous);
  const Tensor off = ops::contiguous(offsets, MemoryFormat::Contiguous);
  if (!weight.requires_grad() && !psw_grad)
    return ops::_embedding_bag_forward_only(weight, idx, off, scale_grad_by_freq, mode, sparse, per_sample_weights,
                                            include_last_offset, padding_idx);
  return ops::_embedding_bag(weight, idx, off, scale_grad_by_freq, mode, sparse, per_sample_weights,
                             include_last_offset, padding_idx);
}

Result4 embedding_bag(const Tensor& weight, const Tensor& indices, const Tensor& offsets, bool scale_grad_by_freq,
                      int64_t mode, bool sparse, const std::optional<Tensor>& per_sample_weights,
                      bool include_last_offset) {
  return ops::embedding_bag_padding_idx(weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
                                        include_last_offset, std::nullopt);
}

}  // namespace ipt::native
