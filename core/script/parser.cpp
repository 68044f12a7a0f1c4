// Recursive-descent parser for the snippet language (see parser.h). The grammar follows
// Python 3.11's precedence: lambda < if-else < or < and < not < comparisons < | < ^ < & <
// shifts < + - < * / // % @ < unary < ** < primaries (calls, subscripts, attributes).
#include "core/script/parser.h"

#include <algorithm>
#include <cstring>
#include <unordered_set>

namespace ipt::script {

using namespace ast;

namespace {

constexpr int kMaxNesting = 200;     // recursion depth of the parser itself
constexpr int kMaxExprDepth = 1000;  // depth of one expression tree (e.g. 1+1+...+1)

const std::unordered_set<std::string>& keywords() {
  static const std::unordered_set<std::string> k = {
      "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
      "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
      "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield"};
  return k;
}
bool unsupported_keyword(const std::string& s) {
  return s == "class" || s == "global" || s == "nonlocal" || s == "yield" || s == "async" || s == "await";
}

class Parser {
 public:
  Parser(std::vector<Token> tokens, std::string_view source) : toks_(std::move(tokens)), src_(source) {}

  Body parse_file() {
    Body body;
    while (!at(Tok::End)) {
      if (at(Tok::Newline)) { ++pos_; continue; }
      if (at(Tok::Indent)) fail_indent("unexpected indent", peek());
      if (at(Tok::Dedent)) { ++pos_; continue; }
      parse_statement(body);
    }
    return body;
  }

  // An f-string replacement field: the whole token stream is one expression list.
  ExprPtr parse_field_expression() {
    ExprPtr e = parse_star_expressions(true);
    if (!at(Tok::End)) fail("f-string: invalid syntax", peek());
    return e;
  }

 private:
  std::vector<Token> toks_;
  std::string_view src_;
  size_t pos_ = 0;
  int nesting_ = 0;
  int loop_depth_ = 0;
  int func_depth_ = 0;
  int block_depth_ = 0;

  struct NestGuard {
    Parser& p;
    explicit NestGuard(Parser& parser, const Token& t) : p(parser) {
      if (++p.nesting_ > kMaxNesting) p.fail("expression too deeply nested", t);
    }
    ~NestGuard() { --p.nesting_; }
  };

  // ---- token helpers ----
  const Token& peek(size_t k = 0) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
  bool at(Tok k) const { return peek().kind == k; }
  bool at_op(const char* s) const { return peek().kind == Tok::Op && peek().text == s; }
  bool at_kw(const char* s) const { return peek().kind == Tok::Name && peek().text == s; }
  bool accept_op(const char* s) {
    if (at_op(s)) { ++pos_; return true; }
    return false;
  }
  bool accept_kw(const char* s) {
    if (at_kw(s)) { ++pos_; return true; }
    return false;
  }
  static Pos pos_of(const Token& t) { return {t.line, t.col}; }

  [[noreturn]] void fail(const std::string& msg, const Token& t) { throw SyntaxErrorInfo("SyntaxError", msg, t.line, t.col); }
  [[noreturn]] void fail_at(const std::string& msg, Pos p) { throw SyntaxErrorInfo("SyntaxError", msg, p.line, p.col); }
  [[noreturn]] void fail_indent(const std::string& msg, const Token& t) {
    throw SyntaxErrorInfo("IndentationError", msg, t.line, t.col);
  }
  [[noreturn]] void fail_expected(const std::string& what, const Token& t) {
    if (t.kind == Tok::Indent) fail_indent("unexpected indent", t);
    fail("invalid syntax (expected " + what + ")", t);
  }
  void expect_op(const char* s, const std::string& what) {
    if (!accept_op(s)) fail_expected(what, peek());
  }
  void check_unsupported(const Token& t) {
    if (t.kind == Tok::Name && unsupported_keyword(t.text)) fail("'" + t.text + "' is not supported in snippets", t);
  }

  std::string ident(const std::string& what) {
    const Token& t = peek();
    if (t.kind != Tok::Name) fail_expected(what, t);
    if (keywords().count(t.text)) {
      check_unsupported(t);
      fail("invalid syntax ('" + t.text + "' is a keyword and cannot be used as a name)", t);
    }
    ++pos_;
    return t.text;
  }

  bool starts_expression() const {
    const Token& t = peek();
    switch (t.kind) {
      case Tok::Int: case Tok::Float: case Tok::String: case Tok::FString: return true;
      case Tok::Name:
        return !keywords().count(t.text) || t.text == "None" || t.text == "True" || t.text == "False" ||
               t.text == "not" || t.text == "lambda" || t.text == "await" || t.text == "yield";
      case Tok::Op:
        return t.text == "(" || t.text == "[" || t.text == "{" || t.text == "-" || t.text == "+" || t.text == "~" ||
               t.text == "..." || t.text == "*";
      default: return false;
    }
  }

  static int depth_of(std::initializer_list<const Expr*> children) {
    int d = 0;
    for (auto* c : children)
      if (c) d = std::max(d, c->depth);
    return d + 1;
  }
  void set_depth(Expr* e, int d) {
    e->depth = d;
    if (d > kMaxExprDepth) fail_at("expression too complex (nested too deeply)", e->pos);
  }

  // ---- statements ----
  void parse_statement(Body& out) {
    const Token& t = peek();
    if (t.kind == Tok::Op && t.text == "@") {
      parse_decorated(out);
      return;
    }
    if (t.kind == Tok::Name) {
      const std::string& k = t.text;
      if (k == "if") { out.push_back(parse_if()); return; }
      if (k == "while") { out.push_back(parse_while()); return; }
      if (k == "for") { out.push_back(parse_for()); return; }
      if (k == "def") { out.push_back(parse_def({})); return; }
      if (k == "with") { out.push_back(parse_with()); return; }
      if (k == "try") { out.push_back(parse_try()); return; }
      if (k == "class" || k == "global" || k == "nonlocal" || k == "async") check_unsupported(t);
      if (k == "elif" || k == "else" || k == "except" || k == "finally") fail("invalid syntax", t);
    }
    parse_simple_statements(out);
  }

  void parse_simple_statements(Body& out) {
    while (true) {
      out.push_back(parse_simple_statement());
      if (accept_op(";")) {
        if (at(Tok::Newline) || at(Tok::End)) break;
        continue;
      }
      break;
    }
    if (at(Tok::End)) return;
    if (!at(Tok::Newline)) {
      const Token& t = peek();
      if (t.kind == Tok::Op && (t.text == "=" )) fail("invalid syntax", t);
      if (t.kind == Tok::Op && t.text == ":=")
        fail("assignment expressions (':=') are not supported in snippets", t);
      fail_expected("end of statement (newline or ';')", t);
    }
    ++pos_;
  }

