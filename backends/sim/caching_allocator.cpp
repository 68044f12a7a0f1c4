// See Note [The caching allocator] in caching_allocator.h.
#include "backends/sim/caching_allocator.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "core/util/error.h"

namespace ipt::sim {

namespace {
std::string mib(uint64_t bytes) {
  char buf[64];
  if (bytes >= (uint64_t(1) << 30))
    std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / double(uint64_t(1) << 30));
  else std::snprintf(buf, sizeof buf, "%.2f MiB", static_cast<double>(bytes) / double(uint64_t(1) << 20));
  return buf;
}
}  // namespace

uint64_t CachingAllocator::Block::addr() const { return segment->addr + offset; }
char* CachingAllocator::Block::host() const { return segment->host + offset; }

bool CachingAllocator::FreeOrder::operator()(const Block* a, const Block* b) const {
  if (a->stream != b->stream) return a->stream < b->stream;
  if (a->size != b->size) return a->size < b->size;
  return a->addr() < b->addr();
}

CachingAllocator::CachingAllocator(Gpu& gpu, Observer on_action) : gpu_(gpu), on_action_(std::move(on_action)) {}

CachingAllocator::~CachingAllocator() {
  for (auto& seg : segments_) {
    for (Block* b = seg->first; b;) {
      Block* next = b->next;
      delete b;
      b = next;
    }
    std::free(seg->host);
  }
}

uint64_t CachingAllocator::round_size(uint64_t nbytes) {
  if (nbytes < kMinBlockSize) return kMinBlockSize;
  return kMinBlockSize * ((nbytes + kMinBlockSize - 1) / kMinBlockSize);
}

uint64_t CachingAllocator::segment_size(uint64_t rounded) {
  if (rounded <= kSmallSize) return kSmallBuffer;
  if (rounded < kMinLargeAlloc) return kLargeBuffer;
  return kRoundLarge * ((rounded + kRoundLarge - 1) / kRoundLarge);
}

void CachingAllocator::record(const char* action, uint64_t addr, uint64_t size, StreamId stream) {
  trace_.push_back({action, addr, size, stream, gpu_.host_now_ns()});
  if (trace_.size() > kKeptTrace) trace_.pop_front();
  if (on_action_) on_action_(trace_.back(), stats_);
}

CachingAllocator::Block* CachingAllocator::new_segment(uint64_t size, StreamId stream, bool small) {
  if (stats_.reserved + size > gpu_.spec().total_memory) return nullptr;
  char* host = static_cast<char*>(std::aligned_alloc(4096, size));
  if (!host) return nullptr;
  gpu_.host_call("cudaMalloc", gpu_.spec().malloc_ns);
  auto seg = std::make_unique<Segment>();
  seg->host = host;
  seg->addr = next_addr_;
  next_addr_ += kRoundLarge * ((size + kRoundLarge - 1) / kRoundLarge);
  seg->size = size;
  seg->stream = stream;
  seg->small = small;
  Block* b = new Block;
  b->segment = seg.get();
  b->size = size;
  b->stream = stream;
  seg->first = b;
  stats_.reserved += size;
  stats_.max_reserved = std::max(stats_.max_reserved, stats_.reserved);
  stats_.num_segment_allocs++;
  record("segment_alloc", seg->addr, size, stream);
  segments_.push_back(std::move(seg));
  return b;
}

