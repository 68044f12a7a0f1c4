// Formats SchemaParseError messages, and reads PyTorch's lexer tokens for its messages
// (see schema_error.h).

#include "core/schema/schema_error.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace ipt::schema {

namespace {

std::string format(size_t column, const std::string& detail, std::string_view text) {
  // Newlines and tabs in the text would move the caret; show them as spaces.
  std::string shown(text);
  for (char& c : shown)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return "schema error at column " + std::to_string(column) + ": " + detail + "\n  " + shown + "\n  " +
         std::string(column, ' ') + "^";
}

bool is_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_ident_char(char c) { return is_alpha(c) || c == '_' || is_digit(c); }

// Keywords the TorchScript lexer reads as tokens of their own, not identifiers; the kind it
// names each by is the word itself.
constexpr std::array kKeywords = {"def",  "if",    "else",   "elif",   "while", "return",   "is",
                                  "and",  "or",    "not",    "True",   "False", "None",     "global",
                                  "for",  "in",    "raise",  "assert", "break", "continue", "del",
                                  "pass", "class", "import", "with",   "as",    "Ellipsis", "NoneType"};

// Multi-character operator tokens and the names the lexer gives them, longest first.
constexpr std::array<std::pair<const char*, const char*>, 22> kOperators = {{
    {"...", "dots"},        {"**=", "**="},     {"<<=", "<<="}, {">>=", ">>="}, {"<=>", "equivalent"}, {"->", "arrow"},
    {"**", "pow operator"}, {"//", "floordiv"}, {"==", "eq"},   {"!=", "ne"},   {"<=", "le"},          {">=", "ge"},
    {"<<", "<<"},           {">>", ">>"},       {"+=", "+="},   {"-=", "-="},   {"*=", "*="},          {"/=", "/="},
    {"%=", "%="},           {"|=", "|="},       {"&=", "&="},   {"^=", "^="},
}};
constexpr std::string_view kSingleCharTokens = "+-*/%@()[]:,={}><.?!&^|~";

// The length of the number at `pos` as strtod reads it (the lexer's rule): decimal with an
// optional fraction and exponent, or hexadecimal; 0 when there is none. A trailing 'j' makes
// it imaginary.
size_t number_length(std::string_view t, size_t pos) {
  size_t i = pos;
  if (t.substr(i).starts_with("0x") || t.substr(i).starts_with("0X")) {
    size_t j = i + 2;
    while (j < t.size() && std::isxdigit(static_cast<unsigned char>(t[j]))) ++j;
    if (j > i + 2) return j - pos;
  }
  size_t digits = 0;
  while (i < t.size() && is_digit(t[i])) ++i, ++digits;
  if (i < t.size() && t[i] == '.') {
    ++i;
    while (i < t.size() && is_digit(t[i])) ++i, ++digits;
  }
  if (digits == 0) return 0;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    size_t j = i + 1;
    if (j < t.size() && (t[j] == '+' || t[j] == '-')) ++j;
    if (j < t.size() && is_digit(t[j])) {
      while (j < t.size() && is_digit(t[j])) ++j;
      i = j;
    }
  }
  if (i < t.size() && t[i] == 'j') ++i;
  return i - pos;
}

// The length of the string literal at `pos` ('...', "...", or tripled quotes); 0 when it is
// not closed (on its line, for single quotes).
size_t string_length(std::string_view t, size_t pos) {
  const char q = t[pos];
  const size_t qlen = t.substr(pos, 3) == std::string(3, q) ? 3 : 1;
  const std::string_view close = t.substr(pos, qlen);
  size_t i = pos + qlen;
  while (i < t.size() && t.substr(i, qlen) != close) {
    if (t[i] == '\n' && qlen == 1) return 0;
    if (t[i] == '\\') ++i;
    ++i;
  }
  return i < t.size() ? i + qlen - pos : 0;
}

}  // namespace

SchemaParseError::SchemaParseError(size_t column, std::string detail, std::string_view text,
                                   std::string pytorch_message)
    : ipt::Error(ErrorKind::RuntimeError, format(column, detail, text)),
      column_(column),
      detail_(std::move(detail)),
      pytorch_message_(pytorch_message.empty() ? std::string(what()) : std::move(pytorch_message)) {}

