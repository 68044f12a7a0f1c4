// libFuzzer target: the program front end. Each input is a Python program, compiled and run in
// a fresh namespace of the embedded interpreter over the project's torch, with tracing on, under
// budgets: a stop after kTimeBudget (the same Stop as the GUI's, which also reaches into
// kernels), at most kMaxEvents trace events, and ASan's max_allocation_size_mb (set by
// scripts/fuzz) for any one allocation. The trace the run recorded must export and load back.
//
// The program is sandboxed only as far as a fuzzer needs: it may import torch, math, numpy and
// a few pure modules, and cannot open files or read stdin (see kSandbox).
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "core/embed/session.h"
#include "core/trace/recorder.h"
#include "core/trace/trace_json.h"
#include "core/util/error.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

constexpr auto kTimeBudget = std::chrono::milliseconds(1500);
constexpr uint64_t kMaxEvents = 3000;  // small: the trace is exported and read back per input

// The functions keep what they need in default arguments: the namespace that defined them is
// gone once the setup session ends.
const char* kSandbox = R"(
import builtins
def _import(name, globals=None, locals=None, fromlist=(), level=0, _real=builtins.__import__,
            _allowed=frozenset({"torch", "math", "numpy", "itertools", "functools", "collections",
                                "operator", "random", "warnings", "typing", "dataclasses", "cmath",
                                "fractions", "decimal"})):
    if (globals or {}).get("__name__") == "__main__" and name.split(".")[0] not in _allowed:
        raise ImportError("the fuzzer does not allow importing " + name)
    return _real(name, globals, locals, fromlist, level)
def _refused(*args, _error=PermissionError, **kwargs):
    raise _error("the fuzzer allows no files and no input")
builtins.__import__ = _import
builtins.open = _refused
builtins.input = _refused
builtins.breakpoint = _refused
)";

// Stops the running program when its time is up.
class Watchdog {
 public:
  Watchdog() : thread_([this] { loop(); }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> l(m_);
      quit_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  void arm(ipt::python::Session* s) {
    std::lock_guard<std::mutex> l(m_);
    session_ = s;
    deadline_ = std::chrono::steady_clock::now() + kTimeBudget;
    cv_.notify_all();
  }
  void disarm() {
    std::lock_guard<std::mutex> l(m_);
    session_ = nullptr;
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> l(m_);
    while (!quit_) {
      if (!session_) {
        cv_.wait(l);
        continue;
      }
      if (cv_.wait_until(l, deadline_) == std::cv_status::timeout && session_) {
        session_->request_stop();  // takes the GIL; the program's thread holds no lock of ours
        session_ = nullptr;
      }
    }
  }
  std::mutex m_;
  std::condition_variable cv_;
  ipt::python::Session* session_ = nullptr;
  std::chrono::steady_clock::time_point deadline_;
  bool quit_ = false;
  std::thread thread_;
};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ipt::trace::Recorder::set_max_events(kMaxEvents);
  ipt::python::Session setup;
  if (!setup.run(kSandbox, "<fuzz sandbox>").result.ok) ipt::fuzz::finding("the sandbox did not install");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Watchdog watchdog;
  const std::string program(reinterpret_cast<const char*>(data), size);
  ipt::trace::Recorder& rec = ipt::trace::Recorder::current();
  rec.clear();
  {
    ipt::python::Session session;
    ipt::trace::ScopedTrace tracing;
    watchdog.arm(&session);
    ipt::python::StepResult r = session.run(program, "fuzz.py");
    watchdog.disarm();
    (void)r;
  }
  if (rec.size() > kMaxEvents + 64) ipt::fuzz::finding("the recorder went past its bound");
  IPT_FUZZ_EXPECT_CLEAR_ERRORS({
    const std::string text = ipt::trace::to_json_text(rec.events(), ipt::trace::TraceMeta{"fuzz", program, {}});
    try {
      (void)ipt::trace::read_trace_json(text);
    } catch (const ipt::Error& e) {
      ipt::fuzz::finding("the run's trace does not load back", e.what());
    }
  });
  rec.clear();
  return 0;
}