void* CachingAllocator::allocate(uint64_t nbytes, StreamId stream) {
  if (nbytes == 0) return nullptr;
  process_events();
  std::lock_guard<std::mutex> lock(mu_);
  const uint64_t size = round_size(nbytes);
  const bool small = size <= kSmallSize;
  Pool& pool = pool_of(small);
  // Best fit on this stream: the first block of (stream, >= size).
  Block key;
  Segment probe;
  key.segment = &probe;
  key.stream = stream;
  key.size = size;
  Block* b = nullptr;
  auto it = pool.lower_bound(&key);
  if (it != pool.end() && (*it)->stream == stream) {
    b = *it;
    pool.erase(it);
  } else {
    b = new_segment(segment_size(size), stream, small);
    if (!b) {  // give back the cache, then try once more
      release_free_segments();
      b = new_segment(segment_size(size), stream, small);
    }
    if (!b)
      IPT_FAIL(RuntimeError, "CUDA out of memory. Tried to allocate ", mib(size), " (GPU 0; ",
               mib(gpu_.spec().total_memory), " total capacity; ", mib(stats_.allocated), " already allocated; ",
               mib(stats_.reserved), " reserved in total by PyTorch)");
  }
  const uint64_t rest = b->size - size;
  if (small ? rest >= kMinBlockSize : rest > kSmallSize) {  // split off what is left
    Block* r = new Block;
    r->segment = b->segment;
    r->offset = b->offset + size;
    r->size = rest;
    r->stream = stream;
    r->prev = b;
    r->next = b->next;
    if (b->next) b->next->prev = r;
    b->next = r;
    b->size = size;
    pool.insert(r);
  }
  b->allocated = true;
  b->requested = nbytes;
  b->stream_uses.clear();
  live_[b->host()] = b;
  stats_.allocated += b->size;
  stats_.active += b->size;
  stats_.requested += nbytes;
  stats_.max_allocated = std::max(stats_.max_allocated, stats_.allocated);
  stats_.num_allocs++;
  record("alloc", b->addr(), b->size, stream);
  return b->host();
}

void CachingAllocator::deallocate(void* ptr) {
  if (!ptr) return;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = live_.find(ptr);
  if (it == live_.end() || !it->second->allocated)
    IPT_FAIL(RuntimeError, "invalid device pointer: ", ptr, " (not allocated by the caching allocator)");
  Block* b = it->second;
  b->allocated = false;
  stats_.allocated -= b->size;
  stats_.requested -= b->requested;
  stats_.num_frees++;
  record("free_requested", b->addr(), b->size, b->stream);
  if (!b->stream_uses.empty()) {  // reusable once the other streams' work is done
    for (StreamId s : b->stream_uses) {
      const EventId e = gpu_.create_event(false);
      gpu_.record_event(e, s);
      b->events.push_back(e);
    }
    b->pending = true;
    pending_.push_back(b);
    return;
  }
  live_.erase(it);
  free_block(b);
}

void CachingAllocator::record_stream(void* ptr, StreamId stream) {
  std::lock_guard<std::mutex> lock(mu_);
  const Block* found = find_locked(ptr);
  if (!found || !found->allocated) return;  // as PyTorch: a pointer it does not know is ignored
  Block* b = const_cast<Block*>(found);
  if (stream != b->stream) b->stream_uses.insert(stream);
}

void CachingAllocator::free_block(Block* b) {
  stats_.active -= b->size;
  record("free_completed", b->addr(), b->size, b->stream);
  b->pending = false;
  b->events.clear();
  b->stream_uses.clear();
  Pool& pool = pool_of(b->segment->small);
  // Merge with free neighbours.
  for (Block* n : {b->prev, b->next}) {
    if (!n || n->allocated || n->pending) continue;
    pool.erase(n);
    if (n == b->prev) {
      n->size += b->size;
      n->next = b->next;
      if (b->next) b->next->prev = n;
      if (b->segment->first == b) b->segment->first = n;
      delete b;
      b = n;
    } else {
      b->size += n->size;
      b->next = n->next;
      if (n->next) n->next->prev = b;
      delete n;
    }
  }
  pool.insert(b);
}

void CachingAllocator::process_events() {
  // Decided on the modeled clock (so every run reuses the same blocks), then waited for on
  // the workers for real, without the lock (see Gpu::event_wait_workers).
  std::vector<EventId> waits;
  std::vector<Block*> ready;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (Block* b : pending_) {
      bool done = true;
      for (EventId e : b->events) done = done && gpu_.event_query(e);
      if (done) {
        ready.push_back(b);
        waits.insert(waits.end(), b->events.begin(), b->events.end());
      }
    }
  }
  if (ready.empty()) return;
  for (EventId e : waits) gpu_.event_wait_workers(e);
  std::lock_guard<std::mutex> lock(mu_);
  for (Block* b : ready) {
    auto it = std::find(pending_.begin(), pending_.end(), b);
    if (it == pending_.end()) continue;  // another thread got there first
    pending_.erase(it);
    live_.erase(b->host());
    free_block(b);
  }
}

