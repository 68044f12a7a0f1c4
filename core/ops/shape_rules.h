#pragma once
// Output shapes and dtypes shared by every backend's kernels (PyTorch's "meta functions"):
// the CPU kernel and the Meta kernel of an operator compute the same result geometry here,
// so a meta tensor reports exactly the shape and dtype the real computation would produce.

#include <optional>
#include <vector>

#include "generated/ops.h"

namespace ipt {

// Type promotion across operands (PyTorch's result_type): dimensioned tensors outrank 0-dim
// tensors, which outrank Python numbers, unless a lower group is of a higher category
// (bool < integer < floating).
ScalarType result_type(std::initializer_list<const Tensor*> operands);
// The default floating dtype used when integers are promoted (torch.get_default_dtype()).
constexpr ScalarType kDefaultFloat = ScalarType::Float;

enum class PromoteInts { No, ToFloat };  // div and exp make integer inputs floating

struct PointwiseGeometry {
  std::vector<int64_t> sizes;
  ScalarType compute_dtype;  // dtype the math is done in
  ScalarType out_dtype;      // dtype of the result
};

// Geometry of `a op b` (broadcast shapes, promoted dtype).
PointwiseGeometry binary_geometry(const Tensor& a, const Tensor& b, PromoteInts promote = PromoteInts::No);
// Geometry of `self op= other`: checks `other` broadcasts to self's shape and the result
// dtype can be cast to self's ("result type Float can't be cast to the desired output type Long").
PointwiseGeometry inplace_binary_geometry(const Tensor& self, const Tensor& other, PromoteInts promote = PromoteInts::No);
// Result dtype of a unary op on `t`.
ScalarType unary_dtype(const Tensor& t, PromoteInts promote);
// Checks the sub/neg restrictions on bool tensors with PyTorch's messages.
void check_sub_bool(const Tensor& a, const Tensor& b);
void check_neg_bool(const Tensor& t);
// Whether a value of dtype `from` may be written into a tensor of dtype `to` by an in-place op.
bool can_cast(ScalarType from, ScalarType to);

struct ReductionGeometry {
  std::vector<int64_t> out_sizes;   // with or without kept dims
  std::vector<bool> reduced;        // per input dim
  ScalarType out_dtype;
};
// `op_name` is "sum" or "mean" (mean rejects integer inputs with PyTorch's message).
ReductionGeometry reduction_geometry(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                                     std::optional<ScalarType> dtype, const char* op_name);

// Checks dot / mv / bmm operands with PyTorch's messages.
void check_dot(const Tensor& self, const Tensor& other);
void check_mv(const Tensor& self, const Tensor& vec);
void check_bmm(const Tensor& self, const Tensor& mat2);

// Checks mm's operands (2-D, same dtype, inner sizes match) with PyTorch's messages.
void check_mm(const Tensor& self, const Tensor& mat2);

}  // namespace ipt
