#pragma once
// The one lesson runner, used by the CLI (`inside-pytorch lesson N`) and the window alike:
// a lesson's steps run in order in one Python session, each marked in the trace by a
// "lesson step" event, so every view can tell which events a step made.

#include <functional>
#include <string>
#include <vector>

#include "core/lesson/lesson.h"
#include "core/embed/session.h"

namespace ipt::lesson {

struct StepRun {
  std::string output;        // what the step printed
  python::RunResult result;  // ok, or its uncaught error
  size_t first_event = 0;    // index of the step's "lesson step" event in the recorder
};

struct StepCallbacks {
  std::function<void(int k)> before;                   // k: 0-based step about to run
  std::function<void(int k, const StepRun& r)> after;  // the step has run
};

// Runs steps 0..last (0-based, clamped) of `l` in `session`, recording into the current
// recorder when it is enabled. Later steps still run after a failing one (each step is a
// cell: a reader can go on), but not after one that was stopped (KeyboardInterrupt).
std::vector<StepRun> run_steps(const Lesson& l, int last, python::Session& session, const StepCallbacks& cb = {});

}  // namespace ipt::lesson
