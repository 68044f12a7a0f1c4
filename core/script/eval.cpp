// Expression evaluation: operators, calls and argument binding, functions and closures,
// comprehensions, f-strings.
#include <utility>

#include "core/script/builtins.h"
#include "core/script/format.h"
#include "core/script/ops.h"
#include "core/script/runtime.h"

namespace ipt::script {

using namespace ast;

// ---- functions ------------------------------------------------------------------------------------------

Closure Runtime::make_closure(const ScopeInfo& scope, Frame* f) {
  Closure closure;
  closure.reserve(scope.freevars.size());
  for (const auto& fv : scope.freevars) {
    if (fv.from_parent_slot) closure.push_back(std::static_pointer_cast<CellObject>(f->slots[fv.index].object_ptr()));
    else closure.push_back((*f->closure)[fv.index]);
  }
  return closure;
}

void Runtime::make_cells(const ScopeInfo& scope, Frame& fr) {
  for (size_t i = 0; i < scope.is_cell.size(); ++i) {
    if (!scope.is_cell[i]) continue;
    auto cell = std::make_shared<CellObject>();
    cell->value = std::move(fr.slots[i]);
    fr.slots[i] = Value(cell);
  }
}

namespace {

// When a frame exits, its cells may form cycles with functions defined in it (a nested
// function that calls itself: cell -> function -> closure -> cell). Reference counting
// cannot free those, so find the cells and functions no longer reachable from outside the
// frame (trial deletion over this small graph) and clear them.
void break_cell_cycles(Frame& fr, const ScopeInfo& scope) {
  struct CellNode {
    CellObject* cell;
    long ext;  // references from outside the graph
    int fn = -1;
    bool alive = false;
  };
  struct FnNode {
    ScriptFunction* fn;
    long ext;
    bool alive = false;
  };
  std::vector<CellNode> cells;
  for (size_t i = 0; i < scope.is_cell.size() && i < fr.slots.size(); ++i) {
    if (!scope.is_cell[i] || !fr.slots[i].is_object()) continue;
    const ObjectPtr& p = fr.slots[i].object_ptr();
    cells.push_back({static_cast<CellObject*>(p.get()), p.use_count() - 1});
  }
  if (cells.empty()) return;
  std::vector<FnNode> fns;
  for (auto& c : cells) {
    if (!c.cell->value.is_object()) continue;
    auto* f = dynamic_cast<ScriptFunction*>(c.cell->value.object_ptr().get());
    if (!f) continue;
    int idx = -1;
    for (size_t k = 0; k < fns.size(); ++k)
      if (fns[k].fn == f) idx = static_cast<int>(k);
    if (idx < 0) {
      fns.push_back({f, c.cell->value.object_ptr().use_count()});
      idx = static_cast<int>(fns.size() - 1);
    }
    fns[idx].ext -= 1;  // this cell's reference
    c.fn = idx;
  }
  if (fns.empty()) return;
  for (auto& f : fns)
    for (const auto& cc : f.fn->closure)
      for (auto& c : cells)
        if (c.cell == cc.get()) c.ext -= 1;
  // propagate liveness from externally referenced nodes
  bool changed = true;
  for (auto& c : cells) c.alive = c.ext > 0;
  for (auto& f : fns) f.alive = f.ext > 0;
  while (changed) {
    changed = false;
    for (auto& c : cells)
      if (c.alive && c.fn >= 0 && !fns[c.fn].alive) fns[c.fn].alive = changed = true;
    for (auto& f : fns) {
      if (!f.alive) continue;
      for (const auto& cc : f.fn->closure)
        for (auto& c : cells)
          if (c.cell == cc.get() && !c.alive) c.alive = changed = true;
    }
  }
  std::vector<Value> garbage;
  for (auto& c : cells)
    if (!c.alive) garbage.push_back(std::exchange(c.cell->value, Value::unbound()));
}

}  // namespace

Value Runtime::make_function(const FunctionInfo& fn, Frame* f) {
  auto sf = std::make_shared<ScriptFunction>();
  sf->rt = this;
  sf->program = *current_program_;
  sf->fn = &fn;
  for (const auto& p : fn.params) sf->defaults.push_back(p.default_value ? eval(*p.default_value, f) : Value::unbound());
  for (const auto& p : fn.kwonly) sf->kwdefaults.push_back(p.default_value ? eval(*p.default_value, f) : Value::unbound());
  sf->closure = make_closure(fn.scope, f);
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
  Frame frame;
  frame.slots.assign(fn.scope.slot_names.size(), Value::unbound());
  frame.closure = &sf.closure;
  frame.name = fn.name.c_str();
  bind_arguments(sf, frame, args, kwargs);
  make_cells(fn.scope, frame);
  if (call_depth >= max_call_depth) raise("RecursionError", "maximum recursion depth exceeded");
  struct DepthGuard {
    int& d;
    explicit DepthGuard(int& x) : d(x) { ++d; }
    ~DepthGuard() { --d; }
  } guard(call_depth);
  auto keep = sf.shared_from_this();  // the function may be rebound while running
  struct CycleGuard {
    Frame& fr;
    const ScopeInfo& scope;
    ~CycleGuard() {
      try {
        break_cell_cycles(fr, scope);
      } catch (...) {
      }
    }
  } cycle_guard{frame, fn.scope};
  struct ProgramGuard {
    const std::shared_ptr<const Program>*& slot;
    const std::shared_ptr<const Program>* saved;
    ~ProgramGuard() { slot = saved; }
  } program_guard{current_program_, current_program_};
  current_program_ = &sf.program;
  try {
    if (fn.lambda_body) return eval(*fn.lambda_body, &frame);
    Flow fl = exec_body(fn.body, &frame);
    if (fl == Flow::Return) return std::move(frame.retval);
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
  Frame frame;
  frame.slots.assign(c.scope.slot_names.size(), Value::unbound());
  make_cells(c.scope, frame);
  Closure closure = make_closure(c.scope, f);
  frame.closure = &closure;
  frame.name = c.kind == ExprKind::ListComp ? "<listcomp>" : c.kind == ExprKind::DictComp ? "<dictcomp>" : "<genexpr>";
  Value out = c.kind == ExprKind::DictComp ? Value::dict() : Value::list();
  try {
    ValueIterator probe(first_iter);  // TypeError for non-iterables, reported at the iterable
    (void)probe;
  } catch (...) {
    rethrow_annotated(c.gens[0].iter->pos, f);
  }
  comp_loop(c, 0, first_iter, &frame, out);
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

}  // namespace ipt::script