  // A block after ':' — an indented suite or simple statements on the same line.
  Body parse_block(const std::string& what, const Token& header) {
    if (++block_depth_ > 100) fail("too many statically nested blocks", header);
    Body body;
    if (at(Tok::Newline)) {
      ++pos_;
      if (!at(Tok::Indent))
        fail_indent("expected an indented block after " + what + " on line " + std::to_string(header.line), peek());
      ++pos_;
      while (!at(Tok::Dedent) && !at(Tok::End)) {
        if (at(Tok::Newline)) { ++pos_; continue; }
        if (at(Tok::Indent)) fail_indent("unexpected indent", peek());
        parse_statement(body);
      }
      if (at(Tok::Dedent)) ++pos_;
    } else {
      if (at(Tok::End)) fail_expected("a statement after ':'", peek());
      parse_simple_statements(body);
    }
    --block_depth_;
    return body;
  }

  void expect_colon(const std::string& after) {
    if (!accept_op(":")) {
      const Token& t = peek();
      if (t.kind == Tok::Op && t.text == "=")
        fail("invalid syntax (expected ':' after " + after + "; use '==' to compare)", t);
      fail_expected("':' after " + after, t);
    }
  }

  StmtPtr parse_if() {
    const Token& kw = peek();
    ++pos_;
    auto s = make<If>(pos_of(kw));
    s->test = parse_named_expression();
    expect_colon("'" + kw.text + "' condition");
    s->body = parse_block("'" + kw.text + "' statement", kw);
    if (at_kw("elif")) {
      s->orelse.push_back(parse_if());
    } else if (at_kw("else")) {
      const Token& e = peek();
      ++pos_;
      expect_colon("'else'");
      s->orelse = parse_block("'else' statement", e);
    }
    return s;
  }

  StmtPtr parse_while() {
    const Token& kw = peek();
    ++pos_;
    auto s = make<While>(pos_of(kw));
    s->test = parse_named_expression();
    expect_colon("'while' condition");
    ++loop_depth_;
    s->body = parse_block("'while' statement", kw);
    --loop_depth_;
    if (at_kw("else")) {
      const Token& e = peek();
      ++pos_;
      expect_colon("'else'");
      s->orelse = parse_block("'else' statement", e);
    }
    return s;
  }

  StmtPtr parse_for() {
    const Token& kw = peek();
    ++pos_;
    auto s = make<For>(pos_of(kw));
    s->target = parse_target_list();
    check_target(s->target.get(), TargetUse::For);
    if (!accept_kw("in")) fail_expected("'in' after 'for' target", peek());
    s->iter = parse_star_expressions(false);
    expect_colon("'for' iterable");
    ++loop_depth_;
    s->body = parse_block("'for' statement", kw);
    --loop_depth_;
    if (at_kw("else")) {
      const Token& e = peek();
      ++pos_;
      expect_colon("'else'");
      s->orelse = parse_block("'else' statement", e);
    }
    return s;
  }

  void parse_decorated(Body& out) {
    std::vector<ExprPtr> decorators;
    while (at_op("@")) {
      ++pos_;
      decorators.push_back(parse_named_expression());
      if (!at(Tok::Newline)) fail_expected("newline after decorator", peek());
      ++pos_;
    }
    if (at_kw("class")) check_unsupported(peek());
    if (!at_kw("def")) fail_expected("'def' after decorator", peek());
    out.push_back(parse_def(std::move(decorators)));
  }

  StmtPtr parse_def(std::vector<ExprPtr> decorators) {
    const Token& kw = peek();
    ++pos_;
    auto s = make<FunctionDef>(pos_of(kw));
    s->decorators = std::move(decorators);
    auto fn = std::make_unique<FunctionInfo>();
    fn->pos = pos_of(kw);
    const Token& nt = peek();
    fn->name = ident("function name after 'def'");
    auto target = make<Name>(pos_of(nt));
    target->id = fn->name;
    s->target = std::move(target);
    expect_op("(", "'(' after function name");
    parse_parameters(*fn, ")", true);
    expect_op(")", "')' to close the parameter list");
    if (accept_op("->")) parse_expression();  // return annotation: parsed, ignored
    expect_colon("function signature");
    int saved_loop = loop_depth_;
    loop_depth_ = 0;
    ++func_depth_;
    fn->body = parse_block("function definition", kw);
    --func_depth_;
    loop_depth_ = saved_loop;
    s->fn = std::move(fn);
    return s;
  }

  void parse_parameters(FunctionInfo& fn, const char* closer, bool annotations) {
    bool seen_default = false, seen_star = false, bare_star = false;
    std::unordered_set<std::string> names;
    auto add_name = [&](const std::string& n, const Token& t) {
      if (!names.insert(n).second) fail("duplicate argument '" + n + "' in function definition", t);
    };
    while (!at_op(closer)) {
      const Token& t = peek();
      if (accept_op("/")) {
        if (seen_star || fn.params.empty()) fail("invalid syntax", t);
      } else if (accept_op("**")) {
        const Token& nt = peek();
        fn.kwarg = ident("parameter name after '**'");
        add_name(fn.kwarg, nt);
        if (annotations && accept_op(":")) parse_expression();
        if (!at_op(closer)) {
          accept_op(",");
          if (!at_op(closer)) fail("arguments cannot follow var-keyword argument", peek());
        }
        break;
      } else if (accept_op("*")) {
        if (seen_star) fail("* argument may appear only once", t);
        seen_star = true;
        if (at_op(",") || at_op(closer)) {
          bare_star = true;
          if (at_op(closer) || (peek(1).kind == Tok::Op && peek(1).text == closer) ||
              (peek(1).kind == Tok::Op && peek(1).text == "**"))
            fail("named arguments must follow bare *", t);
        } else {
          const Token& nt = peek();
          fn.vararg = ident("parameter name after '*'");
          add_name(fn.vararg, nt);
          if (annotations && accept_op(":")) parse_expression();
        }
      } else {
        Parameter p;
        p.pos = pos_of(t);
        p.name = ident("a parameter name");
        add_name(p.name, t);
        if (annotations && accept_op(":")) parse_expression();
        if (accept_op("=")) {
          p.default_value = parse_expression();
          if (!seen_star) seen_default = true;
        } else if (seen_default && !seen_star) {
          fail("non-default argument follows default argument", t);
        }
        if (seen_star) fn.kwonly.push_back(std::move(p));
        else fn.params.push_back(std::move(p));
      }
      if (!accept_op(",")) break;
    }
    (void)bare_star;
  }

