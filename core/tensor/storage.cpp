#include "core/tensor/storage.h"

#include <atomic>

#include "core/tensor/backend.h"
#include "core/tensor/tensor_trace.h"
#include "core/trace/recorder.h"

namespace ipt {

static std::atomic<uint64_t> g_next_storage_id{1};
// Storages made on threads that record nothing (a simulated GPU's stream workers, which run
// concurrently with the host) are numbered apart, so the program's storages get the same
// numbers on every run.
static std::atomic<uint64_t> g_next_unrecorded_id{uint64_t(1) << 62};

static uint64_t next_storage_id() {
  return (trace::detail::t_muted ? g_next_unrecorded_id : g_next_storage_id).fetch_add(1, std::memory_order_relaxed);
}

// "storage allocated" / "storage freed" in the trace.
static void record_storage(uint64_t id, size_t nbytes, Device device, bool freed) {
  if (!trace::tracing_enabled()) return;
  trace::StorageInfo info;
  info.storage_id = id;
  info.nbytes = static_cast<int64_t>(nbytes);
  info.device = device_trace_name(device);
  info.freed = freed;
  trace::Recorder::current().instant(trace::Category::Storage, freed ? "storage freed" : "storage allocated",
                                     std::move(info));
}

Storage::Storage(size_t nbytes, Device device) : id_(next_storage_id()), nbytes_(nbytes), device_(device) {
  const BackendInterface& be = backend_for(device.type);
  data_ = be.allocate(nbytes);
  deallocate_ = be.deallocate;
  record_storage(id_, nbytes, device, false);
}

Storage::Storage(void* data, size_t nbytes, Device device, std::shared_ptr<void> owner)
    : id_(next_storage_id()),
      nbytes_(nbytes),
      device_(device),
      data_(data),
      deallocate_(nullptr),
      owner_(std::move(owner)),
      touched_(true) {  // someone else's memory holds their values
  record_storage(id_, nbytes, device, false);
}

Storage::~Storage() {
  record_storage(id_, nbytes_, device_, true);
  if (deallocate_) deallocate_(data_);
}

}  // namespace ipt
