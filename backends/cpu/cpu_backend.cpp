// The CPU backend: 64-byte aligned host memory and the kernels in this folder.
#include <atomic>
#include <cstdint>
#include <cstdlib>

#include <malloc.h>
#include <sys/mman.h>

#include "backends/cpu/copy_kernels.h"
#include "core/tensor/backend.h"
#include "core/util/error.h"

namespace ipt {

void register_CPU_kernels(Dispatcher& d);  // generated RegisterCPU.cpp

namespace {
// Memory from glibc's malloc with 64-byte alignment, as PyTorch's DefaultCPUAllocator takes it
// (posix_memalign there), so that malloc hands a freed block straight back to the next tensor of
// that size (its mmap threshold rises to the largest block freed, up to 32 MiB) and a fresh
// 1M-float output costs no page faults. The alignment is made inside a plain malloc block, whose
// start is kept just before the tensor's memory: glibc's memalign path cost ~50 ns more on every
// small tensor. Blocks above 32 MiB are mmapped on every call by malloc anyway; those are 2 MiB
// aligned and marked for transparent huge pages, so first touch costs one fault per 2 MiB
// instead of one per 4 KiB page. Before mapping one, the heap gives its free memory back to the
// system (malloc_trim): the blocks malloc keeps for reuse (a loop's freed temporaries) would
// otherwise stay resident under the new block and raise the peak. It costs little next to the
// new block's own page faults.
//
// Note [malloc's thresholds for tensors]
// glibc raises its mmap threshold to the size of the largest mmapped block freed so far (up to
// 32 MiB) and its trim threshold to twice that. A loop whose temporaries are two or more blocks of
// that largest size (`0.01 * torch.ones_like(w)` in an SGD step: two 800 KB blocks) frees more
// than the trim threshold at the heap's top on every pass, so malloc returns it to the system and
// the next pass faults every page in again (a 200K-float SGD update: 370 us instead of 50 us).
// So the first tensor above glibc's default mmap threshold (128 KiB) fixes both thresholds at the
// values they would reach anyway once a 32 MiB block was freed (mmap above 32 MiB, trim above
// 64 MiB). Not before: a program that only imports torch keeps glibc's defaults, whose smaller
// heap it needs (fixing them at start added ~600 KB resident to `import torch`).
constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kMallocReuseLimit = size_t(32) << 20;
constexpr size_t kAlign = 64;
constexpr size_t kDefaultMmapThreshold = size_t(128) << 10;
std::atomic<bool> thresholds_fixed{false};
void fix_malloc_thresholds() {
  if (thresholds_fixed.exchange(true)) return;
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(kMallocReuseLimit));
  mallopt(M_TRIM_THRESHOLD, static_cast<int>(2 * kMallocReuseLimit));
}
void* cpu_allocate(size_t nbytes) {
  if (nbytes == 0) return nullptr;
  if (nbytes >= kDefaultMmapThreshold && !thresholds_fixed.load(std::memory_order_relaxed)) fix_malloc_thresholds();
  void* p = nullptr;
  if (nbytes > kMallocReuseLimit && nbytes <= SIZE_MAX - 3 * kHugePage) {
    // The block's first huge page holds only the block's start, just before the tensor's memory.
    malloc_trim(0);
    size_t rounded = (nbytes + kHugePage - 1) / kHugePage * kHugePage;
    void* raw = std::aligned_alloc(kHugePage, rounded + kHugePage);
    if (raw) {
      p = static_cast<char*>(raw) + kHugePage;
      reinterpret_cast<void**>(p)[-1] = raw;
      madvise(p, rounded, MADV_HUGEPAGE);
    }
  } else if (nbytes <= kMallocReuseLimit) {
    void* raw = std::malloc(nbytes + kAlign);
    if (raw) {
      const uintptr_t aligned = (reinterpret_cast<uintptr_t>(raw) + kAlign) & ~uintptr_t(kAlign - 1);
      p = reinterpret_cast<void*>(aligned);
      reinterpret_cast<void**>(p)[-1] = raw;
    }
  }
  // PyTorch 2.15's DefaultCPUAllocator words the failure this way (its c10/core/impl/alloc_cpu.cpp line).
  IPT_CHECK(p, RuntimeError,
            "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: "
            "you tried to allocate ",
            nbytes, " bytes. Error code 12 (Cannot allocate memory)");
  return p;
}
void cpu_deallocate(void* p) {
  if (p) std::free(reinterpret_cast<void**>(p)[-1]);
}
void cpu_copy(const Tensor& self, const Tensor& src, bool non_blocking) { native::copy_cpu_(self, src, non_blocking); }

const BackendInterface kCpuBackend = {
    "cpu", DeviceType::CPU, cpu_allocate, cpu_deallocate, register_CPU_kernels, nullptr, nullptr, cpu_copy,
};
}  // namespace

void register_cpu_backend() { register_backend(&kCpuBackend); }

}  // namespace ipt
