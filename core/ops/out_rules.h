#pragma once
// What every out= kernel does with its `out` tensor before computing, as PyTorch 2.15 does.
//
// Note [out= arguments]
// torch.abs(x, out=o) writes into `o` instead of allocating. When o's shape is not the result's,
// o is resized (with PyTorch's deprecation warning when it had elements) and then takes the
// layout the functional form would have given the result (x.t()'s strides for abs of x.t());
// an `o` of the right shape keeps its own strides. Its dtype must be what the operator allows
// (abs: exactly the input's; comparisons and logical ops: any). All checks come before the
// resize, so a refused call changes nothing.

#include <span>

#include "core/tensor/tensor.h"

namespace ipt {

// Resizes `out` to `sizes` when they differ; true when it did. Warns when `out` had elements.
bool resize_output(const Tensor& out, std::span<const int64_t> sizes);
// resize_output, and when it resized, the strides make_empty_like_layout(sizes, .., like) would give.
void resize_output_like(const Tensor& out, std::span<const int64_t> sizes, const Tensor& like);
// TensorIterator's check for operators whose output dtype must be the computation's:
// "Found dtype Long but expected Float".
void check_out_dtype_is(const Tensor& out, ScalarType expected);
// A structured kernel's check of its out tensor: "Expected out tensor to have dtype float, but
// got long int instead".
void check_structured_out_dtype(const Tensor& out, ScalarType expected);

}  // namespace ipt
