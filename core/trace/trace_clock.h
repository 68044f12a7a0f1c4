#pragma once
// The clock events are stamped with.
//
// Note [The trace clock]
// Every recorded event reads the clock, so its cost is paid eleven times by a traced 1-element
// add. std::chrono::steady_clock (clock_gettime through the vDSO) costs about 24 ns a read on
// a typical virtual machine; the x86 time-stamp counter it is built on costs about 10. Where
// the processor's TSC is invariant (it ticks at one rate in every power state, on every core:
// CPUID 0x80000007, EDX bit 8), the recorder stores raw ticks and converts them to nanoseconds
// when events are read out, with a rate measured against steady_clock over the time the
// process has run (precise to well under 0.1% after a millisecond, frozen after a second so
// that later reads agree exactly). Elsewhere, and with IPT_TRACE_CLOCK=steady, ticks are
// steady_clock nanoseconds and the rate is 1. The recorder keeps stamps non-decreasing in
// recording order either way (Note [Recording cost]).

#include <atomic>
#include <chrono>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define IPT_TRACE_HAVE_TSC 1
#else
#define IPT_TRACE_HAVE_TSC 0
#endif

namespace ipt::trace {

namespace detail {
// Decided once, before the first reading: the TSC is invariant and not switched off.
bool decide_use_tsc();
inline const bool g_use_tsc = decide_use_tsc();
}  // namespace detail

// steady_clock's reading in nanoseconds: the ticks without a TSC, and the TSC's yardstick.
inline int64_t steady_clock_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A raw clock reading, in ticks (see ns_per_tick).
inline int64_t clock_ticks() {
#if IPT_TRACE_HAVE_TSC
  if (detail::g_use_tsc) return static_cast<int64_t>(__rdtsc());
#endif
  return steady_clock_ns();
}

// Nanoseconds per tick: 1 for steady_clock ticks, the measured TSC period otherwise.
double ns_per_tick();

// Whether ticks are TSC ticks (for the environment a benchmark prints).
inline bool clock_uses_tsc() { return detail::g_use_tsc; }

// Note [The modeled clock]
// A recording can be stamped on a modeled clock instead of the measured one, so that two runs
// of a program give the same trace, byte for byte (lesson 5 and its golden test run so). The
// modeled clock is the host's time as the simulated GPU's model sees it (Note [The simulated
// GPU] in backends/sim/sim_gpu.h): it moves by kModeledEventNs for every recorded event, by a
// runtime call's modeled cost, and to the device's time when the host waits for the device;
// nothing else moves it, so the interpreter's own work between those takes no modeled time.
// It is one process-wide clock that never goes back; it starts at the measured clock's
// reading, so that work modeled under one clock and then under the other stays in order.
enum class ClockKind : uint8_t { Measured, Modeled };
const char* clock_kind_name(ClockKind k);  // "measured", "modeled"

constexpr int64_t kModeledEventNs = 100;  // the host's modeled cost of recording one event

namespace detail {
inline std::atomic<int64_t> g_modeled_ns{steady_clock_ns()};
}  // namespace detail

inline int64_t modeled_now_ns() { return detail::g_modeled_ns.load(std::memory_order_relaxed); }
// Moves the modeled clock on by ns; returns the reading before.
inline int64_t modeled_spend(int64_t ns) {
  return detail::g_modeled_ns.fetch_add(ns > 0 ? ns : 0, std::memory_order_relaxed);
}
// Moves the modeled clock to t if it is earlier.
inline void modeled_reach(int64_t t) {
  int64_t now = detail::g_modeled_ns.load(std::memory_order_relaxed);
  while (now < t && !detail::g_modeled_ns.compare_exchange_weak(now, t, std::memory_order_relaxed)) {}
}

}  // namespace ipt::trace
