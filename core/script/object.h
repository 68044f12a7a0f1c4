#pragma once
// The extension interface for native objects: torch, tensors, dtypes, devices and context
// managers are written in C++ as subclasses of Object and plugged into the interpreter as
// modules (Interpreter::register_module). Every hook has a default that raises the
// Python-correct TypeError/AttributeError, so a native class overrides only what it supports.
// Also here: ScriptError (a Python exception in flight), NativeFunction + CallArgs (binding
// positional/keyword arguments by name) and Module (a namespace of attributes).
//
// Example: a module with a function taking keywords and an object with an operator.
//
//   class Meter : public Object {
//    public:
//     double v = 0;
//     std::string type_name() const override { return "Meter"; }
//     std::string repr() const override { return "Meter(" + Value(v).repr() + ")"; }
//     std::optional<Value> binary_op(BinaryOp op, const Value& other, bool reflected) override {
//       if (op != BinaryOp::Add || !other.is_number()) return std::nullopt;  // NotImplemented
//       auto m = std::make_shared<Meter>();
//       m->v = v + other.as_float();
//       return Value(m);
//     }
//   };
//   interp.register_module("units", [] {
//     auto m = std::make_shared<Module>("units");
//     m->def("meter", [](CallArgs& a) -> Value {
//       a.bind({"value", "*", Param("scale", 1.0)});      // meter(value, *, scale=1.0)
//       auto r = std::make_shared<Meter>();
//       r->v = a.get_float("value") * a.get_float("scale");
//       return Value(r);
//     });
//     return Value(m);
//   });
//   // snippet: import units; print(units.meter(2, scale=3) + 1)   ->  Meter(7.0)
//
// Errors: throw ipt::Error (IPT_CHECK) for the runtime's kinds, or raise("KeyError", msg)
// for any Python kind; both become catchable Python exceptions.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/script/value.h"

namespace ipt::script {

enum class BinaryOp { Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul, LShift, RShift, BitAnd, BitOr, BitXor };
enum class UnaryOp { Neg, Pos, Invert, Abs };
enum class CompareOp { Eq, Ne, Lt, Le, Gt, Ge };

const char* binary_op_symbol(BinaryOp op);    // "+", "** or pow()", ...
const char* binary_op_dunder(BinaryOp op);    // "__add__", ...
const char* unary_op_symbol(UnaryOp op);      // "-", "+", "~", "abs()"
const char* compare_op_symbol(CompareOp op);  // "==", "<", ...
CompareOp swapped(CompareOp op);              // a < b  <=>  b > a

class Object : public std::enable_shared_from_this<Object> {
 public:
  virtual ~Object() = default;

  // type(x).__name__ of this object, used in every error message ("'Tensor' object ...").
  virtual std::string type_name() const { return "object"; }

  // x.name  -> AttributeError "'T' object has no attribute 'name'" by default.
  virtual Value getattr(const std::string& name);
  // x.name = v -> AttributeError by default.
  virtual void setattr(const std::string& name, const Value& value);
  // Attribute names (for dir() and completion). Optional.
  virtual std::vector<std::string> dir() const { return {}; }

  // x(*args, **kwargs) -> TypeError "'T' object is not callable" by default.
  virtual Value call(Args args, Kwargs kwargs);
  // callable(x): override to return true when call() is implemented.
  virtual bool is_callable() const { return false; }
  // Optional fast path for x.name(...): return nullopt to fall back to getattr(name) + call.
  virtual std::optional<Value> call_method(const std::string& name, Args& args, Kwargs& kwargs) {
    return std::nullopt;
  }

  virtual std::string repr() const;  // "<T object at 0x...>"
  virtual std::string str() const { return repr(); }
  // format(x, spec) / f"{x:spec}": default is str() for an empty spec, else TypeError.
  virtual std::string format(std::string_view spec) const;

  // Binary operators: `this OP other` (reflected=false) or `other OP this` (reflected=true).
  // Return nullopt for NotImplemented: the interpreter then tries the other operand and
  // finally raises "unsupported operand type(s) for +: 'T' and 'str'".
  virtual std::optional<Value> binary_op(BinaryOp op, const Value& other, bool reflected) { return std::nullopt; }
  // In-place form (x += y). nullopt falls back to binary_op and rebinding. Return the
  // (usually same) object to store back into the target.
  virtual std::optional<Value> inplace_op(BinaryOp op, const Value& other) { return std::nullopt; }
  // -x, +x, ~x, abs(x). nullopt -> TypeError "bad operand type for unary -: 'T'".
  virtual std::optional<Value> unary_op(UnaryOp op) { return std::nullopt; }
  // Rich comparison; may return a non-bool Value (a tensor). nullopt -> NotImplemented
  // (the reflected side is tried; ==/!= then fall back to identity; ordering raises TypeError).
  virtual std::optional<Value> compare(CompareOp op, const Value& other) { return std::nullopt; }

