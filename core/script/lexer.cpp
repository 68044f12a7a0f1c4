// Lexer implementation (see lexer.h). The source is expected with "\n" line endings
// (Interpreter::run normalizes "\r\n" and "\r").
#include "core/script/lexer.h"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstring>

#include "core/script/format.h"

namespace ipt::script {

namespace {
bool is_ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || (static_cast<unsigned char>(c) & 0x80);
}
bool is_ident_char(char c) { return is_ident_start(c) || std::isdigit(static_cast<unsigned char>(c)); }

std::string describe_char(std::string_view s, size_t pos) {
  unsigned char c = s[pos];
  uint32_t cp = c;
  size_t len = 1;
  if (c >= 0xC0) {
    len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    if (pos + len > s.size()) len = 1;
    cp = c & (0xFF >> (len + 1));
    for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[pos + k]) & 0x3F);
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "(U+%04X)", cp);
  return "invalid character '" + std::string(s.substr(pos, len)) + "' " + buf;
}
}  // namespace

Lexer::Lexer(std::string_view source, int start_line, int start_col, bool expression_mode)
    : src_(source), line_(start_line), col_(start_col), expr_mode_(expression_mode) {}

void Lexer::error(const std::string& msg, int line, int col, const char* kind) {
  throw SyntaxErrorInfo(kind, msg, line, col);
}

void Lexer::advance(size_t n) {
  for (size_t i = 0; i < n && pos_ < src_.size(); ++i) {
    char c = src_[pos_++];
    if (c == '\n') {
      ++line_;
      col_ = 1;
    } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      ++col_;
    }
  }
}

std::vector<Token> Lexer::tokenize() {
  std::vector<Token> out;
  auto push = [&](Tok k, std::string text, int line, int col) {
    Token t;
    t.kind = k;
    t.text = std::move(text);
    t.line = line;
    t.col = col;
    out.push_back(std::move(t));
  };
  while (true) {
    if (at_line_start_ && brackets_.empty() && !expr_mode_) {
      lex_indentation(out);
      at_line_start_ = false;
    }
    while (pos_ < src_.size() && (peek() == ' ' || peek() == '\t' || peek() == '\f')) advance();
    if (pos_ >= src_.size()) break;
    char c = peek();
    if (c == '#') {
      while (pos_ < src_.size() && peek() != '\n') advance();
      continue;
    }
    if (c == '\\') {
      if (peek(1) == '\n') {
        advance(2);
        continue;
      }
      if (pos_ + 1 >= src_.size()) error("unexpected EOF while parsing", line_, col_);
      error("unexpected character after line continuation character", line_, col_ + 1);
    }
    if (c == '\n') {
      if (!brackets_.empty() || expr_mode_) {
        advance();
        continue;
      }
      push(Tok::Newline, "", line_, col_);
      advance();
      at_line_start_ = true;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) {
      lex_number(out);
      continue;
    }
    if (is_ident_start(c)) {
      lex_name_or_string(out);
      continue;
    }
    if (c == '"' || c == '\'') {
      lex_string(out, "", line_, col_);
      continue;
    }
    lex_operator(out);
  }
  if (!brackets_.empty()) {
    const auto& b = brackets_.back();
    if (expr_mode_) error(std::string("'") + b.ch + "' was never closed", b.line, b.col);
    unclosed_.emplace("SyntaxError", std::string("'") + b.ch + "' was never closed", b.line, b.col);
    push(Tok::End, "", line_, col_);
    return out;
  }
  if (!expr_mode_) {
    if (!out.empty() && out.back().kind != Tok::Newline && out.back().kind != Tok::Dedent &&
        out.back().kind != Tok::Indent)
      push(Tok::Newline, "", line_, col_);
    while (indents_.size() > 1) {
      indents_.pop_back();
      push(Tok::Dedent, "", line_, col_);
    }
  }
  push(Tok::End, "", line_, col_);
  return out;
}

void Lexer::lex_indentation(std::vector<Token>& out) {
  while (true) {
    int width = 0;
    while (pos_ < src_.size()) {
      char c = peek();
      if (c == ' ') width += 1;
      else if (c == '\t') width = (width / 8 + 1) * 8;
      else if (c == '\f') width = 0;
      else break;
      advance();
    }
    if (pos_ >= src_.size()) return;
    char c = peek();
    if (c == '#' || c == '\n') {
      while (pos_ < src_.size() && peek() != '\n') advance();
      if (pos_ < src_.size()) advance();
      continue;
    }
    if (c == '\\' && peek(1) == '\n') {
      // a continuation line starting a statement: treat like an indentation-less join
      return;
    }
    if (width > indents_.back()) {
      indents_.push_back(width);
      Token t;
      t.kind = Tok::Indent;
      t.line = line_;
      t.col = col_;
      out.push_back(t);
    } else {
      while (width < indents_.back()) {
        indents_.pop_back();
        Token t;
        t.kind = Tok::Dedent;
        t.line = line_;
        t.col = col_;
        out.push_back(t);
      }
      if (width != indents_.back())
        error("unindent does not match any outer indentation level", line_, col_, "IndentationError");
    }
    return;
  }
}

