#include "core/parallel/thread_pool.h"

#include <algorithm>
#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace ipt {

namespace {
// Watches `done()` for about 100 microseconds (Note [Waiting for the next job]); true if it came.
template <typename F>
bool spin_until(const F& done) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(100);
  for (int i = 0;; ++i) {
    if (done()) return true;
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
    if ((i & 63) == 63 && std::chrono::steady_clock::now() > until) return false;
  }
}
}  // namespace

ThreadPool::ThreadPool(int threads) { start(threads); }

ThreadPool::~ThreadPool() { stop(); }

void ThreadPool::start(int threads) {
  size_ = std::max(1, threads);
  stopping_ = false;
  // A new worker waits for the next job, not the last one it never saw.
  const uint64_t current = generation_.load();
  for (int i = 1; i < size_; ++i) workers_.emplace_back([this, i, current] { worker(i, current); });
}

void ThreadPool::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
  workers_.clear();
}

void ThreadPool::resize(int threads) {
  std::lock_guard<std::mutex> job(job_mutex_);
  if (std::max(1, threads) == size_) return;
  stop();
  start(threads);
}

void ThreadPool::worker(int index, uint64_t seen) {
  for (;;) {
    const std::function<void(int)>* part = nullptr;
    {
      spin_until([&] {
        return stopping_.load(std::memory_order_acquire) || generation_.load(std::memory_order_acquire) != seen;
      });
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      if (index >= parts_) continue;
      part = part_;
    }
    std::exception_ptr error;
    try {
      (*part)(index);
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (error && !error_) error_ = error;
    if (--pending_ == 0) done_.notify_one();
  }
}

void ThreadPool::run(int parts, const std::function<void(int)>& part) {
  std::lock_guard<std::mutex> job(job_mutex_);
  parts = std::clamp(parts, 1, size_);
  if (parts > 1) {
    std::lock_guard<std::mutex> lock(mutex_);
    part_ = &part;
    parts_ = parts;
    pending_ = parts - 1;
    error_ = nullptr;
    ++generation_;
  }
  if (parts > 1) wake_.notify_all();
  std::exception_ptr mine;
  try {
    part(0);
  } catch (...) {
    mine = std::current_exception();
  }
  if (parts > 1) {
    spin_until([&] { return pending_.load(std::memory_order_acquire) == 0; });
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
    part_ = nullptr;
    if (!mine) mine = error_;
    error_ = nullptr;
  }
  if (mine) std::rethrow_exception(mine);
}

}  // namespace ipt
