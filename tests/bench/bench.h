#pragma once
// ipt_bench: side-by-side benchmarks of our runtime against its references.
//
// bench_ops.cpp    registers the benchmarks (names "<case>/<who>", e.g. "Add/ours/trace_off").
// bench_report.cpp runs them with a capturing reporter and prints the ratio table (--report).
// bench_autograd.cpp, bench_sim.cpp: the backward engine; the simulated GPU (bench_sim.h).
// bench_main.cpp   main(): plain Google Benchmark CLI, or report mode with `--report`.
//
// Timings are only ever reported, never asserted.

#include <cstdint>
#include <ostream>
#include <string>

namespace ipt_bench {

// Benchmark names, shared by the registrations and the report table.
namespace names {
inline constexpr const char* kAddOursOff = "Add/ours/trace_off";
inline constexpr const char* kAddOursOn = "Add/ours/trace_on";
inline constexpr const char* kAddOursOnFresh = "Add/ours/trace_on_fresh_memory";
inline constexpr const char* kAddTorch = "Add/libtorch";
inline constexpr const char* kTransposeOurs = "Transpose/ours";
inline constexpr const char* kTransposeTorch = "Transpose/libtorch";
inline constexpr const char* kContigOurs = "Contiguous/ours";
inline constexpr const char* kContigTorch = "Contiguous/libtorch";
inline constexpr const char* kContigOursWarm = "Contiguous/ours_copy_into_warm_dst";
inline constexpr const char* kContigTorchWarm = "Contiguous/libtorch_copy_into_warm_dst";
inline constexpr const char* kMemcpy = "Contiguous/memcpy_64MiB";
inline constexpr const char* kMemcpyFresh = "Contiguous/memcpy_64MiB_fresh_dst";
inline constexpr const char* kMmOurs = "Mm/ours";
inline constexpr const char* kMmCblas = "Mm/cblas_sgemm";
inline constexpr const char* kMmTorch = "Mm/libtorch";
inline constexpr const char* kMmOurs1T = "Mm/ours/openblas_1_thread";
inline constexpr const char* kMmCblas1T = "Mm/cblas_sgemm/openblas_1_thread";
}  // namespace names

inline constexpr int64_t kAddTraceClearEvery = 10000;  // iterations between Recorder::clear()
inline constexpr int64_t kTransposeN = 64;
inline constexpr int64_t kContigN = 4096;  // 4096 x 4096 float32 = 64 MiB
inline constexpr int64_t kMmN = 1024;

// Thread counts, library versions and environment variables that affect the numbers.
void print_environment(std::ostream& os);
// The 1/5/15-minute load averages (/proc/loadavg), or "" where unavailable.
std::string load_average();
// Whether the comparisons against libtorch were compiled in.
bool have_libtorch();

// Report mode: runs the benchmarks (argv holds any extra Google Benchmark flags) and prints
// the ratio table. Returns the process exit code (0 unless the run itself failed).
int run_report(int argc, char** argv);

}  // namespace ipt_bench
