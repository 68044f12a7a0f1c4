// OpenBLAS's kernels for this CPU (Note [OpenBLAS's kernels on an unknown CPU] in the header).
#include "core/parallel/openblas_kernels.h"

#include <cstdlib>
#include <cstring>

// OpenBLAS's own query; null where the program runs without OpenBLAS.
extern "C" char* openblas_get_corename(void) __attribute__((weak));

namespace ipt {

bool choose_openblas_kernels() {
  if (!openblas_get_corename || std::getenv("OPENBLAS_CORETYPE")) return false;
  const char* wanted = nullptr;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512cd"))
    wanted = "SkylakeX";
  else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) wanted = "Haswell";
  if (!wanted) return false;
  // Kernels OpenBLAS picks itself on a CPU it knows; Haswell's are older than an AVX-512 CPU's.
  static const char* const kCurrent[] = {"SkylakeX", "Cooperlake", "SapphireRapids", "Zen"};
  const char* chosen = openblas_get_corename();
  if (!chosen) return false;
  if (std::strcmp(chosen, wanted) == 0) return false;
  for (const char* name : kCurrent)
    if (std::strcmp(chosen, name) == 0) return false;
  return setenv("OPENBLAS_CORETYPE", wanted, 0) == 0;
}

}  // namespace ipt
