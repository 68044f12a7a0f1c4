#pragma once
// The schema check mode: every operator call compared with what its schema promises.
//
// Note [Schema check mode]
// PyTorch's test-only SchemaCheckMode, for every run here: with it on, each call through
// ops:: (the generated entry points, so nested calls too) snapshots its tensor arguments
// (values, sizes, strides, storage), runs, and then checks
//   - an argument whose values or geometry changed must be annotated as written, `(a!)`:
//     "Argument input is not defined as mutable but was mutated" (PyTorch's words; `self` is
//     called `input`, as there)
//   - a result that shares memory with an argument must share an alias set with it
//     (`Tensor(a) self -> Tensor(a)`, or `a -> *`): "Argument input is not defined to alias
//     output but was aliasing"; two results that share memory must share a set:
//     "Outputs 0 and 1 alias unexpectedly"
//   - an argument annotated as written that the call left exactly as it was is reported as
//     unchanged (an over-cautious schema, or a kernel that forgot to write). Writing the
//     values a tensor already held looks the same, so this one is a finding, not an error.
// The first two are violations: recorded, and raised as RuntimeError when the mode raises
// (its default, as PyTorch's). Values are compared for CPU tensors; others by geometry only.

#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "core/tensor/tensor.h"

namespace ipt::schema_check {

// What the schema says of one tensor argument or return (from the generator).
struct ArgInfo {
  const char* name;       // "self"
  const char* alias_set;  // "a", "a|b", or "" when not annotated
  bool write;             // (a!)
  bool wildcard;          // (a -> *): may alias anything after the call
};

struct Finding {
  enum class Kind {
    MutatedWithoutAnnotation,
    AliasWithoutAnnotation,
    OutputsAlias,
    AnnotatedButUnchanged,
    Mutated,
    Aliased
  };
  Kind kind;
  std::string op;        // "aten::add_.Tensor"
  std::string argument;  // "input", "out", "output_0"
  std::string message;   // PyTorch's words for the violations; a description for the rest
  bool violation() const {
    return kind == Kind::MutatedWithoutAnnotation || kind == Kind::AliasWithoutAnnotation || kind == Kind::OutputsAlias;
  }
};

bool enabled();
void set_enabled(bool on, bool raise_on_violation = true);
// What the mode saw since it was switched on (or cleared): the operators called, and the findings.
std::vector<std::string> ops_seen();
std::vector<Finding> findings();
void clear();

// One checked call; the generated entry point makes it when enabled() is true.
class Call {
 public:
  Call(const char* op, std::span<const ArgInfo> args, std::span<const ArgInfo> returns);
  void arg(size_t i, const Tensor& t);
  void arg(size_t i, const std::optional<Tensor>& t);
  void arg(size_t i, std::span<const Tensor> ts);
  void arg(size_t i, std::span<const std::optional<Tensor>> ts);
  template <typename T>
  void arg(size_t, const T&) {}  // not a tensor

  void after(const Tensor& r) { check({&r}); }
  void after(const std::vector<Tensor>& rs);
  template <typename... Ts>
  void after(const std::tuple<Ts...>& rs) {
    std::vector<const Tensor*> v;
    std::apply([&](const auto&... r) { (push_if_tensor(v, r), ...); }, rs);
    check(v);
  }
  template <typename T>
  void after(const T&) {
    check({});
  }

 private:
  struct Snapshot {
    size_t arg;
    Tensor t;
    std::vector<int64_t> sizes, strides;
    const void* storage = nullptr;
    std::vector<unsigned char> bytes;  // CPU tensors: the elements, in order
    bool has_bytes = false;
  };
  template <typename T>
  static void push_if_tensor(std::vector<const Tensor*>& v, const T& r) {
    if constexpr (std::is_same_v<T, Tensor>) v.push_back(&r);
  }
  void check(const std::vector<const Tensor*>& returns);
  void add(size_t i, const Tensor& t);

  const char* op_;
  std::span<const ArgInfo> args_, returns_;
  std::vector<Snapshot> snaps_;
};

}  // namespace ipt::schema_check