  StmtPtr parse_with() {
    const Token& kw = peek();
    ++pos_;
    auto s = make<With>(pos_of(kw));
    do {
      WithItem item;
      item.context = parse_expression();
      if (accept_kw("as")) {
        item.target = parse_target_atom();
        check_target(item.target.get(), TargetUse::With);
      }
      s->items.push_back(std::move(item));
    } while (accept_op(","));
    expect_colon("'with' item");
    s->body = parse_block("'with' statement", kw);
    return s;
  }

  StmtPtr parse_try() {
    const Token& kw = peek();
    ++pos_;
    auto s = make<Try>(pos_of(kw));
    expect_colon("'try'");
    s->body = parse_block("'try' statement", kw);
    bool bare_seen = false;
    while (at_kw("except")) {
      const Token& et = peek();
      ++pos_;
      if (at_op("*")) fail("'except*' is not supported in snippets", peek());
      Handler h;
      h.pos = pos_of(et);
      if (bare_seen) fail("default 'except:' must be last", et);
      if (!at_op(":")) {
        h.type = parse_expression();
        if (at_op(",")) fail("multiple exception types must be parenthesized", toks_[pos_ - 1].line == peek().line ? peek() : peek());
        if (accept_kw("as")) {
          const Token& nt = peek();
          auto n = make<Name>(pos_of(nt));
          n->id = ident("a name after 'as'");
          h.name = std::move(n);
        }
      } else {
        bare_seen = true;
      }
      expect_colon("'except' clause");
      h.body = parse_block("'except' statement", et);
      s->handlers.push_back(std::move(h));
    }
    if (at_kw("else")) {
      const Token& e = peek();
      if (s->handlers.empty()) fail("invalid syntax (expected 'except' or 'finally' block)", e);
      ++pos_;
      expect_colon("'else'");
      s->orelse = parse_block("'else' statement", e);
    }
    if (at_kw("finally")) {
      const Token& f = peek();
      ++pos_;
      expect_colon("'finally'");
      s->finalbody = parse_block("'finally' statement", f);
    }
    if (s->handlers.empty() && s->finalbody.empty()) fail("invalid syntax (expected 'except' or 'finally' block)", peek());
    return s;
  }

  StmtPtr parse_simple_statement() {
    const Token& t = peek();
    Pos p = pos_of(t);
    if (t.kind == Tok::Name) {
      const std::string& k = t.text;
      if (k == "pass") { ++pos_; return make<SimpleStmt>(p, StmtKind::Pass); }
      if (k == "break") {
        if (loop_depth_ == 0) fail("'break' outside loop", t);
        ++pos_;
        return make<SimpleStmt>(p, StmtKind::Break);
      }
      if (k == "continue") {
        if (loop_depth_ == 0) fail("'continue' not properly in loop", t);
        ++pos_;
        return make<SimpleStmt>(p, StmtKind::Continue);
      }
      if (k == "return") {
        if (func_depth_ == 0) fail("'return' outside function", t);
        ++pos_;
        auto s = make<Return>(p);
        if (starts_expression()) s->value = parse_star_expressions(false);
        return s;
      }
      if (k == "raise") {
        ++pos_;
        auto s = make<Raise>(p);
        if (starts_expression()) {
          s->exc = parse_expression();
          if (accept_kw("from")) s->cause = parse_expression();
        }
        return s;
      }
      if (k == "assert") {
        ++pos_;
        auto s = make<Assert>(p);
        s->test = parse_expression();
        if (accept_op(",")) s->msg = parse_expression();
        return s;
      }
      if (k == "import") return parse_import();
      if (k == "from") return parse_from_import();
      if (k == "del") {
        ++pos_;
        auto s = make<Delete>(p);
        do {
          if (!starts_expression()) break;
          auto e = parse_bitor();
          check_target(e.get(), TargetUse::Del);
          s->targets.push_back(std::move(e));
        } while (accept_op(","));
        if (s->targets.empty()) fail_expected("a target after 'del'", peek());
        return s;
      }
      if (k == "print" && (peek(1).kind == Tok::String || peek(1).kind == Tok::Int || peek(1).kind == Tok::FString ||
                           (peek(1).kind == Tok::Name && !keywords().count(peek(1).text))))
        fail("Missing parentheses in call to 'print'. Did you mean print(...)?", t);
      check_unsupported(t);
    }
    // expression statement or assignment
    ExprPtr first = parse_star_expressions(true);
    if (at_op("=")) {
      auto s = make<Assign>(p);
      s->targets.push_back(std::move(first));
      while (accept_op("=")) {
        if (at_kw("yield")) check_unsupported(peek());
        s->targets.push_back(parse_star_expressions(true));
      }
      s->value = std::move(s->targets.back());
      s->targets.pop_back();
      for (auto& tg : s->targets) check_target(tg.get(), TargetUse::Assign);
      if (s->value->kind == ExprKind::Starred) fail_at("can't use starred expression here", s->value->pos);
      return s;
    }
    static const struct { const char* tok; BinaryOp op; } augs[] = {
        {"+=", BinaryOp::Add}, {"-=", BinaryOp::Sub}, {"*=", BinaryOp::Mul}, {"/=", BinaryOp::Div},
        {"//=", BinaryOp::FloorDiv}, {"%=", BinaryOp::Mod}, {"**=", BinaryOp::Pow}, {"@=", BinaryOp::MatMul},
        {"<<=", BinaryOp::LShift}, {">>=", BinaryOp::RShift}, {"&=", BinaryOp::BitAnd}, {"|=", BinaryOp::BitOr},
        {"^=", BinaryOp::BitXor}};
    for (const auto& a : augs) {
      if (at_op(a.tok)) {
        ++pos_;
        check_target(first.get(), TargetUse::Aug);
        auto s = make<AugAssign>(p);
        s->target = std::move(first);
        s->op = a.op;
        s->value = parse_star_expressions(false);
        return s;
      }
    }
    if (at_op(":") ) {
      // annotated assignment: x: int = 5
      if (first->kind == ExprKind::Tuple) fail_at("only single target (not tuple) can be annotated", first->pos);
      if (first->kind == ExprKind::List) fail_at("only single target (not list) can be annotated", first->pos);
      check_target(first.get(), TargetUse::Assign);
      ++pos_;
      parse_expression();
      auto s = make<AnnAssign>(p);
      s->target = std::move(first);
      if (accept_op("=")) s->value = parse_star_expressions(false);
      return s;
    }
    if (first->kind == ExprKind::Starred) fail_at("can't use starred expression here", first->pos);
    auto s = make<ExprStmt>(p);
    s->value = std::move(first);
    return s;
  }

  std::string dotted_name(const std::string& what) {
    std::string name = ident(what);
    while (accept_op(".")) name += "." + ident("a name after '.'");
    return name;
  }

