#include "core/autograd/saved_variable.h"

#include "core/autograd/node.h"
#include "core/autograd/recording.h"
#include "core/dispatch/local_dispatch_key_set.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"

namespace ipt::autograd {

SavedVariable::SavedVariable(const Tensor& t, bool is_output) {
  if (!t.defined()) return;
  IPT_CHECK(!t.impl()->is_inference(), RuntimeError,
            "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
            "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use "
            "it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.");
  original_ = t.impl_ptr();
  version_ = t.impl()->version();
  saved_ = true;
  if (!is_output) {
    data_ = t;  // see Note [Saved tensors keep their history for double backward]
    return;
  }
  // An alias without autograd history: same storage and version counter.
  data_ = make_view(t, t.sizes(), t.strides(), t.storage_offset());
  data_.impl()->set_is_view(t.impl()->is_view());
  if (auto* m = find_autograd_meta(*t.impl()); m && m->grad_fn) {
    output_of_ = ", which is output " + std::to_string(m->output_nr) + " of " + node_op_name(*m->grad_fn) + ",";
    output_grad_fn_ = m->grad_fn;
    output_nr_ = m->output_nr;
  }
}

void SavedVariable::reset() {
  if (saved_) {
    data_ = Tensor();
    released_ = true;
  }
}

Tensor SavedVariable::unpack() const {
  IPT_CHECK(!released_, RuntimeError,
            "Trying to backward through the graph a second time (or directly access saved tensors after they have "
            "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
            "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
            "if you need to access saved tensors after calling backward.");
  if (!saved_) return Tensor();
  const uint64_t now = data_.impl()->version();
  if (now != version_) {
    std::string which = output_of_;
    if (auto orig = original_.lock(); which.empty() && orig) {
      if (auto* m = find_autograd_meta(*orig); m && m->grad_fn)
        which = ", which is output " + std::to_string(m->output_nr) + " of " + node_op_name(*m->grad_fn) + ",";
    }
    IPT_FAIL(RuntimeError,
             "one of the variables needed for gradient computation has been modified by an inplace operation: "
             "[torch.",
             dtype_cpp_name(data_.dtype()), "Tensor ", int_list_str(data_.sizes()), "]", which, " is at version ", now,
             "; expected version ", version_,
             " instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
             "with torch.autograd.set_detect_anomaly(True, check_nan=False).");
  }
  if (grad_mode_enabled())
    if (auto fn = output_grad_fn_.lock()) {
      Tensor with_history = make_view(data_, data_.sizes(), data_.strides(), data_.storage_offset());
      with_history.impl()->set_is_view(data_.impl()->is_view());
      set_history(with_history, fn, output_nr_);
      return with_history;
    }
  return data_;
}

}  // namespace ipt::autograd
