// A hand-written recursive-descent parser for schema text (grammar in schema_parser.h).
// It reads characters directly, no separate lexer: every error can then point at the
// exact column where the text stopped making sense.

#include "core/schema/schema_parser.h"

#include <array>
#include <cctype>
#include <string>

namespace ipt::schema {

namespace {

constexpr std::array kBaseTypes = {
    "Tensor", "int",    "SymInt", "float",     "bool",    "str",    "Scalar",
    "ScalarType", "Device", "Layout", "MemoryFormat", "Generator", "Dimname", "Storage",
    "Stream", "QScheme", "ConstQuantizerPtr", "complex", "number", "Any"};

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  FunctionSchema parse() {
    FunctionSchema s;
    s.name = operator_name();
    if (accept('.')) s.overload_name = identifier("an overload name");
    expect('(');
    arguments(s);
    expect("->");
    returns(s);
    skip_ws();
    if (pos_ < text_.size()) fail_expected("end of schema");
    return s;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;

  // ---- characters and errors -------------------------------------------------------

  void skip_ws() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  char peek() {
    skip_ws();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  bool looking_at(std::string_view s) {
    skip_ws();
    return text_.substr(pos_).starts_with(s);
  }
  bool accept(std::string_view s) {
    if (!looking_at(s)) return false;
    pos_ += s.size();
    return true;
  }
  bool accept(char c) { return accept(std::string_view(&c, 1)); }
  void expect(std::string_view s) {
    if (!accept(s)) fail_expected("'" + std::string(s) + "'");
  }
  void expect(char c) { expect(std::string_view(&c, 1)); }

  [[noreturn]] void fail_at(size_t column, std::string detail) {
    throw SchemaParseError(column, std::move(detail), text_);
  }
  [[noreturn]] void fail_expected(const std::string& what) {
    skip_ws();
    std::string found = pos_ < text_.size() ? "'" + std::string(1, text_[pos_]) + "'" : "end of input";
    fail_at(pos_, "expected " + what + " but found " + found);
  }

  std::string identifier(const char* what) {
    if (!is_ident_start(peek())) fail_expected(what);
    size_t start = pos_;
    while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }

  // ---- name and arguments ----------------------------------------------------------

  // "add", or with a namespace "aten::add".
  std::string operator_name() {
    std::string name = identifier("an operator name");
    if (text_.substr(pos_).starts_with("::")) {
      pos_ += 2;
      name += "::" + identifier("an operator name after '::'");
    }
    return name;
  }

  void arguments(FunctionSchema& s) {
    if (accept(')')) return;
    bool kwarg_only = false;
    while (true) {
      if (!kwarg_only && accept('*')) {
        kwarg_only = true;
        expect(',');  // '*' must be followed by at least one keyword-only argument
        continue;
      }
      if (accept("...")) {
        s.is_vararg = true;
        expect(')');
        return;
      }
      s.arguments.push_back(argument(kwarg_only));
      if (accept(')')) return;
      if (!accept(',')) fail_expected("')' or ','");
    }
  }

  Argument argument(bool kwarg_only) {
    Argument a;
    a.kwarg_only = kwarg_only;
    a.type = type(a.alias);
    a.name = identifier("an argument name");
    if (accept('=')) a.default_value = default_value();
    a.is_out = kwarg_only && a.alias && a.alias->is_write;
    return a;
  }

  // ---- types and alias annotations -------------------------------------------------

  Type type(std::optional<AliasInfo>& alias) {
    if (!is_ident_start(peek())) fail_expected("a type");
    size_t start = pos_;
    std::string name = identifier("a type");
    if (!is_known_base_type(name)) fail_at(start, "unknown type '" + name + "'");
    if (peek() == '(') alias = alias_info();
    Type t = Type::base(std::move(name));
    while (true) {
      if (peek() == '?') {
        if (t.is_optional()) fail_expected("'[' or a name (a type is optional once)");
        ++pos_;
        t = Type::optional(std::move(t));
      } else if (accept('[')) {
        std::optional<int64_t> size;
        if (is_digit(peek())) size = number();
        expect(']');
        t = Type::list(std::move(t), size);
      } else {
        return t;
      }
    }
  }

  int64_t number() {
    size_t start = pos_;
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
    if (pos_ - start > 15) fail_at(start, "list size is too large");
    return std::stoll(std::string(text_.substr(start, pos_ - start)));
  }

  AliasInfo alias_info() {
    AliasInfo info;
    expect('(');
    info.before_set = alias_set();
    if (accept('!')) info.is_write = true;
    if (accept("->")) info.after_set = alias_set();
    if (!accept(')')) fail_expected(info.after_set.empty() ? "'!', '->', '|' or ')'" : "'|' or ')'");
    return info;
  }

  std::vector<std::string> alias_set() {
    std::vector<std::string> names;
    do {
      if (accept('*')) names.push_back("*");
      else names.push_back(identifier("an alias set name or '*'"));
    } while (accept('|'));
    return names;
  }

  // ---- default values: checked for shape, kept as literal text ---------------------

  std::string default_value() {
    skip_ws();
    size_t start = pos_;
    default_atom();
    return std::string(text_.substr(start, pos_ - start));
  }

  // Defaults are at most a list of numbers in practice; a bound keeps a hostile nest of '['
  // from exhausting the stack.
  static constexpr int kMaxDefaultDepth = 16;

  void default_atom(int depth = 0) {
    char c = peek();
    if (c == '\'' || c == '"') return string_literal(c);
    if (c == '[') {
      if (depth >= kMaxDefaultDepth)
        fail_at(pos_, "default value nests lists deeper than " + std::to_string(kMaxDefaultDepth) + " levels");
      return default_list(depth + 1);
    }
    if (c == '-' || c == '.' || is_digit(c)) return number_literal();
    if (is_ident_start(c)) {
      identifier("a default value");  // True, None, contiguous_format, Mean, long
      return;
    }
    fail_expected("a default value");
  }

  void default_list(int depth) {
    expect('[');
    if (accept(']')) return;
    do default_atom(depth);
    while (accept(','));
    if (!accept(']')) fail_expected("',' or ']'");
  }

  void string_literal(char quote) {
    size_t start = pos_++;
    while (pos_ < text_.size() && text_[pos_] != quote) pos_ += text_[pos_] == '\\' ? 2 : 1;
    if (pos_ >= text_.size()) {
      pos_ = text_.size();
      fail_at(pos_, "expected closing " + std::string(1, quote) + " for the string at column " +
                        std::to_string(start) + " but found end of input");
    }
    ++pos_;
  }

  // -1, 0.5, 1e-05, .5, and -inf style negated names.
  void number_literal() {
    if (text_[pos_] == '-') {
      ++pos_;
      if (pos_ < text_.size() && is_ident_start(text_[pos_])) {
        identifier("a number");
        return;
      }
    }
    size_t digits = 0;
    auto run = [&] {
      while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_, ++digits;
    };
    run();
    if (pos_ < text_.size() && text_[pos_] == '.') ++pos_, run();
    if (digits == 0) fail_expected("a digit");
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (pos_ >= text_.size() || !is_digit(text_[pos_])) fail_expected("an exponent");
      run();
    }
  }

  // ---- returns ---------------------------------------------------------------------

  void returns(FunctionSchema& s) {
    if (accept("...")) {
      s.is_varret = true;
      return;
    }
    if (!accept('(')) {
      s.returns.push_back(single_return());
      return;
    }
    if (accept(')')) return;
    while (true) {
      if (accept("...")) {
        s.is_varret = true;
        expect(')');
        return;
      }
      s.returns.push_back(single_return());
      if (accept(')')) return;
      if (!accept(',')) fail_expected("')' or ','");
    }
  }

  Return single_return() {
    Return r;
    r.type = type(r.alias);
    if (is_ident_start(peek())) r.name = identifier("a return name");
    return r;
  }
};

}  // namespace

bool is_known_base_type(std::string_view name) {
  for (const char* t : kBaseTypes)
    if (name == t) return true;
  return false;
}

FunctionSchema parse_schema(std::string_view text) { return Parser(text).parse(); }

}  // namespace ipt::schema