  StmtPtr parse_import() {
    const Token& kw = peek();
    ++pos_;
    auto s = make<Import>(pos_of(kw));
    do {
      Alias a;
      const Token& t = peek();
      a.pos = pos_of(t);
      if (at_op("*")) fail("invalid syntax", t);
      a.name = dotted_name("a module name after 'import'");
      if (accept_kw("as")) a.asname = ident("a name after 'as'");
      auto n = make<Name>(a.pos);
      n->id = a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname;
      a.target = std::move(n);
      s->names.push_back(std::move(a));
    } while (accept_op(","));
    return s;
  }

  StmtPtr parse_from_import() {
    const Token& kw = peek();
    ++pos_;
    auto s = make<ImportFrom>(pos_of(kw));
    if (at_op(".") || at_op("...")) fail("relative imports are not supported in snippets", peek());
    s->module = dotted_name("a module name after 'from'");
    if (!accept_kw("import")) fail_expected("'import' after the module name", peek());
    if (at_op("*")) {
      if (func_depth_ > 0) fail("import * only allowed at module level", peek());
      ++pos_;
      s->star = true;
      return s;
    }
    bool paren = accept_op("(");
    do {
      if (paren && at_op(")")) break;
      Alias a;
      const Token& t = peek();
      a.pos = pos_of(t);
      a.name = ident("a name to import");
      if (accept_kw("as")) a.asname = ident("a name after 'as'");
      auto n = make<Name>(a.pos);
      n->id = a.asname.empty() ? a.name : a.asname;
      a.target = std::move(n);
      s->names.push_back(std::move(a));
    } while (accept_op(","));
    if (paren) expect_op(")", "')'");
    if (s->names.empty()) fail("invalid syntax", peek());
    return s;
  }

  template <typename T, typename... A>
  std::unique_ptr<T> make(Pos p, A&&... a) {
    auto n = std::make_unique<T>(std::forward<A>(a)...);
    n->pos = p;
    return n;
  }

  // ---- targets ----
  enum class TargetUse { Assign, Aug, For, With, Del, Comp };

  static const char* describe(const Expr* e) {
    switch (e->kind) {
      case ExprKind::Call: return "function call";
      case ExprKind::Constant: {
        const Value& v = static_cast<const Constant*>(e)->value;
        if (v.is_none()) return "None";
        if (v.is_bool()) return v.raw_bool() ? "True" : "False";
        if (v.is_ellipsis()) return "ellipsis";
        return "literal";
      }
      case ExprKind::FString: return "f-string expression";
      case ExprKind::Compare: return "comparison";
      case ExprKind::Lambda: return "lambda";
      case ExprKind::IfExp: return "conditional expression";
      case ExprKind::Dict: return "dict literal";
      case ExprKind::ListComp: return "list comprehension";
      case ExprKind::DictComp: return "dict comprehension";
      case ExprKind::GenExp: return "generator expression";
      default: return "expression";
    }
  }

  void check_target(const Expr* e, TargetUse use) {
    switch (e->kind) {
      case ExprKind::Name: case ExprKind::Attribute: case ExprKind::Subscript: return;
      case ExprKind::Tuple: case ExprKind::List: {
        if (use == TargetUse::Aug)
          fail_at(std::string("'") + (e->kind == ExprKind::Tuple ? "tuple" : "list") +
                      "' is an illegal expression for augmented assignment",
                  e->pos);
        for (const auto& x : static_cast<const SequenceExpr*>(e)->elts) check_target(x.get(), use);
        return;
      }
      case ExprKind::Starred:
        if (use == TargetUse::Del) fail_at("cannot delete starred", e->pos);
        fail_at("starred assignment targets are not supported in snippets", e->pos);
      default: break;
    }
    std::string what = describe(e);
    switch (use) {
      case TargetUse::Aug: fail_at("'" + what + "' is an illegal expression for augmented assignment", e->pos);
      case TargetUse::Del: fail_at("cannot delete " + what, e->pos);
      case TargetUse::Assign:
        if (what == "None" || what == "True" || what == "False" || what == "ellipsis" || what == "lambda" ||
            what == "comparison" || what == "conditional expression")
          fail_at("cannot assign to " + what, e->pos);
        fail_at("cannot assign to " + what + " here. Maybe you meant '==' instead of '='?", e->pos);
      default: fail_at("cannot assign to " + what, e->pos);
    }
  }

  // for-loop / comprehension targets: a, b  (stops before 'in')
  ExprPtr parse_target_list() {
    const Token& t = peek();
    ExprPtr first = parse_target_atom();
    if (!at_op(",")) return first;
    auto tup = make<SequenceExpr>(pos_of(t), ExprKind::Tuple);
    tup->elts.push_back(std::move(first));
    while (accept_op(",")) {
      if (at_kw("in") || at_op("=")) break;
      tup->elts.push_back(parse_target_atom());
    }
    int d = 0;
    for (auto& e : tup->elts) d = std::max(d, e->depth);
    set_depth(tup.get(), d + 1);
    return tup;
  }
  ExprPtr parse_target_atom() {
    if (at_op("*")) {
      const Token& t = peek();
      ++pos_;
      auto s = make<Starred>(pos_of(t));
      s->value = parse_bitor();
      return s;
    }
    return parse_bitor();
  }

  // ---- expressions ----
  // star_expressions: a, *b, c  (tuple without parentheses)
  ExprPtr parse_star_expressions(bool allow_star) {
    const Token& t = peek();
    ExprPtr first = parse_star_item(allow_star);
    if (!at_op(",")) return first;
    auto tup = make<SequenceExpr>(pos_of(t), ExprKind::Tuple);
    if (first->kind == ExprKind::Starred) tup->has_star = true;
    tup->elts.push_back(std::move(first));
    while (accept_op(",")) {
      if (!starts_expression()) break;
      auto e = parse_star_item(true);
      if (e->kind == ExprKind::Starred) tup->has_star = true;
      tup->elts.push_back(std::move(e));
    }
    int d = 0;
    for (auto& e : tup->elts) d = std::max(d, e->depth);
    set_depth(tup.get(), d + 1);
    return tup;
  }
  ExprPtr parse_star_item(bool allow_star) {
    if (at_op("*")) {
      const Token& t = peek();
      ++pos_;
      auto s = make<Starred>(pos_of(t));
      s->value = parse_bitor();
      set_depth(s.get(), s->value->depth + 1);
      return s;
    }
    (void)allow_star;
    return parse_expression();
  }

  ExprPtr parse_named_expression() {
    ExprPtr e = parse_expression();
    if (at_op(":=")) fail("assignment expressions (':=') are not supported in snippets", peek());
    return e;
  }

