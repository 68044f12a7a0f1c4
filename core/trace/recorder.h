#pragma once
// Recorder: the append-only, thread-safe log of typed events the runtime writes into.
//
// Note [Recording cost]
// The dispatcher asks `trace::tracing_enabled()` (one relaxed atomic load) before building
// any payload, so tracing costs next to nothing when off (the default). When on, one event
// costs a mutex lock, one clock read (Note [The trace clock]) and a move of the payload into a
// chunk of preallocated Events (chunks never move, so there is no reallocation spike); names
// are interned `const char*` (Note [Event strings are interned]), and short lists stay inside
// the event (Note [Small lists stay inside the event]). The clock is read under the lock and
// never goes back, so timestamps are non-decreasing in `seq` order on every thread.
// First-touch page faults on fresh chunk memory are most of the cost, so chunks are 2 MiB
// blocks the kernel may back with one huge page (one fault instead of 512), and clear() keeps
// up to 32 MiB of emptied chunks, so that recording again (a re-run, a lesson's next step)
// touches warm memory.
//
// Note [A bounded trace]
// A runaway program (`while True: pass` records a statement event per loop) must not fill
// the machine's memory: a recorder keeps at most max_events() events. At the limit it adds one
// "trace truncated" marker and from then on records only the ends of spans that are still
// open, so every begin keeps its end and the views read the trace as usual.
//
// Note [The current recorder]
// One process-wide recorder is "current": runtime code records into Recorder::current().
// tracing_enabled() mirrors current().enabled(). ScopedTrace makes a recorder current and
// enabled for a scope. A recorder must outlive the time it is current.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "core/trace/events.h"
#include "core/trace/trace_clock.h"

namespace ipt::trace {

namespace detail {
// Mirror of Recorder::current().enabled(), kept in sync by Recorder (see recorder.cpp).
inline std::atomic<bool> g_tracing_enabled{false};
// Set on threads whose work is not the program's (a simulated GPU's stream workers).
inline thread_local bool t_muted = false;
}  // namespace detail

// True when the current recorder records, on this thread. A relaxed atomic load (and, only
// while tracing, a thread-local read).
inline bool tracing_enabled() { return detail::g_tracing_enabled.load(std::memory_order_relaxed) && !detail::t_muted; }

// Nothing this thread does from now on is recorded (a simulated GPU's workers call it once).
inline void mute_this_thread() { detail::t_muted = true; }

// Nothing this thread does within the scope is recorded (work the program does not see, such as
// the Meta kernel a simulated kernel's launcher runs for its results' shapes).
class MutedScope {
 public:
  MutedScope() : was_(detail::t_muted) { detail::t_muted = true; }
  ~MutedScope() { detail::t_muted = was_; }
  MutedScope(const MutedScope&) = delete;
  MutedScope& operator=(const MutedScope&) = delete;

 private:
  bool was_;
};

class Recorder {
 public:
  Recorder();
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Append one event (no-op while disabled). `name` must be a literal or intern()ed.
  void begin(Category category, const char* name, Payload payload = {});
  void end(Category category, const char* name, Payload payload = {});
  void instant(Category category, const char* name, Payload payload = {});
  void record(Phase phase, Category category, const char* name, Payload payload = {});

  // An event on a track of its own at time ts_ns of the recorder's clock (modeled ns, or
  // steady_clock ns when measured; see now_ns()): a device's work (Note [Device tracks] in
  // events.h). Such events are not counted as open spans and are dropped at the limit.
  void record_at(int64_t ts_ns, uint32_t tid, Phase phase, Category category, const char* name, Payload payload = {});
  // An event of this thread at time ts_ns (as record_at's), for a span whose times are known
  // only afterwards (a runtime call timed by the device model); never earlier than this
  // thread's previous event.
  void record_here_at(int64_t ts_ns, Phase phase, Category category, const char* name, Payload payload = {});
  // The reading of the clock this recorder stamps with, in the units record_at takes.
  int64_t now_ns() const;

  // The clock events are stamped with (Note [The modeled clock]); setting it clears the
  // recorder, so one recording never mixes two clocks.
  void set_clock(ClockKind k);
  ClockKind clock() const { return clock_.load(std::memory_order_relaxed); }

