#pragma once
// Session: one snippet interpreter with the `torch` module, whose statements, printed output
// and runtime work are recorded as trace events. A lesson is one Session running its steps
// in order; the playground is one Session per Run.

#include <functional>
#include <string>

#include "core/script/interpreter.h"
#include "core/trace/recorder.h"

namespace ipt::pytorch {

struct StepResult {
  script::RunResult result;  // ok, or the uncaught exception / syntax error
  std::string output;        // everything print() wrote
};

class Session {
 public:
  // Output is passed to `echo` as it is printed (may be null).
  explicit Session(std::function<void(std::string_view)> echo = nullptr);

  // Runs one snippet (or lesson step) in this session's namespace. Never throws.
  StepResult run(const std::string& code, const std::string& filename = "<snippet>");
  script::Interpreter& interpreter() { return interp_; }

 private:
  script::Interpreter interp_;
  std::function<void(std::string_view)> echo_;
  std::string* capture_ = nullptr;
};

// Registers the torch module with an interpreter.
void register_torch(script::Interpreter& interp);

}  // namespace ipt::pytorch