  ExprPtr parse_expression() {
    const Token& t = peek();
    NestGuard g(*this, t);
    if (at_kw("lambda")) return parse_lambda();
    check_unsupported(t);
    ExprPtr body = parse_disjunction();
    if (at_kw("if")) {
      ++pos_;
      auto e = make<IfExpr>(body->pos);
      e->test = parse_disjunction();
      if (!accept_kw("else")) fail("expected 'else' after 'if' expression", t);
      e->body = std::move(body);
      e->orelse = parse_expression();
      set_depth(e.get(), depth_of({e->test.get(), e->body.get(), e->orelse.get()}));
      return e;
    }
    return body;
  }

  ExprPtr parse_lambda() {
    const Token& kw = peek();
    ++pos_;
    auto l = make<Lambda>(pos_of(kw));
    auto fn = std::make_unique<FunctionInfo>();
    fn->name = "<lambda>";
    fn->pos = pos_of(kw);
    parse_parameters(*fn, ":", false);
    expect_colon("lambda parameters");
    int saved_loop = loop_depth_;
    loop_depth_ = 0;
    fn->lambda_body = parse_expression();
    loop_depth_ = saved_loop;
    int d = fn->lambda_body->depth;
    for (auto& p : fn->params) if (p.default_value) d = std::max(d, p.default_value->depth);
    for (auto& p : fn->kwonly) if (p.default_value) d = std::max(d, p.default_value->depth);
    l->fn = std::move(fn);
    set_depth(l.get(), d + 1);
    return l;
  }

  ExprPtr parse_disjunction() { return parse_bool_op("or", &Parser::parse_conjunction); }
  ExprPtr parse_conjunction() { return parse_bool_op("and", &Parser::parse_inversion); }

  // `a or b or c` / `a and b and c`: one BoolOpExpr over operands parsed by `operand`.
  ExprPtr parse_bool_op(const char* kw, ExprPtr (Parser::*operand)()) {
    ExprPtr first = (this->*operand)();
    if (!at_kw(kw)) return first;
    auto b = make<BoolOpExpr>(first->pos);
    b->is_and = std::string_view(kw) == "and";
    int d = first->depth;
    b->values.push_back(std::move(first));
    while (accept_kw(kw)) {
      b->values.push_back((this->*operand)());
      d = std::max(d, b->values.back()->depth);
    }
    set_depth(b.get(), d + 1);
    return b;
  }

  ExprPtr parse_inversion() {
    if (at_kw("not")) {
      const Token& t = peek();
      NestGuard g(*this, t);
      ++pos_;
      auto n = make<NotExpr>(pos_of(t));
      n->operand = parse_inversion();
      set_depth(n.get(), n->operand->depth + 1);
      return n;
    }
    return parse_comparison();
  }

  bool comparison_op(CmpKind& k) {
    const Token& t = peek();
    if (t.kind == Tok::Op) {
      if (t.text == "==") k = CmpKind::Eq;
      else if (t.text == "!=") k = CmpKind::Ne;
      else if (t.text == "<") k = CmpKind::Lt;
      else if (t.text == "<=") k = CmpKind::Le;
      else if (t.text == ">") k = CmpKind::Gt;
      else if (t.text == ">=") k = CmpKind::Ge;
      else return false;
      ++pos_;
      return true;
    }
    if (t.kind == Tok::Name) {
      if (t.text == "in") { k = CmpKind::In; ++pos_; return true; }
      if (t.text == "not" && peek(1).kind == Tok::Name && peek(1).text == "in") {
        k = CmpKind::NotIn;
        pos_ += 2;
        return true;
      }
      if (t.text == "is") {
        ++pos_;
        if (accept_kw("not")) k = CmpKind::IsNot;
        else k = CmpKind::Is;
        return true;
      }
    }
    return false;
  }

  ExprPtr parse_comparison() {
    ExprPtr first = parse_bitor();
    CmpKind k;
    if (!comparison_op(k)) return first;
    auto c = make<CompareExpr>(first->pos);
    int d = first->depth;
    c->left = std::move(first);
    do {
      c->ops.push_back(k);
      c->comparators.push_back(parse_bitor());
      d = std::max(d, c->comparators.back()->depth);
    } while (comparison_op(k));
    set_depth(c.get(), d + 1);
    return c;
  }

  ExprPtr binop(ExprPtr l, BinaryOp op, ExprPtr r) {
    auto b = make<BinOpExpr>(l->pos);
    b->op = op;
    int d = std::max(l->depth, r->depth) + 1;
    b->left = std::move(l);
    b->right = std::move(r);
    set_depth(b.get(), d);
    return b;
  }

  ExprPtr parse_bitor() {
    ExprPtr l = parse_bitxor();
    while (at_op("|")) { ++pos_; l = binop(std::move(l), BinaryOp::BitOr, parse_bitxor()); }
    return l;
  }
  ExprPtr parse_bitxor() {
    ExprPtr l = parse_bitand();
    while (at_op("^")) { ++pos_; l = binop(std::move(l), BinaryOp::BitXor, parse_bitand()); }
    return l;
  }
  ExprPtr parse_bitand() {
    ExprPtr l = parse_shift();
    while (at_op("&")) { ++pos_; l = binop(std::move(l), BinaryOp::BitAnd, parse_shift()); }
    return l;
  }
  ExprPtr parse_shift() {
    ExprPtr l = parse_sum();
    while (true) {
      if (at_op("<<")) { ++pos_; l = binop(std::move(l), BinaryOp::LShift, parse_sum()); }
      else if (at_op(">>")) { ++pos_; l = binop(std::move(l), BinaryOp::RShift, parse_sum()); }
      else return l;
    }
  }
  ExprPtr parse_sum() {
    ExprPtr l = parse_term();
    while (true) {
      if (at_op("+")) { ++pos_; l = binop(std::move(l), BinaryOp::Add, parse_term()); }
      else if (at_op("-")) { ++pos_; l = binop(std::move(l), BinaryOp::Sub, parse_term()); }
      else return l;
    }
  }
  ExprPtr parse_term() {
    ExprPtr l = parse_factor();
    while (true) {
      BinaryOp op;
      if (at_op("*")) op = BinaryOp::Mul;
      else if (at_op("/")) op = BinaryOp::Div;
      else if (at_op("//")) op = BinaryOp::FloorDiv;
      else if (at_op("%")) op = BinaryOp::Mod;
      else if (at_op("@")) op = BinaryOp::MatMul;
      else return l;
      ++pos_;
      l = binop(std::move(l), op, parse_factor());
    }
  }
  ExprPtr parse_factor() {
    const Token& t = peek();
    if (t.kind == Tok::Op && (t.text == "-" || t.text == "+" || t.text == "~")) {
      NestGuard g(*this, t);
      ++pos_;
      ExprPtr operand = parse_factor();
      if (t.text == "-" && operand->kind == ExprKind::Constant) {
        auto* c = static_cast<Constant*>(operand.get());
        if (c->value.is_int() && c->value.raw_int() != INT64_MIN) {
          c->value = Value(-c->value.raw_int());
          c->pos = pos_of(t);
          return operand;
        }
        if (c->value.is_float()) {
          c->value = Value(-c->value.raw_float());
          c->pos = pos_of(t);
          return operand;
        }
      }
      auto u = make<UnaryExpr>(pos_of(t));
      u->op = t.text == "-" ? UnaryOp::Neg : t.text == "+" ? UnaryOp::Pos : UnaryOp::Invert;
      set_depth(u.get(), operand->depth + 1);
      u->operand = std::move(operand);
      return u;
    }
    return parse_power();
  }
  ExprPtr parse_power() {
    ExprPtr base = parse_primary();
    if (at_op("**")) {
      ++pos_;
      NestGuard g(*this, peek());
      ExprPtr exp = parse_factor();
      return binop(std::move(base), BinaryOp::Pow, std::move(exp));
    }
    return base;
  }

