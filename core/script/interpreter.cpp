// The tree-walking evaluator: statements, expressions, calls, scopes, exceptions, imports.
#include "core/script/interpreter.h"

#include <cstdio>
#include <iostream>

#if defined(__linux__)
#include <pthread.h>
#endif

#include "core/script/builtins.h"
#include "core/script/format.h"
#include "core/script/ops.h"
#include "core/script/parser.h"
#include "core/script/runtime.h"
#include "core/util/error.h"

namespace ipt::script {

using namespace ast;

// ---- RunResult ------------------------------------------------------------------------------

std::string RunResult::format() const {
  if (ok) return "ok";
  return "line " + std::to_string(line) + ", column " + std::to_string(col) + ": " + exception_line();
}

std::string RunResult::exception_line() const {
  if (error_message.empty()) return error_kind;
  return error_kind + ": " + error_message;
}

// ---- ScriptFunction ----------------------------------------------------------------------------

std::string ScriptFunction::repr() const {
  char buf[64];
  std::snprintf(buf, sizeof buf, " at %p>", static_cast<const void*>(this));
  return "<function " + fn->name + buf;
}

Value ScriptFunction::getattr(const std::string& name) {
  auto it = attrs.find(name);
  if (it != attrs.end()) return it->second;
  if (name == "__name__" || name == "__qualname__") return Value(fn->name);
  if (name == "__doc__") {
    if (!fn->body.empty() && fn->body[0]->kind == StmtKind::Expr) {
      auto& e = static_cast<const ExprStmt&>(*fn->body[0]).value;
      if (e->kind == ExprKind::Constant && static_cast<const Constant&>(*e).value.is_str())
        return static_cast<const Constant&>(*e).value;
    }
    return Value();
  }
  return Object::getattr(name);
}

Value ScriptFunction::call(Args args, Kwargs kwargs) { return rt->call_function(*this, std::move(args), std::move(kwargs)); }

// ---- exceptions / types --------------------------------------------------------------------------

bool ExceptionRegistry::is_subclass(const std::string& kind, const std::string& base) const {
  std::string k = kind;
  for (int guard = 0; guard < 64; ++guard) {
    if (k == base) return true;
    auto it = parent.find(k);
    if (it == parent.end()) {
      // unknown kinds derive from Exception
      if (k == "BaseException") return false;
      k = k == "Exception" ? "BaseException" : "Exception";
      continue;
    }
    k = it->second;
    if (k.empty()) return false;
  }
  return false;
}

Value ExceptionType::getattr(const std::string& name) {
  if (name == "__name__" || name == "__qualname__") return Value(name_);
  return Object::getattr(name);
}

Value ExceptionType::call(Args args, Kwargs kwargs) {
  if (!kwargs.empty()) raise("TypeError", name_ + "() takes no keyword arguments");
  return Value(std::make_shared<ExceptionObject>(name_, std::move(args)));
}

std::optional<bool> ExceptionType::instancecheck(const Value& v) {
  auto e = v.as<ExceptionObject>();
  return e && reg_->is_subclass(e->kind(), name_);
}

Value BuiltinType::getattr(const std::string& name) {
  if (name == "__name__" || name == "__qualname__") return Value(name_);
  // Unbound methods: str.lower, list.append, dict.get, ...
  Value sample;
  if (name_ == "str") sample = Value("");
  else if (name_ == "list") sample = Value::list();
  else if (name_ == "tuple") sample = Value::tuple();
  else if (name_ == "dict") sample = Value::dict();
  else if (name_ == "int") sample = Value(int64_t{0});
  else if (name_ == "float") sample = Value(0.0);
  if (!sample.is_none() && has_builtin_method(sample, name)) {
    std::string type = name_;
    return Value(make_native_function(name, [type, name, sample](CallArgs& a) -> Value {
      if (a.size() == 0 || a[0].type() != sample.type())
        raise("TypeError", "unbound method " + type + "." + name + "() needs an argument");
      Value self = a[0];
      Args rest(a.positional().begin() + 1, a.positional().end());
      Kwargs kw = a.keywords();
      return call_builtin_method(self, name, rest, kw);
    }));
  }
  raise("AttributeError", "type object '" + name_ + "' has no attribute '" + name + "'");
}

Value BuiltinType::call(Args args, Kwargs kwargs) {
  CallArgs a(name_, std::move(args), std::move(kwargs));
  return ctor_(a);
}

// ---- Runtime: setup --------------------------------------------------------------------------------

Runtime::Runtime(Interpreter* o) : owner(o), exc_registry(std::make_shared<ExceptionRegistry>()) {
  install_builtins(*this);
}

Runtime::~Runtime() {
  // Break closure cycles held by globals before members go away.
  globals.clear();
  modules.clear();
}

void Runtime::write(std::string_view text) {
  if (out) {
    out(text);
  } else {
    std::fwrite(text.data(), 1, text.size(), stdout);
  }
}

void Runtime::set_builtin(const std::string& name, Value v) {
  int sym = symbols.intern(name);
  if (builtins.size() <= static_cast<size_t>(sym)) builtins.resize(sym + 1, Value::unbound());
  builtins[sym] = std::move(v);
}

void Runtime::register_exception(const std::string& name, const std::string& parent) {
  exc_registry->parent[name] = parent;
  auto t = std::make_shared<ExceptionType>(name, exc_registry);
  exc_types[name] = t;
  set_builtin(name, Value(t));
}

Value Runtime::exception_type(const std::string& kind) {
  auto it = exc_types.find(kind);
  if (it != exc_types.end()) return Value(it->second);
  auto t = std::make_shared<ExceptionType>(kind, exc_registry);
  if (!exc_registry->parent.count(kind)) exc_registry->parent[kind] = "Exception";
  exc_types[kind] = t;
  return Value(t);
}

Value Runtime::type_of(const Value& v) {
  const char* name = nullptr;
  switch (v.type()) {
    case Value::Type::None: name = "NoneType"; break;
    case Value::Type::Bool: name = "bool"; break;
    case Value::Type::Int: name = "int"; break;
    case Value::Type::Float: name = "float"; break;
    case Value::Type::Str: name = "str"; break;
    case Value::Type::List: name = "list"; break;
    case Value::Type::Tuple: name = "tuple"; break;
    case Value::Type::Dict: name = "dict"; break;
    case Value::Type::Slice: name = "slice"; break;
    case Value::Type::Ellipsis: name = "ellipsis"; break;
    case Value::Type::Object: {
      const ObjectPtr& o = v.object_ptr();
      if (auto e = std::dynamic_pointer_cast<ExceptionObject>(o)) return exception_type(e->kind());
      if (std::dynamic_pointer_cast<RangeObject>(o)) { name = "range"; break; }
      if (std::dynamic_pointer_cast<BuiltinType>(o) || std::dynamic_pointer_cast<ExceptionType>(o) ||
          std::dynamic_pointer_cast<TypeObject>(o)) {
        name = "type";
        break;
      }
      std::string tn = o->type_name();
      auto it = type_objects.find(tn);
      if (it != type_objects.end() && (tn == "function" || tn == "builtin_function_or_method" || tn == "module"))
        return it->second;
      return o->type_object();
    }
    case Value::Type::Unbound: name = "NoneType"; break;
  }
  auto it = type_objects.find(name);
  if (it != type_objects.end()) return it->second;
  Value t(std::make_shared<TypeObject>(name));
  type_objects[name] = t;
  return t;
}

Value Runtime::import_module(const std::string& dotted) {
  auto it = modules.find(dotted);
  if (it != modules.end()) return it->second;
  auto f = factories.find(dotted);
  size_t dot = dotted.rfind('.');
  if (f != factories.end()) {
    Value m = f->second();
    modules[dotted] = m;
    if (dot != std::string::npos) {
      Value parent = import_module(dotted.substr(0, dot));
      if (auto pm = parent.as<Module>())
        if (!pm->has(dotted.substr(dot + 1))) pm->set(dotted.substr(dot + 1), m);
    }
    return m;
  }
  if (dot != std::string::npos) {
    Value parent = import_module(dotted.substr(0, dot));
    try {
      Value m = get_attr(parent, dotted.substr(dot + 1));
      modules[dotted] = m;
      return m;
    } catch (const ScriptError& e) {
      if (e.kind() != "AttributeError") throw;
    }
  }
  raise("ModuleNotFoundError", "No module named '" + dotted + "'");
}

// ---- Runtime: run -----------------------------------------------------------------------------------

namespace {

std::string normalize_newlines(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\r') {
      out += '\n';
      if (i + 1 < s.size() && s[i + 1] == '\n') ++i;
    } else if (s[i] == '\0') {
      out += ' ';
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string line_text(const std::string& src, int line) {
  if (line <= 0) return {};
  size_t pos = 0;
  for (int l = 1; l < line; ++l) {
    pos = src.find('\n', pos);
    if (pos == std::string::npos) return {};
    ++pos;
  }
  size_t end = src.find('\n', pos);
  return src.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
}

char* current_stack_limit() {
  char* sp = static_cast<char*>(__builtin_frame_address(0));
  size_t budget = 6u << 20;  // default: 6 MiB below the entry point
#if defined(__linux__)
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* addr = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0 && addr && size > 0) {
      char* low = static_cast<char*>(addr);
      size_t avail = static_cast<size_t>(sp - low);
      size_t margin = 256u << 10;
      if (avail > margin) budget = std::min(budget, avail - margin);
      else budget = avail / 2;
    }
    pthread_attr_destroy(&attr);
  }
#endif
  return sp - budget;
}

}  // namespace

