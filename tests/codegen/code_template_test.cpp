// The code template engine of tools/codegen (Note [Code templates] in code_template.h).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include "tools/codegen/code_template.h"

namespace {

using ipt::codegen::CodeTemplate;
using ipt::codegen::TemplateEnv;

std::string error_of(const CodeTemplate& t, const TemplateEnv& env) {
  try {
    t.substitute(env);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(CodeTemplate, ReplacesPlaceholdersInALine) {
  CodeTemplate t("${ret} ${id}(${params});\n", "decl");
  EXPECT_EQ(t.substitute({{"ret", "Tensor"}, {"id", "add"}, {"params", "const Tensor& self"}}),
            "Tensor add(const Tensor& self);\n");
}

TEST(CodeTemplate, JoinsAListInsideALine) {
  CodeTemplate t("f(${args});\n", "call");
  EXPECT_EQ(t.substitute({{"args", std::vector<std::string>{"a", "b", "c"}}}), "f(a, b, c);\n");
  EXPECT_EQ(t.substitute({{"args", std::vector<std::string>{}}}), "f();\n");
}

TEST(CodeTemplate, ExpandsABlockOneLineAnItemWithItsIndentation) {
  CodeTemplate t("{\n  ${body}\n}\n", "block");
  EXPECT_EQ(t.substitute({{"body", std::vector<std::string>{"a();", "b();"}}}), "{\n  a();\n  b();\n}\n");
  // A multi-line item is indented line by line; an empty line stays empty.
  EXPECT_EQ(t.substitute({{"body", std::vector<std::string>{"if (x) {\n  y();\n}\n", "\n", "z();"}}}),
            "{\n  if (x) {\n    y();\n  }\n\n  z();\n}\n");
  // A string is a block of its lines.
  EXPECT_EQ(t.substitute({{"body", "a();\nb();\n"}}), "{\n  a();\n  b();\n}\n");
}

TEST(CodeTemplate, AnEmptyBlockLeavesNoLine) {
  CodeTemplate t("{\n  ${maybe}\n  done();\n}\n", "optional");
  EXPECT_EQ(t.substitute({{"maybe", std::vector<std::string>{}}}), "{\n  done();\n}\n");
  EXPECT_EQ(t.substitute({{"maybe", ""}}), "{\n  done();\n}\n");
}

TEST(CodeTemplate, ReportsTheLineEachBlockStartsAt) {
  CodeTemplate t("// head\n${first}\nmiddle ${inline}\n${second}\n", "lines");
  std::map<std::string, int> lines;
  const std::string out =
      t.substitute({{"first", std::vector<std::string>{"a", "b\nc"}}, {"inline", "x\ny"}, {"second", "d"}}, &lines);
  EXPECT_EQ(out, "// head\na\nb\nc\nmiddle x\ny\nd\n");
  EXPECT_EQ(lines.at("first"), 2);
  EXPECT_EQ(lines.at("second"), 7);
}

TEST(CodeTemplate, AMissingValueIsAnErrorNamingTheTemplateAndPlaceholder) {
  CodeTemplate t("first line\nreturn ${result};\n", "templates/example.cpp.in");
  EXPECT_EQ(error_of(t, {{"unused", "x"}}), "templates/example.cpp.in:2: no value for the placeholder ${result}");
  EXPECT_EQ(error_of(CodeTemplate("${ not a name}", "bad"), {}), "bad:1: '${' does not open a placeholder");
}

TEST(CodeTemplate, LeavesOtherDollarSignsAlone) {
  EXPECT_EQ(CodeTemplate("$x $ {y} $${z}\n", "dollars").substitute({{"z", "1"}}), "$x $ {y} $1\n");
}

TEST(CodeTemplate, ReadsATemplateFile) {
  const std::string path = testing::TempDir() + "code_template_test.in";
  std::ofstream(path) << "  ${items}\n";
  const CodeTemplate t = CodeTemplate::from_file(path, "templates/items.in");
  EXPECT_EQ(t.name(), "templates/items.in");
  EXPECT_EQ(t.substitute({{"items", std::vector<std::string>{"a", "b"}}}), "  a\n  b\n");
  std::remove(path.c_str());
  EXPECT_THROW(CodeTemplate::from_file(path, "templates/items.in"), std::runtime_error);
}

}  // namespace
