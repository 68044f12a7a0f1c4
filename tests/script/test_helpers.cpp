// Helpers for the script tests (see test_helpers.h).
#include "tests/script/test_helpers.h"

namespace ipt::script::testing {

Output run_capture(Interpreter& interp, std::string_view source) {
  Output o;
  interp.set_output([&o](std::string_view s) { o.out.append(s); });
  o.result = interp.run(source);
  interp.set_output(nullptr);
  return o;
}

Output run_capture(std::string_view source) {
  Interpreter interp;
  return run_capture(interp, source);
}

}  // namespace ipt::script::testing