RunResult Runtime::run(std::string_view source, std::string_view filename) {
  RunResult result;
  std::string src = normalize_newlines(source);
  std::shared_ptr<Program> prog;
  try {
    prog = std::shared_ptr<Program>(parse_program(src, std::string(filename)).release());
    resolve_program(*prog, symbols);
  } catch (const SyntaxErrorInfo& e) {
    result.ok = false;
    result.error_kind = e.kind;
    result.error_message = e.message;
    result.line = e.line;
    result.col = e.col;
    result.source_line = line_text(src, e.line);
    result.traceback.push_back({e.line, e.col, "<module>"});
    return result;
  } catch (const std::bad_alloc&) {
    result.ok = false;
    result.error_kind = "MemoryError";
    return result;
  }
  if (globals.size() < symbols.size()) globals.resize(symbols.size(), Value::unbound());
  if (builtins.size() < symbols.size()) builtins.resize(symbols.size(), Value::unbound());

  auto saved_program = program_;
  program_ = prog;
  char* saved_limit = stack_limit;
  if (run_depth == 0) {
    stack_limit = current_stack_limit();
    steps = 0;
    stop_requested = false;
    call_depth = 0;
  }
  ++run_depth;
  detail::IterationWatch saved_watch = detail::t_iteration_watch;
  detail::t_iteration_watch.tick = [](void* ctx) { static_cast<Runtime*>(ctx)->on_iterations(256); };
  detail::t_iteration_watch.ctx = this;
  try {
    exec_body(prog->body, nullptr);
  } catch (ScriptError& e) {
    result.ok = false;
    result.error_kind = e.kind();
    try {
      result.error_message = e.message();
    } catch (...) {
      result.error_message = "<exception str() failed>";
    }
    for (auto it = e.traceback.rbegin(); it != e.traceback.rend(); ++it) result.traceback.push_back(*it);
    if (!e.traceback.empty()) {
      result.line = e.traceback.front().line;
      result.col = e.traceback.front().col;
    }
  } catch (const std::exception& e) {
    result.ok = false;
    result.error_kind = "RuntimeError";
    result.error_message = std::string("internal error: ") + e.what();
  } catch (...) {
    result.ok = false;
    result.error_kind = "RuntimeError";
    result.error_message = "internal error";
  }
  --run_depth;
  detail::t_iteration_watch = saved_watch;
  stack_limit = saved_limit;
  program_ = saved_program;
  if (!result.ok) result.source_line = line_text(src, result.line);
  if (run_depth == 0) handling.clear();
  return result;
}

// ---- error annotation ----------------------------------------------------------------------------

void Runtime::check_stack() {
  char* sp = static_cast<char*>(__builtin_frame_address(0));
  if (stack_limit && sp < stack_limit) raise("RecursionError", "maximum recursion depth exceeded");
}

void Runtime::rethrow_annotated(const Pos& p, Frame* f) {
  auto annotate = [&](ScriptError& e) {
    const char* fname = f ? f->name : "<module>";
    if (!e.positioned) {
      e.positioned = true;
      e.traceback.push_back({p.line, p.col, fname});
    } else if (e.leaving_frame) {
      e.leaving_frame = false;
      e.traceback.push_back({p.line, p.col, fname});
    }
  };
  try {
    throw;
  } catch (ScriptError& e) {
    annotate(e);
    throw;
  } catch (const ipt::Error& e) {
    ScriptError se(error_kind_name(e.kind()), std::string(e.what()));
    annotate(se);
    throw se;
  } catch (const std::bad_alloc&) {
    ScriptError se("MemoryError", std::string());
    annotate(se);
    throw se;
  } catch (const std::exception& e) {
    ScriptError se("RuntimeError", std::string("internal error: ") + e.what());
    annotate(se);
    throw se;
  } catch (...) {
    ScriptError se("RuntimeError", std::string("internal error: unknown native exception"));
    annotate(se);
    throw se;
  }
}

