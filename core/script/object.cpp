// Default behaviour of native objects (Python-correct errors), exceptions, argument binding
// for native functions, modules and type objects.
#include "core/script/object.h"

#include <algorithm>
#include <cstdio>

#include "core/script/format.h"

namespace ipt::script {

const char* binary_op_symbol(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Mul: return "*";
    case BinaryOp::Div: return "/";
    case BinaryOp::FloorDiv: return "//";
    case BinaryOp::Mod: return "%";
    case BinaryOp::Pow: return "** or pow()";
    case BinaryOp::MatMul: return "@";
    case BinaryOp::LShift: return "<<";
    case BinaryOp::RShift: return ">>";
    case BinaryOp::BitAnd: return "&";
    case BinaryOp::BitOr: return "|";
    case BinaryOp::BitXor: return "^";
  }
  return "?";
}

const char* binary_op_dunder(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return "__add__";
    case BinaryOp::Sub: return "__sub__";
    case BinaryOp::Mul: return "__mul__";
    case BinaryOp::Div: return "__truediv__";
    case BinaryOp::FloorDiv: return "__floordiv__";
    case BinaryOp::Mod: return "__mod__";
    case BinaryOp::Pow: return "__pow__";
    case BinaryOp::MatMul: return "__matmul__";
    case BinaryOp::LShift: return "__lshift__";
    case BinaryOp::RShift: return "__rshift__";
    case BinaryOp::BitAnd: return "__and__";
    case BinaryOp::BitOr: return "__or__";
    case BinaryOp::BitXor: return "__xor__";
  }
  return "?";
}

const char* unary_op_symbol(UnaryOp op) {
  switch (op) {
    case UnaryOp::Neg: return "-";
    case UnaryOp::Pos: return "+";
    case UnaryOp::Invert: return "~";
    case UnaryOp::Abs: return "abs()";
  }
  return "?";
}

const char* compare_op_symbol(CompareOp op) {
  switch (op) {
    case CompareOp::Eq: return "==";
    case CompareOp::Ne: return "!=";
    case CompareOp::Lt: return "<";
    case CompareOp::Le: return "<=";
    case CompareOp::Gt: return ">";
    case CompareOp::Ge: return ">=";
  }
  return "?";
}

CompareOp swapped(CompareOp op) {
  switch (op) {
    case CompareOp::Lt: return CompareOp::Gt;
    case CompareOp::Le: return CompareOp::Ge;
    case CompareOp::Gt: return CompareOp::Lt;
    case CompareOp::Ge: return CompareOp::Le;
    default: return op;
  }
}

// ---- Object defaults ----------------------------------------------------------------------

Value Object::getattr(const std::string& name) {
  raise("AttributeError", "'" + type_name() + "' object has no attribute '" + name + "'");
}
void Object::setattr(const std::string& name, const Value&) {
  raise("AttributeError", "'" + type_name() + "' object has no attribute '" + name + "'");
}
Value Object::call(Args, Kwargs) { raise("TypeError", "'" + type_name() + "' object is not callable"); }
std::string Object::repr() const {
  char buf[64];
  std::snprintf(buf, sizeof buf, " object at %p>", static_cast<const void*>(this));
  return "<" + type_name() + buf;
}
std::string Object::format(std::string_view spec) const {
  if (spec.empty()) return str();
  raise("TypeError", "unsupported format string passed to " + type_name() + ".__format__");
}
Value Object::getitem(const Value&) { raise("TypeError", "'" + type_name() + "' object is not subscriptable"); }
void Object::setitem(const Value&, const Value&) {
  raise("TypeError", "'" + type_name() + "' object does not support item assignment");
}
void Object::delitem(const Value&) {
  raise("TypeError", "'" + type_name() + "' object doesn't support item deletion");
}
Value Object::iter() { raise("TypeError", "'" + type_name() + "' object is not iterable"); }
std::optional<Value> Object::next() { raise("TypeError", "'" + type_name() + "' object is not an iterator"); }
Value Object::enter() {
  raise("TypeError", "'" + type_name() + "' object does not support the context manager protocol");
}
Value Object::type_object() { return Value(std::make_shared<TypeObject>(type_name())); }

// ---- exceptions -------------------------------------------------------------------------

std::string ExceptionObject::str() const {
  if (args_.empty()) return "";
  if (args_.size() == 1) return kind_ == "KeyError" ? args_[0].repr() : args_[0].str();
  return Value::tuple(args_).repr();
}

