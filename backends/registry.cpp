// The one place that knows which backends are built into this program.
#include <mutex>

#include "core/tensor/backend.h"

namespace ipt {

void register_cpu_backend();
void register_meta_backend();
void register_sim_backend();

void register_all_backends() {
  static std::once_flag once;
  std::call_once(once, [] {
    register_cpu_backend();
    register_meta_backend();
    // The CUDA device is the simulated GPU (IPT_GPU=off: none). The real GPU's backend owns
    // memory only so far; its kernels are still to come, so it is not registered for tensors.
    register_sim_backend();
  });
}

}  // namespace ipt
