#pragma once
// Intra-op parallelism as PyTorch's ATen/Parallel.h gives it (its OpenMP build, the one PyPI ships):
// a fixed team of threads that kernels split a range of work over.
//
// Note [How parallel_for splits a range]
// parallel_for(begin, end, grain_size, f) runs f(begin, end) on the calling thread when the range
// is at most grain_size long, when one thread is set, or when it is already inside a parallel
// region. Otherwise it uses n = min(get_num_threads(), ceil((end - begin) / grain_size)) threads
// (the caller is thread 0) and gives thread t the chunk [begin + t * c, min(end, begin + (t + 1) * c))
// with c = ceil((end - begin) / n): the split of PyTorch's invoke_parallel, so a reduction that
// combines one partial per chunk adds them up as PyTorch does at the same thread count. The first
// exception thrown by a chunk is rethrown to the caller once every chunk has finished.
//
// The default thread count is PyTorch's: OMP_NUM_THREADS, else MKL_NUM_THREADS, else the number
// of physical cores this process may run on.
//
// Note [BLAS on the team]
// PyTorch's MKL runs its threads on the same OpenMP team as ATen's kernels. OpenBLAS (pthreads)
// has a team of its own, whose threads spin for a while after each call: on a 2-core machine an
// elementwise op right after a matrix product then waits for a core OpenBLAS's spinning thread
// holds (x @ w followed by + b took twice the sum of the two). So OpenBLAS runs one thread per
// call, and a big enough matrix product is split over this team instead, each thread calling
// OpenBLAS on its block of rows or columns (backends/cpu/blas_kernels.cpp): the same thread
// count, one team. When OPENBLAS_NUM_THREADS is set, OpenBLAS keeps that count and its own
// threads, and products are not split.

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace ipt {

// The grain PyTorch's pointwise kernels use (at::internal::GRAIN_SIZE).
inline constexpr int64_t kGrainSize = 32768;

int get_num_threads();
// RuntimeError "set_num_threads expects a positive integer" for n < 1.
void set_num_threads(int n);
// The thread's number inside a parallel region (0 outside one, and for the calling thread).
int get_thread_num();
bool in_parallel_region();
// Whether matrix products run on this team (Note [BLAS on the team]): OPENBLAS_NUM_THREADS unset.
bool blas_on_team();

namespace detail {
using ChunkFn = void (*)(const void* ctx, int64_t begin, int64_t end);
// Runs fn on each chunk of Note [How parallel_for splits a range], with `threads` threads.
void run_chunks(int64_t begin, int64_t end, int64_t chunk, int threads, ChunkFn fn, const void* ctx);
// The threads parallel_for would use for this range: 1 means "run it inline".
int threads_for(int64_t begin, int64_t end, int64_t grain_size);
}  // namespace detail

template <typename F>
void parallel_for(int64_t begin, int64_t end, int64_t grain_size, const F& f) {
  if (begin >= end) return;
  const int threads = detail::threads_for(begin, end, grain_size);
  if (threads <= 1) {
    f(begin, end);
    return;
  }
  const int64_t chunk = (end - begin + threads - 1) / threads;
  detail::run_chunks(
      begin, end, chunk, threads, [](const void* ctx, int64_t b, int64_t e) { (*static_cast<const F*>(ctx))(b, e); },
      &f);
}

// PyTorch's at::parallel_reduce: f(begin, end, ident) for the whole range when parallel_for would
// run it inline; otherwise f(b, e, ident) for each chunk of parallel_for's split, one result per
// thread of the team (ident for a thread that got none), combined in thread order starting from
// ident, so a sum of partials is added as PyTorch adds it at the same thread count.
template <typename T, typename F, typename Combine>
T parallel_reduce(int64_t begin, int64_t end, int64_t grain_size, T ident, const F& f, const Combine& combine) {
  if (begin >= end) return ident;
  if (detail::threads_for(begin, end, grain_size) <= 1) return f(begin, end, ident);
  std::vector<T> results(static_cast<size_t>(get_num_threads()), ident);
  parallel_for(begin, end, grain_size,
               [&](int64_t b, int64_t e) { results[static_cast<size_t>(get_thread_num())] = f(b, e, ident); });
  T result = ident;
  for (const T& r : results) result = combine(result, r);
  return result;
}

}  // namespace ipt