std::string ExceptionObject::repr() const {
  if (args_.size() == 1) return kind_ + "(" + args_[0].repr() + ")";
  std::string r = Value::tuple(args_).repr();
  return kind_ + r;
}

Value ExceptionObject::getattr(const std::string& name) {
  if (name == "args") return Value::tuple(args_);
  return Object::getattr(name);
}

ScriptError::ScriptError(std::string kind, std::string message) {
  std::vector<Value> args;
  if (!message.empty()) args.emplace_back(std::move(message));
  exc_ = std::make_shared<ExceptionObject>(std::move(kind), std::move(args));
}

ScriptError::ScriptError(std::string kind, std::vector<Value> args)
    : exc_(std::make_shared<ExceptionObject>(std::move(kind), std::move(args))) {}

const char* ScriptError::what() const noexcept {
  try {
    std::string m = exc_->str();
    what_ = m.empty() ? exc_->kind() : exc_->kind() + ": " + m;
  } catch (...) {
    what_ = exc_->kind();
  }
  return what_.c_str();
}

void raise(std::string kind, std::string message) { throw ScriptError(std::move(kind), std::move(message)); }
void raise(std::string kind, std::vector<Value> args) { throw ScriptError(std::move(kind), std::move(args)); }

// ---- CallArgs -------------------------------------------------------------------------------

CallArgs::CallArgs(std::string function_name, Args args, Kwargs kwargs)
    : name_(std::move(function_name)), args_(std::move(args)), kwargs_(std::move(kwargs)) {}

const Value* CallArgs::keyword(std::string_view name) const {
  for (const auto& kv : kwargs_)
    if (kv.first == name) return &kv.second;
  return nullptr;
}

void CallArgs::expect_positional(size_t min, size_t max) const {
  if (!kwargs_.empty()) raise("TypeError", name_ + "() takes no keyword arguments");
  if (args_.size() < min || args_.size() > max) {
    std::string msg;
    if (min == max) {
      msg = name_ + "() takes exactly " + std::to_string(min) + " argument" + (min == 1 ? "" : "s") + " (" +
            std::to_string(args_.size()) + " given)";
    } else if (args_.size() < min) {
      msg = name_ + "() takes at least " + std::to_string(min) + " argument" + (min == 1 ? "" : "s") + " (" +
            std::to_string(args_.size()) + " given)";
    } else {
      msg = name_ + "() takes at most " + std::to_string(max) + " argument" + (max == 1 ? "" : "s") + " (" +
            std::to_string(args_.size()) + " given)";
    }
    raise("TypeError", msg);
  }
}

CallArgs& CallArgs::bind(const std::vector<Param>& params) {
  names_.clear();
  bound_.clear();
  provided_.clear();
  varargs_.clear();
  varkwargs_.clear();
  bool kwonly = false;
  bool has_varargs = false, has_varkw = false;
  std::vector<size_t> positional;  // indices into names_ that accept positional args
  std::vector<bool> is_kwonly;
  for (const auto& p : params) {
    if (p.name == "*") { kwonly = true; continue; }
    if (p.name.size() > 2 && p.name[0] == '*' && p.name[1] == '*') { has_varkw = true; continue; }
    if (p.name.size() > 1 && p.name[0] == '*') { has_varargs = true; kwonly = true; continue; }
    names_.push_back(p.name);
    bound_.push_back(p.default_value ? *p.default_value : Value::unbound());
    provided_.push_back(false);
    is_kwonly.push_back(kwonly);
    if (!kwonly) positional.push_back(names_.size() - 1);
  }
  // positional
  for (size_t i = 0; i < args_.size(); ++i) {
    if (i < positional.size()) {
      bound_[positional[i]] = args_[i];
      provided_[positional[i]] = true;
    } else if (has_varargs) {
      varargs_.push_back(args_[i]);
    } else {
      size_t maxp = positional.size();
      raise("TypeError", name_ + "() takes " + std::to_string(maxp) + " positional argument" + (maxp == 1 ? "" : "s") +
                             " but " + std::to_string(args_.size()) + (args_.size() == 1 ? " was" : " were") + " given");
    }
  }
  // keywords
  for (const auto& kv : kwargs_) {
    auto it = std::find(names_.begin(), names_.end(), kv.first);
    if (it == names_.end()) {
      if (has_varkw) {
        varkwargs_.push_back(kv);
        continue;
      }
      raise("TypeError", name_ + "() got an unexpected keyword argument '" + kv.first + "'");
    }
    size_t idx = static_cast<size_t>(it - names_.begin());
    if (provided_[idx]) raise("TypeError", name_ + "() got multiple values for argument '" + kv.first + "'");
    bound_[idx] = kv.second;
    provided_[idx] = true;
  }
  for (size_t i = 0; i < names_.size(); ++i)
    if (bound_[i].is_unbound())
      raise("TypeError", name_ + "() missing required " + (is_kwonly[i] ? std::string("keyword ") : std::string()) +
                             "argument '" + names_[i] + "'");
  return *this;
}

