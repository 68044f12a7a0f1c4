#pragma once
// Operator schemas as plain data: what `add.Tensor(Tensor self, Tensor other, *,
// Scalar alpha=1) -> Tensor` says, after schema_parser.h has read it.
//
// Every PyTorch operator is declared by one such line in native_functions.yaml. The
// structs here hold it; str() prints it back in PyTorch's canonical spelling, so
// parse_schema(s).str() == s for every line of PyTorch's own file.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ipt::schema {

// A type is a small tree: a base name (Tensor, int, SymInt, Scalar, ...) wrapped by
// `?` (Optional) and `[]` / `[N]` (List) from the inside out. So `Tensor?[]` is
// List(Optional(Tensor)) and `int[1]?` is Optional(List(int, size 1)).
struct Type {
  enum class Kind { Base, Optional, List };

  Kind kind = Kind::Base;
  std::string name;                  // Base only: "Tensor", "int", ...
  std::optional<int64_t> size;       // List only: 2 for `int[2]`, absent for `int[]`
  std::shared_ptr<const Type> elem;  // Optional and List: the wrapped type

  static Type base(std::string name);
  static Type optional(Type inner);
  static Type list(Type inner, std::optional<int64_t> size = std::nullopt);

  bool is_optional() const { return kind == Kind::Optional; }
  bool is_list() const { return kind == Kind::List; }
  const Type& element() const { return *elem; }  // Optional and List only
  const std::string& base_name() const;          // the leaf's name: "Tensor" for Tensor?[]
  std::string str() const;                       // "Tensor?[]", "int[2]"
};

bool operator==(const Type& a, const Type& b);

// Alias annotation, the part in parentheses after a base type name:
//   Tensor(a)       before_set {a}: may be a view of other values in set a
//   Tensor(a!)      ... and is written to (mutated in place or an out= buffer)
//   Tensor(b|c)     belongs to set b or set c
//   Tensor(a -> *)  before the call in set a; afterwards may alias anything (split, chunk)
struct AliasInfo {
  std::vector<std::string> before_set;
  bool is_write = false;
  std::vector<std::string> after_set;  // empty unless `->` was written

  std::string str() const;  // "(a!)", "(a -> *)"
  bool operator==(const AliasInfo&) const = default;
};

struct Argument {
  std::string name;
  Type type;
  std::optional<std::string> default_value;  // literal text: "1", "[0,1]", "None", "'fro'"
  bool kwarg_only = false;                   // after `*`
  bool is_out = false;                       // kwarg-only and written: an out= buffer
  std::optional<AliasInfo> alias;

  std::string str() const;  // "Tensor(a!) out", "Scalar alpha=1"
  bool operator==(const Argument&) const = default;
};

struct Return {
  std::string name;  // often empty: `-> Tensor`
  Type type;
  std::optional<AliasInfo> alias;

  std::string str() const;  // "Tensor(a!) values"
  bool operator==(const Return&) const = default;
};

struct FunctionSchema {
  std::string name;           // "add", "add_", "__and__" (may carry a "ns::" prefix)
  std::string overload_name;  // "Tensor", "out" or ""
  std::vector<Argument> arguments;
  std::vector<Return> returns;
  bool is_vararg = false;  // `...` ends the argument list (TorchScript builtins)
  bool is_varret = false;  // `...` ends the return list

  std::string full_name() const;  // "add.Tensor", or "add" without an overload
  bool is_inplace() const;        // add_, __iand__ (not __and__): torchgen's rule
  bool is_out() const;            // has out= arguments
  bool is_mutable() const;        // some argument is written (`!`)
  // torchgen's SchemaKind: in-place by name first, then out= buffers, then any other written
  // argument after self (mutable), else functional.
  enum class Kind { Functional, Inplace, Out, Mutable };
  Kind kind() const;
  std::string str() const;  // the canonical schema text
  bool operator==(const FunctionSchema&) const = default;
};

// "functional", "inplace", "out", "mutable" (torchgen's SchemaKind names).
const char* kind_name(FunctionSchema::Kind k);

// "Tensor(a!)[]": a type printed with its alias annotation after the base name.
std::string type_str(const Type& type, const std::optional<AliasInfo>& alias);

}  // namespace ipt::schema
