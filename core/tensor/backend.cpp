#include "core/tensor/backend.h"

#include <array>

#include "core/util/error.h"

namespace ipt {

static std::array<const BackendInterface*, 3> g_backends{};

void register_backend(const BackendInterface* backend) {
  g_backends[static_cast<size_t>(backend->device_type)] = backend;
}

void for_each_backend(void (*fn)(const BackendInterface&)) {
  register_all_backends();
  for (const BackendInterface* b : g_backends)
    if (b) fn(*b);
}

bool has_backend(DeviceType t) {
  register_all_backends();
  return g_backends[static_cast<size_t>(t)] != nullptr;
}

const BackendInterface& backend_for(DeviceType t) {
  const BackendInterface* b = g_backends[static_cast<size_t>(t)];
  if (!b) {
    register_all_backends();
    b = g_backends[static_cast<size_t>(t)];
  }
  IPT_CHECK(b, RuntimeError, t == DeviceType::CUDA
                                 ? "Torch not compiled with CUDA enabled (or no CUDA device was found)"
                                 : "no backend registered for this device");
  return *b;
}

}  // namespace ipt
