// A hand-written recursive-descent parser for schema text (grammar in schema_parser.h).
// It reads characters directly, no separate lexer: every error can then point at the
// exact column where the text stopped making sense.

#include "core/schema/schema_parser.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace ipt::schema {

namespace {

constexpr std::array kBaseTypes = {
    "Tensor", "int",          "SymInt",      "float",   "bool",    "str",    "Scalar",  "ScalarType",        "Device",
    "Layout", "MemoryFormat", "Generator",   "Dimname", "Storage", "Stream", "QScheme", "ConstQuantizerPtr", "complex",
    "number", "Any",          "DeviceIndex", "SymBool"};

// PyTorch's message for a name its schema type parser does not know.
constexpr const char* kUnknownType =
    "unknown type specifier. Common valid schema types include Tensor, SymInt, int, float, bool, Scalar; "
    "for a full list, please see https://github.com/pytorch/pytorch/blob/main/aten/src/ATen/native/README.md#func ";

// The identifiers a default may be (besides True, False, None): the enum spellings PyTorch's
// schema parser turns into integers (Note [Schema defaults]).
constexpr std::array kDefaultNames = {"float", "complex", "long", "strided", "Mean", "contiguous_format"};

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

class Parser {
 public:
  Parser(std::string_view text, bool pytorch_types) : text_(text), pytorch_types_(pytorch_types) {}

  FunctionSchema parse() {
    FunctionSchema s;
    s.name = operator_name();
    if (accept('.')) {
      s.overload_name = identifier("an overload name");
      // PyTorch keeps "default" for OpOverloadPacket.default and dunders for Python attributes.
      if (s.overload_name == "default" || s.overload_name.starts_with("__"))
        fail_at(pos_ - s.overload_name.size(), "'" + s.overload_name + "' is not a legal overload name",
                s.overload_name + " is not a legal overload name for aten operators");
    }
    if (peek() != '(') {
      // PyTorch reads a name without '(' as an operator name, then wants the text to end.
      if (pos_ >= text_.size())
        fail_at(pos_, "expected '(' but found end of input",
                "Tried to parse a function schema but only the operator name was given");
      fail_expected("'('", "eof");
    }
    arguments(s);
    expect("->", "arrow");
    returns(s);
    skip_ws();
    if (pos_ < text_.size()) fail_expected("end of schema", "eof");
    return s;
  }

 private:
  std::string_view text_;
  bool pytorch_types_;  // only the base types PyTorch 2.15's own parser knows (no Dimname)
  size_t pos_ = 0;

  // ---- characters and errors -------------------------------------------------------

