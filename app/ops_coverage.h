#pragma once
// `inside-pytorch ops --coverage`: how much of PyTorch 2.15's Core ATen opset (the operators its
// native_functions.yaml tags `core`) this build has, per kind of kernel, and how many of all of
// 2.15's schemas run here.
#include <string>
#include <vector>

namespace ipt::app {

struct CoreOpCoverage {
  std::string name;  // "add.Tensor", as 2.15 writes it
  bool schema = false, cpu = false, meta = false, cuda = false, derivative = false;
};

struct OpsetCoverage {
  std::vector<CoreOpCoverage> core;  // in 2.15's file order
  int pytorch_schemas = 0;           // every schema of 2.15's native_functions.yaml
  int pytorch_schemas_run = 0;       // those that exist here with a CPU kernel (or a composite one)
};

// Reads 2.15's native_functions.yaml and this project's derivatives.yaml (both embedded in the
// program) and the dispatcher's tables.
OpsetCoverage opset_coverage();
// The summary `ops --coverage` prints: one line per kind of kernel (n/N), the schema count, and
// the core operators that lack each kind.
std::string format_opset_coverage(const OpsetCoverage& c);

}  // namespace ipt::app
