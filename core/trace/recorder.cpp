// Recorder: one mutex, chunked event storage, per-thread tid cache (Note [Recording cost]).
#include "core/trace/recorder.h"

#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <new>

namespace ipt::trace {

namespace {

std::atomic<uint64_t> g_next_session{1};
std::atomic<Recorder*> g_current{nullptr};  // nullptr: the default recorder
std::mutex g_control_mu;                    // serializes set_enabled / set_current / ~Recorder

Recorder& default_recorder() {
  static Recorder* r = new Recorder();  // leaked: static destructors may still record
  return *r;
}

// The tid this thread had in the recorder session it used last.
struct ThreadCache {
  uint64_t session = 0;
  uint32_t tid = 0;
};
thread_local ThreadCache t_cache;

}  // namespace

Recorder::Recorder()
    : epoch_ticks_(clock_ticks()),
      epoch_steady_ns_(steady_clock_ns()),
      session_(g_next_session.fetch_add(1, std::memory_order_relaxed)) {}

Recorder::~Recorder() {
  std::lock_guard<std::mutex> lock(g_control_mu);
  if (g_current.load(std::memory_order_acquire) == this) {
    g_current.store(nullptr, std::memory_order_release);
    detail::g_tracing_enabled.store(default_recorder().enabled(), std::memory_order_relaxed);
  }
}

void Recorder::begin(Category category, const char* name, Payload payload) {
  append(Phase::Begin, category, name, std::move(payload));
}
void Recorder::end(Category category, const char* name, Payload payload) {
  append(Phase::End, category, name, std::move(payload));
}
void Recorder::instant(Category category, const char* name, Payload payload) {
  append(Phase::Instant, category, name, std::move(payload));
}
void Recorder::record(Phase phase, Category category, const char* name, Payload payload) {
  append(phase, category, name, std::move(payload));
}

Recorder::Chunk::Chunk() {
  // 2 MiB aligned, so that the kernel can map it with one transparent huge page.
  void* p = std::aligned_alloc(kBytes, kBytes);
  if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  madvise(p, kBytes, MADV_HUGEPAGE);  // a hint: without huge pages it is an ordinary block
#endif
  events_ = static_cast<Event*>(p);
}

Recorder::Chunk::~Chunk() {
  if (!events_) return;
  clear();
  std::free(events_);
}

void Recorder::Chunk::clear() {
  for (size_t i = 0; i < size_; ++i) events_[i].~Event();
  size_ = 0;
}

uint32_t Recorder::thread_index_locked() {
  const uint64_t session = session_.load(std::memory_order_relaxed);
  if (t_cache.session == session) return t_cache.tid;
  const auto me = std::this_thread::get_id();
  uint32_t tid = 0;
  while (tid < threads_.size() && threads_[tid] != me) ++tid;
  if (tid == threads_.size()) threads_.push_back(me);
  t_cache = {session, tid};
  return tid;
}

namespace {
std::atomic<uint64_t> g_max_events{Recorder::kDefaultMaxEvents};
}  // namespace

void Recorder::set_max_events(uint64_t n) { g_max_events.store(n, std::memory_order_relaxed); }
uint64_t Recorder::max_events() { return g_max_events.load(std::memory_order_relaxed); }

void Recorder::append(Phase phase, Category category, const char* name, Payload&& payload) {
  if (!enabled_.load(std::memory_order_relaxed) || detail::t_muted) return;
  std::lock_guard<std::mutex> lock(mu_);
  const uint32_t tid = thread_index_locked();
  if (open_spans_.size() <= tid) open_spans_.resize(tid + 1, 0), dropped_spans_.resize(tid + 1, 0);
  if (next_seq_ >= max_events()) {
    // See Note [A bounded trace]. An end belongs to the innermost span: a dropped one first.
    bool closes_open_span = false;
    if (phase == Phase::Begin) ++dropped_spans_[tid];
    else if (phase == Phase::End && dropped_spans_[tid] > 0) --dropped_spans_[tid];
    else closes_open_span = phase == Phase::End && open_spans_[tid] > 0;
    if (!truncated_) {
      truncated_ = true;
      push_locked(tid, Phase::Instant, Category::Note, "trace truncated",
                  Text{"the trace stopped recording after " + std::to_string(max_events()) +
                       " events (--max-events); later events are not in it"});
    }
    if (!closes_open_span) return;
  }
  if (phase == Phase::Begin) ++open_spans_[tid];
  if (phase == Phase::End && open_spans_[tid] > 0) --open_spans_[tid];
  push_locked(tid, phase, category, name, std::move(payload));
}

void Recorder::record_at(int64_t ts_ns, uint32_t tid, Phase phase, Category category, const char* name,
                         Payload payload) {
  if (!enabled_.load(std::memory_order_relaxed) || detail::t_muted) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (next_seq_ >= max_events()) return;  // Note [A bounded trace]: a device's spans are whole or absent
  emplace_locked(ticks_since_epoch_locked(ts_ns), tid, phase, category, name, std::move(payload));
}

void Recorder::record_here_at(int64_t ts_ns, Phase phase, Category category, const char* name, Payload payload) {
  if (!enabled_.load(std::memory_order_relaxed) || detail::t_muted) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (next_seq_ >= max_events()) return;  // both ends of such a span are recorded together
  const uint32_t tid = thread_index_locked();
  if (open_spans_.size() <= tid) open_spans_.resize(tid + 1, 0), dropped_spans_.resize(tid + 1, 0);
  const int64_t at = std::max(ticks_since_epoch_locked(ts_ns), last_ticks_);
  last_ticks_ = at;
  emplace_locked(at, tid, phase, category, name, std::move(payload));
}

int64_t Recorder::ticks_since_epoch_locked(int64_t ts_ns) const {
  if (clock() == ClockKind::Modeled) return ts_ns - epoch_ticks_;  // modeled ticks are ns
  return std::llround(static_cast<double>(ts_ns - epoch_steady_ns_) / ns_per_tick());
}

int64_t Recorder::now_ns() const { return clock() == ClockKind::Modeled ? modeled_now_ns() : steady_clock_ns(); }

void Recorder::set_clock(ClockKind k) {
  // Work timed on the measured clock before must stay behind what is modeled from now on.
  if (k == ClockKind::Modeled) modeled_reach(steady_clock_ns());
  clock_.store(k, std::memory_order_relaxed);
  clear();
}

void Recorder::push_locked(uint32_t tid, Phase phase, Category category, const char* name, Payload&& payload) {
  // Ticks since the epoch (converted to ns when read out); a reading on another core that
  // lags the last one by a few ticks is clamped, so stamps never go back. On the modeled
  // clock, each event moves it on (Note [The modeled clock]).
  const int64_t reading = clock() == ClockKind::Modeled ? modeled_spend(kModeledEventNs) : clock_ticks();
  const int64_t now = std::max(reading - epoch_ticks_, last_ticks_);
  last_ticks_ = now;
  emplace_locked(now, tid, phase, category, name, std::move(payload));
}

void Recorder::emplace_locked(int64_t ts, uint32_t tid, Phase phase, Category category, const char* name,
                              Payload&& payload) {
  if (chunks_.empty() || chunks_.back().full()) {
    if (!spare_.empty()) {
      chunks_.push_back(std::move(spare_.back()));
      spare_.pop_back();
    } else {
      chunks_.emplace_back();
    }
  }
  Event& e = chunks_.back().emplace_back();
  e.seq = next_seq_++;
  e.ts_ns = ts;
  e.tid = tid;
  e.phase = phase;
  e.category = category;
  e.name = name ? name : "";
  e.payload = std::move(payload);
}

std::vector<Event> Recorder::events() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Event> out;
  out.reserve(static_cast<size_t>(next_seq_));
  for (const auto& chunk : chunks_) out.insert(out.end(), chunk.begin(), chunk.end());
  const double rate = clock() == ClockKind::Modeled ? 1.0 : ns_per_tick();
  if (rate != 1.0)
    for (Event& e : out) e.ts_ns = std::llround(static_cast<double>(e.ts_ns) * rate);
  return out;
}