void CachingAllocator::release_free_segments() {
  // cudaFree waits for the whole device; here it keeps workers off freed memory (a kernel may
  // still read a block its tensor's owner already gave back).
  gpu_.synchronize();
  for (size_t i = 0; i < segments_.size();) {
    Segment& seg = *segments_[i];
    Block* b = seg.first;
    if (b->next || b->allocated || b->pending) {
      ++i;
      continue;
    }
    pool_of(seg.small).erase(b);
    stats_.reserved -= seg.size;
    stats_.num_segment_frees++;
    record("segment_free", seg.addr, seg.size, seg.stream);
    delete b;
    std::free(seg.host);
    segments_.erase(segments_.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

void CachingAllocator::empty_cache() {
  std::vector<EventId> waits;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (Block* b : pending_) waits.insert(waits.end(), b->events.begin(), b->events.end());
  }
  for (EventId e : waits) gpu_.event_synchronize(e);  // the host waits for those streams
  process_events();
  std::lock_guard<std::mutex> lock(mu_);
  release_free_segments();
}

void CachingAllocator::begin_program() {
  empty_cache();
  std::lock_guard<std::mutex> lock(mu_);
  stats_.max_allocated = stats_.allocated;
  stats_.max_reserved = stats_.reserved;
  trace_.clear();
  if (segments_.empty()) next_addr_ = kBaseAddress;
}

DeviceMemoryStats CachingAllocator::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

void CachingAllocator::reset_peak_stats() {
  std::lock_guard<std::mutex> lock(mu_);
  stats_.max_allocated = stats_.allocated;
  stats_.max_reserved = stats_.reserved;
}

std::vector<DeviceSegment> CachingAllocator::snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<DeviceSegment> out;
  for (const auto& seg : segments_) {
    DeviceSegment s;
    s.address = seg->addr;
    s.total_size = seg->size;
    s.stream = seg->stream;
    s.segment_type = seg->small ? "small" : "large";
    for (const Block* b = seg->first; b; b = b->next) {
      DeviceBlock info;
      info.size = b->size;
      info.requested = b->allocated || b->pending ? b->requested : 0;
      info.address = b->addr();
      info.state = b->allocated ? "active_allocated" : b->pending ? "active_pending_free" : "inactive";
      if (b->allocated) s.allocated_size += b->size;
      if (b->allocated || b->pending) s.active_size += b->size;
      s.blocks.push_back(info);
    }
    out.push_back(std::move(s));
  }
  std::sort(out.begin(), out.end(),
            [](const DeviceSegment& a, const DeviceSegment& b) { return a.address < b.address; });
  return out;
}

std::vector<DeviceTraceEntry> CachingAllocator::trace() const {
  std::lock_guard<std::mutex> lock(mu_);
  return {trace_.begin(), trace_.end()};
}

const CachingAllocator::Block* CachingAllocator::find_locked(const void* ptr) const {
  auto it = live_.find(ptr);
  if (it != live_.end()) return it->second;
  const char* p = static_cast<const char*>(ptr);
  for (const auto& seg : segments_) {
    if (p < seg->host || p >= seg->host + seg->size) continue;
    for (const Block* b = seg->first; b; b = b->next)
      if (p >= b->host() && p < b->host() + b->size) return b;
  }
  return nullptr;
}

uint64_t CachingAllocator::device_address(const void* ptr) const {
  std::lock_guard<std::mutex> lock(mu_);
  const Block* b = find_locked(ptr);
  if (!b) return 0;
  return b->addr() + static_cast<uint64_t>(static_cast<const char*>(ptr) - b->host());
}

bool CachingAllocator::owns(const void* ptr) const {
  std::lock_guard<std::mutex> lock(mu_);
  return find_locked(ptr) != nullptr;
}

}  // namespace ipt::sim
