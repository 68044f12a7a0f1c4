#pragma once
// The syntax tree of a snippet. Nodes carry a kind tag (the interpreter switches on it) and
// the 1-based line/column of their first token. Name nodes are annotated by the resolver
// (resolver.h) with where the variable lives: a global, a local slot, a local slot holding a
// cell (a variable captured by an inner function), or a cell of the function's closure.

#include <memory>
#include <string>
#include <vector>

#include "core/script/object.h"
#include "core/script/value.h"

namespace ipt::script::ast {

struct Pos {
  int line = 0, col = 0;
};

enum class ExprKind : uint8_t {
  Constant, FString, Name, Attribute, Subscript, Slice, Call, BinOp, UnaryOp, Not, BoolOp, Compare, IfExp,
  Lambda, List, Tuple, Dict, ListComp, DictComp, GenExp, Starred
};

struct Expr {
  explicit Expr(ExprKind k) : kind(k) {}
  virtual ~Expr() = default;
  ExprKind kind;
  Pos pos;
  int depth = 1;  // nesting depth of this subtree (bounded by the parser)
};
using ExprPtr = std::unique_ptr<Expr>;

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
using Body = std::vector<StmtPtr>;

struct Constant : Expr {
  Constant() : Expr(ExprKind::Constant) {}
  Value value;
};

struct FStringPart {
  std::string literal;  // used when expr is null
  ExprPtr expr;
  char conversion = 0;  // 'r', 's', 'a' or 0
  std::vector<FStringPart> spec;  // format spec (itself may contain fields)
  std::string debug_text;         // f"{x=}" prints "x=" first
};
struct FString : Expr {
  FString() : Expr(ExprKind::FString) {}
  std::vector<FStringPart> parts;
};

enum class NameScope : uint8_t {
  Global,  // module namespace (then builtins), by symbol id
  Local,   // frame slot
  Cell,    // frame slot holding a cell shared with inner functions
  Free     // a cell of the running function's closure
};
struct Name : Expr {
  Name() : Expr(ExprKind::Name) {}
  std::string id;
  int sym = -1;  // Global: symbol id
  NameScope scope = NameScope::Global;
  int slot = -1;  // Local/Cell: slot index in the frame; Free: index into the closure
};

struct Attribute : Expr {
  Attribute() : Expr(ExprKind::Attribute) {}
  ExprPtr value;
  std::string attr;
};

struct Subscript : Expr {
  Subscript() : Expr(ExprKind::Subscript) {}
  ExprPtr value;
  ExprPtr index;
};

struct SliceExpr : Expr {
  SliceExpr() : Expr(ExprKind::Slice) {}
  ExprPtr lower, upper, step;  // null = None
};

struct Arg {
  enum class Kind : uint8_t { Positional, Star, Keyword, DoubleStar };
  Kind kind = Kind::Positional;
  std::string name;
  ExprPtr value;
};
struct Call : Expr {
  Call() : Expr(ExprKind::Call) {}
  ExprPtr func;
  std::vector<Arg> args;
  bool simple = true;  // only positional arguments
};

struct BinOpExpr : Expr {
  BinOpExpr() : Expr(ExprKind::BinOp) {}
  BinaryOp op;
  ExprPtr left, right;
};

struct UnaryExpr : Expr {
  UnaryExpr() : Expr(ExprKind::UnaryOp) {}
  UnaryOp op;
  ExprPtr operand;
};

struct NotExpr : Expr {
  NotExpr() : Expr(ExprKind::Not) {}
  ExprPtr operand;
};

struct BoolOpExpr : Expr {
  BoolOpExpr() : Expr(ExprKind::BoolOp) {}
  bool is_and = true;
  std::vector<ExprPtr> values;
};

enum class CmpKind : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Is, IsNot, In, NotIn };
struct CompareExpr : Expr {
  CompareExpr() : Expr(ExprKind::Compare) {}
  ExprPtr left;
  std::vector<CmpKind> ops;
  std::vector<ExprPtr> comparators;
};

struct IfExpr : Expr {
  IfExpr() : Expr(ExprKind::IfExp) {}
  ExprPtr test, body, orelse;
};

// A frame layout: one slot per local variable of a function/lambda/comprehension, which
// of them are cells (captured by inner scopes), and the closure: the variables of enclosing
// scopes this scope reads, each taken at creation time from the creating frame (a cell slot
// of that frame, or an entry of that frame's own closure).
struct ScopeInfo {
  std::vector<std::string> slot_names;
  std::vector<bool> is_cell;
  struct FreeVar {
    std::string name;
    bool from_parent_slot = true;  // parent's cell slot, else parent's closure entry
    int index = -1;
  };
  std::vector<FreeVar> freevars;
  bool is_comprehension = false;
};

struct Parameter {
  std::string name;
  ExprPtr default_value;  // null = required
  int slot = -1;
  Pos pos;
};

struct FunctionInfo {
  std::string name;                 // "<lambda>" for lambdas
  std::vector<Parameter> params;    // positional-or-keyword
  std::vector<Parameter> kwonly;    // after * or *args
  std::string vararg, kwarg;        // names or empty
  int vararg_slot = -1, kwarg_slot = -1;
  Body body;                        // def
  ExprPtr lambda_body;              // lambda
  ScopeInfo scope;
  Pos pos;
};

