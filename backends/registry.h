#pragma once
// The backends built into this program (backends/registry.cpp, the one file that lists them).

namespace ipt {

// Registers every backend built into this program exactly once. The registry installs it as the
// runtime's registrar (set_backend_registrar, core/tensor/backend.h) when the program starts, so
// the runtime runs it on its first backend lookup; a program may also call it first.
void register_all_backends();

}  // namespace ipt
