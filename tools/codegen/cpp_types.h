#pragma once
// How schema types and defaults are spelled in the generated C++.

#include <optional>
#include <string>

#include "core/schema/function_schema.h"

namespace ipt::codegen {

// Argument type, e.g. "const Tensor&", "IntArrayRef", "std::optional<ScalarType>".
std::string cpp_arg_type(const schema::Argument& a);
// Return type for the schema's returns: "Tensor", "Scalar", "std::tuple<Tensor, Tensor>".
std::string cpp_return_type(const schema::FunctionSchema& s);
// C++ spelling of a default value, or nullopt when it has none we can express.
std::optional<std::string> cpp_default(const schema::Argument& a);
// True for a plain (non-optional, non-list) Tensor argument.
bool is_tensor_arg(const schema::Argument& a);
bool is_optional_tensor_arg(const schema::Argument& a);
bool is_tensor_list_arg(const schema::Argument& a);           // Tensor[]
bool is_optional_tensor_list_arg(const schema::Argument& a);  // Tensor?[]

}  // namespace ipt::codegen
