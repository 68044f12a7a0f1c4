#pragma once
// Ctrl+C in the CLI is the program's Stop: the first SIGINT (or SIGTERM) raises
// KeyboardInterrupt in the running program, in Python code or inside a kernel (Note
// [Stopping a kernel]), so the command still reports the error and writes its trace; a second
// one ends the process at once, as a plain Ctrl+C would.

#include <thread>

#include "core/embed/session.h"

namespace ipt::app {

class StopOnSignal {
 public:
  explicit StopOnSignal(python::Session& session);
  ~StopOnSignal();
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;

 private:
  std::thread watcher_;
};

}  // namespace ipt::app
