#pragma once
// ScalarType (dtype): the element types this runtime supports, and type promotion.

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "core/tensor/bfloat16.h"
#include "core/tensor/half.h"

namespace ipt {

// Declared in promotion order: within a category (bool, integers, floats) the later type
// wins, so promote_types is the larger of the two, except that uint8 and int8 meet in int16
// and float16 and bfloat16 in float32 (PyTorch's promotion table restricted to these types;
// the complex types are not implemented).
enum class ScalarType : uint8_t { Bool, Byte, Char, Short, Int, Long, Half, BFloat16, Float, Double };
inline constexpr int kNumScalarTypes = 10;

constexpr size_t element_size(ScalarType t) {
  switch (t) {
    case ScalarType::Bool:
    case ScalarType::Byte:
    case ScalarType::Char: return 1;
    case ScalarType::Short:
    case ScalarType::Half:
    case ScalarType::BFloat16: return 2;
    case ScalarType::Int:
    case ScalarType::Float: return 4;
    case ScalarType::Long:
    case ScalarType::Double: return 8;
  }
  return 1;
}
constexpr bool is_floating(ScalarType t) { return t >= ScalarType::Half; }
constexpr bool is_integral(ScalarType t, bool include_bool) {
  return (t >= ScalarType::Byte && t <= ScalarType::Long) || (include_bool && t == ScalarType::Bool);
}
constexpr bool is_signed(ScalarType t) { return t != ScalarType::Bool && t != ScalarType::Byte; }

// "float32", "float64", "int64", "bool", "uint8", "int8", "int16", "int32", "float16", "bfloat16"
const char* dtype_short_name(ScalarType t);
// "torch.float32" ...
std::string dtype_repr(ScalarType t);
// PyTorch's C++ names used in error messages: "Float", "Double", "Long", "Bool", "Byte",
// "Char", "Short", "Int", "Half", "BFloat16".
const char* dtype_cpp_name(ScalarType t);
// The C++ element type, as some of PyTorch's messages name it: "float", "long int", "c10::Half".
const char* dtype_element_name(ScalarType t);
// The larger of two types in the order Bool < Byte|Char < Short < Int < Long < Half|BFloat16 <
// Float < Double, where Byte and Char give Short, and Half and BFloat16 give Float.
constexpr ScalarType promote_types(ScalarType a, ScalarType b) {
  if ((a == ScalarType::Half && b == ScalarType::BFloat16) || (a == ScalarType::BFloat16 && b == ScalarType::Half))
    return ScalarType::Float;
  if ((a == ScalarType::Byte && b == ScalarType::Char) || (a == ScalarType::Char && b == ScalarType::Byte))
    return ScalarType::Short;
  return static_cast<uint8_t>(a) > static_cast<uint8_t>(b) ? a : b;
}

// The 16-bit float types, stored narrow and computed in float.
template <typename T>
inline constexpr bool is_reduced_float_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// std::is_floating_point_v, counting Half and BFloat16.
template <typename T>
inline constexpr bool is_float_v = std::is_floating_point_v<T> || is_reduced_float_v<T>;

// The type a kernel computes in for elements of type T (PyTorch's opmath_type).
template <typename T>
using opmath_t = std::conditional_t<is_reduced_float_v<T>, float, T>;

// A float's integer part as int64, or INT64_MIN when it has none in range (NaN, +-inf, 1e30):
// what this machine's conversion instruction gives, hence PyTorch's result, without the
// undefined behaviour of an out-of-range static_cast.
template <typename F>
inline int64_t float_to_int64(F v) {
  const double d = static_cast<double>(v);
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) return INT64_MIN;
  return static_cast<int64_t>(d);
}

// Converts one element to type To as PyTorch does: 16-bit floats go through float, and a
// float becomes a narrow integer through int64 (so -1.0 -> uint8 is 255, never undefined).
template <typename To, typename From>
inline To convert_element(From v) {
  if constexpr (is_reduced_float_v<From>) return convert_element<To>(static_cast<float>(v));
  else if constexpr (is_reduced_float_v<To>) return To(static_cast<float>(v));
  else if constexpr (std::is_integral_v<To> && !std::is_same_v<To, bool> && std::is_floating_point_v<From>)
    return static_cast<To>(float_to_int64(v));
  else return static_cast<To>(v);
}

// Calls f.template operator()<T>() with T the C++ element type of `t`.
template <typename F>
decltype(auto) visit_dtype(ScalarType t, F&& f) {
  switch (t) {
    case ScalarType::Bool: return f.template operator()<bool>();
    case ScalarType::Byte: return f.template operator()<uint8_t>();
    case ScalarType::Char: return f.template operator()<int8_t>();
    case ScalarType::Short: return f.template operator()<int16_t>();
    case ScalarType::Int: return f.template operator()<int32_t>();
    case ScalarType::Long: return f.template operator()<int64_t>();
    case ScalarType::Half: return f.template operator()<Half>();
    case ScalarType::BFloat16: return f.template operator()<BFloat16>();
    case ScalarType::Float: return f.template operator()<float>();
    case ScalarType::Double: break;
  }
  return f.template operator()<double>();
}

}  // namespace ipt