std::ptrdiff_t CallArgs::slot(std::string_view name) const {
  for (size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) return static_cast<std::ptrdiff_t>(i);
  return -1;
}

const Value& CallArgs::get(std::string_view name) const {
  auto i = slot(name);
  if (i < 0) raise("RuntimeError", name_ + "(): no parameter named '" + std::string(name) + "' (native binding bug)");
  return bound_[i];
}

bool CallArgs::provided(std::string_view name) const {
  auto i = slot(name);
  return i >= 0 && provided_[i];
}

namespace {
[[noreturn]] void arg_type_error(const std::string& fn, std::string_view name, const char* want, const Value& v) {
  raise("TypeError", fn + "(): argument '" + std::string(name) + "' must be " + want + ", not " + v.type_name());
}
}  // namespace

int64_t CallArgs::get_int(std::string_view name) const {
  const Value& v = get(name);
  if (v.is_intlike()) return v.as_int();
  if (v.is_object())
    if (auto i = v.object_ptr()->index()) return *i;
  arg_type_error(name_, name, "int", v);
}

double CallArgs::get_float(std::string_view name) const {
  const Value& v = get(name);
  if (v.is_number()) return v.as_float();
  if (v.is_object())
    if (auto d = v.object_ptr()->to_float()) return *d;
  arg_type_error(name_, name, "float", v);
}

bool CallArgs::get_bool(std::string_view name) const {
  const Value& v = get(name);
  if (v.is_bool()) return v.raw_bool();
  if (v.is_int()) return v.raw_int() != 0;
  arg_type_error(name_, name, "bool", v);
}

std::string CallArgs::get_str(std::string_view name) const {
  const Value& v = get(name);
  if (v.is_str()) return v.as_str();
  arg_type_error(name_, name, "str", v);
}

std::optional<int64_t> CallArgs::get_optional_int(std::string_view name) const {
  if (get(name).is_none()) return std::nullopt;
  return get_int(name);
}

// ---- NativeFunction / Module / TypeObject -----------------------------------------------

Value NativeFunction::getattr(const std::string& name) {
  if (name == "__name__") return Value(name_);
  return Object::getattr(name);
}

Value NativeFunction::call(Args args, Kwargs kwargs) {
  CallArgs a(name_, std::move(args), std::move(kwargs));
  return fn_(a);
}

std::shared_ptr<NativeFunction> make_native_function(std::string name, NativeFn fn) {
  return std::make_shared<NativeFunction>(std::move(name), std::move(fn));
}

Module& Module::set(const std::string& attr, Value value) {
  attrs_[attr] = std::move(value);
  return *this;
}

Module& Module::def(const std::string& attr, NativeFn fn) {
  attrs_[attr] = Value(make_native_function(attr, std::move(fn)));
  return *this;
}

Value Module::getattr(const std::string& name) {
  auto it = attrs_.find(name);
  if (it != attrs_.end()) return it->second;
  if (name == "__name__") return Value(name_);
  raise("AttributeError", "module '" + name_ + "' has no attribute '" + name + "'");
}

std::vector<std::string> Module::dir() const {
  std::vector<std::string> out;
  for (const auto& kv : attrs_) out.push_back(kv.first);
  return out;
}

Value TypeObject::getattr(const std::string& name) {
  if (name == "__name__" || name == "__qualname__") return Value(name_);
  return Object::getattr(name);
}

std::optional<Value> TypeObject::compare(CompareOp op, const Value& other) {
  auto t = other.as<TypeObject>();
  if (!t || (op != CompareOp::Eq && op != CompareOp::Ne)) return std::nullopt;
  return Value((t->name_ == name_) == (op == CompareOp::Eq));
}

}  // namespace ipt::script