  ExprPtr parse_primary() {
    Pos start = pos_of(peek());
    ExprPtr e = parse_atom();
    while (true) {
      if (at_op(".")) {
        ++pos_;
        const Token& nt = peek();
        if (nt.kind != Tok::Name) fail("invalid syntax (expected an attribute name after '.')", nt);
        ++pos_;
        auto a = make<Attribute>(start);
        a->attr = nt.text;
        set_depth(a.get(), e->depth + 1);
        a->value = std::move(e);
        e = std::move(a);
      } else if (at_op("(")) {
        e = parse_call(std::move(e), start);
      } else if (at_op("[")) {
        const Token& lb = peek();
        ++pos_;
        auto s = make<Subscript>(start);
        s->index = parse_subscript(lb);
        expect_op("]", "']' to close the subscript");
        set_depth(s.get(), std::max(e->depth, s->index->depth) + 1);
        s->value = std::move(e);
        e = std::move(s);
      } else {
        return e;
      }
    }
  }

  ExprPtr parse_call(ExprPtr func, Pos start) {
    const Token& lp = peek();
    ++pos_;
    NestGuard g(*this, lp);
    auto c = make<Call>(start);
    int d = func->depth;
    bool seen_kw = false, seen_kwunpack = false;
    while (!at_op(")")) {
      const Token& t = peek();
      Arg a;
      if (accept_op("**")) {
        a.kind = Arg::Kind::DoubleStar;
        a.value = parse_expression();
        seen_kwunpack = true;
      } else if (accept_op("*")) {
        a.kind = Arg::Kind::Star;
        a.value = parse_expression();
        if (seen_kwunpack) fail("iterable argument unpacking follows keyword argument unpacking", t);
      } else if (t.kind == Tok::Name && peek(1).kind == Tok::Op && peek(1).text == "=" && !keywords().count(t.text)) {
        pos_ += 2;
        a.kind = Arg::Kind::Keyword;
        a.name = t.text;
        for (const auto& prev : c->args)
          if (prev.kind == Arg::Kind::Keyword && prev.name == a.name)
            fail("keyword argument repeated: " + a.name, t);
        a.value = parse_expression();
        seen_kw = true;
      } else {
        a.value = parse_expression();
        if (at_kw("for")) {
          // f(x for x in y)
          auto gen = parse_comprehension_tail(ExprKind::GenExp, std::move(a.value), nullptr, pos_of(t));
          a.value = std::move(gen);
          if (!at_op(")") || !c->args.empty()) fail_at("Generator expression must be parenthesized", pos_of(t));
        } else if (at_op(":=")) {
          fail("assignment expressions (':=') are not supported in snippets", peek());
        } else if (t.kind == Tok::Name && at_op("=")) {
          fail("expression cannot contain assignment, perhaps you meant \"==\"?", t);
        }
        if (seen_kwunpack) fail("positional argument follows keyword argument unpacking", t);
        if (seen_kw) fail("positional argument follows keyword argument", t);
      }
      d = std::max(d, a.value->depth);
      if (a.kind != Arg::Kind::Positional) c->simple = false;
      c->args.push_back(std::move(a));
      if (!accept_op(",")) break;
    }
    if (!accept_op(")")) fail_expected("',' or ')' in the argument list", peek());
    c->func = std::move(func);
    set_depth(c.get(), d + 1);
    return c;
  }

  // Inside [ ]: slices, tuples of indices.
  ExprPtr parse_subscript(const Token& lb) {
    NestGuard g(*this, lb);
    const Token& t = peek();
    ExprPtr first = parse_slice_item();
    if (!at_op(",")) return first;
    auto tup = make<SequenceExpr>(pos_of(t), ExprKind::Tuple);
    int d = first->depth;
    tup->elts.push_back(std::move(first));
    while (accept_op(",")) {
      if (at_op("]")) break;
      tup->elts.push_back(parse_slice_item());
      d = std::max(d, tup->elts.back()->depth);
    }
    set_depth(tup.get(), d + 1);
    return tup;
  }
  ExprPtr parse_slice_item() {
    const Token& t = peek();
    ExprPtr lower;
    if (!at_op(":")) {
      if (at_op("*")) {
        ++pos_;
        auto s = make<Starred>(pos_of(t));
        s->value = parse_bitor();
        set_depth(s.get(), s->value->depth + 1);
        return s;
      }
      lower = parse_named_expression();
      if (!at_op(":")) return lower;
    }
    ++pos_;  // ':'
    auto s = make<SliceExpr>(lower ? lower->pos : pos_of(t));
    s->lower = std::move(lower);
    if (!at_op(":") && !at_op("]") && !at_op(",")) s->upper = parse_expression();
    if (accept_op(":")) {
      if (!at_op("]") && !at_op(",")) s->step = parse_expression();
    }
    set_depth(s.get(), depth_of({s->lower.get(), s->upper.get(), s->step.get()}));
    return s;
  }

  ExprPtr constant(Value v, Pos p) {
    auto c = make<Constant>(p);
    c->value = std::move(v);
    return c;
  }

  ExprPtr parse_atom() {
    const Token& t = peek();
    Pos p = pos_of(t);
    switch (t.kind) {
      case Tok::Int: ++pos_; return constant(Value(t.ival), p);
      case Tok::Float: ++pos_; return constant(Value(t.fval), p);
      case Tok::String: case Tok::FString: return parse_strings();
      case Tok::Name: {
        if (t.text == "None") { ++pos_; return constant(Value(), p); }
        if (t.text == "True") { ++pos_; return constant(Value(true), p); }
        if (t.text == "False") { ++pos_; return constant(Value(false), p); }
        if (keywords().count(t.text)) {
          check_unsupported(t);
          if (t.text == "lambda") return parse_lambda();
          fail("invalid syntax", t);
        }
        ++pos_;
        auto n = make<Name>(p);
        n->id = t.text;
        return n;
      }
      case Tok::Op: {
        if (t.text == "(") return parse_paren();
        if (t.text == "[") return parse_list();
        if (t.text == "{") return parse_dict();
        if (t.text == "...") { ++pos_; return constant(Value::ellipsis(), p); }
        break;
      }
      case Tok::Indent:
        fail_indent("unexpected indent", t);
      default: break;
    }
    if (t.kind == Tok::Newline || t.kind == Tok::End) fail_expected("an expression", t);
    fail("invalid syntax", t);
  }