  // x[index]; index is the whole subscript: an int, a slice, None, Ellipsis, a tensor, or a
  // tuple of those for x[1:, None, ..., 0].
  virtual Value getitem(const Value& index);
  virtual void setitem(const Value& index, const Value& value);
  virtual void delitem(const Value& index);
  // `item in x`; nullopt -> iterate and compare.
  virtual std::optional<bool> contains(const Value& item) { return std::nullopt; }

  // bool(x) (if / while / and / or / not). Default True.
  virtual bool truthy() const { return true; }
  // len(x); nullopt -> TypeError "object of type 'T' has no len()".
  virtual std::optional<int64_t> len() const { return std::nullopt; }
  // iter(x): return a list/tuple Value of the items, or an iterator Object whose next()
  // yields them. Default TypeError "'T' object is not iterable".
  virtual Value iter();
  // Iterator protocol: the next item, or nullopt when exhausted.
  virtual std::optional<Value> next();

  // `with x as y:` -> y = x.enter(); exit(had_exception) always runs after the body.
  // Return true from exit() to suppress the exception (like __exit__ returning True).
  virtual Value enter();
  virtual bool exit(bool had_exception) { return false; }

  // int(x), float(x), and x used as an index (__index__). nullopt -> TypeError.
  virtual std::optional<int64_t> to_int() const { return std::nullopt; }
  virtual std::optional<double> to_float() const { return std::nullopt; }
  virtual std::optional<int64_t> index() const { return std::nullopt; }

  // type(x): a type object. The default is a fresh object named type_name().
  virtual Value type_object();
  // For type-like objects: isinstance(v, this). nullopt -> "isinstance() arg 2 must be a type...".
  virtual std::optional<bool> instancecheck(const Value& v) { return std::nullopt; }
};

// ---- Exceptions -----------------------------------------------------------------------

// A Python exception instance: its kind ("ValueError") and args.
class ExceptionObject : public Object {
 public:
  ExceptionObject(std::string kind, std::vector<Value> args) : kind_(std::move(kind)), args_(std::move(args)) {}
  const std::string& kind() const { return kind_; }
  const std::vector<Value>& args() const { return args_; }
  std::string type_name() const override { return kind_; }
  std::string str() const override;   // "msg" (KeyError: repr of the key)
  std::string repr() const override;  // "ValueError('msg')"
  Value getattr(const std::string& name) override;

 private:
  std::string kind_;
  std::vector<Value> args_;
};

// One traceback line: where the exception passed (innermost last in RunResult).
struct TracebackEntry {
  int line = 0, col = 0;
  std::string function;  // "<module>", "f", "<lambda>"
};

// A Python exception propagating through C++. Native code may throw it directly with any
// kind name (`throw ScriptError("KeyError", "'a'")`, or raise("KeyError", ...)); ipt::Error
// thrown by the runtime is converted to the kind it carries.
class ScriptError : public std::exception {
 public:
  ScriptError(std::string kind, std::string message);
  ScriptError(std::string kind, std::vector<Value> args);
  explicit ScriptError(std::shared_ptr<ExceptionObject> exc) : exc_(std::move(exc)) {}

  const std::string& kind() const { return exc_->kind(); }
  std::string message() const { return exc_->str(); }
  const std::shared_ptr<ExceptionObject>& exception() const { return exc_; }
  const char* what() const noexcept override;

  // Filled by the interpreter as the error propagates.
  std::vector<TracebackEntry> traceback;  // innermost first while propagating
  bool positioned = false;               // innermost position recorded
  bool leaving_frame = false;            // next position belongs to the caller
  bool fatal = false;                    // stop request/step limit: not catchable by except

 private:
  std::shared_ptr<ExceptionObject> exc_;
  mutable std::string what_;
};

// Raise any Python exception kind by name from native code.
[[noreturn]] void raise(std::string kind, std::string message);
// Raise with explicit exception args (e.g. KeyError(key) whose str() is repr(key)).
[[noreturn]] void raise(std::string kind, std::vector<Value> args);

// ---- Native functions and argument binding --------------------------------------------

// One parameter of a native function signature.
//   Param("other")            required (positional or keyword)
//   Param("alpha", 1)         optional with a default
//   Param("*")                the following parameters are keyword-only
//   Param("*size")            collects extra positional arguments (varargs())
//   Param("**kwargs")         collects extra keyword arguments (varkwargs())
struct Param {
  Param(const char* n) : name(n) {}
  Param(std::string n) : name(std::move(n)) {}
  template <typename D>
  Param(std::string n, D def) : name(std::move(n)), default_value(Value(std::move(def))) {}
  std::string name;
  std::optional<Value> default_value;
};

// The arguments of one native call. Bind them to a signature with bind(), then read them
// by name: `a.bind({"input", "other", Param("alpha", 1)}); a.get_float("alpha")`.
class CallArgs {
 public:
  CallArgs(std::string function_name, Args args, Kwargs kwargs);

  const std::string& function_name() const { return name_; }
  // Raw access (before or instead of bind()).
  Args& positional() { return args_; }
  Kwargs& keywords() { return kwargs_; }
  size_t size() const { return args_.size(); }
  template <typename I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
  const Value& operator[](I i) const { return args_.at(static_cast<size_t>(i)); }
  const Value* keyword(std::string_view name) const;
  // Raises TypeError unless there are no keywords and min <= positional count <= max.
  void expect_positional(size_t min, size_t max) const;