void Runtime::on_iterations(uint64_t n) {
  if (stop_requested.load(std::memory_order_relaxed)) {
    stop_requested = false;
    ScriptError e("KeyboardInterrupt", std::string("execution stopped"));
    e.fatal = true;
    throw e;
  }
  steps += n;
  if (step_limit && steps > step_limit) {
    ScriptError e("KeyboardInterrupt", "step limit exceeded (" + std::to_string(step_limit) + " statements)");
    e.fatal = true;
    throw e;
  }
}

void Runtime::on_statement(const Pos& p) {
  if (stop_requested.load(std::memory_order_relaxed)) {
    stop_requested = false;
    ScriptError e("KeyboardInterrupt", std::string("execution stopped"));
    e.fatal = true;
    throw e;
  }
  ++steps;
  if (step_limit && steps > step_limit) {
    ScriptError e("KeyboardInterrupt", "step limit exceeded (" + std::to_string(step_limit) + " statements)");
    e.fatal = true;
    throw e;
  }
  if (hook) hook(p.line, p.col);
}

// ---- statements --------------------------------------------------------------------------------------

Runtime::Flow Runtime::exec_body(const Body& body, Frame* f) {
  for (const auto& s : body) {
    Flow fl = exec(*s, f);
    if (fl != Flow::Normal) return fl;
  }
  return Flow::Normal;
}

Runtime::Flow Runtime::exec(const Stmt& s, Frame* f) {
  try {
    check_stack();
    on_statement(s.pos);
    return exec_inner(s, f);
  } catch (...) {
    rethrow_annotated(s.pos, f);
  }
}

Runtime::Flow Runtime::exec_inner(const Stmt& s, Frame* f) {
  switch (s.kind) {
    case StmtKind::Expr:
      eval(*static_cast<const ExprStmt&>(s).value, f);
      return Flow::Normal;
    case StmtKind::Assign: {
      const auto& a = static_cast<const Assign&>(s);
      Value v = eval(*a.value, f);
      for (const auto& t : a.targets) assign(*t, v, f);
      return Flow::Normal;
    }
    case StmtKind::AugAssign:
      exec_aug(static_cast<const AugAssign&>(s), f);
      return Flow::Normal;
    case StmtKind::AnnAssign: {
      const auto& a = static_cast<const AnnAssign&>(s);
      if (a.value) assign(*a.target, eval(*a.value, f), f);
      return Flow::Normal;
    }
    case StmtKind::If: {
      const If* i = &static_cast<const If&>(s);
      while (true) {
        if (truthy(eval(*i->test, f))) return exec_body(i->body, f);
        if (i->orelse.size() == 1 && i->orelse[0]->kind == StmtKind::If) {
          // elif: report the elif line to the hook like Python's tracer
          i = static_cast<const If*>(i->orelse[0].get());
          on_statement(i->pos);
          continue;
        }
        return exec_body(i->orelse, f);
      }
    }
    case StmtKind::While: return exec_while(static_cast<const While&>(s), f);
    case StmtKind::For: return exec_for(static_cast<const For&>(s), f);
    case StmtKind::Break: return Flow::Break;
    case StmtKind::Continue: return Flow::Continue;
    case StmtKind::Pass: return Flow::Normal;
    case StmtKind::Return: {
      const auto& r = static_cast<const Return&>(s);
      f->retval = r.value ? eval(*r.value, f) : Value();
      return Flow::Return;
    }
    case StmtKind::FunctionDef: exec_def(static_cast<const FunctionDef&>(s), f); return Flow::Normal;
    case StmtKind::With: return exec_with(static_cast<const With&>(s), f, 0);
    case StmtKind::Try: return exec_try(static_cast<const Try&>(s), f);
    case StmtKind::Raise: {
      const auto& r = static_cast<const Raise&>(s);
      if (!r.exc) {
        if (handling.empty()) raise("RuntimeError", "No active exception to reraise");
        throw ScriptError(handling.back());
      }
      Value v = eval(*r.exc, f);
      if (r.cause) eval(*r.cause, f);
      if (auto t = v.as<ExceptionType>()) v = t->call({}, {});
      if (auto e = v.as<ExceptionObject>()) throw ScriptError(e);
      raise("TypeError", "exceptions must derive from BaseException");
    }
    case StmtKind::Assert: {
      const auto& a = static_cast<const Assert&>(s);
      if (!truthy(eval(*a.test, f))) {
        Value msg = a.msg ? eval(*a.msg, f) : Value::unbound();
        try {
          if (!msg.is_unbound()) raise("AssertionError", std::vector<Value>{msg});
          raise("AssertionError", std::string());
        } catch (...) {
          rethrow_annotated(a.msg ? s.pos : a.test->pos, f);  // where CPython 3.11 points
        }
      }
      return Flow::Normal;
    }
    case StmtKind::Import: exec_import(static_cast<const Import&>(s), f); return Flow::Normal;
    case StmtKind::ImportFrom: exec_import_from(static_cast<const ImportFrom&>(s), f); return Flow::Normal;
    case StmtKind::Delete:
      for (const auto& t : static_cast<const Delete&>(s).targets) exec_delete(*t, f);
      return Flow::Normal;
  }
  return Flow::Normal;
}

Runtime::Flow Runtime::exec_while(const While& s, Frame* f) {
  bool first = true;
  while (true) {
    if (!first) on_statement(s.pos);
    first = false;
    if (!truthy(eval(*s.test, f))) break;
    Flow fl = exec_body(s.body, f);
    if (fl == Flow::Break) return Flow::Normal;
    if (fl == Flow::Return) return fl;
  }
  return exec_body(s.orelse, f);
}

Runtime::Flow Runtime::exec_for(const For& s, Frame* f) {
  Value iterable = eval(*s.iter, f);
  std::optional<ValueIterator> it;
  it.emplace(iterable);
  Value item;
  bool first = true;
  const Expr& target = *s.target;
  const Name* local = nullptr;
  if (target.kind == ExprKind::Name && static_cast<const Name&>(target).scope == NameScope::Local)
    local = static_cast<const Name*>(&target);
  while (true) {
    if (!first) on_statement(s.pos);
    first = false;
    if (!it->next(item)) break;
    if (local) f->slots[local->slot] = std::move(item);
    else assign(target, std::move(item), f);
    Flow fl = exec_body(s.body, f);
    if (fl == Flow::Break) return Flow::Normal;
    if (fl == Flow::Return) return fl;
  }
  return exec_body(s.orelse, f);
}

