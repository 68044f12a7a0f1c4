#pragma once
// Generates build/generated/RegisterAutocast.cpp from core/ops/autocast.yaml: one kernel per
// (Autocast key, operator) that casts the arguments by the operator's policy and calls the
// operator again with that Autocast key excluded.

#include <string>
#include <vector>

#include "tools/codegen/op.h"

namespace ipt::codegen {

// Throws with "<file>:<line>: ..." for an unknown key, policy or operator.
std::string gen_autocast(const std::vector<Op>& ops, const std::string& policy_yaml_path);

}  // namespace ipt::codegen