  // A copy of every event so far, in seq order.
  std::vector<Event> events() const;
  size_t size() const;
  // Drops all events; seq, tid numbering and the time epoch restart from 0.
  void clear();

  // The event limit of every recorder (see Note [A bounded trace]); `--max-events` sets it.
  static constexpr uint64_t kDefaultMaxEvents = 2'000'000;
  static void set_max_events(uint64_t n);
  static uint64_t max_events();
  // Whether this recording reached the limit.
  bool truncated() const {
    std::lock_guard<std::mutex> lock(mu_);
    return truncated_;
  }

  void set_enabled(bool on);
  bool enabled() const { return enabled_.load(std::memory_order_relaxed); }
  // Changes with every new recorder and every clear(): lets callers record something once
  // per recording (e.g. an operator's dispatch table the first time it is called).
  uint64_t session() const { return session_.load(std::memory_order_relaxed); }

  // The process-wide current recorder (a default one until set_current is called).
  static Recorder& current();
  // Makes `r` current (nullptr: the default recorder); returns the previous setting.
  static Recorder* set_current(Recorder* r);

 private:
  void append(Phase phase, Category category, const char* name, Payload&& payload);
  uint32_t thread_index_locked();
  void push_locked(uint32_t tid, Phase phase, Category category, const char* name, Payload&& payload);
  void emplace_locked(int64_t ts, uint32_t tid, Phase phase, Category category, const char* name, Payload&& payload);

  // A fixed block of Events, allocated once and never moved.
  class Chunk {
   public:
    static constexpr size_t kBytes = size_t{2} << 20;
    static constexpr size_t kCapacity = kBytes / sizeof(Event);
    Chunk();
    ~Chunk();
    Chunk(Chunk&& o) noexcept : events_(o.events_), size_(o.size_) { o.events_ = nullptr, o.size_ = 0; }
    Chunk& operator=(Chunk&&) = delete;
    Chunk(const Chunk&) = delete;
    bool full() const { return size_ == kCapacity; }
    Event& emplace_back() { return *new (events_ + size_++) Event(); }
    const Event* begin() const { return events_; }
    const Event* end() const { return events_ + size_; }
    void clear();

   private:
    Event* events_;
    size_t size_ = 0;
  };
  static constexpr size_t kMaxSpareChunks = 16;  // kept by clear() (32 MiB)

  // A time in record_at's units as the ticks since the epoch that events are stamped with.
  int64_t ticks_since_epoch_locked(int64_t ts_ns) const;

  std::atomic<bool> enabled_{false};
  std::atomic<ClockKind> clock_{ClockKind::Measured};
  mutable std::mutex mu_;
  int64_t epoch_ticks_ = 0;           // clock_ticks() at construction or clear(); modeled: modeled_now_ns()
  int64_t epoch_steady_ns_ = 0;       // steady_clock_ns() at the same moment (measured)
  int64_t last_ticks_ = 0;            // the latest stamp, in ticks since the epoch
  std::atomic<uint64_t> session_{0};  // unique per recorder and per clear()
  uint64_t next_seq_ = 0;
  std::vector<std::thread::id> threads_;  // index = tid
  std::vector<uint32_t> open_spans_;      // per tid: recorded begins not yet ended
  std::vector<uint32_t> dropped_spans_;   // per tid: begins dropped at the limit, not yet ended
  bool truncated_ = false;
  std::vector<Chunk> chunks_;
  std::vector<Chunk> spare_;  // emptied chunks, their memory already touched
};

// Makes `r` current and enabled for this scope; restores the previous current recorder
// and r's previous enabled state on exit.
class ScopedTrace {
 public:
  explicit ScopedTrace(Recorder& r = Recorder::current());
  ~ScopedTrace();
  ScopedTrace(const ScopedTrace&) = delete;
  ScopedTrace& operator=(const ScopedTrace&) = delete;
  Recorder& recorder() const { return r_; }

 private:
  Recorder& r_;
  Recorder* prev_current_;
  bool prev_enabled_;
};

}  // namespace ipt::trace
