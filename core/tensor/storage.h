#pragma once
// Storage: a reference-counted block of device memory that tensors view.
//
// Several tensors (views) can share one Storage; each tensor has its own sizes, strides
// and storage_offset into it. A Storage has a process-unique id so traces and views can
// show which tensors share memory.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/tensor/device.h"

namespace ipt {

class Storage {
 public:
  // Allocates nbytes on `device` through its backend.
  Storage(size_t nbytes, Device device);
  // Views memory owned by someone else (torch.from_numpy: a NumPy array's buffer); `owner`
  // is released when the storage dies, and the memory is never freed here.
  Storage(void* data, size_t nbytes, Device device, std::shared_ptr<void> owner);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  uint64_t id() const { return id_; }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return device_; }
  // The memory to work on (a kernel's, a copy's): from the first call on, the contents count
  // as written. Note [Memory never written]: until then a storage holds whatever its
  // allocator's memory held (torch.empty), which depends on what other threads freed before,
  // so the trace shows no values for it (a run's trace would differ from the next one's).
  void* data() {
    touched_.store(true, std::memory_order_relaxed);
    return data_;
  }
  const void* data() const { return data_; }
  bool touched() const { return touched_.load(std::memory_order_relaxed); }
  // Page-locked host memory (Tensor.pin_memory()): copies between it and a GPU can run
  // asynchronously to the host (non_blocking=True), as the GPU reads it directly.
  bool pinned() const { return pinned_; }
  void set_pinned() { pinned_ = true; }

 private:
  uint64_t id_;
  size_t nbytes_;
  Device device_;
  void* data_;
  void (*deallocate_)(void*);
  std::shared_ptr<void> owner_;
  bool pinned_ = false;
  std::atomic<bool> touched_{false};
};

using StoragePtr = std::shared_ptr<Storage>;

}  // namespace ipt