  ExprPtr parse_paren() {
    const Token& lp = peek();
    ++pos_;
    NestGuard g(*this, lp);
    Pos p = pos_of(lp);
    if (accept_op(")")) {
      auto tup = make<SequenceExpr>(p, ExprKind::Tuple);
      return tup;
    }
    if (at_kw("yield")) check_unsupported(peek());
    ExprPtr first = parse_star_item(true);
    if (at_op(":=")) fail("assignment expressions (':=') are not supported in snippets", peek());
    if (at_kw("for")) {
      auto gen = parse_comprehension_tail(ExprKind::GenExp, std::move(first), nullptr, p);
      expect_op(")", "')' to close the generator expression");
      return gen;
    }
    if (accept_op(")")) {
      if (first->kind == ExprKind::Starred) fail_at("cannot use starred expression here", first->pos);
      return first;
    }
    if (!at_op(",")) fail_expected("',' or ')'", peek());
    auto tup = make<SequenceExpr>(p, ExprKind::Tuple);
    int d = first->depth;
    if (first->kind == ExprKind::Starred) tup->has_star = true;
    tup->elts.push_back(std::move(first));
    while (accept_op(",")) {
      if (at_op(")")) break;
      auto e = parse_star_item(true);
      if (e->kind == ExprKind::Starred) tup->has_star = true;
      d = std::max(d, e->depth);
      tup->elts.push_back(std::move(e));
    }
    expect_op(")", "',' or ')' in the tuple");
    set_depth(tup.get(), d + 1);
    return tup;
  }

  ExprPtr parse_list() {
    const Token& lb = peek();
    ++pos_;
    NestGuard g(*this, lb);
    Pos p = pos_of(lb);
    auto lst = make<SequenceExpr>(p, ExprKind::List);
    if (accept_op("]")) return lst;
    ExprPtr first = parse_star_item(true);
    if (at_kw("for")) {
      auto comp = parse_comprehension_tail(ExprKind::ListComp, std::move(first), nullptr, p);
      expect_op("]", "']' to close the list comprehension");
      return comp;
    }
    int d = first->depth;
    if (first->kind == ExprKind::Starred) lst->has_star = true;
    lst->elts.push_back(std::move(first));
    while (accept_op(",")) {
      if (at_op("]")) break;
      auto e = parse_star_item(true);
      if (e->kind == ExprKind::Starred) lst->has_star = true;
      d = std::max(d, e->depth);
      lst->elts.push_back(std::move(e));
    }
    expect_op("]", "',' or ']' in the list");
    set_depth(lst.get(), d + 1);
    return lst;
  }

  ExprPtr parse_dict() {
    const Token& lb = peek();
    ++pos_;
    NestGuard g(*this, lb);
    Pos p = pos_of(lb);
    auto dict = make<DictExpr>(p);
    if (accept_op("}")) return dict;
    int d = 0;
    bool first = true;
    while (!at_op("}")) {
      if (accept_op("**")) {
        dict->keys.push_back(nullptr);
        dict->values.push_back(parse_bitor());
      } else {
        ExprPtr k = parse_expression();
        if (!at_op(":")) {
          if (first && (at_op(",") || at_op("}") || at_kw("for")))
            fail_at("set literals are not supported in snippets", p);
          fail_expected("':' after the dict key", peek());
        }
        ++pos_;
        ExprPtr v = parse_expression();
        if (first && at_kw("for")) {
          auto comp = parse_comprehension_tail(ExprKind::DictComp, std::move(k), std::move(v), p);
          expect_op("}", "'}' to close the dict comprehension");
          return comp;
        }
        d = std::max({d, k->depth, v->depth});
        dict->keys.push_back(std::move(k));
        dict->values.push_back(std::move(v));
      }
      d = std::max(d, dict->values.back()->depth);
      first = false;
      if (!accept_op(",")) break;
    }
    expect_op("}", "',' or '}' in the dict");
    set_depth(dict.get(), d + 1);
    return dict;
  }

  ExprPtr parse_comprehension_tail(ExprKind kind, ExprPtr elt, ExprPtr value, Pos p) {
    if (elt->kind == ExprKind::Starred) fail_at("iterable unpacking cannot be used in comprehension", elt->pos);
    auto c = make<CompExpr>(p, kind);
    int d = std::max(elt->depth, value ? value->depth : 0);
    c->elt = std::move(elt);
    c->value = std::move(value);
    while (at_kw("for")) {
      ++pos_;
      Comprehension g;
      g.target = parse_target_list();
      check_target(g.target.get(), TargetUse::Comp);
      if (!accept_kw("in")) fail_expected("'in' after the comprehension target", peek());
      g.iter = parse_disjunction();
      d = std::max({d, g.target->depth, g.iter->depth});
      while (at_kw("if")) {
        ++pos_;
        g.ifs.push_back(parse_disjunction());
        d = std::max(d, g.ifs.back()->depth);
      }
      c->gens.push_back(std::move(g));
    }
    if (at_kw("async")) check_unsupported(peek());
    set_depth(c.get(), d + 1);
    return c;
  }

  // ---- strings and f-strings ----
  ExprPtr parse_strings() {
    const Token& first = peek();
    Pos p = pos_of(first);
    bool any_f = false;
    size_t start = pos_;
    while (at(Tok::String) || at(Tok::FString)) {
      if (at(Tok::FString)) any_f = true;
      ++pos_;
    }
    if (!any_f) {
      std::string s;
      for (size_t i = start; i < pos_; ++i) s += toks_[i].text;
      return constant(Value(std::move(s)), p);
    }
    auto f = make<FString>(p);
    int d = 1;
    for (size_t i = start; i < pos_; ++i) {
      const Token& t = toks_[i];
      if (t.kind == Tok::String) {
        FStringPart part;
        part.literal = t.text;
        f->parts.push_back(std::move(part));
      } else {
        parse_fstring_body(t.text, t, t.body_line, t.body_col, f->parts, 0, d);
      }
    }
    set_depth(f.get(), d + 1);
    return f;
  }