  // Binds to a signature; raises TypeError like "add() missing required argument 'other'",
  // "add() got an unexpected keyword argument 'foo'",
  // "add() takes 2 positional arguments but 3 were given",
  // "add() got multiple values for argument 'other'".
  CallArgs& bind(const std::vector<Param>& params);

  // After bind(): the value for a parameter (its default when not passed).
  const Value& get(std::string_view name) const;
  const Value& operator[](std::string_view name) const { return get(name); }
  const Value& operator[](const char* name) const { return get(name); }
  bool provided(std::string_view name) const;  // passed explicitly by the caller
  bool is_none(std::string_view name) const { return get(name).is_none(); }
  // Typed getters: TypeError "add(): argument 'alpha' must be int, not str".
  int64_t get_int(std::string_view name) const;
  double get_float(std::string_view name) const;
  bool get_bool(std::string_view name) const;
  std::string get_str(std::string_view name) const;
  std::optional<int64_t> get_optional_int(std::string_view name) const;  // None -> nullopt
  const Args& varargs() const { return varargs_; }
  const Kwargs& varkwargs() const { return varkwargs_; }

 private:
  std::string name_;
  Args args_;
  Kwargs kwargs_;
  std::vector<std::string> names_;
  std::vector<Value> bound_;
  std::vector<bool> provided_;
  Args varargs_;
  Kwargs varkwargs_;
  std::ptrdiff_t slot(std::string_view name) const;
};

using NativeFn = std::function<Value(CallArgs&)>;

// A builtin-style function implemented in C++. repr: <built-in function name>.
class NativeFunction : public Object {
 public:
  NativeFunction(std::string name, NativeFn fn) : name_(std::move(name)), fn_(std::move(fn)) {}
  const std::string& name() const { return name_; }
  std::string type_name() const override { return "builtin_function_or_method"; }
  std::string repr() const override { return "<built-in function " + name_ + ">"; }
  Value getattr(const std::string& name) override;
  Value call(Args args, Kwargs kwargs) override;
  bool is_callable() const override { return true; }

 private:
  std::string name_;
  NativeFn fn_;
};

std::shared_ptr<NativeFunction> make_native_function(std::string name, NativeFn fn);

// A module (or any plain namespace object): attributes in a map.
class Module : public Object {
 public:
  explicit Module(std::string name) : name_(std::move(name)) {}
  const std::string& name() const { return name_; }
  Module& set(const std::string& attr, Value value);
  // Adds a native function attribute: m.def("add", [](CallArgs& a) { ... });
  Module& def(const std::string& attr, NativeFn fn);
  bool has(const std::string& attr) const { return attrs_.count(attr) != 0; }
  const std::map<std::string, Value>& attributes() const { return attrs_; }

  std::string type_name() const override { return "module"; }
  std::string repr() const override { return "<module '" + name_ + "'>"; }
  Value getattr(const std::string& name) override;  // "module 'torch' has no attribute 'x'"
  void setattr(const std::string& name, const Value& value) override { attrs_[name] = value; }
  std::vector<std::string> dir() const override;

 private:
  std::string name_;
  std::map<std::string, Value> attrs_;
};

// A minimal type object (type(x) for native objects): named, repr "<class 'name'>".
class TypeObject : public Object {
 public:
  explicit TypeObject(std::string name) : name_(std::move(name)) {}
  const std::string& name() const { return name_; }
  std::string type_name() const override { return "type"; }
  std::string repr() const override { return "<class '" + name_ + "'>"; }
  Value getattr(const std::string& name) override;
  // Type objects with the same name compare equal (type(a) == type(b)).
  std::optional<Value> compare(CompareOp op, const Value& other) override;

 private:
  std::string name_;
};

// ---- Helpers for native code ----------------------------------------------------------

// Calls any callable value (native function, script function, lambda, type...).
Value call(const Value& callable, Args args = {}, Kwargs kwargs = {});
// Python repr()/str()/bool()/len() of any value.
inline std::string repr(const Value& v) { return v.repr(); }
inline std::string str(const Value& v) { return v.str(); }
bool truthy(const Value& v);
int64_t length(const Value& v);
// Python's operator semantics on values (dispatching to native objects as needed).
Value binary_op(BinaryOp op, const Value& a, const Value& b);
Value unary_op(UnaryOp op, const Value& a);
Value compare(CompareOp op, const Value& a, const Value& b);
// Python's `item in container`.
bool contains(const Value& container, const Value& item);
// Attribute access / subscripting on any value (builtin methods included).
Value get_attr(const Value& obj, const std::string& name);
void set_attr(const Value& obj, const std::string& name, const Value& value);
Value get_item(const Value& obj, const Value& index);
void set_item(const Value& obj, const Value& index, const Value& value);
void del_item(const Value& obj, const Value& index);
// An int for indexing: int, bool, or an object with index(); TypeError otherwise
// ("'float' object cannot be interpreted as an integer").
int64_t to_index(const Value& v);

}  // namespace ipt::script