struct Lambda : Expr {
  Lambda() : Expr(ExprKind::Lambda) {}
  std::unique_ptr<FunctionInfo> fn;
};

struct SequenceExpr : Expr {  // List or Tuple display
  explicit SequenceExpr(ExprKind k) : Expr(k) {}
  std::vector<ExprPtr> elts;
  bool has_star = false;
};

struct DictExpr : Expr {
  DictExpr() : Expr(ExprKind::Dict) {}
  std::vector<ExprPtr> keys;  // null key: **mapping in values
  std::vector<ExprPtr> values;
};

struct Comprehension {
  ExprPtr target, iter;
  std::vector<ExprPtr> ifs;
};
struct CompExpr : Expr {  // ListComp, DictComp, GenExp (evaluated eagerly to a list)
  explicit CompExpr(ExprKind k) : Expr(k) {}
  ExprPtr elt;    // ListComp/GenExp element, DictComp key
  ExprPtr value;  // DictComp value
  std::vector<Comprehension> gens;
  ScopeInfo scope;
};

struct Starred : Expr {
  Starred() : Expr(ExprKind::Starred) {}
  ExprPtr value;
};

// ---- statements -----------------------------------------------------------------------

enum class StmtKind : uint8_t {
  Expr, Assign, AugAssign, AnnAssign, If, While, For, Break, Continue, Pass, Return, FunctionDef, With, Try,
  Raise, Assert, Import, ImportFrom, Delete
};

struct Stmt {
  explicit Stmt(StmtKind k) : kind(k) {}
  virtual ~Stmt() = default;
  StmtKind kind;
  Pos pos;
};

struct ExprStmt : Stmt {
  ExprStmt() : Stmt(StmtKind::Expr) {}
  ExprPtr value;
};

struct Assign : Stmt {
  Assign() : Stmt(StmtKind::Assign) {}
  std::vector<ExprPtr> targets;  // a = b = value
  ExprPtr value;
};

struct AugAssign : Stmt {
  AugAssign() : Stmt(StmtKind::AugAssign) {}
  ExprPtr target;
  BinaryOp op;
  ExprPtr value;
};

struct AnnAssign : Stmt {
  AnnAssign() : Stmt(StmtKind::AnnAssign) {}
  ExprPtr target;
  ExprPtr value;  // may be null (x: int)
};

struct If : Stmt {
  If() : Stmt(StmtKind::If) {}
  ExprPtr test;
  Body body, orelse;
};

struct While : Stmt {
  While() : Stmt(StmtKind::While) {}
  ExprPtr test;
  Body body, orelse;
};

struct For : Stmt {
  For() : Stmt(StmtKind::For) {}
  ExprPtr target, iter;
  Body body, orelse;
};

struct SimpleStmt : Stmt {  // Break, Continue, Pass
  explicit SimpleStmt(StmtKind k) : Stmt(k) {}
};

struct Return : Stmt {
  Return() : Stmt(StmtKind::Return) {}
  ExprPtr value;  // may be null
};

struct FunctionDef : Stmt {
  FunctionDef() : Stmt(StmtKind::FunctionDef) {}
  std::unique_ptr<FunctionInfo> fn;
  std::vector<ExprPtr> decorators;
  std::unique_ptr<Name> target;  // the binding of the function name
};

struct WithItem {
  ExprPtr context;
  ExprPtr target;  // may be null
};
struct With : Stmt {
  With() : Stmt(StmtKind::With) {}
  std::vector<WithItem> items;
  Body body;
};

struct Handler {
  ExprPtr type;                // null = bare except
  std::unique_ptr<Name> name;  // `as e`, may be null
  Body body;
  Pos pos;
};
struct Try : Stmt {
  Try() : Stmt(StmtKind::Try) {}
  Body body;
  std::vector<Handler> handlers;
  Body orelse, finalbody;
};

struct Raise : Stmt {
  Raise() : Stmt(StmtKind::Raise) {}
  ExprPtr exc, cause;  // both may be null
};

struct Assert : Stmt {
  Assert() : Stmt(StmtKind::Assert) {}
  ExprPtr test, msg;
};

struct Alias {
  std::string name;    // dotted module name, or the imported attribute for `from`
  std::string asname;  // may be empty
  std::unique_ptr<Name> target;
  Pos pos;
};
struct Import : Stmt {
  Import() : Stmt(StmtKind::Import) {}
  std::vector<Alias> names;
};
struct ImportFrom : Stmt {
  ImportFrom() : Stmt(StmtKind::ImportFrom) {}
  std::string module;
  std::vector<Alias> names;
  bool star = false;
};

struct Delete : Stmt {
  Delete() : Stmt(StmtKind::Delete) {}
  std::vector<ExprPtr> targets;
};

// A parsed snippet. Functions keep the program alive (they point into it).
struct Program {
  std::string source;  // normalized source (f-string fields point into it)
  std::string filename;
  Body body;
};

}  // namespace ipt::script::ast
