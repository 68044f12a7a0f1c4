// Runtime setup and the top-level run: script functions, exception and builtin type
// objects, imports, running a parsed program, and turning native exceptions into Python ones.
#include <algorithm>
#include <cstdio>

#if defined(__linux__)
#include <pthread.h>
#endif

#include "core/script/builtins.h"
#include "core/script/ops.h"
#include "core/script/parser.h"
#include "core/script/runtime.h"
#include "core/util/error.h"

namespace ipt::script {

using namespace ast;

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
  auto saved_current = current_program_;
  program_ = prog;
  current_program_ = &program_;
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
  current_program_ = saved_current;
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

}  // namespace ipt::script
