#pragma once
// Generates build/generated/RegisterAutograd.cpp from core/ops/derivatives.yaml: the Autograd
// kernels (PyTorch's VariableType) and the backward node of each differentiable operator.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tools/codegen/op.h"

namespace ipt::codegen {

struct Derivative {
  std::string node;                                           // "AddBackward0"
  std::vector<std::pair<std::string, std::string>> formulas;  // input name -> C++ expression
  bool nondifferentiable = false;
  std::vector<bool> output_differentiability;  // per return; empty: all differentiable
};

// derivatives.yaml by operator name ("add.Tensor"); throws with "<file>:<line>: ..." for an
// entry that names no operator, an input that is not a tensor input, or lacks a node name.
std::map<std::string, Derivative> load_derivatives(const std::string& path, const std::vector<Op>& ops);

std::string gen_autograd(const std::vector<Op>& ops, const std::map<std::string, Derivative>& derivs);

}  // namespace ipt::codegen