Runtime::Flow Runtime::exec_with(const With& s, Frame* f, size_t index) {
  if (index == s.items.size()) return exec_body(s.body, f);
  const WithItem& item = s.items[index];
  Value mgr = eval(*item.context, f);
  if (!mgr.is_object())
    raise("TypeError", "'" + mgr.type_name() + "' object does not support the context manager protocol");
  ObjectPtr obj = mgr.object_ptr();
  Value entered = obj->enter();
  Flow fl;
  try {
    if (item.target) assign(*item.target, entered, f);
    fl = exec_with(s, f, index + 1);
  } catch (ScriptError& e) {
    bool suppress = false;
    try {
      suppress = obj->exit(true);
    } catch (...) {
      rethrow_annotated(item.context->pos, f);
    }
    if (suppress && !e.fatal) return Flow::Normal;
    throw;
  } catch (...) {
    try {
      obj->exit(true);
    } catch (...) {
    }
    throw;
  }
  obj->exit(false);
  return fl;
}

bool Runtime::handler_matches(const Value& type, const std::string& kind) {
  if (auto t = type.as<ExceptionType>()) return exc_registry->is_subclass(kind, t->name());
  if (type.is_tuple()) {
    for (const auto& x : type.as_tuple())
      if (handler_matches(x, kind)) return true;
    return false;
  }
  raise("TypeError", "catching classes that do not inherit from BaseException is not allowed");
}

Runtime::Flow Runtime::exec_try_except(const Try& s, Frame* f) {
  Flow fl;
  try {
    fl = exec_body(s.body, f);
  } catch (ScriptError& e) {
    if (e.fatal || s.handlers.empty()) throw;
    for (const auto& h : s.handlers) {
      if (h.type) {
        Value t = eval(*h.type, f);
        if (!handler_matches(t, e.kind())) continue;
      }
      Value exc(e.exception());
      if (h.name) store_name(*h.name, exc, f);
      handling.push_back(e.exception());
      struct Pop {
        std::vector<std::shared_ptr<ExceptionObject>>& v;
        ~Pop() { v.pop_back(); }
      } pop{handling};
      Flow hf = exec_body(h.body, f);
      if (h.name) store_name(*h.name, Value::unbound(), f);
      return hf;
    }
    throw;
  }
  if (fl == Flow::Normal && !s.orelse.empty()) return exec_body(s.orelse, f);
  return fl;
}

Runtime::Flow Runtime::exec_try(const Try& s, Frame* f) {
  if (s.finalbody.empty()) return exec_try_except(s, f);
  Flow fl;
  Value saved_ret;
  try {
    fl = exec_try_except(s, f);
  } catch (ScriptError& e) {
    if (e.fatal) {
      // still run cleanup, but the stop request wins
      try {
        exec_body(s.finalbody, f);
      } catch (...) {
      }
      throw;
    }
    Flow ff = exec_body(s.finalbody, f);
    if (ff != Flow::Normal) return ff;  // return/break in finally swallows the exception
    throw;
  }
  if (fl == Flow::Return && f) saved_ret = f->retval;
  Flow ff = exec_body(s.finalbody, f);
  if (ff != Flow::Normal) return ff;
  if (fl == Flow::Return && f) f->retval = std::move(saved_ret);
  return fl;
}

void Runtime::exec_aug(const AugAssign& s, Frame* f) {
  const Expr& t = *s.target;
  switch (t.kind) {
    case ExprKind::Name: {
      const auto& n = static_cast<const Name&>(t);
      Value cur = eval_name(n, f);
      Value rhs = eval(*s.value, f);
      Value r;
      if (cur.is_int() && rhs.is_int() && s.op == BinaryOp::Add) {
        int64_t x;
        if (!__builtin_add_overflow(cur.raw_int(), rhs.raw_int(), &x)) r = Value(x);
        else r = inplace_op(s.op, cur, rhs);
      } else {
        r = inplace_op(s.op, cur, rhs);
      }
      store_name(n, std::move(r), f);
      return;
    }
    case ExprKind::Attribute: {
      const auto& a = static_cast<const Attribute&>(t);
      Value obj = eval(*a.value, f);
      Value cur = get_attr(obj, a.attr);
      Value rhs = eval(*s.value, f);
      set_attr(obj, a.attr, inplace_op(s.op, cur, rhs));
      return;
    }
    case ExprKind::Subscript: {
      const auto& sub = static_cast<const Subscript&>(t);
      Value obj = eval(*sub.value, f);
      Value idx = eval(*sub.index, f);
      Value cur = get_item(obj, idx);
      Value rhs = eval(*s.value, f);
      set_item(obj, idx, inplace_op(s.op, cur, rhs));
      return;
    }
    default: raise("SyntaxError", "illegal expression for augmented assignment");
  }
}

void Runtime::exec_def(const FunctionDef& s, Frame* f) {
  Value fn = make_function(*s.fn, f);
  for (auto it = s.decorators.rbegin(); it != s.decorators.rend(); ++it) {
    Value dec = eval(**it, f);
    fn = call_value(dec, Args{fn}, {});
  }
  store_name(*s.target, std::move(fn), f);
}

void Runtime::exec_import(const Import& s, Frame* f) {
  for (const auto& a : s.names) {
    Value m = import_module(a.name);
    if (a.asname.empty() && a.name.find('.') != std::string::npos) m = import_module(a.name.substr(0, a.name.find('.')));
    store_name(*a.target, std::move(m), f);
  }
}

void Runtime::exec_import_from(const ImportFrom& s, Frame* f) {
  Value m = import_module(s.module);
  if (s.star) {
    auto mod = m.as<Module>();
    if (!mod) raise("ImportError", "cannot import * from '" + s.module + "'");
    for (const auto& kv : mod->attributes()) {
      if (!kv.first.empty() && kv.first[0] == '_') continue;
      int sym = symbols.intern(kv.first);
      if (globals.size() <= static_cast<size_t>(sym)) globals.resize(sym + 1, Value::unbound());
      globals[sym] = kv.second;
    }
    return;
  }
  for (const auto& a : s.names) {
    Value v;
    std::string sub = s.module + "." + a.name;
    if (factories.count(sub) || modules.count(sub)) {
      v = import_module(sub);
    } else {
      try {
        v = get_attr(m, a.name);
      } catch (const ScriptError& e) {
        if (e.kind() != "AttributeError") throw;
        raise("ImportError", "cannot import name '" + a.name + "' from '" + s.module + "' (unknown location)");
      }
    }
    store_name(*a.target, std::move(v), f);
  }
}

