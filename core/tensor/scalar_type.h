#pragma once
// ScalarType (dtype): the element types this runtime supports, and type promotion.

#include <cstddef>
#include <cstdint>
#include <string>

namespace ipt {

enum class ScalarType : uint8_t { Bool = 0, Long = 1, Float = 2, Double = 3 };

constexpr size_t element_size(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return 1;
    case ScalarType::Long: return 8;
    case ScalarType::Float: return 4;
    case ScalarType::Double: return 8;
  }
  return 1;
}
constexpr bool is_floating(ScalarType t) { return t == ScalarType::Float || t == ScalarType::Double; }
constexpr bool is_integral(ScalarType t, bool include_bool) {
  return t == ScalarType::Long || (include_bool && t == ScalarType::Bool);
}

// "float32", "float64", "int64", "bool"
const char* dtype_short_name(ScalarType t);
// "torch.float32" ...
std::string dtype_repr(ScalarType t);
// PyTorch's C++ names used in error messages: "Float", "Double", "Long", "Bool".
const char* dtype_cpp_name(ScalarType t);
// The larger of two types in the order Bool < Long < Float < Double.
constexpr ScalarType promote_types(ScalarType a, ScalarType b) {
  return static_cast<uint8_t>(a) > static_cast<uint8_t>(b) ? a : b;
}

// Calls f.template operator()<T>() with T the C++ element type of `t`.
template <typename F>
decltype(auto) visit_dtype(ScalarType t, F&& f) {
  switch (t) {
    case ScalarType::Bool: return f.template operator()<bool>();
    case ScalarType::Long: return f.template operator()<int64_t>();
    case ScalarType::Float: return f.template operator()<float>();
    case ScalarType::Double: break;
  }
  return f.template operator()<double>();
}

}  // namespace ipt