size_t Recorder::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<size_t>(next_seq_);
}

void Recorder::clear() {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& chunk : chunks_) {
    if (spare_.size() == kMaxSpareChunks) break;
    chunk.clear();
    spare_.push_back(std::move(chunk));
  }
  chunks_.clear();
  threads_.clear();
  open_spans_.clear();
  dropped_spans_.clear();
  truncated_ = false;
  next_seq_ = 0;
  session_.store(g_next_session.fetch_add(1, std::memory_order_relaxed), std::memory_order_relaxed);
  epoch_ticks_ = clock() == ClockKind::Modeled ? modeled_now_ns() : clock_ticks();
  epoch_steady_ns_ = steady_clock_ns();
  last_ticks_ = 0;
}

void Recorder::set_enabled(bool on) {
  std::lock_guard<std::mutex> lock(g_control_mu);
  enabled_.store(on, std::memory_order_relaxed);
  if (&current() == this) detail::g_tracing_enabled.store(on, std::memory_order_relaxed);
}

Recorder& Recorder::current() {
  Recorder* r = g_current.load(std::memory_order_acquire);
  return r ? *r : default_recorder();
}

Recorder* Recorder::set_current(Recorder* r) {
  std::lock_guard<std::mutex> lock(g_control_mu);
  Recorder* prev = g_current.exchange(r, std::memory_order_acq_rel);
  detail::g_tracing_enabled.store(current().enabled(), std::memory_order_relaxed);
  return prev;
}

ScopedTrace::ScopedTrace(Recorder& r) : r_(r), prev_current_(Recorder::set_current(&r)), prev_enabled_(r.enabled()) {
  r_.set_enabled(true);
}

ScopedTrace::~ScopedTrace() {
  r_.set_enabled(prev_enabled_);
  Recorder::set_current(prev_current_);
}

}  // namespace ipt::trace
