#pragma once
// Warnings raised by the runtime, as PyTorch's TORCH_WARN: the operation goes on.
//
// Note [Warnings reach Python as warnings]
// A kernel calls IPT_WARN(...). The message, followed by where in the project it was raised
// ("(Triggered internally at core/ops/out_rules.cpp:<line>.)", as PyTorch words it), goes to the
// process's handler. The Python bindings install one that calls warnings.warn with the warning's
// category (UserWarning for TORCH_WARN, DeprecationWarning for TORCH_WARN_DEPRECATION), so filters, `warnings.catch_warnings` and `-W error` behave as with PyTorch. A warning that a
// filter turns into an error is raised at once, before the operation has changed anything
// (PyTorch buffers warnings and raises after the operation completed, so there the out tensor
// is already resized). Without a handler (C++ tests), or on a thread that does not hold the GIL,
// the warning is written to stderr.

#include <string>

#include "core/util/error.h"

namespace ipt {

// c10's two warning types: TORCH_WARN's and TORCH_WARN_DEPRECATION's.
enum class WarningKind { UserWarning, DeprecationWarning };

// Receives the whole message; may throw (the operation then fails with that exception).
using WarningHandler = void (*)(const std::string& message, WarningKind kind);

// Installs `handler` for the process (null: stderr) and returns the previous one.
WarningHandler set_warning_handler(WarningHandler handler);

// Passes "message (Triggered internally at where.)" to the handler.
void warn(const std::string& message, const char* where, WarningKind kind = WarningKind::UserWarning);

}  // namespace ipt

#define IPT_WARN_STRINGIFY_(x) #x
#define IPT_WARN_STRINGIFY(x) IPT_WARN_STRINGIFY_(x)
// IPT_WARN(msg...) warns with the project-relative file:line of the call (see CMakeLists.txt).
#define IPT_WARN(...) ::ipt::warn(::ipt::detail::cat(__VA_ARGS__), __FILE__ ":" IPT_WARN_STRINGIFY(__LINE__))
// IPT_WARN_DEPRECATION(msg...): the same, as a DeprecationWarning (PyTorch's TORCH_WARN_DEPRECATION).
#define IPT_WARN_DEPRECATION(...)                                                         \
  ::ipt::warn(::ipt::detail::cat(__VA_ARGS__), __FILE__ ":" IPT_WARN_STRINGIFY(__LINE__), \
              ::ipt::WarningKind::DeprecationWarning)
