#include "core/parallel/parallel.h"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <set>
#include <string>
#include <utility>

#include "core/parallel/thread_pool.h"
#include "core/util/error.h"
#include "core/util/interrupt.h"

// OpenBLAS's own thread count (its cblas.h declares it; declared here so this library does not
// need the BLAS headers). Weak: a program without OpenBLAS links too.
extern "C" void openblas_set_num_threads(int) __attribute__((weak));

namespace ipt {

namespace {

thread_local int t_thread_num = 0;
thread_local bool t_in_parallel = false;

int positive_env(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return 0;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  return end && *end == '\0' && n > 0 && n < 4096 ? static_cast<int>(n) : 0;
}

// Physical cores among the CPUs this process may run on (as PyTorch counts them through cpuinfo).
int physical_cores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  std::set<std::pair<std::string, std::string>> cores;
  int cpus = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &set)) continue;
    ++cpus;
    const std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/";
    std::string package, core;
    std::ifstream(dir + "physical_package_id") >> package;
    std::ifstream(dir + "core_id") >> core;
    if (package.empty() || core.empty()) return cpus > 0 ? CPU_COUNT(&set) : 1;  // no topology: count CPUs
    cores.emplace(package, core);
  }
  return std::max<int>(1, static_cast<int>(cores.size()));
}

int default_num_threads() {
  if (int n = positive_env("OMP_NUM_THREADS")) return n;
  if (int n = positive_env("MKL_NUM_THREADS")) return n;
  return physical_cores();
}

ThreadPool& pool() {
  static ThreadPool* p = [] {
    auto* made = new ThreadPool(default_num_threads());
    // Note [BLAS on the team]: OpenBLAS runs one thread per call unless OPENBLAS_NUM_THREADS
    // says otherwise.
    if (openblas_set_num_threads && blas_on_team()) openblas_set_num_threads(1);
    return made;
  }();
  return *p;
}

}  // namespace

int get_num_threads() { return pool().size(); }

void set_num_threads(int n) {
  IPT_CHECK(n > 0, RuntimeError, "set_num_threads expects a positive integer");
  pool().resize(n);
}

bool blas_on_team() {
  static const bool yes = std::getenv("OPENBLAS_NUM_THREADS") == nullptr;
  return yes;
}

int get_thread_num() { return t_thread_num; }
bool in_parallel_region() { return t_in_parallel; }

namespace detail {

int threads_for(int64_t begin, int64_t end, int64_t grain_size) {
  if (t_in_parallel || end - begin <= grain_size) return 1;
  const int64_t n = get_num_threads();
  if (n <= 1) return 1;
  const int64_t by_grain = grain_size > 0 ? (end - begin + grain_size - 1) / grain_size : n;
  return static_cast<int>(std::min(n, by_grain));
}

void run_chunks(int64_t begin, int64_t end, int64_t chunk, int threads, ChunkFn fn, const void* ctx) {
  // The first exception a chunk throws is the one the caller gets. It also stops the other
  // chunks: a stop request is raised for them to see at their next check (Note [Stopping a
  // kernel]), and dropped once every chunk has ended, so the program sees one exception.
  std::atomic<bool> failed{false};
  std::exception_ptr first;
  pool().run(threads, [&](int tid) {
    const int64_t b = begin + tid * chunk;
    if (b >= end) return;
    const int saved_num = t_thread_num;
    const bool saved_in = t_in_parallel;
    t_thread_num = tid;
    t_in_parallel = true;
    try {
      fn(ctx, b, std::min(end, b + chunk));
    } catch (...) {
      bool expected = false;
      if (failed.compare_exchange_strong(expected, true)) {
        first = std::current_exception();
        request_interrupt();
      }
    }
    t_thread_num = saved_num;
    t_in_parallel = saved_in;
  });
  if (failed.load()) {
    clear_interrupt();
    std::rethrow_exception(first);
  }
}

}  // namespace detail

}  // namespace ipt
