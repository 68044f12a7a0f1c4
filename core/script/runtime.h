#pragma once
// Runtime: the interpreter's internals (not needed by extension code). Holds globals,
// builtins, modules and the exception hierarchy, and executes the syntax tree: statements
// return a control-flow code (break/continue/return), Python exceptions travel as C++
// ScriptError. Script functions, frames, builtin type objects and exception classes live here.

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/script/ast.h"
#include "core/script/interpreter.h"
#include "core/script/object.h"
#include "core/script/resolver.h"

namespace ipt::script {

class Runtime;

// A variable shared between a frame and the functions defined in it (Python's cell).
class CellObject : public Object {
 public:
  Value value = Value::unbound();
  std::string type_name() const override { return "cell"; }
};
using Closure = std::vector<std::shared_ptr<CellObject>>;

// Locals of one call of a function/lambda/comprehension. Lives on the C++ stack: functions
// defined inside capture cells, never the frame itself (so no reference cycles).
struct Frame {
  std::vector<Value> slots;             // captured slots hold a CellObject
  const Closure* closure = nullptr;     // cells of the running function's closure
  const char* name = "<module>";
  Value retval;
};

// A `def` or `lambda` function object.
class ScriptFunction : public Object {
 public:
  Runtime* rt = nullptr;
  std::shared_ptr<const ast::Program> program;  // keeps the syntax tree alive
  const ast::FunctionInfo* fn = nullptr;
  std::vector<Value> defaults;    // per positional param; unbound = required
  std::vector<Value> kwdefaults;  // per keyword-only param
  Closure closure;
  std::map<std::string, Value> attrs;  // f.__doc__ = ..., decorators storing data

  std::string type_name() const override { return "function"; }
  std::string repr() const override;
  Value getattr(const std::string& name) override;
  void setattr(const std::string& name, const Value& value) override { attrs[name] = value; }
  Value call(Args args, Kwargs kwargs) override;
  bool is_callable() const override { return true; }
};

// The exception class hierarchy (name -> parent), shared by exception type objects.
struct ExceptionRegistry {
  std::unordered_map<std::string, std::string> parent;
  bool is_subclass(const std::string& kind, const std::string& base) const;
};

// An exception class: ValueError, RuntimeError, ... Calling it makes an instance.
class ExceptionType : public Object {
 public:
  ExceptionType(std::string name, std::shared_ptr<ExceptionRegistry> reg) : name_(std::move(name)), reg_(std::move(reg)) {}
  const std::string& name() const { return name_; }
  std::string type_name() const override { return "type"; }
  std::string repr() const override { return "<class '" + name_ + "'>"; }
  Value getattr(const std::string& name) override;
  Value call(Args args, Kwargs kwargs) override;
  bool is_callable() const override { return true; }
  std::optional<bool> instancecheck(const Value& v) override;

 private:
  std::string name_;
  std::shared_ptr<ExceptionRegistry> reg_;
};

// int, float, str, list, ...: callable constructors usable with isinstance().
class BuiltinType : public Object {
 public:
  BuiltinType(std::string name, NativeFn ctor, std::function<bool(const Value&)> check)
      : name_(std::move(name)), ctor_(std::move(ctor)), check_(std::move(check)) {}
  const std::string& name() const { return name_; }
  std::string type_name() const override { return "type"; }
  std::string repr() const override { return "<class '" + name_ + "'>"; }
  Value getattr(const std::string& name) override;
  Value call(Args args, Kwargs kwargs) override;
  bool is_callable() const override { return true; }
  std::optional<bool> instancecheck(const Value& v) override { return check_(v); }

 private:
  std::string name_;
  NativeFn ctor_;
  std::function<bool(const Value&)> check_;
};

class Runtime {
 public:
  explicit Runtime(Interpreter* owner);
  ~Runtime();

  RunResult run(std::string_view source, std::string_view filename);

