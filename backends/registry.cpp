// The one place that knows which backends are built into this program.
#include "backends/registry.h"

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

// Installs the registrar when the program starts. Nothing calls into this file, so ipt_backends
// names this variable as undefined at every link (backends/CMakeLists.txt): the linker keeps it.
extern "C" {
extern const bool ipt_backend_registry;
const bool ipt_backend_registry = (ipt::set_backend_registrar(&ipt::register_all_backends), true);
}