  // Whitespace, and a '#' comment to the end of its line, as PyTorch's lexer skips them.
  void skip_ws() {
    while (pos_ < text_.size()) {
      if (std::isspace(static_cast<unsigned char>(text_[pos_]))) {
        ++pos_;
      } else if (text_[pos_] == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
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
  // jit_kind: the token kind PyTorch's parser expects there ("ident", ")", "arrow", ...).
  void expect(std::string_view s, std::string_view jit_kind) {
    if (!accept(s)) fail_expected("'" + std::string(s) + "'", jit_kind);
  }
  void expect(char c) { expect(std::string_view(&c, 1), std::string_view(&c, 1)); }

  [[noreturn]] void fail_at(size_t column, std::string detail, std::string pytorch_message = "") {
    throw SchemaParseError(column, std::move(detail), text_, std::move(pytorch_message));
  }
  [[noreturn]] void fail_expected(const std::string& what, std::string_view jit_kind) {
    skip_ws();
    std::string found = pos_ < text_.size() ? "'" + std::string(1, text_[pos_]) + "'" : "end of input";
    fail_at(pos_, "expected " + what + " but found " + found, jit_expected(text_, pos_, jit_kind));
  }
  // A mistake PyTorch reports with a message of its own about the token at `at`.
  [[noreturn]] void fail_report(size_t at, std::string detail, std::string_view message) {
    const JitToken tok = jit_token_at(text_, at);
    fail_at(at, std::move(detail), jit_report(text_, tok.start, tok.end, message));
  }

  // A name; PyTorch's lexer reads keywords (in, if, def, True, None, ...) as tokens of their
  // own, so a keyword is no name unless `keyword_ok` (the True / None of a default).
  std::string identifier(const char* what, bool keyword_ok = false) {
    if (!is_ident_start(peek())) fail_expected(what, "ident");
    size_t start = pos_;
    while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
    if (!keyword_ok && jit_token_at(text_, start).kind != "ident") {
      pos_ = start;
      fail_expected(what, "ident");
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  // ---- name and arguments ----------------------------------------------------------

  // "add", or with a namespace "aten::add".
  std::string operator_name() {
    std::string name = identifier("an operator name");
    if (text_.substr(pos_).starts_with("::")) {
      pos_ += 2;
      name += "::" + identifier("an operator name after '::'");
    } else if (peek() == ':') {
      ++pos_;
      if (peek() != ':') fail_expected("'::'", ":");
    }
    return name;
  }

  // Items separated by ',': arguments, '*' (every later argument is keyword-only; a '*' that
  // nothing follows changes nothing, as in PyTorch) and a final '...'.
  void arguments(FunctionSchema& s) {
    expect('(');
    if (accept(')')) return;
    bool kwarg_only = false;
    do {
      skip_ws();
      if (s.is_vararg)
        fail_report(pos_, "'...' must end the argument list", "... must be the last element of the argument list");
      if (accept('*')) kwarg_only = true;
      else if (accept("...")) s.is_vararg = true;
      else s.arguments.push_back(argument(kwarg_only));
    } while (accept(','));
    if (!accept(')')) fail_expected("')' or ','", ")");
    if (s.is_vararg)
      for (const Argument& a : s.arguments)
        if (a.default_value)
          fail_report((skip_ws(), pos_), "a schema with '...' has no default values",
                      "schemas with vararg (...) can't have default value args");
  }

  Argument argument(bool kwarg_only) {
    Argument a;
    a.kwarg_only = kwarg_only;
    a.type = type(a.alias);
    a.name = identifier("an argument name");
    if (accept('=')) a.default_value = default_value(a.type);
    a.is_out = kwarg_only && a.alias && a.alias->is_write;
    return a;
  }

  // ---- types and alias annotations -------------------------------------------------

  Type type(std::optional<AliasInfo>& alias) {
    if (!is_ident_start(peek())) fail_expected("a type", "ident");
    size_t start = pos_;
    std::string name = identifier("a type");
    if (!is_known_base_type(name) || (pytorch_types_ && name == "Dimname"))
      fail_report(start, "unknown type '" + name + "'", kUnknownType);
    if (peek() == '(') alias = alias_info();
    Type t = Type::base(std::move(name));
    while (true) {
      if (peek() == '?') {
        ++pos_;
        if (!t.is_optional()) t = Type::optional(std::move(t));  // `T??` is `T?`, as in PyTorch
      } else if (accept('[')) {
        std::optional<int64_t> size;
        if (peek() != ']') {
          if (!is_digit(peek())) fail_expected("a list size or ']'", "number");
          size = number();
        }
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
    if (!accept(')')) fail_expected(info.after_set.empty() ? "'!', '->', '|' or ')'" : "'|' or ')'", ")");
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
  //
  // Note [Schema defaults]: a default keeps the text it was written with (str() prints the
  // YAML back unchanged). It is checked as PyTorch 2.15's parser checks it where the two read
  // the same thing, with PyTorch's message: a Tensor or Generator takes only None, a Device only
  // a string, a name must be one PyTorch turns into a number (Mean, long, contiguous_format, ...).
  // Beyond PyTorch, a list may be written for any type and lists may nest (16 levels at most):
  // the text is kept as written, and nothing here evaluates it.

  std::string default_value(const Type& type) {
    skip_ws();
    size_t start = pos_;
    if (type.kind == Type::Kind::Base && (type.name == "Tensor" || type.name == "Generator")) {
      if (!looking_at_word("None")) fail_expected("None", "None");
      pos_ += 4;
    } else if (type.kind == Type::Kind::Base && type.name == "Device") {
      if (peek() != '\'' && peek() != '"') fail_expected("a device string", "string_literal");
      string_literal(peek());
    } else if (pytorch_types_ && type.is_list()) {
      pytorch_list_default(type);
    } else {
      if (pytorch_types_ && peek() == '[') fail_expected("a default value", "number");  // a list for a non-list
      default_atom();
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  // PyTorch's rules for a list type's default: `[a, b]` of numbers or booleans for a list of
  // int, float, bool or complex (or one of them, repeated, for `int[N]`); nothing else.
  void pytorch_list_default(const Type& type) {
    const Type& elem = type.element();
    const std::string leaf = elem.kind == Type::Kind::Base ? elem.name : "";
    if (is_ident_start(peek()) && jit_token_at(text_, pos_).kind == "ident") fail_expected("None", "None");
    if (type.size && peek() != '[') {
      default_atom();
    } else {
      const size_t open = (skip_ws(), pos_);
      if (peek() != '[') fail_expected("'['", "[");
      default_list(1);
      static constexpr std::string_view kListed[] = {"int",        "SymInt", "float",        "bool",       "complex",
                                                     "ScalarType", "Layout", "MemoryFormat", "DeviceIndex"};
      if (std::find(std::begin(kListed), std::end(kListed), leaf) == std::end(kListed))
        fail_report(open, "a default list of " + leaf, "lists are only supported for float, int and complex types");
    }
  }

  bool looking_at_word(std::string_view w) {
    skip_ws();
    return text_.substr(pos_).starts_with(w) &&
           (pos_ + w.size() >= text_.size() || !is_ident_char(text_[pos_ + w.size()]));
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
      const std::string name = identifier("a default value", /*keyword_ok=*/true);
      bool known = name == "True" || name == "False" || name == "None";
      for (const char* n : kDefaultNames) known = known || name == n;
      // PyTorch marks the token after the name.
      if (!known)
        fail_report((skip_ws(), pos_), "unknown default value '" + name + "'", "invalid numeric default value");
      return;
    }
    fail_expected("a default value", "number");
  }

  void default_list(int depth) {
    expect('[');
    if (accept(']')) return;
    do default_atom(depth);
    while (accept(','));
    if (!accept(']')) fail_expected("',' or ']'", "]");
  }

  void string_literal(char quote) {
    size_t start = pos_++;
    while (pos_ < text_.size() && text_[pos_] != quote) pos_ += text_[pos_] == '\\' ? 2 : 1;
    if (pos_ >= text_.size()) {
      pos_ = text_.size();
      fail_at(pos_,
              "expected closing " + std::string(1, quote) + " for the string at column " + std::to_string(start) +
                  " but found end of input",
              jit_expected(text_, start, "string_literal"));
    }
    ++pos_;
  }

  // -1, 0.5, 1e-05, .5 (as PyTorch, no -inf: a float default is a number).
  void number_literal() {
    if (text_[pos_] == '-') {
      ++pos_;
    }
    size_t digits = 0;
    auto run = [&] {
      while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_, ++digits;
    };
    run();
    if (pos_ < text_.size() && text_[pos_] == '.') ++pos_, run();
    if (digits == 0) fail_expected("a digit", "number");
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (pos_ >= text_.size() || !is_digit(text_[pos_])) fail_expected("an exponent", "number");
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
    do {
      skip_ws();
      if (s.is_varret)
        fail_report(pos_, "'...' must end the return list", "... must be the last element of the return list");
      if (accept("...")) s.is_varret = true;
      else s.returns.push_back(single_return());
    } while (accept(','));
    if (!accept(')')) fail_expected("')' or ','", ")");
  }

  Return single_return() {
    Return r;
    r.type = type(r.alias);
    // A return's name is on its line: PyTorch reads a newline outside parentheses as the
    // end of the schema, and a keyword as no name.
    skip_ws();
    size_t after_type = pos_;
    while (after_type > 0 && std::isspace(static_cast<unsigned char>(text_[after_type - 1]))) --after_type;
    if (is_ident_start(peek()) && text_.substr(after_type, pos_ - after_type).find('\n') == std::string_view::npos &&
        jit_token_at(text_, pos_).kind == "ident")
      r.name = identifier("a return name");
    return r;
  }
};

}  // namespace

bool is_known_base_type(std::string_view name) {
  for (const char* t : kBaseTypes)
    if (name == t) return true;
  return false;
}

FunctionSchema parse_schema(std::string_view text) { return Parser(text, false).parse(); }

FunctionSchema parse_schema_pytorch(std::string_view text) { return Parser(text, true).parse(); }

}  // namespace ipt::schema
