#pragma once
// The Python-side objects of the snippet `torch` module: Tensor, torch.Size, dtype, device,
// storage, DispatchKey/DispatchKeySet, and context-manager guards. Each wraps a runtime
// value; none of them holds interpreter state.

#include <memory>
#include <optional>
#include <vector>

#include "core/dispatch/dispatch_key_set.h"
#include "core/script/object.h"
#include "generated/ops.h"

namespace ipt::autograd {
class Node;
}

namespace ipt::pytorch {

using script::Value;

class TensorObject : public script::Object {
 public:
  explicit TensorObject(Tensor t) : t_(std::move(t)) {}
  const Tensor& tensor() const { return t_; }

  std::string type_name() const override { return "Tensor"; }
  Value getattr(const std::string& name) override;
  void setattr(const std::string& name, const Value& value) override;
  std::optional<Value> call_method(const std::string& name, script::Args& args, script::Kwargs& kwargs) override;
  std::string repr() const override;
  std::string format(std::string_view spec) const override;
  std::optional<Value> binary_op(script::BinaryOp op, const Value& other, bool reflected) override;
  std::optional<Value> inplace_op(script::BinaryOp op, const Value& other) override;
  std::optional<Value> unary_op(script::UnaryOp op) override;
  std::optional<Value> compare(script::CompareOp op, const Value& other) override;
  Value getitem(const Value& index) override;
  void setitem(const Value& index, const Value& value) override;
  bool truthy() const override;
  std::optional<int64_t> len() const override;
  Value iter() override;
  std::optional<int64_t> to_int() const override;
  std::optional<double> to_float() const override;
  std::optional<int64_t> index() const override;
  std::vector<std::string> dir() const override;

 private:
  Tensor t_;
};

class SizeObject : public script::Object {
 public:
  explicit SizeObject(std::vector<int64_t> s) : sizes_(std::move(s)) {}
  const std::vector<int64_t>& sizes() const { return sizes_; }
  std::string type_name() const override { return "Size"; }
  std::string repr() const override;
  Value getitem(const Value& index) override;
  std::optional<int64_t> len() const override { return static_cast<int64_t>(sizes_.size()); }
  Value iter() override;
  std::optional<Value> compare(script::CompareOp op, const Value& other) override;
  Value getattr(const std::string& name) override;

 private:
  std::vector<int64_t> sizes_;
};

class DtypeObject : public script::Object {
 public:
  explicit DtypeObject(ScalarType t) : t_(t) {}
  ScalarType dtype() const { return t_; }
  std::string type_name() const override { return "dtype"; }
  std::string repr() const override { return dtype_repr(t_); }
  std::optional<Value> compare(script::CompareOp op, const Value& other) override;
  Value getattr(const std::string& name) override;

 private:
  ScalarType t_;
};

class DeviceObject : public script::Object {
 public:
  explicit DeviceObject(Device d) : d_(d) {}
  Device device() const { return d_; }
  std::string type_name() const override { return "device"; }
  std::string repr() const override;
  std::string str() const override { return d_.str(); }
  Value getattr(const std::string& name) override;
  std::optional<Value> compare(script::CompareOp op, const Value& other) override;

 private:
  Device d_;
};

class KeySetObject : public script::Object {
 public:
  explicit KeySetObject(DispatchKeySet ks) : ks_(ks) {}
  DispatchKeySet key_set() const { return ks_; }
  std::string type_name() const override { return "DispatchKeySet"; }
  std::string repr() const override { return ks_.to_string(); }
  std::optional<Value> binary_op(script::BinaryOp op, const Value& other, bool reflected) override;
  std::optional<Value> compare(script::CompareOp op, const Value& other) override;
  std::optional<Value> call_method(const std::string& name, script::Args& args, script::Kwargs& kwargs) override;

 private:
  DispatchKeySet ks_;
};

class KeyObject : public script::Object {
 public:
  explicit KeyObject(DispatchKey k) : k_(k) {}
  DispatchKey key() const { return k_; }
  std::string type_name() const override { return "DispatchKey"; }
  std::string repr() const override;
  std::string str() const override { return "DispatchKey." + k_.name(); }
  std::optional<Value> compare(script::CompareOp op, const Value& other) override;
  Value getattr(const std::string& name) override;

 private:
  DispatchKey k_;
};

// Conversions used across the bindings.
Value wrap(Tensor t);
Value wrap(const Scalar& s);
Tensor to_tensor(const Value& v, const char* what);  // a Tensor object, or TypeError
std::optional<Tensor> as_tensor(const Value& v);
Scalar to_scalar(const Value& v, const char* what);
ScalarType to_dtype(const Value& v);
Device to_device(const Value& v);
// Shapes: f(2, 3), f((2, 3)), f([2, 3]), f(torch.Size([2, 3])).
std::vector<int64_t> shape_from_args(const script::Args& varargs, const char* fn);
std::vector<int64_t> int_list(const Value& v, const char* what);

// A grad_fn object: name(), next_functions.
Value make_node_object(const std::shared_ptr<ipt::autograd::Node>& fn);

// t.storage() / t.untyped_storage().
Value make_storage(const Tensor& t, bool untyped);

// The `torch` module (and torch._C).
Value make_torch_module();

}  // namespace ipt::pytorch
