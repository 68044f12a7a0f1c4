#pragma once
// Stop requests that reach into kernels. The program's Stop (the GUI's button, Ctrl+C in the
// CLI) raises KeyboardInterrupt in the Python program; a kernel that runs for long (a sum over
// an expanded tensor of 10^12 elements) polls the same request between rows and throws it as
// KeyboardInterrupt, so Stop never waits for the kernel to finish. See Note [Stopping a kernel].
//
// Note [Stopping a kernel]
// One request is pending at a time, process-wide (one program runs at a time). A kernel that
// sees it takes it (the flag is cleared) and throws ipt::Error(KeyboardInterrupt), which the
// front end raises as Python's KeyboardInterrupt; the interpreter's Stop raises it in Python
// code only if no kernel took it, so the program sees exactly one KeyboardInterrupt. Setting
// the request is async-signal-safe (a lock-free atomic store).

#include <atomic>
#include <cstdint>

namespace ipt {

namespace detail {
extern std::atomic<bool> g_interrupt_requested;
}

// Async-signal-safe.
inline void request_interrupt() { detail::g_interrupt_requested.store(true, std::memory_order_relaxed); }
inline bool interrupt_pending() { return detail::g_interrupt_requested.load(std::memory_order_relaxed); }
// Takes the pending request, if any: true when there was one.
inline bool take_interrupt() { return detail::g_interrupt_requested.exchange(false, std::memory_order_relaxed); }
inline void clear_interrupt() { detail::g_interrupt_requested.store(false, std::memory_order_relaxed); }

// Throws KeyboardInterrupt when a stop was requested (taking the request). Kernels call it
// between rows: a relaxed load, cheap next to a row of work.
void throw_interrupt();
inline void check_interrupt() {
  if (interrupt_pending()) [[unlikely]]
    throw_interrupt();
}

}  // namespace ipt
