// Every operator of PyTorch 2.15's native_functions.yaml, classified as torchgen classifies it
// (recorded by gen_schema_kinds.py from torchgen itself): in-place exactly when torchgen says so
// (trailing '_', and the augmented-assignment dunders such as __iand__), out= exactly for
// torchgen's out kind.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "core/schema/schema_parser.h"

namespace ipt::schema {
namespace {

TEST(SchemaKinds, InPlaceAndOutAsTorchgen) {
  std::ifstream in(IPT_SCHEMA_KINDS_EXPECTED);
  ASSERT_TRUE(in) << "missing " << IPT_SCHEMA_KINDS_EXPECTED;
  int n = 0, dunder_inplace = 0;
  std::map<std::string, int> kinds;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    std::istringstream is(line);
    std::string kind, func;
    int inplace = 0;
    is >> kind >> inplace;
    std::getline(is >> std::ws, func);
    const FunctionSchema s = parse_schema(func);
    EXPECT_EQ(s.is_inplace(), inplace == 1) << func;
    if (kind != "inplace") {
      EXPECT_EQ(s.is_out(), kind == "out") << kind << ": " << func;
    }
    EXPECT_EQ(kind_name(s.kind()), kind) << func;
    ++kinds[kind];
    if (inplace && s.name.rfind("__", 0) == 0) ++dunder_inplace;
    ++n;
  }
  EXPECT_GT(n, 2000);
  EXPECT_EQ(dunder_inplace, 10);
  // What torchgen counted in PyTorch 2.15's YAML.
  EXPECT_EQ(n, 2590);
  EXPECT_EQ(kinds["functional"], 1608);
  EXPECT_EQ(kinds["inplace"], 339);
  EXPECT_EQ(kinds["out"], 632);
  EXPECT_EQ(kinds["mutable"], 11);
}

}  // namespace
}  // namespace ipt::schema
