// grad_fn objects: PyTorch's backward nodes as seen from Python (name(), next_functions).
#include <cstdio>

#include "core/autograd/node.h"
#include "core/pytorch/identity_cache.h"
#include "core/pytorch/objects.h"

namespace ipt::pytorch {

namespace {

class NodeObject : public script::Object {
 public:
  explicit NodeObject(std::shared_ptr<autograd::Node> fn) : fn_(std::move(fn)) {}
  std::string type_name() const override {
    std::string n = fn_->name();
    return n == "torch::autograd::AccumulateGrad" ? "AccumulateGrad" : n;
  }
  std::string repr() const override {
    char buf[64];
    std::snprintf(buf, sizeof buf, " object at %p>", static_cast<const void*>(fn_.get()));
    return "<" + type_name() + buf;
  }
  std::optional<Value> call_method(const std::string& name, script::Args& args, script::Kwargs& kwargs) override {
    script::CallArgs a(name, args, kwargs);
    if (name == "name") {
      a.bind({});
      return Value(std::string(fn_->name()));
    }
    return std::nullopt;
  }
  Value getattr(const std::string& name) override {
    if (name == "next_functions") {
      std::vector<Value> items;
      for (const auto& e : fn_->next_edges)
        items.push_back(Value::tuple({e.valid() ? make_node_object(e.fn) : Value(), Value(static_cast<int64_t>(e.input_nr))}));
      return Value::tuple(std::move(items));
    }
    if (name == "variable") {
      if (auto* acc = dynamic_cast<autograd::AccumulateGrad*>(fn_.get()))
        if (auto v = acc->variable()) return wrap(Tensor(v));
    }
    if (name == "name") {
      auto self = fn_;
      return Value(script::make_native_function("name", [self](script::CallArgs& a) {
        a.bind({});
        return Value(std::string(self->name()));
      }));
    }
    return Object::getattr(name);
  }
  std::optional<Value> compare(script::CompareOp op, const Value& other) override {
    if (op != script::CompareOp::Eq && op != script::CompareOp::Ne) return std::nullopt;
    auto o = other.as<NodeObject>();
    bool eq = o && o->fn_ == fn_;
    return Value(eq == (op == script::CompareOp::Eq));
  }

 private:
  std::shared_ptr<autograd::Node> fn_;
};

}  // namespace

// One Python object per node (so `a.grad_fn is b.grad_fn` holds when they are the same node).
Value make_node_object(const std::shared_ptr<autograd::Node>& fn) {
  static IdentityCache<autograd::Node, NodeObject> cache(4096);
  return Value(cache.get(fn.get(), [&] { return std::make_shared<NodeObject>(fn); }));
}

}  // namespace ipt::pytorch
