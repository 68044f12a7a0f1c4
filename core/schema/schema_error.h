#pragma once
// The error a malformed schema raises. It carries two messages for the same mistake.
//
// what(): this project's own, naming the 0-based column and what the parser expected there,
// with the text and a caret under that column (the CLI, the YAML check and the Schema view):
//
//   schema error at column 16: expected ')' or ',' but found '-'
//     add(Tensor self -> Tensor
//                     ^
//
// pytorch_message(): what PyTorch 2.15's torch._C.parse_schema raises for it, in its lexer's
// words: the token kind it expected, the token it found, the text, and a `~` marker under that
// token (jit_context below):
//
//   expected ) but found 'arrow' here:
//   add(Tensor self -> Tensor
//                   ~~ <--- HERE

#include <cstddef>
#include <string>
#include <string_view>

#include "core/util/error.h"

namespace ipt::schema {

class SchemaParseError : public ipt::Error {
 public:
  // detail is the part after "column N: ", e.g. "expected ')' but found end of input".
  // pytorch_message defaults to what() when empty.
  SchemaParseError(size_t column, std::string detail, std::string_view text, std::string pytorch_message = "");

  size_t column() const { return column_; }
  const std::string& detail() const { return detail_; }
  const std::string& pytorch_message() const { return pytorch_message_; }

 private:
  size_t column_;
  std::string detail_;
  std::string pytorch_message_;
};

// ---- PyTorch's schema lexer, as far as its error messages need it ----------------------

// One token of the TorchScript lexer PyTorch's schema parser reads with: its kind as the
// lexer names it ("ident", "number", "arrow", "dots", "string_literal", "eof", "None", "in",
// or the character itself for one-character tokens such as ")"), and its range. `valid` is
// false for a character the lexer has no token for ('$', an unterminated quote).
struct JitToken {
  std::string kind;
  size_t start = 0;
  size_t end = 0;
  bool valid = true;
};
JitToken jit_token_at(std::string_view text, size_t pos);

// The text around [start, end) with the range marked, as PyTorch's SourceRange prints it: up to
// two lines before, the lines of the range each followed by a line of `~` under the range
// ("<--- HERE" after the last), and up to two lines after. An empty range at the end of the
// text prints the text without a marker; a range that spans the whole text prints just the text.
std::string jit_context(std::string_view text, size_t start, size_t end);

// "expected <kind> but found '<token at pos>' here:\n<context>"; for a character that is no
// token, "expected a valid token but found '<c>' here:\n<context>".
std::string jit_expected(std::string_view text, size_t pos, std::string_view expected_kind);

// "\n<message>:\n<context>", PyTorch's ErrorReport for a message of its own about a range.
std::string jit_report(std::string_view text, size_t start, size_t end, std::string_view message);

}  // namespace ipt::schema
