// Scope resolution (see resolver.h).
#include "core/script/resolver.h"

#include <unordered_set>

namespace ipt::script {

using namespace ast;

int SymbolTable::intern(const std::string& name) {
  auto it = ids_.find(name);
  if (it != ids_.end()) return it->second;
  int id = static_cast<int>(names_.size());
  names_.push_back(name);
  ids_.emplace(name, id);
  return id;
}

int SymbolTable::find(const std::string& name) const {
  auto it = ids_.find(name);
  return it == ids_.end() ? -1 : it->second;
}

namespace {

struct Scope {
  ScopeInfo* info = nullptr;  // null for the module scope
  std::unordered_map<std::string, int> slots;
  std::unordered_map<std::string, int> free;  // name -> closure index
  std::vector<Name*> local_names;              // Local references, upgraded to Cell at the end
  Scope* parent = nullptr;

  int declare(const std::string& name) {
    auto it = slots.find(name);
    if (it != slots.end()) return it->second;
    int s = static_cast<int>(info->slot_names.size());
    info->slot_names.push_back(name);
    info->is_cell.push_back(false);
    slots.emplace(name, s);
    return s;
  }

  // Closure index of `name` in this scope, whose parent provides it.
  int add_free(const std::string& name, bool from_parent_slot, int index) {
    auto it = free.find(name);
    if (it != free.end()) return it->second;
    int i = static_cast<int>(info->freevars.size());
    info->freevars.push_back({name, from_parent_slot, index});
    free.emplace(name, i);
    return i;
  }

  // Marks captured slots: every Local reference to them becomes a Cell reference.
  void finish() {
    for (Name* n : local_names)
      if (info->is_cell[n->slot]) n->scope = NameScope::Cell;
  }
};

class Resolver {
 public:
  explicit Resolver(SymbolTable& syms) : syms_(syms) {}

  void run(Program& p) {
    Scope module;
    for (auto& s : p.body) stmt(*s, module);
  }

 private:
  SymbolTable& syms_;

  // ---- binding collection (names assigned in a function body) ----
  void bind_target(const Expr* e, Scope& sc) {
    switch (e->kind) {
      case ExprKind::Name: sc.declare(static_cast<const Name*>(e)->id); break;
      case ExprKind::Tuple: case ExprKind::List:
        for (auto& x : static_cast<const SequenceExpr*>(e)->elts) bind_target(x.get(), sc);
        break;
      case ExprKind::Starred: bind_target(static_cast<const Starred*>(e)->value.get(), sc); break;
      default: break;
    }
  }

  void collect(const Body& body, Scope& sc) {
    for (auto& sp : body) {
      const Stmt& s = *sp;
      switch (s.kind) {
        case StmtKind::Assign:
          for (auto& t : static_cast<const Assign&>(s).targets) bind_target(t.get(), sc);
          break;
        case StmtKind::AugAssign: bind_target(static_cast<const AugAssign&>(s).target.get(), sc); break;
        case StmtKind::AnnAssign: bind_target(static_cast<const AnnAssign&>(s).target.get(), sc); break;
        case StmtKind::For: {
          auto& f = static_cast<const For&>(s);
          bind_target(f.target.get(), sc);
          collect(f.body, sc);
          collect(f.orelse, sc);
          break;
        }
        case StmtKind::While: {
          auto& w = static_cast<const While&>(s);
          collect(w.body, sc);
          collect(w.orelse, sc);
          break;
        }
        case StmtKind::If: {
          auto& i = static_cast<const If&>(s);
          collect(i.body, sc);
          collect(i.orelse, sc);
          break;
        }
        case StmtKind::With: {
          auto& w = static_cast<const With&>(s);
          for (auto& it : w.items)
            if (it.target) bind_target(it.target.get(), sc);
          collect(w.body, sc);
          break;
        }
        case StmtKind::Try: {
          auto& t = static_cast<const Try&>(s);
          collect(t.body, sc);
          for (auto& h : t.handlers) {
            if (h.name) sc.declare(h.name->id);
            collect(h.body, sc);
          }
          collect(t.orelse, sc);
          collect(t.finalbody, sc);
          break;
        }
        case StmtKind::FunctionDef: sc.declare(static_cast<const FunctionDef&>(s).target->id); break;
        case StmtKind::Import:
          for (auto& a : static_cast<const Import&>(s).names) sc.declare(a.target->id);
          break;
        case StmtKind::ImportFrom:
          for (auto& a : static_cast<const ImportFrom&>(s).names) sc.declare(a.target->id);
          break;
        case StmtKind::Delete:
          for (auto& t : static_cast<const Delete&>(s).targets) bind_target(t.get(), sc);
          break;
        default: break;
      }
    }
  }