JitToken jit_token_at(std::string_view t, size_t pos) {
  JitToken tok;
  pos = std::min(pos, t.size());
  tok.start = tok.end = pos;
  if (pos >= t.size()) {
    tok.kind = "eof";
    return tok;
  }
  const char c = t[pos];
  if (size_t n = (c == '-' || c == '+' || is_alpha(c)) ? 0 : number_length(t, pos)) {
    tok.kind = "number";
    tok.end = pos + n;
    return tok;
  }
  if (c == '"' || c == '\'') {
    if (size_t n = string_length(t, pos)) {
      tok.kind = "string_literal";
      tok.end = pos + n;
      return tok;
    }
  }
  if (is_alpha(c) || c == '_') {
    size_t e = pos;
    while (e < t.size() && is_ident_char(t[e])) ++e;
    tok.end = e;
    const std::string_view word = t.substr(pos, e - pos);
    tok.kind = "ident";
    for (const char* k : kKeywords)
      if (word == k) tok.kind = k;
    return tok;
  }
  for (const auto& [text, name] : kOperators)
    if (t.substr(pos).starts_with(text)) {
      tok.kind = name;
      tok.end = pos + std::string_view(text).size();
      return tok;
    }
  tok.end = pos + 1;
  tok.kind = std::string(1, c);
  tok.valid = kSingleCharTokens.find(c) != std::string_view::npos;
  return tok;
}

std::string jit_context(std::string_view str, size_t start, size_t end) {
  // Note [Schema error context]: PyTorch's SourceRange::print_with_context with a context of
  // three lines and highlighting on, restated for one string: the same lines, the same `~`
  // under each highlighted line, the same "<--- HERE" after the last.
  constexpr size_t kContext = 3;
  const size_t n = str.size();
  if (end - start == n) return std::string(str);
  const size_t range_end = std::min(end, n);
  if (start > n) return "";
  size_t begin_line = start;
  while (begin_line > 0 && str[begin_line - 1] != '\n') --begin_line;
  size_t end_line = range_end;
  while (end_line < n && str[end_line] != '\n') ++end_line;
  size_t begin_context = begin_line;
  for (size_t newlines = 0; begin_context > 0; --begin_context) {
    if (str[begin_context - 1] == '\n') ++newlines;
    if (newlines >= kContext) break;
  }
  size_t end_context = end_line;
  for (size_t newlines = 0; end_context < n; ++end_context) {
    if (str[end_context] == '\n') ++newlines;
    if (newlines >= kContext) break;
  }
  std::string out(str.substr(begin_context, start - begin_context));
  size_t line_start = start, line_end = start;
  while (line_start < range_end) {
    while (line_end < n && str[line_end] != '\n') ++line_end;
    const std::string_view line = str.substr(line_start, line_end - line_start + 1);
    out += line;
    if (line.empty() || line.back() != '\n') out += '\n';
    size_t hl_begin = line_start, hl_end = line_start;
    while (hl_begin > 0 && str[hl_begin - 1] != '\n') --hl_begin;
    while (hl_end < range_end && str[hl_end] != '\n') ++hl_end;
    size_t blank = 0;
    for (size_t i = hl_begin; i < hl_end && (str[i] == ' ' || i < start); ++i) ++blank;
    const size_t marked = hl_end - hl_begin - blank;
    if (marked > 0) {
      // More highlighted text on a later line: this line's marker ends without the arrow.
      bool more_lines = false;
      for (size_t i = line_end; i <= range_end; ++i)
        if (i >= n || (str[i] != '\n' && str[i] != ' ')) more_lines = true;
      out += std::string(blank, ' ') + std::string(marked, '~');
      out += more_lines && line_end != range_end ? "\n" : " <--- HERE\n";
    }
    ++line_end;
    line_start = line_end;
  }
  if (line_end <= n) {
    const std::string_view tail = str.substr(line_end, end_context - line_end);
    out += tail;
    if (!tail.empty() && tail.back() != '\n') out += '\n';
  }
  return out;
}

std::string jit_expected(std::string_view text, size_t pos, std::string_view expected_kind) {
  const JitToken tok = jit_token_at(text, pos);
  if (!tok.valid)
    return "expected a valid token but found '" + tok.kind + "' here:\n" + jit_context(text, tok.start, tok.end);
  return "expected " + std::string(expected_kind) + " but found '" + tok.kind + "' here:\n" +
         jit_context(text, tok.start, tok.end);
}

std::string jit_report(std::string_view text, size_t start, size_t end, std::string_view message) {
  return "\n" + std::string(message) + ":\n" + jit_context(text, start, end);
}

}  // namespace ipt::schema
