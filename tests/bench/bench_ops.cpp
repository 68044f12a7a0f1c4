// The benchmarks. Each case has our runtime and its reference(s), registered next to each
// other so one run measures both under the same conditions.
//
// Timing basis: add, transpose and contiguous are single-threaded on both sides (our kernels
// are; libtorch's transpose copy is, and its intra-op pool is printed in the environment), so
// they are compared on CPU time of the benchmark thread, which other processes on a shared
// machine disturb less than wall time. mm runs on OpenBLAS's thread pool, so the Mm cases use
// wall time (UseRealTime).
#include <cblas.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>
#include <vector>

#include <benchmark/benchmark.h>

#include "core/trace/recorder.h"
#include "generated/ops.h"
#include "tests/bench/bench.h"

#if IPT_HAVE_LIBTORCH
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <torch/version.h>
#endif

namespace ipt_bench {
namespace {

using ipt::Tensor;
namespace ops = ipt::ops;
using ipt::trace::Recorder;

std::vector<int64_t> shape(std::initializer_list<int64_t> s) { return std::vector<int64_t>(s); }

// ---- 1. add of two 1-element float32 tensors through the full dispatcher -----------------

void BM_AddOursTraceOff(benchmark::State& state) {
  Recorder::current().set_enabled(false);
  const Tensor a = ops::ones(shape({1})), b = ops::ones(shape({1}));
  for (auto _ : state) {
    Tensor r = ops::add_Tensor(a, b, 1);
    benchmark::DoNotOptimize(r.impl());
  }
}

// Traced adds, with `renew()` called every kAddTraceClearEvery iterations outside the timed
// region so memory stays bounded.
template <typename Renew>
void traced_adds(benchmark::State& state, const Tensor& a, const Tensor& b, Renew renew) {
  int64_t since_renew = 0;
  for (auto _ : state) {
    Tensor r = ops::add_Tensor(a, b, 1);
    benchmark::DoNotOptimize(r.impl());
    r = Tensor();  // free the result inside the loop body, like the untraced case
    if (++since_renew == kAddTraceClearEvery) {
      state.PauseTiming();
      renew();
      state.ResumeTiming();
      since_renew = 0;
    }
  }
}

// Tracing on: every call records its dispatch events; the recorder is cleared between cycles,
// so it records into the chunks it kept (a re-run's cost).
void BM_AddOursTraceOn(benchmark::State& state) {
  Recorder& rec = Recorder::current();
  const Tensor a = ops::ones(shape({1})), b = ops::ones(shape({1}));
  rec.clear();
  rec.set_enabled(true);
  { Tensor r = ops::add_Tensor(a, b, 1); }  // one call to count its events
  const double events_per_call = static_cast<double>(rec.size());
  rec.clear();
  traced_adds(state, a, b, [&] { rec.clear(); });
  rec.set_enabled(false);
  rec.clear();
  state.counters["events_per_call"] = events_per_call;
}

// Tracing on, every event in memory the process never touched before: each cycle records
// into a new recorder, which has no emptied chunks to reuse (a long recording's cost).
void BM_AddOursTraceOnFreshMemory(benchmark::State& state) {
  const Tensor a = ops::ones(shape({1})), b = ops::ones(shape({1}));
  auto rec = std::make_unique<Recorder>();
  auto scope = std::make_unique<ipt::trace::ScopedTrace>(*rec);
  traced_adds(state, a, b, [&] {
    scope.reset();
    rec = std::make_unique<Recorder>();
    scope = std::make_unique<ipt::trace::ScopedTrace>(*rec);
  });
}

#if IPT_HAVE_LIBTORCH
void BM_AddTorch(benchmark::State& state) {
  const at::Tensor a = at::ones({1}), b = at::ones({1});
  for (auto _ : state) {
    at::Tensor r = at::add(a, b);
    benchmark::DoNotOptimize(r.unsafeGetTensorImpl());
  }
}
#endif

// ---- 2. creating a transpose view of a 64x64 tensor ----------------------------------------

void BM_TransposeOurs(benchmark::State& state) {
  const Tensor t = ops::ones(shape({kTransposeN, kTransposeN}));
  for (auto _ : state) {
    Tensor v = ops::transpose_int(t, 0, 1);
    benchmark::DoNotOptimize(v.impl());
  }
}

#if IPT_HAVE_LIBTORCH
void BM_TransposeTorch(benchmark::State& state) {
  const at::Tensor t = at::ones({kTransposeN, kTransposeN});
  for (auto _ : state) {
    at::Tensor v = t.transpose(0, 1);
    benchmark::DoNotOptimize(v.unsafeGetTensorImpl());
  }
}
#endif

// ---- 3. contiguous() of a transposed 4096x4096 float32 matrix ------------------------------
// Bytes processed = the 64 MiB copied per iteration, for all three, so bytes_per_second is
// directly comparable (memcpy reads and writes 64 MiB each, like the others). The source is
// filled with ones: copy speed does not depend on the values and randn of 16M elements
// would make each repetition's (untimed) setup take about a second.

constexpr int64_t kContigBytes = kContigN * kContigN * static_cast<int64_t>(sizeof(float));

void BM_ContiguousOurs(benchmark::State& state) {
  const Tensor t = ops::ones(shape({kContigN, kContigN}));
  const Tensor tt = ops::transpose_int(t, 0, 1);
  for (auto _ : state) {
    Tensor c = ops::contiguous(tt, ipt::MemoryFormat::Contiguous);
    benchmark::DoNotOptimize(c.data_ptr<float>());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kContigBytes);
}

#if IPT_HAVE_LIBTORCH
void BM_ContiguousTorch(benchmark::State& state) {
  const at::Tensor t = at::ones({kContigN, kContigN});
  const at::Tensor tt = t.transpose(0, 1);
  for (auto _ : state) {
    at::Tensor c = tt.contiguous();
    benchmark::DoNotOptimize(c.data_ptr<float>());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kContigBytes);
}
#endif

// Diagnostics: the same transpose copy into a preallocated, already-touched destination
// (copy_), which leaves out the 64 MiB allocation and its first-touch page faults.
void BM_ContiguousOursWarmDst(benchmark::State& state) {
  const Tensor t = ops::ones(shape({kContigN, kContigN}));
  const Tensor tt = ops::transpose_int(t, 0, 1);
  const Tensor dst = ops::zeros(shape({kContigN, kContigN}));
  for (auto _ : state) {
    ops::copy_(dst, tt);
    benchmark::DoNotOptimize(dst.data_ptr<float>());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kContigBytes);
}

#if IPT_HAVE_LIBTORCH
void BM_ContiguousTorchWarmDst(benchmark::State& state) {
  const at::Tensor t = at::ones({kContigN, kContigN});
  const at::Tensor tt = t.transpose(0, 1);
  at::Tensor dst = at::zeros({kContigN, kContigN});
  for (auto _ : state) {
    dst.copy_(tt);
    benchmark::DoNotOptimize(dst.data_ptr<float>());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kContigBytes);
}
#endif

// The bandwidth limit: memcpy between two preallocated, already-touched 64 MiB buffers.
void BM_Memcpy(benchmark::State& state) {
  std::vector<char> src(kContigBytes, 1), dst(kContigBytes, 0);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), kContigBytes);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kContigBytes);
}