  // ---- resolution ----
  void name(Name& n, Scope& sc) {
    if (!sc.info) {
      n.scope = NameScope::Global;
      n.sym = syms_.intern(n.id);
      return;
    }
    auto it = sc.slots.find(n.id);
    if (it != sc.slots.end()) {
      n.scope = NameScope::Local;
      n.slot = it->second;
      sc.local_names.push_back(&n);
      return;
    }
    // Find the enclosing function scope that owns the variable.
    std::vector<Scope*> chain{&sc};
    Scope* owner = nullptr;
    for (Scope* p = sc.parent; p && p->info; p = p->parent) {
      if (p->slots.count(n.id)) {
        owner = p;
        break;
      }
      chain.push_back(p);
    }
    if (!owner) {
      n.scope = NameScope::Global;
      n.sym = syms_.intern(n.id);
      return;
    }
    int slot = owner->slots[n.id];
    owner->info->is_cell[slot] = true;
    // Thread the cell down through every scope between the owner and this one.
    int index = chain.back()->add_free(n.id, true, slot);
    for (size_t i = chain.size() - 1; i-- > 0;) index = chain[i]->add_free(n.id, false, index);
    n.scope = NameScope::Free;
    n.slot = index;
  }

  void function(FunctionInfo& fn, Scope& outer) {
    for (auto& p : fn.params)
      if (p.default_value) expr(*p.default_value, outer);
    for (auto& p : fn.kwonly)
      if (p.default_value) expr(*p.default_value, outer);
    Scope sc;
    sc.info = &fn.scope;
    sc.parent = &outer;
    for (auto& p : fn.params) p.slot = sc.declare(p.name);
    if (!fn.vararg.empty()) fn.vararg_slot = sc.declare(fn.vararg);
    for (auto& p : fn.kwonly) p.slot = sc.declare(p.name);
    if (!fn.kwarg.empty()) fn.kwarg_slot = sc.declare(fn.kwarg);
    if (fn.lambda_body) {
      expr(*fn.lambda_body, sc);
    } else {
      collect(fn.body, sc);
      for (auto& s : fn.body) stmt(*s, sc);
    }
    sc.finish();
  }

  void body(Body& b, Scope& sc) {
    for (auto& s : b) stmt(*s, sc);
  }

  void stmt(Stmt& s, Scope& sc) {
    switch (s.kind) {
      case StmtKind::Expr: expr(*static_cast<ExprStmt&>(s).value, sc); break;
      case StmtKind::Assign: {
        auto& a = static_cast<Assign&>(s);
        expr(*a.value, sc);
        for (auto& t : a.targets) expr(*t, sc);
        break;
      }
      case StmtKind::AugAssign: {
        auto& a = static_cast<AugAssign&>(s);
        expr(*a.value, sc);
        expr(*a.target, sc);
        break;
      }
      case StmtKind::AnnAssign: {
        auto& a = static_cast<AnnAssign&>(s);
        if (a.value) expr(*a.value, sc);
        expr(*a.target, sc);
        break;
      }
      case StmtKind::If: {
        auto& i = static_cast<If&>(s);
        expr(*i.test, sc);
        body(i.body, sc);
        body(i.orelse, sc);
        break;
      }
      case StmtKind::While: {
        auto& w = static_cast<While&>(s);
        expr(*w.test, sc);
        body(w.body, sc);
        body(w.orelse, sc);
        break;
      }
      case StmtKind::For: {
        auto& f = static_cast<For&>(s);
        expr(*f.iter, sc);
        expr(*f.target, sc);
        body(f.body, sc);
        body(f.orelse, sc);
        break;
      }
      case StmtKind::Return: {
        auto& r = static_cast<Return&>(s);
        if (r.value) expr(*r.value, sc);
        break;
      }
      case StmtKind::FunctionDef: {
        auto& f = static_cast<FunctionDef&>(s);
        for (auto& d : f.decorators) expr(*d, sc);
        function(*f.fn, sc);
        name(*f.target, sc);
        break;
      }
      case StmtKind::With: {
        auto& w = static_cast<With&>(s);
        for (auto& it : w.items) {
          expr(*it.context, sc);
          if (it.target) expr(*it.target, sc);
        }
        body(w.body, sc);
        break;
      }
      case StmtKind::Try: {
        auto& t = static_cast<Try&>(s);
        body(t.body, sc);
        for (auto& h : t.handlers) {
          if (h.type) expr(*h.type, sc);
          if (h.name) name(*h.name, sc);
          body(h.body, sc);
        }
        body(t.orelse, sc);
        body(t.finalbody, sc);
        break;
      }
      case StmtKind::Raise: {
        auto& r = static_cast<Raise&>(s);
        if (r.exc) expr(*r.exc, sc);
        if (r.cause) expr(*r.cause, sc);
        break;
      }
      case StmtKind::Assert: {
        auto& a = static_cast<Assert&>(s);
        expr(*a.test, sc);
        if (a.msg) expr(*a.msg, sc);
        break;
      }
      case StmtKind::Import:
        for (auto& a : static_cast<Import&>(s).names) name(*a.target, sc);
        break;
      case StmtKind::ImportFrom:
        for (auto& a : static_cast<ImportFrom&>(s).names) name(*a.target, sc);
        break;
      case StmtKind::Delete:
        for (auto& t : static_cast<Delete&>(s).targets) expr(*t, sc);
        break;
      default: break;
    }
  }