  // Parses f-string text [body] into parts. `level` > 0 inside a format spec.
  void parse_fstring_body(std::string_view body, const Token& tok, int line, int col,
                          std::vector<FStringPart>& parts, int level, int& depth) {
    size_t i = 0, n = body.size();
    std::string lit;
    int lit_line = line, lit_col = col;
    auto advance_pos = [&](size_t from, size_t to) {
      for (size_t k = from; k < to; ++k) {
        if (body[k] == '\n') { ++line; col = 1; }
        else if ((static_cast<unsigned char>(body[k]) & 0xC0) != 0x80) ++col;
      }
    };
    auto flush = [&]() {
      if (lit.empty()) return;
      FStringPart part;
      part.literal = Lexer::decode_escapes(lit, tok.raw, lit_line, lit_col);
      parts.push_back(std::move(part));
      lit.clear();
    };
    while (i < n) {
      char c = body[i];
      if (c == '\\' && !tok.raw && i + 1 < n) {
        lit += body.substr(i, 2);
        advance_pos(i, i + 2);
        i += 2;
        continue;
      }
      if (c == '{') {
        if (level == 0 && i + 1 < n && body[i + 1] == '{') {
          lit += '{';
          advance_pos(i, i + 2);
          i += 2;
          continue;
        }
        flush();
        if (level > 1) throw SyntaxErrorInfo("SyntaxError", "f-string: expressions nested too deeply", line, col);
        int field_line = line, field_col = col;
        advance_pos(i, i + 1);
        ++i;
        size_t expr_start = i;
        int expr_line = line, expr_col = col;
        // scan the expression
        int nest = 0;
        char quote = 0;
        size_t expr_end = std::string_view::npos;
        std::string debug;
        char conv = 0;
        bool has_spec = false;
        while (i < n) {
          char ch = body[i];
          if (quote) {
            if (ch == quote) quote = 0;
            advance_pos(i, i + 1);
            ++i;
            continue;
          }
          if (ch == '\\') throw SyntaxErrorInfo("SyntaxError", "f-string expression part cannot include a backslash", line, col);
          if (ch == '\'' || ch == '"') { quote = ch; advance_pos(i, i + 1); ++i; continue; }
          if (ch == '#') throw SyntaxErrorInfo("SyntaxError", "f-string expression part cannot include '#'", line, col);
          if (ch == '(' || ch == '[' || ch == '{') ++nest;
          else if ((ch == ')' || ch == ']' || (ch == '}' && nest > 0)) && nest > 0) --nest;
          else if (nest == 0) {
            if (ch == '}' || ch == ':') break;
            if (ch == '!' && !(i + 1 < n && body[i + 1] == '=')) break;
            if (ch == '=' && !(i + 1 < n && body[i + 1] == '=') &&
                !(i > expr_start && std::strchr("=!<>", body[i - 1]))) {
              expr_end = i;
              advance_pos(i, i + 1);
              ++i;
              while (i < n && (body[i] == ' ' || body[i] == '\t')) {
                advance_pos(i, i + 1);
                ++i;
              }
              debug = std::string(body.substr(expr_start, i - expr_start));
              break;
            }
          }
          advance_pos(i, i + 1);
          ++i;
        }
        if (expr_end == std::string_view::npos) expr_end = i;
        std::string_view expr_text = body.substr(expr_start, expr_end - expr_start);
        if (i >= n) throw SyntaxErrorInfo("SyntaxError", "f-string: expecting '}'", line, col);
        if (expr_text.find_first_not_of(" \t\n") == std::string_view::npos)
          throw SyntaxErrorInfo("SyntaxError", "f-string: empty expression not allowed", field_line, field_col);
        if (body[i] == '!') {
          advance_pos(i, i + 1);
          ++i;
          if (i >= n || (body[i] != 'r' && body[i] != 's' && body[i] != 'a'))
            throw SyntaxErrorInfo("SyntaxError", "f-string: invalid conversion character: expected 's', 'r', or 'a'", line, col);
          conv = body[i];
          advance_pos(i, i + 1);
          ++i;
          if (i >= n || (body[i] != ':' && body[i] != '}'))
            throw SyntaxErrorInfo("SyntaxError", "f-string: expecting '}'", line, col);
        }
        FStringPart part;
        if (i < n && body[i] == ':') {
          has_spec = true;
          advance_pos(i, i + 1);
          ++i;
          size_t spec_start = i;
          int spec_line = line, spec_col = col;
          int sn = 0;
          while (i < n) {
            if (body[i] == '{') ++sn;
            else if (body[i] == '}') {
              if (sn == 0) break;
              --sn;
            }
            advance_pos(i, i + 1);
            ++i;
          }
          if (i >= n) throw SyntaxErrorInfo("SyntaxError", "f-string: expecting '}'", line, col);
          parse_fstring_body(body.substr(spec_start, i - spec_start), tok, spec_line, spec_col, part.spec, level + 1,
                             depth);
        }
        if (i >= n || body[i] != '}') throw SyntaxErrorInfo("SyntaxError", "f-string: expecting '}'", line, col);
        advance_pos(i, i + 1);
        ++i;
        // parse the expression text with its own lexer
        Lexer lx(expr_text, expr_line, expr_col, true);
        std::vector<Token> toks = lx.tokenize();
        Parser sub(std::move(toks), src_);
        sub.nesting_ = nesting_ + 1;
        part.expr = sub.parse_field_expression();
        depth = std::max(depth, part.expr->depth);
        part.conversion = conv;
        part.debug_text = debug;
        if (!debug.empty() && !conv && !has_spec) part.conversion = 'r';
        parts.push_back(std::move(part));
        lit_line = line;
        lit_col = col;
        continue;
      }
      if (c == '}') {
        if (level == 0 && i + 1 < n && body[i + 1] == '}') {
          lit += '}';
          advance_pos(i, i + 2);
          i += 2;
          continue;
        }
        throw SyntaxErrorInfo("SyntaxError", "f-string: single '}' is not allowed", line, col);
      }
      if (lit.empty()) { lit_line = line; lit_col = col; }
      lit += c;
      advance_pos(i, i + 1);
      ++i;
    }
    flush();
  }
};

}  // namespace

std::unique_ptr<Program> parse_program(std::string source, std::string filename) {
  auto prog = std::make_unique<Program>();
  prog->source = std::move(source);
  prog->filename = std::move(filename);
  Lexer lx(prog->source);
  std::vector<Token> toks = lx.tokenize();
  if (lx.has_unclosed_bracket()) {
    // Parse up to the end: an earlier syntax error wins, else the bracket is reported.
    int end_line = toks.back().line, end_col = toks.back().col;
    Parser p(std::move(toks), prog->source);
    try {
      p.parse_file();
    } catch (const SyntaxErrorInfo& e) {
      if (e.line < end_line || (e.line == end_line && e.col < end_col)) throw;
    }
    throw lx.unclosed_bracket_error();
  }
  Parser p(std::move(toks), prog->source);
  prog->body = p.parse_file();
  return prog;
}

}  // namespace ipt::script
