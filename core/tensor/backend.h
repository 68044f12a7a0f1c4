#pragma once
// The one interface a backend plugs in through (see backends/registry.cpp).
//
// Note [Backends]
// A backend owns memory on its device and registers kernels with the dispatcher. Core code
// never names a backend: it asks `backend_for(device)` for the table below. Optional slots
// may be null. The Meta backend has no memory at all: its allocate returns null and its
// kernels only compute shapes.

#include <cstddef>
#include <string>

#include "core/tensor/device.h"
#include "core/tensor/device_runtime.h"

namespace ipt::trace {
class Recorder;
enum class ClockKind : uint8_t;
}  // namespace ipt::trace

namespace ipt {

class Dispatcher;
class Tensor;

struct BackendInterface {
  const char* name;  // "cpu", "meta", "cuda"
  DeviceType device_type;
  void* (*allocate)(size_t nbytes);  // may return null only for nbytes == 0 or Meta
  void (*deallocate)(void* ptr);
  void (*register_kernels)(Dispatcher&);  // the backend's generated Register<Key>.cpp
  // Optional: copies nbytes between host memory and this device (null for CPU/Meta).
  void (*copy_to_host)(void* dst, const void* src, size_t nbytes);
  void (*copy_from_host)(void* dst, const void* src, size_t nbytes);
  // Optional: copies src's elements into self (broadcast and converted; the shapes are checked),
  // where self or src is on this device: PyTorch's copy_stub, which the one copy_ kernel of
  // every device (CompositeExplicitAutograd) calls. Null for Meta, which holds no values.
  void (*copy)(const Tensor& self, const Tensor& src, bool non_blocking);
  // Optional: streams, events and the allocator's state (devices that have them: CUDA).
  DeviceRuntime* runtime = nullptr;
};

// Called by each backend's registration function (backends/registry.cpp).
void register_backend(const BackendInterface* backend);
// The backend for a device type; throws a RuntimeError when none is registered.
const BackendInterface& backend_for(DeviceType t);
bool has_backend(DeviceType t);

// Before a new recording on `clock`: waits for every device to finish what earlier runs left
// on it (so that a run on the modeled clock starts from an idle device and gives the same
// trace every time; errors left by earlier work are dropped), starts a new program on it
// (DeviceRuntime::begin_program: as a new process finds it), then clears `r` onto that
// clock. `r` must be current (the simulated GPU reads the current recorder's clock) and not
// recording. Returns the name of the GPU that runs CUDA work, or "" without one.
std::string start_recording(trace::Recorder& r, trace::ClockKind clock);
// After a run: waits for every device's queued work (which may still read the program's
// memory), dropping errors left by it.
void wait_for_devices();

// Switches a device off for programs, or back on (the window's Device menu): while off,
// has_backend(t) is false and backend_for(t) refuses as if none were built in ("Torch not
// compiled with CUDA enabled"), so torch.cuda.is_available() is False. Its kernels stay
// registered with the dispatcher; IPT_GPU=off, read at start-up, leaves them out as a
// CPU-only PyTorch build does. Memory it handed out is still freed through it.
void set_device_enabled(DeviceType t, bool on);

// Calls fn for every registered backend (after running the registrar).
void for_each_backend(void (*fn)(const BackendInterface&));

// The function that registers every backend built into this program. The backend registry
// (backends/registry.cpp) installs it when the program starts; the runtime runs it on its first
// backend lookup, and never names a backend itself. Without one (a program that links no
// backend) no device has a backend.
void set_backend_registrar(void (*register_all)());

}  // namespace ipt
