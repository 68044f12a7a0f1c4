#include "core/ops/embedding_bag_rules.h"

#include "core/ops/shape_rules.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/ops.h"

namespace ipt::native {

namespace {

void check_scalar_types(const Tensor& t, const char* name, const char* allowed, bool ok) {
  if (ok) return;
  IPT_FAIL(RuntimeError, "Expected tensor for argument #1 '", name,
           "' to have one of the following scalar types: ", allowed, "; but got ", tensor_type_name(t),
           " instead (while checking arguments for embedding_bag)");
}

bool is_index_dtype(ScalarType t) { return t == ScalarType::Long || t == ScalarType::Int; }

int64_t element(const Tensor& t, int64_t i) {
  return static_cast<int64_t>(ops::_local_scalar_dense(ops::select_int(t, 0, i)).to<int64_t>());
}

}  // namespace

ScalarType embedding_bag_index_dtype(const Tensor& indices, const Tensor& offsets) {
  if (indices.dtype() == offsets.dtype()) return indices.dtype();
  // promoteTypes: a floating operand wins (and then fails the index check), integers widen to int64.
  if (is_floating(indices.dtype())) return indices.dtype();
  if (is_floating(offsets.dtype())) return offsets.dtype();
  return ScalarType::Long;
}

void check_embedding_bag(const Tensor& weight, const Tensor& indices, const Tensor& offsets, int64_t mode,
                         const std::optional<Tensor>& per_sample_weights, bool include_last_offset) {
  IPT_CHECK(indices.dim() == 1 || indices.dim() == 2, RuntimeError,
            "input has to be a 1D or 2D Tensor, but got Tensor of dimension ", indices.dim());
  if (indices.dim() == 1)
    IPT_CHECK(offsets.dim() == 1, RuntimeError, "offsets has to be a 1D Tensor, but got Tensor of dimension ",
              offsets.dim());
  check_scalar_types(indices, "indices", "Long, Int", is_index_dtype(indices.dtype()));
  check_scalar_types(offsets, "offsets", "Long, Int", is_index_dtype(offsets.dtype()));
  check_scalar_types(weight, "weight", "Half, BFloat16, Float, Double", is_floating(weight.dtype()));
  if (offsets.dim() == 1 && offsets.sizes()[0] > 0) {
    const int64_t first = element(offsets, 0), last = element(offsets, offsets.sizes()[0] - 1);
    IPT_CHECK(first == 0, RuntimeError,
              "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. "
              "However, got ",
              first);
    IPT_CHECK(last <= indices.sizes()[0], RuntimeError, "offsets[-1] can not be greater than input's length ",
              indices.sizes()[0], " but got offsets[-1] of ", last);
  }
  IPT_CHECK(mode >= 0 && mode <= 2, RuntimeError, "`mode` must be sum, mean, or max.");
  if (per_sample_weights && per_sample_weights->defined()) {
    IPT_CHECK(mode == 0, RuntimeError, "embedding_bag: per_sample_weights only supported with mode='sum'");
    IPT_CHECK(per_sample_weights->dtype() == weight.dtype(), RuntimeError,
              "Expected tensor for argument #1 'weight' to have the same type as tensor for argument #1 "
              "'per_sample_weights'; but type ",
              tensor_type_name(weight), " does not equal ", tensor_type_name(*per_sample_weights),
              " (while checking arguments for embedding_bag)");
    IPT_CHECK(per_sample_weights->dim() == 1, RuntimeError,
              "Expected per_sample_weights.value().dim() == 1 to be true, but got false.  (Could this error message "
              "be improved?  If so, please report an enhancement request to PyTorch.)");
    IPT_CHECK(per_sample_weights->numel() == indices.numel(), RuntimeError,
              "Expected per_sample_weights.value().numel() == indices.numel() to be true, but got false.  (Could "
              "this error message be improved?  If so, please report an enhancement request to PyTorch.)");
  }
  if (include_last_offset)
    IPT_CHECK(offsets.sizes()[0] >= 1, RuntimeError, "include_last_offset: number of offset should be at least 1");
}

EmbeddingBagShapes embedding_bag_shapes(const Tensor& weight, const Tensor& indices, const Tensor& offsets,
                                        int64_t mode, const std::optional<Tensor>& per_sample_weights,
                                        bool include_last_offset, int64_t padding_idx, bool forward_only) {
  EmbeddingBagShapes s;
  IPT_CHECK(weight.dim() == 2, RuntimeError, "weight has to be a 2D Tensor, but got Tensor of dimension ",
            weight.dim());
  IPT_CHECK(offsets.dim() == 1 && indices.dim() >= 1, RuntimeError,
            "offsets has to be a 1D Tensor, but got Tensor of dimension ", offsets.dim());
  const int64_t n_offsets = offsets.sizes()[0];
  s.bags = include_last_offset ? n_offsets - 1 : n_offsets;
  const int64_t dim = weight.sizes()[1];
  const bool psw = per_sample_weights && per_sample_weights->defined();
  s.fast_path = weight.dtype() == ScalarType::Float && weight.strides()[1] == 1 && padding_idx < 0 &&
                (!psw || per_sample_weights->strides()[0] == 1);
  s.output = {s.bags, dim};
  s.offset2bag = {s.fast_path && mode == 0 ? 0 : indices.sizes()[0]};
  s.bag_size = {mode == 0 && forward_only ? n_offsets : s.bags};
  s.max_indices = mode == 2 ? std::vector<int64_t>{s.bags, dim} : s.bag_size;
  return s;
}

}  // namespace ipt::native
