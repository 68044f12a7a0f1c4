// The app's schema commands: print a schema as JSON, check a native_functions.yaml.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/schema/schema_cli.h"

namespace ipt::schema {
namespace {

TEST(SchemaCli, PrintJson) {
  std::ostringstream out, err;
  EXPECT_EQ(schema_print_json("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", out, err), 0);
  EXPECT_EQ(err.str(), "");
  auto j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["name"], "add");
  EXPECT_EQ(j["arguments"].size(), 3u);
  EXPECT_NE(out.str().find("\n  \"arguments\": ["), std::string::npos);  // 2-space indent
}

TEST(SchemaCli, PrintJsonRejectsMalformedSchema) {
  std::ostringstream out, err;
  EXPECT_EQ(schema_print_json("add(Tensor self -> Tensor", out, err), 2);
  EXPECT_EQ(out.str(), "");
  EXPECT_NE(err.str().find("schema error at column 16"), std::string::npos);
}

// Found by hostile input: a byte that is not UTF-8 in a string default used to abort the JSON
// printer; it prints as U+FFFD.
TEST(SchemaCli, PrintJsonReplacesBytesThatAreNotUtf8) {
  std::ostringstream out, err;
  EXPECT_EQ(schema_print_json("foo(str x=\"\xff\") -> Tensor", out, err), 0);
  auto j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["arguments"][0]["default"], "\"\xEF\xBF\xBD\"");
}

// Found by hostile input: 65,000 nested '[' in a default overflowed the parser's stack.
TEST(SchemaCli, DeeplyNestedDefaultIsAnErrorNotACrash) {
  std::ostringstream out, err;
  const std::string schema = "foo(int[] x=" + std::string(65000, '[') + ") -> Tensor";
  EXPECT_EQ(schema_print_json(schema, out, err), 2);
  EXPECT_NE(err.str().find("default value nests lists deeper than 16 levels"), std::string::npos);
  std::ostringstream out2, err2;  // 16 levels are fine
  EXPECT_EQ(schema_print_json("foo(int[] x=" + std::string(16, '[') + std::string(16, ']') + ") -> Tensor", out2, err2),
            0)
      << err2.str();
}

// A temporary YAML file, removed at the end of the test.
struct TempYaml {
  std::filesystem::path path;
  explicit TempYaml(const std::string& text) {
    path = std::filesystem::temp_directory_path() /
           ("ipt_schema_cli_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".yaml");
    std::ofstream(path) << text;
  }
  ~TempYaml() { std::filesystem::remove(path); }
};

TEST(SchemaCli, CheckYamlAllOk) {
  TempYaml f("- func: a(Tensor self) -> Tensor\n- func: b(Tensor self) -> Tensor\n");
  std::ostringstream out, err;
  EXPECT_EQ(schema_check_yaml(f.path.string(), out, err), 0);
  EXPECT_EQ(out.str(), "parsed 2 of 2 schemas in " + f.path.filename().string() + "\n");
}

TEST(SchemaCli, CheckYamlReportsFailures) {
  TempYaml f("- func: a(Tensor self) -> Tensor\n- func: b(Tensor self -> Tensor\n");
  std::ostringstream out, err;
  EXPECT_EQ(schema_check_yaml(f.path.string(), out, err), 1);
  EXPECT_NE(out.str().find("parsed 1 of 2 schemas"), std::string::npos);
  EXPECT_NE(out.str().find("  line 2: b(Tensor self -> Tensor\n"), std::string::npos);
  EXPECT_NE(out.str().find("    schema error at column 14"), std::string::npos);
}

TEST(SchemaCli, CheckYamlUnreadableOrInvalid) {
  std::ostringstream out, err;
  EXPECT_EQ(schema_check_yaml("/nonexistent/native_functions.yaml", out, err), 2);
  EXPECT_NE(err.str().find("cannot open"), std::string::npos) << err.str();
  // A folder or a device is refused, with the exit code of an error (not 0 for "0 of 0").
  for (const char* special : {"/tmp", "/dev/zero"}) {
    std::ostringstream o, e;
    EXPECT_EQ(schema_check_yaml(special, o, e), 2) << special;
    EXPECT_NE(e.str().find("not a regular file"), std::string::npos) << e.str();
  }

  TempYaml f("- func: [unclosed\n");
  std::ostringstream out2, err2;
  EXPECT_EQ(schema_check_yaml(f.path.string(), out2, err2), 2);
  EXPECT_NE(err2.str().find("invalid YAML"), std::string::npos);
}

}  // namespace
}  // namespace ipt::schema
