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
  d.register_fallback(keys::AutocastCPU, fallthrough(IPT_HERE));
  d.register_fallback(keys::AutocastCUDA, fallthrough(IPT_HERE));
}

}  // namespace ipt