void Lexer::lex_number(std::vector<Token>& out) {
  int line = line_, col = col_;
  size_t start = pos_;
  Token t;
  t.line = line;
  t.col = col;
  auto digits_with_underscores = [&](auto is_digit, std::string& acc, const char* what) {
    bool last_us = false;
    bool any = false;
    while (pos_ < src_.size()) {
      char c = peek();
      if (is_digit(c)) {
        acc += c;
        last_us = false;
        any = true;
        advance();
      } else if (c == '_' && any && !last_us && is_digit(peek(1))) {
        last_us = true;
        advance();
      } else {
        break;
      }
    }
    (void)what;
    return any;
  };
  auto isdec = [](char c) { return c >= '0' && c <= '9'; };
  if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X' || peek(1) == 'o' || peek(1) == 'O' || peek(1) == 'b' ||
                        peek(1) == 'B')) {
    char p = static_cast<char>(std::tolower(static_cast<unsigned char>(peek(1))));
    advance(2);
    if (peek() == '_') advance();
    std::string digits;
    int base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
    const char* name = p == 'x' ? "hexadecimal" : p == 'o' ? "octal" : "binary";
    bool any;
    if (base == 16) any = digits_with_underscores([](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }, digits, name);
    else if (base == 8) any = digits_with_underscores([](char c) { return c >= '0' && c <= '7'; }, digits, name);
    else any = digits_with_underscores([](char c) { return c == '0' || c == '1'; }, digits, name);
    if (!any || is_ident_char(peek()))
      error(std::string("invalid ") + name + " literal", line_, col_);
    uint64_t v = 0;
    auto res = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
    if (res.ec != std::errc() || v > static_cast<uint64_t>(INT64_MAX))
      error("integer literal too large (snippets use 64-bit integers)", line, col);
    t.kind = Tok::Int;
    t.ival = static_cast<int64_t>(v);
    t.text = std::string(src_.substr(start, pos_ - start));
    out.push_back(std::move(t));
    return;
  }
  std::string intpart, frac, exp;
  bool is_float = false;
  digits_with_underscores(isdec, intpart, "decimal");
  if (peek() == '.' && !(peek(1) == '.' && peek(2) == '.')) {
    is_float = true;
    advance();
    digits_with_underscores(isdec, frac, "decimal");
  }
  if ((peek() == 'e' || peek() == 'E') &&
      (isdec(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && isdec(peek(2))))) {
    is_float = true;
    exp += 'e';
    advance();
    if (peek() == '+' || peek() == '-') {
      exp += peek();
      advance();
    }
    digits_with_underscores(isdec, exp, "decimal");
  }
  if (peek() == 'j' || peek() == 'J')
    error("complex numbers are not supported in snippets", line, col);
  if (is_ident_char(peek()) || peek() == '_') error("invalid decimal literal", line, col);
  t.text = std::string(src_.substr(start, pos_ - start));
  if (is_float) {
    std::string s = (intpart.empty() ? "0" : intpart) + "." + (frac.empty() ? "0" : frac) + exp;
    double d = 0;
    auto res = std::from_chars(s.data(), s.data() + s.size(), d);
    if (res.ec == std::errc::result_out_of_range) {
      d = std::strtod(s.c_str(), nullptr);  // inf or 0 like Python
    }
    t.kind = Tok::Float;
    t.fval = d;
  } else {
    if (intpart.size() > 1 && intpart[0] == '0' && intpart.find_first_not_of('0') != std::string::npos)
      error("leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers", line,
            col);
    int64_t v = 0;
    auto res = std::from_chars(intpart.data(), intpart.data() + intpart.size(), v);
    if (res.ec != std::errc()) error("integer literal too large (snippets use 64-bit integers)", line, col);
    t.kind = Tok::Int;
    t.ival = v;
  }
  out.push_back(std::move(t));
}

void Lexer::lex_name_or_string(std::vector<Token>& out) {
  int line = line_, col = col_;
  size_t start = pos_;
  while (pos_ < src_.size() && is_ident_char(peek())) advance();
  std::string_view name = src_.substr(start, pos_ - start);
  if ((peek() == '"' || peek() == '\'') && name.size() <= 2) {
    std::string p;
    for (char c : name) p += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (p == "r" || p == "u" || p == "f" || p == "b" || p == "br" || p == "rb" || p == "fr" || p == "rf") {
      lex_string(out, p, line, col);
      return;
    }
  }
  Token t;
  t.kind = Tok::Name;
  t.text = std::string(name);
  t.line = line;
  t.col = col;
  out.push_back(std::move(t));
}