  void fparts(std::vector<FStringPart>& parts, Scope& sc) {
    for (auto& p : parts) {
      if (p.expr) expr(*p.expr, sc);
      fparts(p.spec, sc);
    }
  }

  void expr(Expr& e, Scope& sc) {
    switch (e.kind) {
      case ExprKind::Constant: break;
      case ExprKind::FString: fparts(static_cast<FString&>(e).parts, sc); break;
      case ExprKind::Name: name(static_cast<Name&>(e), sc); break;
      case ExprKind::Attribute: expr(*static_cast<Attribute&>(e).value, sc); break;
      case ExprKind::Subscript: {
        auto& s = static_cast<Subscript&>(e);
        expr(*s.value, sc);
        expr(*s.index, sc);
        break;
      }
      case ExprKind::Slice: {
        auto& s = static_cast<SliceExpr&>(e);
        if (s.lower) expr(*s.lower, sc);
        if (s.upper) expr(*s.upper, sc);
        if (s.step) expr(*s.step, sc);
        break;
      }
      case ExprKind::Call: {
        auto& c = static_cast<Call&>(e);
        expr(*c.func, sc);
        for (auto& a : c.args) expr(*a.value, sc);
        break;
      }
      case ExprKind::BinOp: {
        auto& b = static_cast<BinOpExpr&>(e);
        expr(*b.left, sc);
        expr(*b.right, sc);
        break;
      }
      case ExprKind::UnaryOp: expr(*static_cast<UnaryExpr&>(e).operand, sc); break;
      case ExprKind::Not: expr(*static_cast<NotExpr&>(e).operand, sc); break;
      case ExprKind::BoolOp:
        for (auto& v : static_cast<BoolOpExpr&>(e).values) expr(*v, sc);
        break;
      case ExprKind::Compare: {
        auto& c = static_cast<CompareExpr&>(e);
        expr(*c.left, sc);
        for (auto& x : c.comparators) expr(*x, sc);
        break;
      }
      case ExprKind::IfExp: {
        auto& i = static_cast<IfExpr&>(e);
        expr(*i.test, sc);
        expr(*i.body, sc);
        expr(*i.orelse, sc);
        break;
      }
      case ExprKind::Lambda: function(*static_cast<Lambda&>(e).fn, sc); break;
      case ExprKind::List: case ExprKind::Tuple:
        for (auto& x : static_cast<SequenceExpr&>(e).elts) expr(*x, sc);
        break;
      case ExprKind::Dict: {
        auto& d = static_cast<DictExpr&>(e);
        for (auto& k : d.keys)
          if (k) expr(*k, sc);
        for (auto& v : d.values) expr(*v, sc);
        break;
      }
      case ExprKind::ListComp: case ExprKind::DictComp: case ExprKind::GenExp: {
        auto& c = static_cast<CompExpr&>(e);
        expr(*c.gens[0].iter, sc);  // evaluated in the enclosing scope
        Scope inner;
        inner.info = &c.scope;
        inner.info->is_comprehension = true;
        inner.parent = &sc;
        for (auto& g : c.gens) bind_target(g.target.get(), inner);
        for (size_t i = 0; i < c.gens.size(); ++i) {
          if (i > 0) expr(*c.gens[i].iter, inner);
          expr(*c.gens[i].target, inner);
          for (auto& f : c.gens[i].ifs) expr(*f, inner);
        }
        expr(*c.elt, inner);
        if (c.value) expr(*c.value, inner);
        inner.finish();
        break;
      }
      case ExprKind::Starred: expr(*static_cast<Starred&>(e).value, sc); break;
    }
  }
};

}  // namespace

void resolve_program(Program& program, SymbolTable& symbols) {
  Resolver r(symbols);
  r.run(program);
}

}  // namespace ipt::script