void Runtime::exec_delete(const Expr& t, Frame* f) {
  switch (t.kind) {
    case ExprKind::Name: {
      const auto& n = static_cast<const Name&>(t);
      eval(n, f);  // NameError if unbound
      store_name(n, Value::unbound(), f);
      return;
    }
    case ExprKind::Subscript: {
      const auto& s = static_cast<const Subscript&>(t);
      Value obj = eval(*s.value, f);
      Value idx = eval(*s.index, f);
      del_item(obj, idx);
      return;
    }
    case ExprKind::Attribute: {
      const auto& a = static_cast<const Attribute&>(t);
      Value obj = eval(*a.value, f);
      if (auto sf = obj.as<ScriptFunction>()) {
        if (sf->attrs.erase(a.attr)) return;
      }
      if (auto m = obj.as<Module>()) {
        (void)m;
      }
      raise("AttributeError", "cannot delete attribute '" + a.attr + "' of '" + obj.type_name() + "' object");
    }
    case ExprKind::Tuple: case ExprKind::List:
      for (const auto& x : static_cast<const SequenceExpr&>(t).elts) exec_delete(*x, f);
      return;
    default: raise("SyntaxError", "cannot delete expression");
  }
}

// ---- names and assignment ---------------------------------------------------------------------------

Value Runtime::eval_name(const Name& n, Frame* f) {
  switch (n.scope) {
    case NameScope::Local: {
      const Value& v = f->slots[n.slot];
      if (!v.is_unbound()) return v;
      if (n.function_local && std::string_view(f->name) != "<listcomp>" && std::string_view(f->name) != "<dictcomp>" &&
          std::string_view(f->name) != "<genexpr>")
        raise("UnboundLocalError", "cannot access local variable '" + n.id + "' where it is not associated with a value");
      raise("NameError", "name '" + n.id + "' is not defined");
    }
    case NameScope::Free: {
      Frame* p = f;
      for (int i = 0; i < n.hops && p; ++i) p = p->parent.get();
      if (!p) raise("NameError", "name '" + n.id + "' is not defined");
      const Value& v = p->slots[n.slot];
      if (!v.is_unbound()) return v;
      raise("NameError", "cannot access free variable '" + n.id +
                             "' where it is not associated with a value in enclosing scope");
    }
    case NameScope::Global: {
      size_t sym = static_cast<size_t>(n.sym);
      if (sym < globals.size() && !globals[sym].is_unbound()) return globals[sym];
      if (sym < builtins.size() && !builtins[sym].is_unbound()) return builtins[sym];
      raise("NameError", "name '" + n.id + "' is not defined");
    }
  }
  return Value();
}

void Runtime::store_name(const Name& n, Value v, Frame* f) {
  switch (n.scope) {
    case NameScope::Local: f->slots[n.slot] = std::move(v); return;
    case NameScope::Free: {
      Frame* p = f;
      for (int i = 0; i < n.hops && p; ++i) p = p->parent.get();
      if (p) p->slots[n.slot] = std::move(v);
      return;
    }
    case NameScope::Global: {
      size_t sym = static_cast<size_t>(n.sym);
      if (sym >= globals.size()) globals.resize(sym + 1, Value::unbound());
      globals[sym] = std::move(v);
      return;
    }
  }
}

void Runtime::assign(const Expr& target, Value v, Frame* f) {
  switch (target.kind) {
    case ExprKind::Name: store_name(static_cast<const Name&>(target), std::move(v), f); return;
    case ExprKind::Attribute: {
      const auto& a = static_cast<const Attribute&>(target);
      Value obj = eval(*a.value, f);
      set_attr(obj, a.attr, v);
      return;
    }
    case ExprKind::Subscript: {
      const auto& s = static_cast<const Subscript&>(target);
      Value obj = eval(*s.value, f);
      Value idx = eval(*s.index, f);
      set_item(obj, idx, v);
      return;
    }
    case ExprKind::Tuple: case ExprKind::List: {
      const auto& seq = static_cast<const SequenceExpr&>(target);
      std::vector<Value> items;
      if (v.is_tuple()) items = v.tuple_ptr()->items;
      else if (v.is_list()) items = v.list_ptr()->items;
      else if (v.is_str() || v.is_dict() || v.is_object()) {
        if (v.is_object()) {
          try {
            items = to_vector(v);
          } catch (const ScriptError& e) {
            if (e.kind() == "TypeError" && e.message().find("is not iterable") != std::string::npos)
              raise("TypeError", "cannot unpack non-iterable " + v.type_name() + " object");
            throw;
          }
        } else {
          items = to_vector(v);
        }
      } else {
        raise("TypeError", "cannot unpack non-iterable " + v.type_name() + " object");
      }
      size_t n = seq.elts.size();
      if (items.size() > n) raise("ValueError", "too many values to unpack (expected " + std::to_string(n) + ")");
      if (items.size() < n)
        raise("ValueError", "not enough values to unpack (expected " + std::to_string(n) + ", got " +
                                std::to_string(items.size()) + ")");
      for (size_t i = 0; i < n; ++i) assign(*seq.elts[i], std::move(items[i]), f);
      return;
    }
    case ExprKind::Starred: raise("SyntaxError", "starred assignment targets are not supported in snippets");
    default: raise("SyntaxError", "cannot assign to expression");
  }
}

// ---- functions ------------------------------------------------------------------------------------------

Value Runtime::make_function(const FunctionInfo& fn, Frame* f) {
  auto sf = std::make_shared<ScriptFunction>();
  sf->rt = this;
  sf->program = program_;
  sf->fn = &fn;
  for (const auto& p : fn.params) sf->defaults.push_back(p.default_value ? eval(*p.default_value, f) : Value::unbound());
  for (const auto& p : fn.kwonly) sf->kwdefaults.push_back(p.default_value ? eval(*p.default_value, f) : Value::unbound());
  if (f) sf->closure = f->shared_from_this();
  return Value(sf);
}

namespace {
std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += names.size() == 2 ? " and " : (i + 1 == names.size() ? ", and " : ", ");
    out += "'" + names[i] + "'";
  }
  return out;
}
}  // namespace

