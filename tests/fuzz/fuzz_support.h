#pragma once
// Shared by the fuzz targets: what counts as a finding. A target feeds its input to a parser;
// a clear ipt::Error (or the parser's own error type) is the expected answer to bad input.
// Anything else — a crash, a sanitizer report, another exception escaping, a broken round
// trip — aborts, and libFuzzer saves the input as a reproducer.

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace ipt::fuzz {

[[noreturn]] inline void finding(const char* what, const std::string& detail = "") {
  std::fprintf(stderr, "fuzz finding: %s%s%s\n", what, detail.empty() ? "" : ": ", detail.c_str());
  std::abort();
}

}  // namespace ipt::fuzz

// Runs `body`; ipt::Error is a clear refusal, any other exception a finding.
#define IPT_FUZZ_EXPECT_CLEAR_ERRORS(body)                                        \
  try {                                                                           \
    body;                                                                         \
  } catch (const ::ipt::Error&) {                                                 \
  } catch (const std::exception& e) {                                             \
    ::ipt::fuzz::finding("an exception other than ipt::Error escaped", e.what()); \
  }