  // ---- state ----
  Interpreter* owner;
  SymbolTable symbols;
  std::vector<Value> globals;   // by symbol id; unbound = not defined
  std::vector<Value> builtins;  // by symbol id
  std::shared_ptr<ExceptionRegistry> exc_registry;
  std::unordered_map<std::string, std::shared_ptr<ExceptionType>> exc_types;
  std::unordered_map<std::string, Value> type_objects;  // "int" -> int type object, ...
  std::map<std::string, Interpreter::ModuleFactory> factories;
  std::map<std::string, Value> modules;
  Interpreter::OutputSink out;
  Interpreter::StatementHook hook;
  int max_call_depth = 200;
  int call_depth = 0;
  uint64_t step_limit = 0;
  uint64_t steps = 0;
  std::atomic<bool> stop_requested{false};
  int run_depth = 0;
  char* stack_limit = nullptr;  // RecursionError below this address
  std::vector<std::shared_ptr<ExceptionObject>> handling;  // for bare `raise`

  void write(std::string_view text);
  void set_builtin(const std::string& name, Value v);
  Value exception_type(const std::string& kind);  // creates unknown kinds under Exception
  void register_exception(const std::string& name, const std::string& parent);
  Value type_of(const Value& v);
  Value import_module(const std::string& dotted);

  // ---- execution ----
  enum class Flow { Normal, Break, Continue, Return };
  Value call_function(ScriptFunction& f, Args&& args, Kwargs&& kwargs);
  Value call_value(const Value& callee, Args&& args, Kwargs&& kwargs);

 private:
  Flow exec_body(const ast::Body& body, Frame* f);
  Flow exec(const ast::Stmt& s, Frame* f);
  Flow exec_inner(const ast::Stmt& s, Frame* f);
  Flow exec_for(const ast::For& s, Frame* f);
  Flow exec_while(const ast::While& s, Frame* f);
  Flow exec_with(const ast::With& s, Frame* f, size_t item);
  Flow exec_try(const ast::Try& s, Frame* f);
  Flow exec_try_except(const ast::Try& s, Frame* f);
  void exec_import(const ast::Import& s, Frame* f);
  void exec_import_from(const ast::ImportFrom& s, Frame* f);
  void exec_def(const ast::FunctionDef& s, Frame* f);
  void exec_delete(const ast::Expr& target, Frame* f);
  void exec_aug(const ast::AugAssign& s, Frame* f);

  Value eval(const ast::Expr& e, Frame* f);
  Value eval_inner(const ast::Expr& e, Frame* f);
  Value eval_name(const ast::Name& n, Frame* f);
  Value eval_call(const ast::Call& c, Frame* f);
  void eval_args(const ast::Call& c, Frame* f, Args& args, Kwargs& kwargs);
  Value eval_fstring(const std::vector<ast::FStringPart>& parts, Frame* f);
  Value eval_comprehension(const ast::CompExpr& c, Frame* f);
  void comp_loop(const ast::CompExpr& c, size_t gen, const Value& iterable, Frame* frame, Value& out);
  Value eval_compare(const ast::CompareExpr& c, Frame* f);
  Value make_function(const ast::FunctionInfo& fn, Frame* f);
  Closure make_closure(const ast::ScopeInfo& scope, Frame* f);
  static void make_cells(const ast::ScopeInfo& scope, Frame& fr);

  void store_name(const ast::Name& n, Value v, Frame* f);
  void assign(const ast::Expr& target, Value v, Frame* f);
  bool handler_matches(const Value& type, const std::string& kind);

  void on_statement(const ast::Pos& p);
 public:
  void on_iterations(uint64_t n);  // native loops: counts toward the step limit, honours stop
 private:
  void check_stack();
  [[noreturn]] void rethrow_annotated(const ast::Pos& p, Frame* f);
  void bind_arguments(ScriptFunction& sf, Frame& fr, Args& args, Kwargs& kwargs);

  std::shared_ptr<const ast::Program> program_;  // the program being run
  // The program whose code is executing (module code or the current function's); new
  // functions keep it alive.
  const std::shared_ptr<const ast::Program>* current_program_ = &program_;
};

// Installs builtins (functions, types, exceptions, the math module) into a runtime.
void install_builtins(Runtime& rt);

// Source text helpers: "\r\n"/"\r" -> "\n" (and NUL -> space); the text of a 1-based line.
std::string normalize_newlines(std::string_view s);
std::string line_text(const std::string& src, int line);

}  // namespace ipt::script
