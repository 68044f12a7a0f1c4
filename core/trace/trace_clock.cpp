// The TSC-or-steady_clock trace clock (Note [The trace clock]).
#include "core/trace/trace_clock.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

#if IPT_TRACE_HAVE_TSC
#include <cpuid.h>
#endif

namespace ipt::trace {

namespace {

// The first (ticks, ns) pair, taken as early as the process can.
struct Origin {
  int64_t ticks;
  int64_t ns;
};
const Origin& origin() {
  static const Origin o{clock_ticks(), steady_clock_ns()};
  return o;
}
[[maybe_unused]] const Origin& g_origin_taken_at_start = origin();

}  // namespace

bool detail::decide_use_tsc() {
#if IPT_TRACE_HAVE_TSC
  if (const char* v = std::getenv("IPT_TRACE_CLOCK"); v && std::strcmp(v, "steady") == 0) return false;
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u) return false;
  if (!__get_cpuid(0x80000007u, &a, &b, &c, &d)) return false;
  return (d & (1u << 8)) != 0;  // invariant TSC
#else
  return false;
#endif
}

double ns_per_tick() {
  if (!detail::g_use_tsc) return 1.0;
  static std::atomic<double> frozen{0.0};
  if (const double f = frozen.load(std::memory_order_acquire); f > 0.0) return f;
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  if (const double f = frozen.load(std::memory_order_relaxed); f > 0.0) return f;
  const Origin& o = origin();
  // Read the pair as close together as the clocks allow: the tightest of a few tries.
  int64_t best_ticks = 0, best_ns = 0, best_gap = INT64_MAX;
  for (int i = 0; i < 5; ++i) {
    const int64_t t0 = clock_ticks();
    const int64_t ns = steady_clock_ns();
    const int64_t t1 = clock_ticks();
    if (t1 - t0 < best_gap) best_gap = t1 - t0, best_ticks = t0 + (t1 - t0) / 2, best_ns = ns;
  }
  const int64_t dt = best_ticks - o.ticks, dns = best_ns - o.ns;
  if (dt <= 0 || dns <= 0) return 1.0 / 3.0;  // no time has passed yet: any rate gives ~0 ns
  const double rate = static_cast<double>(dns) / static_cast<double>(dt);
  if (dns >= 1'000'000'000) frozen.store(rate, std::memory_order_release);
  return rate;
}

const char* clock_kind_name(ClockKind k) { return k == ClockKind::Modeled ? "modeled" : "measured"; }

}  // namespace ipt::trace
