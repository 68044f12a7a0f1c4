// Malformed schemas throw SchemaParseError naming the 0-based column and what was
// expected there, with the text and a caret under the column.

#include <gtest/gtest.h>

#include <utility>
#include <vector>

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

TEST(SchemaErrors, IsAnIptError) { EXPECT_THROW(parse_schema("add("), ipt::Error); }

TEST(SchemaErrors, Names) {
  EXPECT_SCHEMA_ERROR("", 0, "expected an operator name but found end of input");
  EXPECT_SCHEMA_ERROR("(Tensor self) -> Tensor", 0, "expected an operator name but found '('");
  EXPECT_SCHEMA_ERROR("add.(Tensor self) -> Tensor", 4, "expected an overload name but found '('");
  EXPECT_SCHEMA_ERROR("add Tensor", 4, "expected '(' but found 'T'");
}

TEST(SchemaErrors, Arguments) {
  EXPECT_SCHEMA_ERROR("add(Tensor self, Tensor other", 29, "expected ')' or ',' but found end of input");
  EXPECT_SCHEMA_ERROR("add(Tensr self) -> Tensor", 4, "unknown type 'Tensr'");
  EXPECT_SCHEMA_ERROR("add(Tensor) -> Tensor", 10, "expected an argument name but found ')'");
  EXPECT_SCHEMA_ERROR("add(Tensor self,) -> Tensor", 16, "expected a type but found ')'");
  EXPECT_SCHEMA_ERROR("add(Tensor self, ..., Tensor x) -> ()", 22, "'...' must end the argument list");
  EXPECT_SCHEMA_ERROR("add(Tensor x, int y=1, ...) -> ()", 28, "a schema with '...' has no default values");
  EXPECT_SCHEMA_ERROR("add.default(Tensor self) -> Tensor", 4, "'default' is not a legal overload name");
}

// A '*' that no argument follows, or a second '*', changes nothing (as in PyTorch).
TEST(SchemaErrors, StarsPyTorchAccepts) {
  EXPECT_EQ(parse_schema("add(Tensor self, *) -> Tensor").str(), "add(Tensor self) -> Tensor");
  EXPECT_EQ(parse_schema("add(Tensor self, *, *, int x) -> Tensor").str(), "add(Tensor self, *, int x) -> Tensor");
  EXPECT_EQ(parse_schema("add(Tensor self) -> Tensor # a comment").str(), "add(Tensor self) -> Tensor");
}

TEST(SchemaErrors, Types) {
  EXPECT_SCHEMA_ERROR("add(int[x] self) -> ()", 8, "expected a list size or ']' but found 'x'");
  EXPECT_SCHEMA_ERROR("add(int[2 self) -> ()", 10, "expected ']' but found 's'");
  EXPECT_EQ(parse_schema("add(int?? x) -> ()").str(), "add(int? x) -> ()");  // as PyTorch reads it
}

TEST(SchemaErrors, AliasAnnotations) {
  EXPECT_SCHEMA_ERROR("add(Tensor(a self) -> Tensor", 13, "expected '!', '->', '|' or ')' but found 's'");
  EXPECT_SCHEMA_ERROR("add(Tensor() self) -> Tensor", 11, "expected an alias set name or '*' but found ')'");
  EXPECT_SCHEMA_ERROR("add(Tensor(a -> ) self) -> Tensor", 16, "expected an alias set name or '*' but found ')'");
  EXPECT_SCHEMA_ERROR("add(Tensor(a -> * self) -> Tensor", 18, "expected '|' or ')' but found 's'");
}

TEST(SchemaErrors, Defaults) {
  EXPECT_SCHEMA_ERROR("add(Tensor self=) -> Tensor", 16, "expected None but found ')'");
  EXPECT_SCHEMA_ERROR("add(int x=) -> Tensor", 10, "expected a default value but found ')'");
  EXPECT_SCHEMA_ERROR("add(int x=abc) -> Tensor", 13, "unknown default value 'abc'");
  EXPECT_SCHEMA_ERROR("add(Device d=cpu) -> Tensor", 13, "expected a device string but found 'c'");
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
  EXPECT_SCHEMA_ERROR("add(Tensor self) -> (Tensor, Tensor", 35, "expected ')' or ',' but found end of input");
  EXPECT_SCHEMA_ERROR("add(Tensor self) -> Tensor extra junk", 33, "expected end of schema but found 'j'");
  EXPECT_SCHEMA_ERROR("add(Tensor self) -> Tensor)", 26, "expected end of schema but found ')'");
}

