#pragma once
// What a structured kernel's generated wrappers call (tools/codegen/structured.cpp).
//
// Note [Structured kernels]
// PyTorch writes an operator family such as add once: `add.out` is `structured: True`, and
// `add.Tensor` and `add_.Tensor` say `structured_delegate: add.out`. Two hand-written halves
// serve all three: the meta function (meta_add here, TORCH_META_FUNC in PyTorch), which checks
// the inputs and computes the result's shape, dtype, device and layout without touching data,
// and one impl per backend (add_out_cpu, add_out_cuda; TORCH_IMPL_FUNC), which computes into an
// output that already has the right shape. The generator writes, for each backend, the three
// kernels that join them:
//   add.Tensor   meta, then structured_result (a new tensor), then impl
//   add_.Tensor  meta, then structured_check_inplace (self must be the result), then impl on self
//   add.out      meta, then structured_prepare_out (dtype and overlap checks, resize), then impl
// and the Meta key's three, which stop after the middle step: so a meta tensor gets exactly
// the geometry a real call would, from the same code. Every check comes before the impl, and
// the checks on `out` before it is resized, so a refused call changes nothing.

#include <initializer_list>
#include <string>
#include <vector>

#include "core/tensor/tensor.h"

namespace ipt {

struct StructuredMeta {
  std::vector<int64_t> sizes;
  ScalarType dtype = ScalarType::Float;          // the functional result's dtype
  ScalarType compute_dtype = ScalarType::Float;  // what the impl computes in
  Device device = Device(DeviceType::CPU);
  // The functional result is laid out as this input (it has the result's shape), as
  // TensorIterator lays out its output; null: contiguous.
  const Tensor* layout_like = nullptr;
  // How an in-place or out= result's dtype may differ from `dtype`:
  //   Castable  any dtype the computation can be cast to (TensorIterator's binary and float
  //             ops: "result type Float can't be cast to the desired output type Long")
  //   Same      only `dtype`, in TensorIterator's words (neg: "Found dtype Double but expected Float")
  //   Exact     only `dtype`, in a structured kernel's words (mm: "Expected out tensor to have
  //             dtype float, but got double instead")
  enum class OutDtype { Castable, Same, Exact } out_dtype = OutDtype::Castable;
  // On the Meta device, the operands' device mismatch that the functional and out= forms refuse
  // and the in-place form lets pass (Note [Elementwise checks on the Meta device]); "" if none.
  std::string meta_device_mismatch;
};

// The functional form's new result.
Tensor structured_result(const StructuredMeta& m);
// The in-place form: self must have the result's shape, a dtype it allows and its device, and
// share no memory with the inputs other than being one of them.
void structured_check_inplace(const Tensor& self, const StructuredMeta& m, std::initializer_list<const Tensor*> inputs);
// The out= form: out's dtype and device, no overlap with the inputs or within itself; then out
// is resized to the result's shape (warning when it had elements) and, when resized, laid out
// as the functional result would be.
void structured_prepare_out(const Tensor& out, const StructuredMeta& m, std::initializer_list<const Tensor*> inputs);

// TensorIterator's check of a written tensor against each input: the same tensor is fine (an
// in-place call), memory shared any other way is refused ("unsupported operation: some elements
// of the input tensor and the written-to tensor refer to a single memory location").
void check_no_partial_overlap(const Tensor& written, const Tensor& input);

}  // namespace ipt
