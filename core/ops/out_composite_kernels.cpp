// Functional and in-place forms that are their out= overload with a fresh or the same tensor
// as `out`, as PyTorch writes them (CompositeExplicitAutograd: one kernel for every backend,
// whose work is done by the backend kernel of the out= form), and the one copy_ of every
// device. See Note [out= arguments] in core/ops/out_rules.h.
#include "core/ops/autograd_hooks.h"
#include "core/tensor/backend.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/native_functions.h"

namespace ipt::native {

namespace {
// at::empty({0}, like.options().dtype(dtype)): what the out= form resizes.
Tensor empty_result(const Tensor& like, ScalarType dtype) {
  return ops::empty_memory_format(std::vector<int64_t>{0}, dtype, std::nullopt, like.device(), std::nullopt,
                                  std::nullopt);
}
}  // namespace

Tensor abs(const Tensor& self) { return ops::abs_out(self, empty_result(self, self.dtype())); }
Tensor abs_(const Tensor& self) { return ops::abs_out(self, self); }

Tensor logical_not(const Tensor& self) { return ops::logical_not_out(self, empty_result(self, ScalarType::Bool)); }
// In place the result keeps self's dtype (1 / 0).
Tensor logical_not_(const Tensor& self) { return ops::logical_not_out(self, self); }
Tensor logical_and(const Tensor& self, const Tensor& other) {
  return ops::logical_and_out(self, other, empty_result(self, ScalarType::Bool));
}
Tensor logical_or(const Tensor& self, const Tensor& other) {
  return ops::logical_or_out(self, other, empty_result(self, ScalarType::Bool));
}
Tensor logical_xor(const Tensor& self, const Tensor& other) {
  return ops::logical_xor_out(self, other, empty_result(self, ScalarType::Bool));
}
Tensor logical_xor_(const Tensor& self, const Tensor& other) { return ops::logical_xor_out(self, other, self); }

// mv is addmv with beta 0: the result's old values (uninitialised here) are never read.
Tensor mv(const Tensor& self, const Tensor& vec) {
  Tensor result = ops::empty_memory_format(std::vector<int64_t>{self.size(0)}, vec.dtype(), std::nullopt, vec.device(),
                                           std::nullopt, std::nullopt);
  return ops::addmv_(result, self, vec, 0, 1);
}
// addmv_out may not resize its `self`: an `out` that could not serve as addmv's self (more than
// one dimension, or neither mat's rows nor one element) gets a fresh one of the right size in
// its place; otherwise `out` is also the self, whose dtype addmv then checks, as in PyTorch 2.15.
Tensor mv_out(const Tensor& self, const Tensor& vec, const Tensor& out) {
  if (out.dim() <= 1 && (out.numel() == self.size(0) || out.numel() == 1))
    return ops::addmv_out(out, self, vec, 0, 1, out);
  Tensor self_addmv = ops::empty_memory_format(std::vector<int64_t>{self.size(0)}, vec.dtype(), std::nullopt,
                                               vec.device(), std::nullopt, std::nullopt);
  return ops::addmv_out(self_addmv, self, vec, 0, 1, out);
}

// Note [copy_ is one kernel for every device]
// copy_ is CompositeExplicitAutograd, as in PyTorch: one kernel makes the checks every device
// shares and then calls the copy of the backend involved (BackendInterface::copy, PyTorch's
// copy_stub). Copying into a meta tensor moves no values, but PyTorch 2.15 still checks that
// the source broadcasts to the destination's shape, as an in-place elementwise operation does;
// a meta source has no values to give.
Tensor copy_(const Tensor& self, const Tensor& src, bool non_blocking) {
  if (self.is_same(src)) return self;
  if (self.device().type == DeviceType::Meta) {
    const std::vector<int64_t> b = broadcast_shapes(self.sizes(), src.sizes());
    IPT_CHECK(b == self.sizes(), RuntimeError, "output with shape ", int_list_str(self.sizes()),
              " doesn't match the broadcast shape ", int_list_str(b));
    return self;
  }
  IPT_CHECK(src.device().type != DeviceType::Meta, NotImplementedError, "Cannot copy out of meta tensor; no data!");
  check_no_internal_overlap(self);
  const DeviceType on = self.device().type != DeviceType::CPU ? self.device().type : src.device().type;
  const BackendInterface& backend = backend_for(on);
  IPT_CHECK(backend.copy, NotImplementedError, "copy_ between ", self.device().str(), " and ", src.device().str(),
            " is not supported");
  backend.copy(self, src, non_blocking);
  return self;
}

}  // namespace ipt::native
