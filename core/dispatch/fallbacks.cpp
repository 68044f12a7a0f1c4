// Dispatcher-wide backend fallbacks: keys that every operator skips unless it registers a
// kernel of its own for them (PyTorch registers these as fallthroughs too).
#include "core/dispatch/dispatcher.h"

namespace ipt {

void register_dispatcher_fallbacks(Dispatcher& d) {
  auto fallthrough = [](const char* where) {
    KernelFunction k;
    k.fallthrough = true;
    k.name = "fallthrough";
    k.registered_at = where;
    return k;
  };
  // BackendSelect only matters for factory functions, which register their own kernel.
  d.register_fallback(keys::BackendSelect, fallthrough(IPT_HERE));
  // ADInplaceOrView only matters for in-place and view operators (generated kernels).
  d.register_fallback(keys::ADInplaceOrView, fallthrough(IPT_HERE));
  // Autocast is excluded unless enabled; when enabled, ops without a cast rule fall through.
  // PyTorch 2.15 registers these fallthroughs for the CPU, MTIA, MAIA, XPU, MPS and CUDA
  // Autocast keys (not for IPU, HPU, XLA or PrivateUse1, whose backends register their own).
  for (DispatchKey k : {keys::AutocastCPU, keys::AutocastMTIA, keys::AutocastMAIA, keys::AutocastXPU, keys::AutocastMPS,
                        keys::AutocastCUDA})
    d.register_fallback(k, fallthrough(IPT_HERE));
  // Meta: an operator without a Meta kernel refuses Meta tensors with 2.15's message (see
  // Note [Boxed fallbacks that refuse] and report_missing_kernel).
  KernelFunction meta;
  meta.refuses = true;
  meta.name = "meta_fallback";
  meta.registered_at = IPT_HERE;
  d.register_fallback(keys::Meta, meta);
}

}  // namespace ipt
