// libFuzzer target: the lesson loader, as a lesson file and as the lessons index.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/lesson/lesson.h"
#include "core/util/error.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  IPT_FUZZ_EXPECT_CLEAR_ERRORS({
    ipt::lesson::Lesson l = ipt::lesson::parse_lesson(text, "fuzz.yaml");
    for (const auto& s : l.steps)
      if (s.code.empty() || s.code_line < 1) ipt::fuzz::finding("a step without code or line was accepted");
  });
  IPT_FUZZ_EXPECT_CLEAR_ERRORS((void)ipt::lesson::parse_index(text, "index.yaml", "lessons"));
  return 0;
}
