#pragma once
// Helpers for the script tests: run a snippet and capture what print() wrote.

#include <string>
#include <string_view>

#include "core/script/interpreter.h"

namespace ipt::script::testing {

struct Output {
  RunResult result;
  std::string out;
};

// Runs `source` in a fresh interpreter (or the given one) and captures stdout.
Output run_capture(std::string_view source);
Output run_capture(Interpreter& interp, std::string_view source);

}  // namespace ipt::script::testing