void Lexer::lex_string(std::vector<Token>& out, std::string_view prefix, int line, int col) {
  if (prefix.find('b') != std::string_view::npos) error("bytes literals are not supported in snippets", line, col);
  bool raw = prefix.find('r') != std::string_view::npos;
  bool fstr = prefix.find('f') != std::string_view::npos;
  char q = peek();
  bool triple = peek(1) == q && peek(2) == q;
  advance(triple ? 3 : 1);
  size_t body_start = pos_;
  int body_line = line_, body_col = col_;
  while (true) {
    if (pos_ >= src_.size()) {
      if (triple)
        error("unterminated triple-quoted string literal (detected at line " + std::to_string(line_) + ")", line, col);
      error("unterminated string literal (detected at line " + std::to_string(line_) + ")", line, col);
    }
    char c = peek();
    if (c == '\\') {
      advance();
      if (pos_ < src_.size()) advance();
      continue;
    }
    if (c == '\n' && !triple) error("unterminated string literal (detected at line " + std::to_string(line_) + ")", line, col);
    if (c == q && (!triple || (peek(1) == q && peek(2) == q))) break;
    advance();
  }
  std::string_view body = src_.substr(body_start, pos_ - body_start);
  advance(triple ? 3 : 1);
  Token t;
  t.line = line;
  t.col = col;
  if (fstr) {
    t.kind = Tok::FString;
    t.text = std::string(body);
    t.body_offset = body_start;
    t.body_line = body_line;
    t.body_col = body_col;
    t.raw = raw;
    t.quote = q;
  } else {
    t.kind = Tok::String;
    t.text = decode_escapes(body, raw, body_line, body_col);
  }
  out.push_back(std::move(t));
}

std::string Lexer::decode_escapes(std::string_view body, bool raw, int line, int col) {
  if (raw || body.find('\\') == std::string_view::npos) return std::string(body);
  std::string out;
  out.reserve(body.size());
  auto hexval = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 >= body.size()) {
      out += c;
      continue;
    }
    char e = body[++i];
    switch (e) {
      case '\n': break;
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
        int v = e - '0';
        for (int k = 0; k < 2 && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7'; ++k)
          v = v * 8 + (body[++i] - '0');
        out += utf8_encode(static_cast<uint32_t>(v));
        break;
      }
      case 'x': case 'u': case 'U': {
        int n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        uint32_t v = 0;
        for (int k = 0; k < n; ++k) {
          int h = i + 1 < body.size() ? hexval(body[i + 1]) : -1;
          if (h < 0) {
            const char* what = e == 'x' ? "truncated \\xXX escape" : e == 'u' ? "truncated \\uXXXX escape" : "truncated \\UXXXXXXXX escape";
            throw SyntaxErrorInfo("SyntaxError", std::string("(unicode error) 'unicodeescape' codec can't decode bytes: ") + what, line, col);
          }
          v = v * 16 + static_cast<uint32_t>(h);
          ++i;
        }
        if (v > 0x10FFFF)
          throw SyntaxErrorInfo("SyntaxError", "(unicode error) 'unicodeescape' codec can't decode bytes: illegal Unicode character", line, col);
        out += utf8_encode(v);
        break;
      }
      case 'N':
        throw SyntaxErrorInfo("SyntaxError", "\\N{...} escapes are not supported in snippets", line, col);
      default:
        out += '\\';
        out += e;
    }
  }
  return out;
}

void Lexer::lex_operator(std::vector<Token>& out) {
  static const char* ops3[] = {"**=", "//=", ">>=", "<<=", "...", nullptr};
  static const char* ops2[] = {"**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+=", "-=", "*=", "/=", "%=",
                               "&=", "|=", "^=", "@=", "->", ":=", nullptr};
  static const char ops1[] = "+-*/%@&|^~<>()[]{},:.;=";
  int line = line_, col = col_;
  Token t;
  t.kind = Tok::Op;
  t.line = line;
  t.col = col;
  for (int i = 0; ops3[i]; ++i)
    if (src_.compare(pos_, 3, ops3[i]) == 0) {
      t.text = ops3[i];
      advance(3);
      out.push_back(std::move(t));
      return;
    }
  for (int i = 0; ops2[i]; ++i)
    if (src_.compare(pos_, 2, ops2[i]) == 0) {
      t.text = ops2[i];
      advance(2);
      out.push_back(std::move(t));
      return;
    }
  char c = peek();
  if (c != '\0' && std::strchr(ops1, c)) {
    if (c == '(' || c == '[' || c == '{') {
      if (brackets_.size() >= 200) error("too many nested parentheses", line, col);
      brackets_.push_back({c, line, col});
    } else if (c == ')' || c == ']' || c == '}') {
      if (brackets_.empty()) error(std::string("unmatched '") + c + "'", line, col);
      char open = brackets_.back().ch;
      char want = open == '(' ? ')' : open == '[' ? ']' : '}';
      if (c != want) {
        std::string msg = std::string("closing parenthesis '") + c + "' does not match opening parenthesis '" + open + "'";
        if (brackets_.back().line != line) msg += " on line " + std::to_string(brackets_.back().line);
        error(msg, line, col);
      }
      brackets_.pop_back();
    }
    t.text = std::string(1, c);
    advance();
    out.push_back(std::move(t));
    return;
  }
  if (c == '!') error("invalid syntax", line, col);
  error(describe_char(src_, pos_), line, col);
}

}  // namespace ipt::script
