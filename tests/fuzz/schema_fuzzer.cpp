// libFuzzer target: the operator schema parser, as one schema line and as a whole
// native_functions.yaml. A schema that parses prints back to text that parses to the same
// schema, and its JSON form always serializes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/schema/native_yaml.h"
#include "core/schema/schema_json.h"
#include "core/schema/schema_parser.h"
#include "core/util/error.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  using namespace ipt::schema;
  IPT_FUZZ_EXPECT_CLEAR_ERRORS({
    FunctionSchema s = parse_schema(text);
    const std::string printed = s.str();
    FunctionSchema again;
    try {
      again = parse_schema(printed);
    } catch (const ipt::Error& e) {
      ipt::fuzz::finding("a parsed schema prints as text that does not parse", printed + " | " + e.what());
    }
    if (!(again == s)) ipt::fuzz::finding("print/parse round trip changed the schema", printed);
    (void)schema_to_json(s).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  });
  IPT_FUZZ_EXPECT_CLEAR_ERRORS({
    ParseReport r = parse_all_funcs_from_string(text, "fuzz.yaml");
    (void)r;
  });
  IPT_FUZZ_EXPECT_CLEAR_ERRORS((void)load_native_functions_from_string(text, "fuzz.yaml"));
  return 0;
}