void Runtime::bind_arguments(ScriptFunction& sf, Frame& fr, Args& args, Kwargs& kwargs) {
  const FunctionInfo& fn = *sf.fn;
  const std::string& name = fn.name;
  size_t n = fn.params.size();
  size_t nargs = args.size();
  if (nargs > n && fn.vararg_slot < 0) {
    size_t required = 0;
    for (const auto& d : sf.defaults)
      if (d.is_unbound()) ++required;
    std::string takes = required == n ? std::to_string(n) : "from " + std::to_string(required) + " to " + std::to_string(n);
    raise("TypeError", name + "() takes " + takes + " positional argument" + (n == 1 && required == n ? "" : "s") +
                           " but " + std::to_string(nargs) + (nargs == 1 ? " was" : " were") + " given");
  }
  for (size_t i = 0; i < std::min(nargs, n); ++i) fr.slots[fn.params[i].slot] = std::move(args[i]);
  if (fn.vararg_slot >= 0) {
    std::vector<Value> rest;
    for (size_t i = n; i < nargs; ++i) rest.push_back(std::move(args[i]));
    fr.slots[fn.vararg_slot] = Value::tuple(std::move(rest));
  }
  std::shared_ptr<Dict> extra;
  if (fn.kwarg_slot >= 0) {
    extra = std::make_shared<Dict>();
    fr.slots[fn.kwarg_slot] = Value(extra);
  }
  for (auto& kv : kwargs) {
    bool found = false;
    for (size_t i = 0; i < n; ++i) {
      if (fn.params[i].name == kv.first) {
        if (i < nargs || !fr.slots[fn.params[i].slot].is_unbound())
          raise("TypeError", name + "() got multiple values for argument '" + kv.first + "'");
        fr.slots[fn.params[i].slot] = std::move(kv.second);
        found = true;
        break;
      }
    }
    if (found) continue;
    for (const auto& p : fn.kwonly) {
      if (p.name == kv.first) {
        if (!fr.slots[p.slot].is_unbound())
          raise("TypeError", name + "() got multiple values for argument '" + kv.first + "'");
        fr.slots[p.slot] = std::move(kv.second);
        found = true;
        break;
      }
    }
    if (found) continue;
    if (extra) {
      extra->set(Value(kv.first), std::move(kv.second));
      continue;
    }
    raise("TypeError", name + "() got an unexpected keyword argument '" + kv.first + "'");
  }
  std::vector<std::string> missing;
  for (size_t i = 0; i < n; ++i) {
    Value& slot = fr.slots[fn.params[i].slot];
    if (!slot.is_unbound()) continue;
    if (!sf.defaults[i].is_unbound()) slot = sf.defaults[i];
    else missing.push_back(fn.params[i].name);
  }
  if (!missing.empty())
    raise("TypeError", name + "() missing " + std::to_string(missing.size()) + " required positional argument" +
                           (missing.size() == 1 ? "" : "s") + ": " + quoted_list(missing));
  for (size_t i = 0; i < fn.kwonly.size(); ++i) {
    Value& slot = fr.slots[fn.kwonly[i].slot];
    if (!slot.is_unbound()) continue;
    if (!sf.kwdefaults[i].is_unbound()) slot = sf.kwdefaults[i];
    else missing.push_back(fn.kwonly[i].name);
  }
  if (!missing.empty())
    raise("TypeError", name + "() missing " + std::to_string(missing.size()) + " required keyword-only argument" +
                           (missing.size() == 1 ? "" : "s") + ": " + quoted_list(missing));
}

Value Runtime::call_function(ScriptFunction& sf, Args&& args, Kwargs&& kwargs) {
  const FunctionInfo& fn = *sf.fn;
  auto frame = std::make_shared<Frame>();
  frame->slots.assign(fn.scope.slot_names.size(), Value::unbound());
  frame->parent = sf.closure;
  frame->name = fn.name.c_str();
  bind_arguments(sf, *frame, args, kwargs);
  if (call_depth >= max_call_depth) raise("RecursionError", "maximum recursion depth exceeded");
  struct DepthGuard {
    int& d;
    explicit DepthGuard(int& x) : d(x) { ++d; }
    ~DepthGuard() { --d; }
  } guard(call_depth);
  auto keep = sf.shared_from_this();  // the function may be rebound while running
  try {
    if (fn.lambda_body) return eval(*fn.lambda_body, frame.get());
    Flow fl = exec_body(fn.body, frame.get());
    if (fl == Flow::Return) return std::move(frame->retval);
    return Value();
  } catch (ScriptError& e) {
    e.leaving_frame = true;
    throw;
  }
}

Value Runtime::call_value(const Value& callee, Args&& args, Kwargs&& kwargs) {
  if (!callee.is_object()) raise("TypeError", "'" + callee.type_name() + "' object is not callable");
  Object* o = callee.object_ptr().get();
  if (auto* sf = dynamic_cast<ScriptFunction*>(o)) {
    if (sf->rt == this) return call_function(*sf, std::move(args), std::move(kwargs));
  }
  ObjectPtr keep = callee.object_ptr();
  return o->call(std::move(args), std::move(kwargs));
}

// ---- expressions --------------------------------------------------------------------------------------

Value Runtime::eval(const Expr& e, Frame* f) {
  try {
    check_stack();
    return eval_inner(e, f);
  } catch (...) {
    rethrow_annotated(e.pos, f);
  }
}

void Runtime::eval_args(const Call& c, Frame* f, Args& args, Kwargs& kwargs) {
  args.reserve(c.args.size());
  for (const auto& a : c.args) {
    switch (a.kind) {
      case Arg::Kind::Positional: args.push_back(eval(*a.value, f)); break;
      case Arg::Kind::Star: {
        Value v = eval(*a.value, f);
        if (v.is_list() || v.is_tuple() || v.is_str() || v.is_dict() || v.is_object()) {
          for (auto& x : to_vector(v)) args.push_back(std::move(x));
        } else {
          std::string fname = c.func->kind == ExprKind::Name ? static_cast<const Name&>(*c.func).id + "()" : "function";
          raise("TypeError", fname + " argument after * must be an iterable, not " + v.type_name());
        }
        break;
      }
      case Arg::Kind::Keyword: kwargs.emplace_back(a.name, eval(*a.value, f)); break;
      case Arg::Kind::DoubleStar: {
        Value v = eval(*a.value, f);
        if (!v.is_dict()) {
          std::string fname = c.func->kind == ExprKind::Name ? static_cast<const Name&>(*c.func).id + "()" : "function";
          raise("TypeError", fname + " argument after ** must be a mapping, not " + v.type_name());
        }
        for (const auto& kv : v.dict_ptr()->entries()) {
          if (!kv.first.is_str()) raise("TypeError", "keywords must be strings");
          for (const auto& existing : kwargs)
            if (existing.first == kv.first.as_str())
              raise("TypeError", "got multiple values for keyword argument '" + kv.first.as_str() + "'");
          kwargs.emplace_back(kv.first.as_str(), kv.second);
        }
        break;
      }
    }
  }
}

