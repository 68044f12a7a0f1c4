// The generator's inputs and outputs embedded in the program (core/ops/generated_sources.h):
// every registration's "registered at" names an embedded line that really makes it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/dispatch/dispatcher.h"
#include "core/ops/generated_sources.h"
#include "generated/ops.h"

using namespace ipt;

TEST(GeneratedSources, HoldsTheYamlsAndEveryGeneratedFile) {
  auto names = generated_source_names();
  for (const char* n : {"core/ops/native_functions.yaml", "core/ops/derivatives.yaml", "build/generated/ops.h",
                        "build/generated/RegisterCPU.cpp", "build/generated/RegisterAutograd.cpp",
                        "build/generated/python_functions.cpp"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
  EXPECT_FALSE(generated_source("build/generated/nothing.cpp"));
}

TEST(GeneratedSources, YamlEntryIsTheWholeEntryAsWritten) {
  auto e = schema_yaml_entry("aten::add.Tensor");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->rfind("- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n", 0), 0u) << *e;
  EXPECT_NE(e->find("structured_delegate: add.out"), std::string::npos) << *e;
  EXPECT_EQ(e->find("- func:", 1), std::string::npos) << "one entry only: " << *e;
  auto out = schema_yaml_entry("add.out");
  ASSERT_TRUE(out);
  EXPECT_NE(out->find("CPU: add_out_cpu"), std::string::npos) << *out;
  EXPECT_FALSE(schema_yaml_entry("add"));  // add has no overload without a name
  EXPECT_FALSE(schema_yaml_entry("no_such_op"));
}

TEST(GeneratedSources, LinesAreClampedToTheFile) {
  auto sl = generated_source_lines("core/ops/native_functions.yaml", -5, 2);
  EXPECT_EQ(sl.first, 1);
  EXPECT_EQ(sl.lines.size(), 2u);
  EXPECT_TRUE(generated_source_lines("core/ops/native_functions.yaml", 1 << 30, (1 << 30) + 3).lines.empty());
  EXPECT_EQ(generated_source_lines("nothing", 1, 3).first, 0);
}

// Each kernel registration of every operator points at an embedded line within a block that
// registers that very kernel, for that operator and key.
TEST(GeneratedSources, EveryRegistrationPointsAtItsEmbeddedLine) {
  int checked = 0;
  for (const auto& op : Dispatcher::singleton().operators()) {
    std::string full = op->name() + (op->overload().empty() ? "" : "." + op->overload());
    for (const auto& [key, kernel] : op->registrations()) {
      std::string at = kernel.registered_at;
      if (at.rfind("build/generated/", 0) != 0) continue;  // hand-written registrations (fallbacks, tests)
      size_t colon = at.rfind(':');
      int line = std::stoi(at.substr(colon + 1));
      SourceLines sl = generated_source_lines(at.substr(0, colon), line, line + 1);
      ASSERT_EQ(sl.lines.size(), 2u) << at;
      EXPECT_NE(sl.lines[0].find("registered_at = IPT_HERE"), std::string_view::npos) << at;
      EXPECT_NE(sl.lines[1].find("d.get(\"" + full + "\")"), std::string_view::npos) << at << ": " << sl.lines[1];
      ++checked;
    }
  }
  EXPECT_GT(checked, 500);
}
