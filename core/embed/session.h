#pragma once
// Session: one Python namespace running a program, a lesson's steps or a playground snippet,
// whose printed output and statements are recorded as trace events. A lesson is one
// Session running its steps in order; the playground is one Session per Run.

#include <functional>
#include <string>

#include "core/embed/interpreter.h"

namespace ipt::python {

struct StepResult {
  RunResult result;    // ok, or the uncaught exception / syntax error
  std::string output;  // everything the program printed
};

class Session {
 public:
  // Output is passed to `echo` as it is printed (may be null). What the program writes to
  // sys.stderr (warnings, TORCH_LOGS' artifacts) is part of its output too, as a notebook shows
  // it; it is passed to `echo_error` when one is given (the CLI's stderr), else to `echo`.
  explicit Session(std::function<void(std::string_view)> echo = nullptr,
                   std::function<void(std::string_view)> echo_error = nullptr);

  // Runs one program (or lesson step) in this session's namespace. Never throws.
  // `first_line`: where `code` starts in `filename` (see Interpreter::run).
  StepResult run(const std::string& code, const std::string& filename = "<snippet>", int first_line = 1);
  // The path a program file is run from (its __file__).
  void set_main_file(const std::string& path) { interp_.set_main_file(path); }
  // Thread-safe: interrupts the running program (KeyboardInterrupt).
  void request_stop() { interp_.request_stop(); }
  bool running() const { return interp_.running(); }

 private:
  Interpreter interp_;
  std::function<void(std::string_view)> echo_;
  std::function<void(std::string_view)> echo_error_;
  void record(std::string_view s);
  std::string* capture_ = nullptr;
};

}  // namespace ipt::python