Value Runtime::eval_call(const Call& c, Frame* f) {
  Args args;
  Kwargs kwargs;
  if (c.func->kind == ExprKind::Attribute) {
    const auto& a = static_cast<const Attribute&>(*c.func);
    Value obj = eval(*a.value, f);
    if (obj.is_object()) {
      ObjectPtr o = obj.object_ptr();
      if (dynamic_cast<Module*>(o.get())) {
        Value callee = o->getattr(a.attr);
        eval_args(c, f, args, kwargs);
        return call_value(callee, std::move(args), std::move(kwargs));
      }
      eval_args(c, f, args, kwargs);
      if (auto r = o->call_method(a.attr, args, kwargs)) return std::move(*r);
      Value callee = o->getattr(a.attr);
      return call_value(callee, std::move(args), std::move(kwargs));
    }
    if (!has_builtin_method(obj, a.attr)) {
      Value callee = get_attr(obj, a.attr);  // raises AttributeError, or e.g. slice.start
      eval_args(c, f, args, kwargs);
      return call_value(callee, std::move(args), std::move(kwargs));
    }
    eval_args(c, f, args, kwargs);
    return call_builtin_method(obj, a.attr, args, kwargs);
  }
  Value callee = eval(*c.func, f);
  eval_args(c, f, args, kwargs);
  return call_value(callee, std::move(args), std::move(kwargs));
}

Value Runtime::eval_fstring(const std::vector<FStringPart>& parts, Frame* f) {
  std::string out;
  for (const auto& p : parts) {
    if (!p.expr) {
      out += p.literal;
      continue;
    }
    Value v = eval(*p.expr, f);
    out += p.debug_text;
    if (p.conversion == 'r' || p.conversion == 'a') v = Value(v.repr());
    else if (p.conversion == 's') v = Value(v.str());
    if (p.spec.empty()) {
      if (v.is_str()) out += v.as_str();
      else out += format_value(v, "");
    } else {
      Value spec = eval_fstring(p.spec, f);
      out += format_value(v, spec.as_str());
    }
  }
  return Value(std::move(out));
}

void Runtime::comp_loop(const CompExpr& c, size_t gen, const Value& iterable, Frame* frame, Value& out) {
  const Comprehension& g = c.gens[gen];
  ValueIterator it(iterable);
  Value item;
  while (it.next(item)) {
    assign(*g.target, std::move(item), frame);
    bool ok = true;
    for (const auto& cond : g.ifs)
      if (!truthy(eval(*cond, frame))) { ok = false; break; }
    if (!ok) continue;
    if (gen + 1 < c.gens.size()) {
      Value next_iter = eval(*c.gens[gen + 1].iter, frame);
      comp_loop(c, gen + 1, next_iter, frame, out);
      continue;
    }
    if (c.kind == ExprKind::DictComp) {
      Value k = eval(*c.elt, frame);
      Value v = eval(*c.value, frame);
      out.dict_ptr()->set(k, std::move(v));
    } else {
      auto& items = out.list_ptr()->items;
      items.push_back(eval(*c.elt, frame));
      if (items.size() > kMaxContainerSize) raise("MemoryError", "list too large");
    }
  }
}

Value Runtime::eval_comprehension(const CompExpr& c, Frame* f) {
  Value first_iter = eval(*c.gens[0].iter, f);
  auto frame = std::make_shared<Frame>();
  frame->slots.assign(c.scope.slot_names.size(), Value::unbound());
  if (f) frame->parent = f->shared_from_this();
  frame->name = c.kind == ExprKind::ListComp ? "<listcomp>" : c.kind == ExprKind::DictComp ? "<dictcomp>" : "<genexpr>";
  Value out = c.kind == ExprKind::DictComp ? Value::dict() : Value::list();
  try {
    ValueIterator probe(first_iter);  // TypeError for non-iterables, reported at the iterable
    (void)probe;
  } catch (...) {
    rethrow_annotated(c.gens[0].iter->pos, f);
  }
  comp_loop(c, 0, first_iter, frame.get(), out);
  return out;
}

Value Runtime::eval_compare(const CompareExpr& c, Frame* f) {
  Value left = eval(*c.left, f);
  for (size_t i = 0; i < c.ops.size(); ++i) {
    Value right = eval(*c.comparators[i], f);
    Value r;
    switch (c.ops[i]) {
      case CmpKind::Eq: r = compare(CompareOp::Eq, left, right); break;
      case CmpKind::Ne: r = compare(CompareOp::Ne, left, right); break;
      case CmpKind::Lt: r = compare(CompareOp::Lt, left, right); break;
      case CmpKind::Le: r = compare(CompareOp::Le, left, right); break;
      case CmpKind::Gt: r = compare(CompareOp::Gt, left, right); break;
      case CmpKind::Ge: r = compare(CompareOp::Ge, left, right); break;
      case CmpKind::Is: r = Value(is_identical(left, right)); break;
      case CmpKind::IsNot: r = Value(!is_identical(left, right)); break;
      case CmpKind::In: r = Value(contains(right, left)); break;
      case CmpKind::NotIn: r = Value(!contains(right, left)); break;
    }
    if (i + 1 == c.ops.size()) return r;
    if (!truthy(r)) return r;
    left = std::move(right);
  }
  return Value();
}