// What torch._C.parse_schema raises in PyTorch 2.15 for the same mistakes (recorded from it):
// the lexer's expected and found token kinds, the text, and the `~` marker.
std::string pytorch_message_of(const std::string& text) {
  try {
    parse_schema(text);
  } catch (const SchemaParseError& e) {
    return e.pytorch_message();
  }
  return "parsed without error";
}

TEST(SchemaErrors, PyTorchMessages) {
  const std::string unknown =
      "\nunknown type specifier. Common valid schema types include Tensor, SymInt, int, float, bool, Scalar; for a full "
      "list, please see https://github.com/pytorch/pytorch/blob/main/aten/src/ATen/native/README.md#func :\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"foo(Tensor self -> Tensor",
       "expected ) but found 'arrow' here:\nfoo(Tensor self -> Tensor\n                ~~ <--- HERE\n"},
      {"", "expected ident but found 'eof' here:\n"},
      {"foo(", "expected ident but found 'eof' here:\nfoo("},
      {"foo()", "expected arrow but found 'eof' here:\nfoo()"},
      {"foo", "Tried to parse a function schema but only the operator name was given"},
      {"foo(Tensr self) -> Tensor", unknown + "foo(Tensr self) -> Tensor\n    ~~~~~ <--- HERE\n"},
      {"foo(Tensor self, int x=abc) -> Tensor",
       "\ninvalid numeric default value:\nfoo(Tensor self, int x=abc) -> Tensor\n                          ~ <--- HERE\n"},
      {"foo(Tensor self) -> Tensor\nbar",
       "expected eof but found 'ident' here:\nfoo(Tensor self) -> Tensor\nbar\n~~~ <--- HERE\n"},
      {"  foo(Tensor self) -> Tensor)  ",
       "expected eof but found ')' here:\n  foo(Tensor self) -> Tensor)  \n                            ~ <--- HERE\n"},
      {"foo(Tensor self, Tensor x=1) -> Tensor",
       "expected None but found 'number' here:\nfoo(Tensor self, Tensor x=1) -> Tensor\n                          ~ <--- HERE\n"},
      {"foo(Tensor self, int x=1.5.3) -> Tensor",
       "expected ) but found 'number' here:\nfoo(Tensor self, int x=1.5.3) -> Tensor\n                          ~~ <--- HERE\n"},
      {"foo(Tensor self) -> (Tensor a Tensor b)",
       "expected ) but found 'ident' here:\nfoo(Tensor self) -> (Tensor a Tensor b)\n                              ~~~~~~ <--- HERE\n"},
      {"foo(Tensor self, int[2 x) -> Tensor",
       "expected ] but found 'ident' here:\nfoo(Tensor self, int[2 x) -> Tensor\n                       ~ <--- HERE\n"},
      {"foo(Tensor self, ..., int x) -> Tensor",
       "\n... must be the last element of the argument list:\nfoo(Tensor self, ..., int x) -> Tensor\n                      ~~~ <--- HERE\n"},
      {"foo.default(Tensor self) -> Tensor", "default is not a legal overload name for aten operators"},
      {"foo(Tensor self\n, int y -> Tensor",
       "expected ) but found 'arrow' here:\nfoo(Tensor self\n, int y -> Tensor\n        ~~ <--- HERE\n"},
      {"foo(Tensor self) -> Tensor(a", "expected ) but found 'eof' here:\nfoo(Tensor self) -> Tensor(a"},
      {"foo(Tensor self, Device d=cpu) -> Tensor",
       "expected string_literal but found 'ident' here:\nfoo(Tensor self, Device d=cpu) -> Tensor\n                          ~~~ <--- HERE\n"},
      {"foo(Tensor self, int x=-) -> Tensor",
       "expected number but found ')' here:\nfoo(Tensor self, int x=-) -> Tensor\n                        ~ <--- HERE\n"},
      {"aten:foo(Tensor self) -> Tensor",
       "expected : but found 'ident' here:\naten:foo(Tensor self) -> Tensor\n     ~~~ <--- HERE\n"},
      {"foo::bar::baz(Tensor self) -> Tensor",
       "expected eof but found ':' here:\nfoo::bar::baz(Tensor self) -> Tensor\n        ~ <--- HERE\n"},
      {"foo(Tensor(a self) -> Tensor",
       "expected ) but found 'ident' here:\nfoo(Tensor(a self) -> Tensor\n             ~~~~ <--- HERE\n"},
      {"foo(Tensor(a!! self) -> Tensor",
       "expected ) but found '!' here:\nfoo(Tensor(a!! self) -> Tensor\n             ~ <--- HERE\n"},
      {"foo(Tensor(!) self) -> Tensor",
       "expected ident but found '!' here:\nfoo(Tensor(!) self) -> Tensor\n           ~ <--- HERE\n"},
      {"foo(Tensor self, str s=\"abc) -> Tensor",
       "expected a valid token but found '\"' here:\nfoo(Tensor self, str s=\"abc) -> Tensor\n                       ~ <--- HERE\n"},
      {"foo(int[a] x) -> Tensor",
       "expected number but found 'ident' here:\nfoo(int[a] x) -> Tensor\n        ~ <--- HERE\n"},
      {"1foo(Tensor self) -> Tensor",
       "expected ident but found 'number' here:\n1foo(Tensor self) -> Tensor\n~ <--- HERE\n"},
      {"foo(Tensor self,) -> Tensor",
       "expected ident but found ')' here:\nfoo(Tensor self,) -> Tensor\n                ~ <--- HERE\n"},
      {"foo(Tensor self) => Tensor",
       "expected arrow but found '=' here:\nfoo(Tensor self) => Tensor\n                 ~ <--- HERE\n"},
      {"foo(Tensor self) -> Tensor$",
       "expected a valid token but found '$' here:\nfoo(Tensor self) -> Tensor$\n                          ~ <--- HERE\n"},
      {"foo(Tensor self, float x=-inf) -> Tensor",
       "expected number but found 'ident' here:\nfoo(Tensor self, float x=-inf) -> Tensor\n                          ~~~ <--- HERE\n"},
      {"foo(Tensor self, Tensor in) -> Tensor",
       "expected ident but found 'in' here:\nfoo(Tensor self, Tensor in) -> Tensor\n                        ~~ <--- HERE\n"},
  };
  for (const auto& [text, message] : cases) EXPECT_EQ(pytorch_message_of(text), message) << text;
}

