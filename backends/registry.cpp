// The one place that knows which backends are built into this program.
#include <mutex>

#include "core/tensor/backend.h"

namespace ipt {

void register_cpu_backend();
void register_meta_backend();
#if IPT_HAVE_CUDA
void register_cuda_backend();
#endif

void register_all_backends() {
  static std::once_flag once;
  std::call_once(once, [] {
    register_cpu_backend();
    register_meta_backend();
#if IPT_HAVE_CUDA
    register_cuda_backend();
#endif
  });
}

}  // namespace ipt
