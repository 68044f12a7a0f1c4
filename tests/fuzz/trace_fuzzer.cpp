// libFuzzer target: the trace loader. Bad input is refused with ipt::Error; a trace that
// loads writes back to text that loads to the same events (the Chrome-rules checker must
// not crash on any JSON either).
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/trace/trace_json.h"
#include "core/util/error.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  using namespace ipt::trace;
  IPT_FUZZ_EXPECT_CLEAR_ERRORS({
    LoadedTrace t = read_trace_json(text);
    const std::string written = to_json_text(t.events, t.meta);
    LoadedTrace back;
    try {
      back = read_trace_json(written);
    } catch (const ipt::Error& e) {
      ipt::fuzz::finding("a loaded trace writes text that does not load", e.what());
    }
    if (back.events.size() != t.events.size() || !(back.meta == t.meta))
      ipt::fuzz::finding("write/read round trip changed the trace");
  });
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_discarded()) (void)check_chrome_trace_rules(doc);
  return 0;
}