// torch._C.parse_schema's reading: 2.15 dropped Dimname, which the project's YAML tools still read.
TEST(SchemaErrors, DimnameIsUnknownToPyTorch) {
  const std::string text = "foo(Tensor self, Dimname[] names) -> Tensor";
  EXPECT_EQ(parse_schema(text).arguments[1].type.str(), "Dimname[]");
  try {
    parse_schema_pytorch(text);
    FAIL() << "parsed";
  } catch (const SchemaParseError& e) {
    EXPECT_EQ(e.column(), 17u);
    EXPECT_EQ(
        e.pytorch_message(),
        "\nunknown type specifier. Common valid schema types include Tensor, SymInt, int, float, bool, Scalar; for a "
        "full list, please see https://github.com/pytorch/pytorch/blob/main/aten/src/ATen/native/README.md#func :\n"
        "foo(Tensor self, Dimname[] names) -> Tensor\n                 ~~~~~~~ <--- HERE\n");
  }
  EXPECT_EQ(parse_schema_pytorch("foo(Tensor self) -> Tensor").str(), "foo(Tensor self) -> Tensor");
}

// torch._C.parse_schema's reading of list defaults (the YAML tools keep any list as text).
TEST(SchemaErrors, ListDefaultsAsPyTorchReadsThem) {
  auto message = [](const std::string& text) {
    try {
      parse_schema_pytorch(text);
    } catch (const SchemaParseError& e) {
      return e.pytorch_message();
    }
    return std::string("parsed without error");
  };
  EXPECT_EQ(
      message("foo(Tensor self, int x=[1,2) -> Tensor"),
      "expected number but found '[' here:\nfoo(Tensor self, int x=[1,2) -> Tensor\n                       ~ <--- HERE\n");
  EXPECT_EQ(message("foo(Tensor self, str[] x=['a']) -> Tensor"),
            "\nlists are only supported for float, int and complex types:\nfoo(Tensor self, str[] x=['a']) -> Tensor\n"
            "                         ~ <--- HERE\n");
  EXPECT_EQ(
      message("foo(Tensor self, Tensor[] x=None) -> Tensor"),
      "expected [ but found 'None' here:\nfoo(Tensor self, Tensor[] x=None) -> Tensor\n                            ~~~~ <--- HERE\n");
  EXPECT_EQ(message("foo(Tensor self, Tensor[] x=[]) -> Tensor"),
            "\nlists are only supported for float, int and complex types:\nfoo(Tensor self, Tensor[] x=[]) -> Tensor\n"
            "                            ~ <--- HERE\n");
  EXPECT_EQ(
      parse_schema_pytorch("f(int[2] s=1, float[] x=[0.5, 1], bool[3] m=[True, False, True], SymInt[] y=[]) -> ()")
          .str(),
      "f(int[2] s=1, float[] x=[0.5, 1], bool[3] m=[True, False, True], SymInt[] y=[]) -> ()");
  EXPECT_EQ(parse_schema(std::string("foo(Tensor self, str[] x=['a']) -> Tensor")).arguments[1].default_value, "['a']");
}

}  // namespace
}  // namespace ipt::schema
