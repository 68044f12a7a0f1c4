// Malformed schemas throw SchemaParseError naming the 0-based column and what was
// expected there, with the text and a caret under the column.

#include <gtest/gtest.h>

#include "core/schema/schema_parser.h"

namespace ipt::schema {
namespace {

struct Failure {
  size_t column;
  std::string detail;
};

Failure fail_of(const std::string& text) {
  try {
    parse_schema(text);
  } catch (const SchemaParseError& e) {
    return {e.column(), e.detail()};
  }
  ADD_FAILURE() << "parsed without error: " << text;
  return {0, ""};
}

#define EXPECT_SCHEMA_ERROR(text, col, detail_text) \
  do {                                              \
    Failure f = fail_of(text);                      \
    EXPECT_EQ(f.column, size_t(col)) << text;       \
    EXPECT_EQ(f.detail, detail_text) << text;       \
  } while (0)

TEST(SchemaErrors, MessageShowsColumnAndCaret) {
  try {
    parse_schema("add(Tensor self -> Tensor");
    FAIL() << "expected a SchemaParseError";
  } catch (const SchemaParseError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::RuntimeError);
    EXPECT_EQ(e.column(), 16u);
    EXPECT_EQ(std::string(e.what()),
              "schema error at column 16: expected ')' or ',' but found '-'\n"
              "  add(Tensor self -> Tensor\n"
              "                  ^");
  }
}

TEST(SchemaErrors, IsAnIptError) {
  EXPECT_THROW(parse_schema("add("), ipt::Error);
}

TEST(SchemaErrors, Names) {
  EXPECT_SCHEMA_ERROR("", 0, "expected an operator name but found end of input");
  EXPECT_SCHEMA_ERROR("(Tensor self) -> Tensor", 0, "expected an operator name but found '('");
  EXPECT_SCHEMA_ERROR("add.(Tensor self) -> Tensor", 4, "expected an overload name but found '('");
  EXPECT_SCHEMA_ERROR("add Tensor", 4, "expected '(' but found 'T'");
}

TEST(SchemaErrors, Arguments) {
  EXPECT_SCHEMA_ERROR("add(Tensor self, Tensor other", 29,
                      "expected ')' or ',' but found end of input");
  EXPECT_SCHEMA_ERROR("add(Tensr self) -> Tensor", 4, "unknown type 'Tensr'");
  EXPECT_SCHEMA_ERROR("add(Tensor) -> Tensor", 10, "expected an argument name but found ')'");
  EXPECT_SCHEMA_ERROR("add(Tensor self,) -> Tensor", 16, "expected a type but found ')'");
  EXPECT_SCHEMA_ERROR("add(Tensor self, *) -> Tensor", 18, "expected ',' but found ')'");
  EXPECT_SCHEMA_ERROR("add(Tensor self, *, *, int x) -> Tensor", 20, "expected a type but found '*'");
  EXPECT_SCHEMA_ERROR("add(Tensor self, ..., Tensor x) -> ()", 20, "expected ')' but found ','");
}

TEST(SchemaErrors, Types) {
  EXPECT_SCHEMA_ERROR("add(int[x] self) -> ()", 8, "expected ']' but found 'x'");
  EXPECT_SCHEMA_ERROR("add(int[2 self) -> ()", 10, "expected ']' but found 's'");
  EXPECT_SCHEMA_ERROR("add(int?? x) -> ()", 8,
                      "expected '[' or a name (a type is optional once) but found '?'");
}

TEST(SchemaErrors, AliasAnnotations) {
  EXPECT_SCHEMA_ERROR("add(Tensor(a self) -> Tensor", 13, "expected '!', '->', '|' or ')' but found 's'");
  EXPECT_SCHEMA_ERROR("add(Tensor() self) -> Tensor", 11, "expected an alias set name or '*' but found ')'");
  EXPECT_SCHEMA_ERROR("add(Tensor(a -> ) self) -> Tensor", 16,
                      "expected an alias set name or '*' but found ')'");
  EXPECT_SCHEMA_ERROR("add(Tensor(a -> * self) -> Tensor", 18, "expected '|' or ')' but found 's'");
}

TEST(SchemaErrors, Defaults) {
  EXPECT_SCHEMA_ERROR("add(Tensor self=) -> Tensor", 16, "expected a default value but found ')'");
  EXPECT_SCHEMA_ERROR("add(int x=-) -> ()", 11, "expected a digit but found ')'");
  EXPECT_SCHEMA_ERROR("add(int x=1e) -> ()", 12, "expected an exponent but found ')'");
  EXPECT_SCHEMA_ERROR("add(int[] x=[1,2) -> ()", 16, "expected ',' or ']' but found ')'");
  EXPECT_SCHEMA_ERROR("add(str s=\"abc) -> ()", 21,
                      "expected closing \" for the string at column 10 but found end of input");
  EXPECT_SCHEMA_ERROR("add(int x=1 2) -> ()", 12, "expected ')' or ',' but found '2'");
}

TEST(SchemaErrors, Returns) {
  EXPECT_SCHEMA_ERROR("add(Tensor self) Tensor", 17, "expected '->' but found 'T'");
  EXPECT_SCHEMA_ERROR("add(Tensor self)", 16, "expected '->' but found end of input");
  EXPECT_SCHEMA_ERROR("add(Tensor self) -> ", 20, "expected a type but found end of input");
  EXPECT_SCHEMA_ERROR("add(Tensor self) -> (Tensor, Tensor", 35,
                      "expected ')' or ',' but found end of input");
  EXPECT_SCHEMA_ERROR("add(Tensor self) -> Tensor extra junk", 33,
                      "expected end of schema but found 'j'");
  EXPECT_SCHEMA_ERROR("add(Tensor self) -> Tensor)", 26, "expected end of schema but found ')'");
}

}  // namespace
}  // namespace ipt::schema
