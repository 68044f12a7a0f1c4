#pragma once
// Lexer: turns snippet source into tokens (names, numbers, strings, operators, NEWLINE,
// INDENT/DEDENT), following Python's rules for indentation, implicit line joining inside
// brackets, backslash continuation, comments and string literals. Errors are SyntaxError /
// IndentationError with a 1-based line and column.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ipt::script {

// A syntax error found while lexing or parsing.
struct SyntaxErrorInfo : std::exception {
  std::string kind;  // "SyntaxError" or "IndentationError"
  std::string message;
  int line = 0, col = 0;
  SyntaxErrorInfo(std::string k, std::string m, int l, int c)
      : kind(std::move(k)), message(std::move(m)), line(l), col(c) {}
  const char* what() const noexcept override { return message.c_str(); }
};

enum class Tok : uint8_t { Name, Int, Float, String, FString, Op, Newline, Indent, Dedent, End };

struct Token {
  Tok kind = Tok::End;
  std::string text;     // Name: identifier; Op: operator; String: decoded value; FString: raw body
  int64_t ival = 0;
  double fval = 0;
  int line = 0, col = 0;
  // FString only: where the raw body starts in the source, and whether it is raw (rf'').
  size_t body_offset = 0;
  int body_line = 0, body_col = 0;
  bool raw = false;
  char quote = 0;  // FString: the quote char
};

class Lexer {
 public:
  // `expression_mode`: lex a bare expression (an f-string replacement field): newlines are
  // ignored and no INDENT/DEDENT/NEWLINE is produced.
  Lexer(std::string_view source, int start_line = 1, int start_col = 1, bool expression_mode = false);
  std::vector<Token> tokenize();
  // After tokenize(): set when a bracket was never closed. The parser reports it when it
  // runs into the end of input (a syntax error earlier in the text is reported instead).
  bool has_unclosed_bracket() const { return unclosed_.has_value(); }
  const SyntaxErrorInfo& unclosed_bracket_error() const { return *unclosed_; }

  // Decodes the escapes of a string body (Python rules). Used for f-string literal parts.
  static std::string decode_escapes(std::string_view body, bool raw, int line, int col);

 private:
  [[noreturn]] void error(const std::string& msg, int line, int col, const char* kind = "SyntaxError");
  char peek(size_t k = 0) const { return pos_ + k < src_.size() ? src_[pos_ + k] : '\0'; }
  void advance(size_t n = 1);
  void lex_indentation(std::vector<Token>& out);
  void lex_number(std::vector<Token>& out);
  void lex_string(std::vector<Token>& out, std::string_view prefix, int line, int col);
  void lex_name_or_string(std::vector<Token>& out);
  void lex_operator(std::vector<Token>& out);

  std::string_view src_;
  size_t pos_ = 0;
  int line_, col_;
  bool expr_mode_;
  bool at_line_start_ = true;
  std::vector<int> indents_{0};
  struct Bracket {
    char ch;
    int line, col;
  };
  std::vector<Bracket> brackets_;
  std::optional<SyntaxErrorInfo> unclosed_;
};

}  // namespace ipt::script
