// Statement execution: control flow, assignment targets, with/try/raise, imports, and
// where variables are read and written (locals, cells, closures, globals, builtins).
#include "core/script/builtins.h"
#include "core/script/ops.h"
#include "core/script/runtime.h"

namespace ipt::script {

using namespace ast;

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

namespace {
CellObject* cell_at(const Value& slot) { return static_cast<CellObject*>(slot.object_ptr().get()); }
}  // namespace

Value Runtime::eval_name(const Name& n, Frame* f) {
  switch (n.scope) {
    case NameScope::Local: {
      const Value& v = f->slots[n.slot];
      if (!v.is_unbound()) return v;
      break;
    }
    case NameScope::Cell: {
      const Value& v = cell_at(f->slots[n.slot])->value;
      if (!v.is_unbound()) return v;
      break;
    }
    case NameScope::Free: {
      const Value& v = (*f->closure)[n.slot]->value;
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
  std::string_view fname(f->name);
  if (fname == "<listcomp>" || fname == "<dictcomp>" || fname == "<genexpr>")
    raise("NameError", "name '" + n.id + "' is not defined");
  raise("UnboundLocalError", "cannot access local variable '" + n.id + "' where it is not associated with a value");
}

void Runtime::store_name(const Name& n, Value v, Frame* f) {
  switch (n.scope) {
    case NameScope::Local: f->slots[n.slot] = std::move(v); return;
    case NameScope::Cell: cell_at(f->slots[n.slot])->value = std::move(v); return;
    case NameScope::Free: (*f->closure)[n.slot]->value = std::move(v); return;
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

}  // namespace ipt::script