Value Runtime::eval_inner(const Expr& e, Frame* f) {
  switch (e.kind) {
    case ExprKind::Constant: return static_cast<const Constant&>(e).value;
    case ExprKind::Name: return eval_name(static_cast<const Name&>(e), f);
    case ExprKind::FString: return eval_fstring(static_cast<const FString&>(e).parts, f);
    case ExprKind::Attribute: {
      const auto& a = static_cast<const Attribute&>(e);
      Value obj = eval(*a.value, f);
      return get_attr(obj, a.attr);
    }
    case ExprKind::Subscript: {
      const auto& s = static_cast<const Subscript&>(e);
      Value obj = eval(*s.value, f);
      Value idx = eval(*s.index, f);
      if (obj.is_list() && idx.is_int()) {
        const auto& items = obj.list_ptr()->items;
        int64_t i = idx.raw_int();
        if (i < 0) i += static_cast<int64_t>(items.size());
        if (i >= 0 && i < static_cast<int64_t>(items.size())) return items[i];
      }
      return get_item(obj, idx);
    }
    case ExprKind::Slice: {
      const auto& s = static_cast<const SliceExpr&>(e);
      return Value::slice(s.lower ? eval(*s.lower, f) : Value(), s.upper ? eval(*s.upper, f) : Value(),
                          s.step ? eval(*s.step, f) : Value());
    }
    case ExprKind::Call: return eval_call(static_cast<const Call&>(e), f);
    case ExprKind::BinOp: {
      const auto& b = static_cast<const BinOpExpr&>(e);
      Value l = eval(*b.left, f);
      Value r = eval(*b.right, f);
      if (l.is_int() && r.is_int()) {
        int64_t x = l.raw_int(), y = r.raw_int(), z;
        switch (b.op) {
          case BinaryOp::Add: if (!__builtin_add_overflow(x, y, &z)) return Value(z); break;
          case BinaryOp::Sub: if (!__builtin_sub_overflow(x, y, &z)) return Value(z); break;
          case BinaryOp::Mul: if (!__builtin_mul_overflow(x, y, &z)) return Value(z); break;
          default: break;
        }
      } else if (l.is_float() && r.is_float()) {
        double x = l.raw_float(), y = r.raw_float();
        switch (b.op) {
          case BinaryOp::Add: return Value(x + y);
          case BinaryOp::Sub: return Value(x - y);
          case BinaryOp::Mul: return Value(x * y);
          default: break;
        }
      }
      return binary_op(b.op, l, r);
    }
    case ExprKind::UnaryOp: {
      const auto& u = static_cast<const UnaryExpr&>(e);
      return unary_op(u.op, eval(*u.operand, f));
    }
    case ExprKind::Not: return Value(!truthy(eval(*static_cast<const NotExpr&>(e).operand, f)));
    case ExprKind::BoolOp: {
      const auto& b = static_cast<const BoolOpExpr&>(e);
      Value v;
      for (size_t i = 0; i < b.values.size(); ++i) {
        v = eval(*b.values[i], f);
        if (i + 1 == b.values.size()) break;
        bool t = truthy(v);
        if (b.is_and ? !t : t) break;
      }
      return v;
    }
    case ExprKind::Compare: return eval_compare(static_cast<const CompareExpr&>(e), f);
    case ExprKind::IfExp: {
      const auto& i = static_cast<const IfExpr&>(e);
      return truthy(eval(*i.test, f)) ? eval(*i.body, f) : eval(*i.orelse, f);
    }
    case ExprKind::Lambda: return make_function(*static_cast<const Lambda&>(e).fn, f);
    case ExprKind::List: case ExprKind::Tuple: {
      const auto& s = static_cast<const SequenceExpr&>(e);
      std::vector<Value> items;
      items.reserve(s.elts.size());
      for (const auto& x : s.elts) {
        if (x->kind == ExprKind::Starred) {
          Value v = eval(*static_cast<const Starred&>(*x).value, f);
          for (auto& y : to_vector(v)) items.push_back(std::move(y));
        } else {
          items.push_back(eval(*x, f));
        }
      }
      return e.kind == ExprKind::List ? Value::list(std::move(items)) : Value::tuple(std::move(items));
    }
    case ExprKind::Dict: {
      const auto& d = static_cast<const DictExpr&>(e);
      auto dict = std::make_shared<Dict>();
      for (size_t i = 0; i < d.values.size(); ++i) {
        if (!d.keys[i]) {
          Value m = eval(*d.values[i], f);
          if (!m.is_dict()) raise("TypeError", "'" + m.type_name() + "' object is not a mapping");
          auto entries = m.dict_ptr()->entries();
          for (const auto& kv : entries) dict->set(kv.first, kv.second);
          continue;
        }
        Value k = eval(*d.keys[i], f);
        Value v = eval(*d.values[i], f);
        dict->set(k, std::move(v));
      }
      return Value(dict);
    }
    case ExprKind::ListComp: case ExprKind::DictComp: case ExprKind::GenExp:
      return eval_comprehension(static_cast<const CompExpr&>(e), f);
    case ExprKind::Starred: raise("SyntaxError", "can't use starred expression here");
  }
  return Value();
}

// ---- Interpreter (public facade) ---------------------------------------------------------------------

Interpreter::Interpreter() : rt_(std::make_unique<Runtime>(this)) {}
Interpreter::~Interpreter() = default;

RunResult Interpreter::run(std::string_view source, std::string_view filename) {
  try {
    return rt_->run(source, filename);
  } catch (...) {
    RunResult r;
    r.ok = false;
    r.error_kind = "RuntimeError";
    r.error_message = "internal error";
    return r;
  }
}

RunResult Interpreter::check_syntax(std::string_view source) {
  RunResult result;
  try {
    std::string src = normalize_newlines(source);
    auto prog = parse_program(src, "<snippet>");
    SymbolTable syms;
    resolve_program(*prog, syms);
  } catch (const SyntaxErrorInfo& e) {
    result.ok = false;
    result.error_kind = e.kind;
    result.error_message = e.message;
    result.line = e.line;
    result.col = e.col;
    result.source_line = line_text(normalize_newlines(source), e.line);
  } catch (...) {
    result.ok = false;
    result.error_kind = "MemoryError";
  }
  return result;
}

void Interpreter::register_module(const std::string& name, ModuleFactory factory) {
  rt_->factories[name] = std::move(factory);
  rt_->modules.erase(name);
}
bool Interpreter::has_module(const std::string& name) const {
  return rt_->factories.count(name) || rt_->modules.count(name);
}
void Interpreter::register_exception(const std::string& name, const std::string& parent) {
  rt_->register_exception(name, parent);
}
void Interpreter::set_output(OutputSink sink) { rt_->out = std::move(sink); }
void Interpreter::set_statement_hook(StatementHook hook) { rt_->hook = std::move(hook); }
void Interpreter::write(std::string_view text) { rt_->write(text); }

void Interpreter::set_global(const std::string& name, Value value) {
  int sym = rt_->symbols.intern(name);
  if (rt_->globals.size() <= static_cast<size_t>(sym)) rt_->globals.resize(sym + 1, Value::unbound());
  rt_->globals[sym] = std::move(value);
}

std::optional<Value> Interpreter::get_global(const std::string& name) const {
  int sym = rt_->symbols.find(name);
  if (sym < 0 || static_cast<size_t>(sym) >= rt_->globals.size() || rt_->globals[sym].is_unbound()) return std::nullopt;
  return rt_->globals[sym];
}

void Interpreter::reset() {
  for (auto& g : rt_->globals) g = Value::unbound();
  rt_->modules.clear();
}

void Interpreter::set_builtin(const std::string& name, Value value) { rt_->set_builtin(name, std::move(value)); }
void Interpreter::set_max_call_depth(int depth) { rt_->max_call_depth = depth; }
void Interpreter::set_step_limit(uint64_t max_statements) { rt_->step_limit = max_statements; }
void Interpreter::request_stop() { rt_->stop_requested = true; }

}  // namespace ipt::script
