#pragma once
// The team of threads behind parallel_for (core/parallel/parallel.h): size() - 1 workers, and the
// calling thread, which runs part 0 of every job itself.
//
// Note [Waiting for the next job]
// A worker that finished a job watches for the next one for about 100 microseconds before it
// sleeps on a condition variable, and the caller watches its workers finish the same way before
// it sleeps, as OpenMP's runtime spins before it blocks: kernels come one after another, and
// waking a sleeping thread costs tens of microseconds, more than a 64-row softmax takes.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ipt {

class ThreadPool {
 public:
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return size_; }
  // Stops the workers and starts threads - 1 new ones (waits for a running job first).
  void resize(int threads);
  // Runs part(0) .. part(parts - 1), part 0 on the calling thread, and returns when all have
  // finished; parts is at most size(). Rethrows the first exception a part threw. One job runs
  // at a time: a second caller waits for the first job to end.
  void run(int parts, const std::function<void(int)>& part);

 private:
  void start(int threads);
  void stop();
  void worker(int index, uint64_t seen);

  std::mutex job_mutex_;  // one job at a time
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;
  const std::function<void(int)>* part_ = nullptr;
  int parts_ = 0;
  std::atomic<int> pending_{0};  // written under mutex_, watched without it
  std::atomic<uint64_t> generation_{0};
  std::atomic<bool> stopping_{false};
  std::exception_ptr error_;
  int size_ = 1;
};

}  // namespace ipt
