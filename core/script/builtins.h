#pragma once
// Builtin object types that are not plain Values: range, lazy iterators (enumerate, zip,
// map, filter, reversed, iter(list)), dict views, and bound methods of builtin values
// (list.append, str.join, ...). The builtin functions themselves are installed by
// install_builtins() (runtime.h).

#include <functional>
#include <optional>
#include <string>

#include "core/script/object.h"

namespace ipt::script {

class RangeObject : public Object {
 public:
  RangeObject(int64_t start, int64_t stop, int64_t step);
  int64_t start() const { return start_; }
  int64_t stop() const { return stop_; }
  int64_t step() const { return step_; }
  int64_t size() const { return len_; }

  std::string type_name() const override { return "range"; }
  std::string repr() const override;
  Value getattr(const std::string& name) override;
  std::optional<int64_t> len() const override { return len_; }
  bool truthy() const override { return len_ > 0; }
  Value getitem(const Value& index) override;
  std::optional<bool> contains(const Value& item) override;
  Value iter() override;
  std::optional<Value> compare(CompareOp op, const Value& other) override;

 private:
  int64_t start_, stop_, step_, len_;
};

// A lazy iterator driven by a C++ function (nullopt = exhausted).
class NativeIterator : public Object {
 public:
  NativeIterator(std::string type_name, std::function<std::optional<Value>()> next_fn)
      : name_(std::move(type_name)), next_(std::move(next_fn)) {}
  std::string type_name() const override { return name_; }
  Value iter() override { return Value(shared_from_this()); }
  std::optional<Value> next() override;

 private:
  std::string name_;
  std::function<std::optional<Value>()> next_;
  bool done_ = false;
};

// dict.keys() / values() / items(): live views of a dict.
class DictView : public Object {
 public:
  enum class Kind { Keys, Values, Items };
  DictView(std::shared_ptr<Dict> d, Kind k) : dict_(std::move(d)), kind_(k) {}
  std::string type_name() const override;
  std::string repr() const override;
  std::optional<int64_t> len() const override { return static_cast<int64_t>(dict_->size()); }
  bool truthy() const override { return !dict_->empty(); }
  Value iter() override;
  std::optional<bool> contains(const Value& item) override;

 private:
  std::shared_ptr<Dict> dict_;
  Kind kind_;
};

// Methods of builtin values (str, list, tuple, dict, int, float).
bool has_builtin_method(const Value& self, const std::string& name);
Value call_builtin_method(const Value& self, const std::string& name, Args& args, Kwargs& kwargs);
std::vector<std::string> builtin_method_names(const Value& self);

// `obj.name` bound to a builtin value: calling it calls the method.
class BoundBuiltinMethod : public Object {
 public:
  BoundBuiltinMethod(Value self, std::string name) : self_(std::move(self)), name_(std::move(name)) {}
  std::string type_name() const override { return "builtin_function_or_method"; }
  std::string repr() const override;
  Value call(Args args, Kwargs kwargs) override { return call_builtin_method(self_, name_, args, kwargs); }
  bool is_callable() const override { return true; }

 private:
  Value self_;
  std::string name_;
};

// Python's sort (stable; `key` and `reverse`), used by sorted() and list.sort().
void sort_values(std::vector<Value>& items, const Value& key, bool reverse);

}  // namespace ipt::script
