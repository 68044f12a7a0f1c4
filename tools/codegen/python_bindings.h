#pragma once
// Generates build/generated/python_functions.cpp: the torch._C bindings of every operator
// (see Note [How an operator reaches Python] in python_bindings.cpp).

#include <string>
#include <vector>

#include "core/schema/native_yaml.h"

namespace ipt::codegen {

std::string gen_python_functions(const std::vector<schema::NativeFunctionEntry>& entries);

}  // namespace ipt::codegen