// What an out-of-place op can reach at best: memcpy into a freshly malloc'ed 64 MiB buffer
// (glibc mmaps blocks this large, so every iteration pays the first-touch page faults).
void BM_MemcpyFreshDst(benchmark::State& state) {
  std::vector<char> src(kContigBytes, 1);
  for (auto _ : state) {
    char* dst = static_cast<char*>(std::malloc(kContigBytes));
    std::memcpy(dst, src.data(), kContigBytes);
    benchmark::DoNotOptimize(dst);
    benchmark::ClobberMemory();
    std::free(dst);
  }
  state.SetBytesProcessed(state.iterations() * kContigBytes);
}

// ---- 4. mm 1024x1024 float32 ----------------------------------------------------------------
// items_per_second = FLOP/s (2*n^3 per multiply).

constexpr int64_t kMmFlops = 2 * kMmN * kMmN * kMmN;

void BM_MmOurs(benchmark::State& state) {
  const Tensor a = ops::randn(shape({kMmN, kMmN})), b = ops::randn(shape({kMmN, kMmN}));
  for (auto _ : state) {
    Tensor c = ops::mm(a, b);
    benchmark::DoNotOptimize(c.data_ptr<float>());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kMmFlops);
}

// The same multiply straight into OpenBLAS, output preallocated (what mm_cpu calls).
void BM_MmCblas(benchmark::State& state) {
  const Tensor a = ops::randn(shape({kMmN, kMmN})), b = ops::randn(shape({kMmN, kMmN}));
  std::vector<float> c(static_cast<size_t>(kMmN * kMmN));
  const int n = static_cast<int>(kMmN);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data_ptr<float>(), n, b.data_ptr<float>(),
                n, 0.0f, c.data(), n);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kMmFlops);
}

// Single-threaded OpenBLAS for both sides: the multiply then runs on the benchmark thread, so
// CPU time is exact and a busy machine (other processes on the cores OpenBLAS's pool would
// use) disturbs the comparison far less than the multi-threaded wall-time one.
class OpenBlasThreads {
 public:
  explicit OpenBlasThreads(int n) : saved_(openblas_get_num_threads()) { openblas_set_num_threads(n); }
  ~OpenBlasThreads() { openblas_set_num_threads(saved_); }

 private:
  int saved_;
};

void BM_MmOurs1T(benchmark::State& state) {
  OpenBlasThreads one(1);
  BM_MmOurs(state);
}

