#pragma once
// Scalar: a Python number passed to an operator (PyTorch's `Scalar` schema type).

#include <cstdint>

#include "core/tensor/scalar_type.h"

namespace ipt {

class Scalar {
 public:
  Scalar() : Scalar(int64_t(0)) {}
  Scalar(double v) : tag_(ScalarType::Double), d_(v) {}
  Scalar(float v) : tag_(ScalarType::Double), d_(v) {}
  Scalar(int64_t v) : tag_(ScalarType::Long), i_(v) {}
  Scalar(int v) : tag_(ScalarType::Long), i_(v) {}
  Scalar(bool v) : tag_(ScalarType::Bool), i_(v ? 1 : 0) {}

  // Double for floats, Long for ints, Bool for bools.
  ScalarType type() const { return tag_; }
  bool is_floating() const { return tag_ == ScalarType::Double; }
  bool is_bool() const { return tag_ == ScalarType::Bool; }
  double to_double() const { return tag_ == ScalarType::Double ? d_ : static_cast<double>(i_); }
  int64_t to_long() const { return tag_ == ScalarType::Double ? float_to_int64(d_) : i_; }  // see float_to_int64
  bool to_bool() const { return tag_ == ScalarType::Double ? d_ != 0.0 : i_ != 0; }
  template <typename T>
  T to() const {
    if constexpr (std::is_same_v<T, bool>) return to_bool();
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(to_long());
    else return static_cast<T>(to_double());
  }

 private:
  ScalarType tag_;
  union {
    double d_;
    int64_t i_;
  };
};

}  // namespace ipt
