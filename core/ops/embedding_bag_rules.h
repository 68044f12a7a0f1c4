#pragma once
// _embedding_bag's checks (with PyTorch 2.15's messages, in its order) and the shapes of its four
// results, shared by the CPU kernels (backends/cpu/embedding_bag_kernels.cpp) and the Meta kernel.
//
// Note [embedding_bag's results]
// Bags are the runs of indices between consecutive offsets (B = offsets minus one with
// include_last_offset). The results, as 2.15's CPU kernel leaves them:
// - output [B, D]: each bag's rows reduced (sum, mean, max); an empty bag gives zeros.
// - offset2bag [N]: each index's bag; left empty ([0]) on the float32 fast path in sum mode
//   (the backward rebuilds it from the offsets).
// - bag_size [B]: each bag's length less its padding_idx entries (the last bag runs to N); all
//   zeros in sum mode; [len(offsets)] zeros for the forward-only form in sum mode.
// - max_indices: in max mode [B, D], the row each maximum came from; otherwise a copy of bag_size.
// The fast path (float32 rows with unit stride, no padding_idx, unit-stride per_sample_weights)
// is fbgemm's in 2.15: each bag summed in order from offsets[b] to offsets[b + 1], with a fused
// multiply-add per weighted row; the other path adds rows (and weight * row, two roundings) in
// index order. Mean divides by max(bag_size, 1).
#include <cstdint>
#include <optional>
#include <vector>

#include "core/tensor/tensor.h"

namespace ipt::native {

// 2.15's check_arguments (after indices and offsets are promoted to one index dtype).
void check_embedding_bag(const Tensor& weight, const Tensor& indices, const Tensor& offsets, int64_t mode,
                         const std::optional<Tensor>& per_sample_weights, bool include_last_offset);

// indices and offsets in one dtype, as promoteTypes gives it (int64 for two integer dtypes).
ScalarType embedding_bag_index_dtype(const Tensor& indices, const Tensor& offsets);

struct EmbeddingBagShapes {
  int64_t bags = 0;
  bool fast_path = false;
  std::vector<int64_t> output, offset2bag, bag_size, max_indices;
};
EmbeddingBagShapes embedding_bag_shapes(const Tensor& weight, const Tensor& indices, const Tensor& offsets,
                                        int64_t mode, const std::optional<Tensor>& per_sample_weights,
                                        bool include_last_offset, int64_t padding_idx, bool forward_only);

}  // namespace ipt::native
