#pragma once
// Simulated-GPU benchmarks (bench_sim.cpp): names shared with the report table.
//
//   SimLaunch/ours/add_1elem      host time of one `a + b` on 1-element cuda tensors: the
//                                 dispatcher, the Meta shape step, the caching allocator, the
//                                 device model and the enqueue (the worker computes later; the
//                                 queue is drained outside the timed region)
//   SimLaunch/cpu/add_1elem       the same add on CPU tensors, computed at once
//   SimAdd/ours/16M               a + b on 16M float32 cuda tensors, launch + synchronize (wall)
//   SimAdd/cpu/16M                the CPU kernel's a + b on the same sizes (wall)
//   SimMm/ours/1024               a @ b, 1024^3 float32 on the simulated GPU (FP32), + synchronize
//   SimMm/cpu/1024                the CPU's mm (cblas_sgemm) on the same sizes
//
// The reference for the launch is a constant, not a run: PyTorch reports about 5 us of host
// overhead per CUDA kernel launch (kRealLaunchOverheadSeconds).

#include <cstdint>

namespace ipt_bench {

namespace names {
inline constexpr const char* kSimLaunchOurs = "SimLaunch/ours/add_1elem";
inline constexpr const char* kSimLaunchCpu = "SimLaunch/cpu/add_1elem";
inline constexpr const char* kSimAddOurs = "SimAdd/ours/16M";
inline constexpr const char* kSimAddCpu = "SimAdd/cpu/16M";
inline constexpr const char* kSimMmOurs = "SimMm/ours/1024";
inline constexpr const char* kSimMmCpu = "SimMm/cpu/1024";
}  // namespace names

inline constexpr int64_t kSimAddN = 16 * 1024 * 1024;
inline constexpr int64_t kSimMmN = 1024;
inline constexpr int64_t kSimLaunchDrainEvery = 4096;  // launches between (untimed) synchronizes
inline constexpr double kRealLaunchOverheadSeconds = 5e-6;

}  // namespace ipt_bench