void BM_MmCblas1T(benchmark::State& state) {
  OpenBlasThreads one(1);
  BM_MmCblas(state);
}

#if IPT_HAVE_LIBTORCH
void BM_MmTorch(benchmark::State& state) {
  const at::Tensor a = at::randn({kMmN, kMmN}), b = at::randn({kMmN, kMmN});
  for (auto _ : state) {
    at::Tensor c = at::mm(a, b);
    benchmark::DoNotOptimize(c.data_ptr<float>());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kMmFlops);
}
#endif

// Registration order = run order: each reference right next to our version.
[[maybe_unused]] const bool registered = [] {
  using benchmark::RegisterBenchmark;
  RegisterBenchmark(names::kAddOursOff, BM_AddOursTraceOff);
  RegisterBenchmark(names::kAddOursOn, BM_AddOursTraceOn);
  RegisterBenchmark(names::kAddOursOnFresh, BM_AddOursTraceOnFreshMemory);
#if IPT_HAVE_LIBTORCH
  RegisterBenchmark(names::kAddTorch, BM_AddTorch);
#endif
  RegisterBenchmark(names::kTransposeOurs, BM_TransposeOurs);
#if IPT_HAVE_LIBTORCH
  RegisterBenchmark(names::kTransposeTorch, BM_TransposeTorch);
#endif
  RegisterBenchmark(names::kContigOurs, BM_ContiguousOurs)->Unit(benchmark::kMillisecond);
#if IPT_HAVE_LIBTORCH
  RegisterBenchmark(names::kContigTorch, BM_ContiguousTorch)->Unit(benchmark::kMillisecond);
#endif
  RegisterBenchmark(names::kContigOursWarm, BM_ContiguousOursWarmDst)->Unit(benchmark::kMillisecond);
#if IPT_HAVE_LIBTORCH
  RegisterBenchmark(names::kContigTorchWarm, BM_ContiguousTorchWarmDst)->Unit(benchmark::kMillisecond);
#endif
  RegisterBenchmark(names::kMemcpy, BM_Memcpy)->Unit(benchmark::kMillisecond);
  RegisterBenchmark(names::kMemcpyFresh, BM_MemcpyFreshDst)->Unit(benchmark::kMillisecond);
  RegisterBenchmark(names::kMmOurs, BM_MmOurs)->UseRealTime()->Unit(benchmark::kMillisecond);
  RegisterBenchmark(names::kMmCblas, BM_MmCblas)->UseRealTime()->Unit(benchmark::kMillisecond);
#if IPT_HAVE_LIBTORCH
  RegisterBenchmark(names::kMmTorch, BM_MmTorch)->UseRealTime()->Unit(benchmark::kMillisecond);
#endif
  RegisterBenchmark(names::kMmOurs1T, BM_MmOurs1T)->Unit(benchmark::kMillisecond);
  RegisterBenchmark(names::kMmCblas1T, BM_MmCblas1T)->Unit(benchmark::kMillisecond);
  return true;
}();

const char* env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v ? v : fallback;
}

}  // namespace

std::string load_average() {
  std::ifstream f("/proc/loadavg");
  double a = 0, b = 0, c = 0;
  if (!(f >> a >> b >> c)) return "";
  std::ostringstream os;
  os << a << " " << b << " " << c;
  return os.str();
}

bool have_libtorch() {
#if IPT_HAVE_LIBTORCH
  return true;
#else
  return false;
#endif
}

void print_environment(std::ostream& os) {
  os << "hardware threads        : " << std::thread::hardware_concurrency() << "\n"
     << "OPENBLAS_NUM_THREADS    : " << env_or("OPENBLAS_NUM_THREADS", "(unset)") << "\n"
     << "OMP_NUM_THREADS         : " << env_or("OMP_NUM_THREADS", "(unset)") << "\n"
     << "OpenBLAS threads        : " << openblas_get_num_threads() << " (ours and cblas_sgemm)\n"
     << "OpenBLAS config         : " << openblas_get_config() << " / core " << openblas_get_corename() << "\n";
#if IPT_HAVE_LIBTORCH
  os << "libtorch                : " << TORCH_VERSION << ", intra-op threads " << at::get_num_threads()
     << ", inter-op threads " << at::get_num_interop_threads() << "\n";
#else
  os << "libtorch                : not compiled in (IPT_HAVE_LIBTORCH unset)\n";
#endif
  os << "trace clock             : "
     << (ipt::trace::clock_uses_tsc() ? "invariant TSC (IPT_TRACE_CLOCK=steady for steady_clock)" : "steady_clock")
     << "\n";
  os << "our runtime             : single-threaded kernels; mm calls cblas_sgemm (threads above)\n"
     << "load average            : " << load_average() << " (other processes compete for the cores)\n";
}

}  // namespace ipt_bench
