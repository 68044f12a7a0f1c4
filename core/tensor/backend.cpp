#include "core/tensor/backend.h"

#include <array>
#include <atomic>

#include "core/trace/recorder.h"
#include "core/util/error.h"

namespace ipt {

static std::array<const BackendInterface*, 3> g_backends{};
static std::array<std::atomic<bool>, 3> g_switched_off{};  // set_device_enabled(t, false)
static std::atomic<void (*)()> g_registrar{nullptr};       // set_backend_registrar

void set_backend_registrar(void (*register_all)()) { g_registrar = register_all; }

// Runs the registrar, if the program has one (it registers each backend once).
static void run_registrar() {
  if (void (*register_all)() = g_registrar.load()) register_all();
}

// The registered backend of t, switched off or not (the waits below still need a device
// whose programs may no longer use it).
static const BackendInterface* registered(DeviceType t) {
  run_registrar();
  return g_backends[static_cast<size_t>(t)];
}

void set_device_enabled(DeviceType t, bool on) {
  run_registrar();
  g_switched_off[static_cast<size_t>(t)] = !on;
}

void register_backend(const BackendInterface* backend) {
  g_backends[static_cast<size_t>(backend->device_type)] = backend;
}

void for_each_backend(void (*fn)(const BackendInterface&)) {
  run_registrar();
  for (const BackendInterface* b : g_backends)
    if (b) fn(*b);
}

bool has_backend(DeviceType t) { return registered(t) != nullptr && !g_switched_off[static_cast<size_t>(t)]; }

const BackendInterface& backend_for(DeviceType t) {
  const BackendInterface* b = g_backends[static_cast<size_t>(t)];
  if (!b) {
    run_registrar();
    b = g_backends[static_cast<size_t>(t)];
  }
  IPT_CHECK(b && !g_switched_off[static_cast<size_t>(t)], RuntimeError,
            t == DeviceType::CUDA ? "Torch not compiled with CUDA enabled (or no CUDA device was found)"
                                  : "no backend registered for this device");
  return *b;
}

std::string start_recording(trace::Recorder& r, trace::ClockKind clock) {
  // The clock first, so that the wait moves it to the end of the device's work, then a fresh
  // epoch; `r` is not recording yet, so the wait itself is not in its trace.
  r.set_clock(clock);
  std::string name;
  if (const BackendInterface* cuda = registered(DeviceType::CUDA); cuda && cuda->runtime) {
    try {
      cuda->runtime->synchronize();
    } catch (const std::exception&) {  // an earlier run's asynchronous error: that run reported it
    }
    try {
      cuda->runtime->begin_program();
    } catch (const std::exception&) {}
    if (has_backend(DeviceType::CUDA)) name = cuda->runtime->device_name(0);
  }
  r.clear();
  return name;
}

void wait_for_devices() {
  const BackendInterface* cuda = registered(DeviceType::CUDA);
  if (!cuda || !cuda->runtime) return;
  try {
    cuda->runtime->synchronize();
  } catch (const std::exception&) {}
}

}  // namespace ipt
