#include "app/ops_coverage.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "core/dispatch/dispatcher.h"
#include "core/ops/generated_sources.h"
#include "core/schema/native_yaml.h"
#include "core/util/error.h"

namespace ipt::app {

namespace {

constexpr const char* kPytorchYaml = "core/ops/pytorch/native_functions.yaml";
constexpr const char* kDerivativesYaml = "core/ops/derivatives.yaml";

std::string embedded(const char* name) {
  auto text = generated_source(name);
  IPT_CHECK(text.has_value(), RuntimeError, name, " is not embedded in this build");
  return std::string(*text);
}

// The operators derivatives.yaml lists (with a formula, or as nondifferentiable): its
// `- name: OP` lines (the generator reads the same file; each entry opens with its name).
std::set<std::string> with_derivative_entries() {
  std::set<std::string> out;
  std::istringstream in(embedded(kDerivativesYaml));
  const std::string prefix = "- name: ";
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) out.insert(line.substr(prefix.size()));
  return out;
}

// A kernel the table computes for `key`: the backend's own, a CompositeExplicitAutograd one (a
// "default backend kernel") or a CompositeImplicitAutograd one (a "math kernel").
bool has_kernel(const OperatorEntry& op, DispatchKey key) {
  const std::string kind = op.entry(key).kind;
  return kind == "kernel" || kind == "default backend kernel" || kind == "math kernel";
}

// Whether the operator can need a derivative: an input is a tensor (a factory like randn has
// none) and it is no out= overload (PyTorch's out= functions do not support autograd).
bool differentiable_kind(const schema::FunctionSchema& s) {
  bool tensor_input = false;
  for (const auto& a : s.arguments) {
    if (a.is_out) return false;
    if (a.type.str().rfind("Tensor", 0) == 0) tensor_input = true;
  }
  return tensor_input;
}

}  // namespace

OpsetCoverage opset_coverage() {
  OpsetCoverage c;
  Dispatcher& d = Dispatcher::singleton();
  const std::set<std::string> derivatives = with_derivative_entries();
  for (const auto& e : schema::load_native_functions_from_string(embedded(kPytorchYaml), kPytorchYaml)) {
    const std::string name =
        e.schema.overload_name.empty() ? e.schema.name : e.schema.name + "." + e.schema.overload_name;
    const OperatorEntry* op = d.find("aten::" + name);
    ++c.pytorch_schemas;
    if (op && has_kernel(*op, keys::CPU)) ++c.pytorch_schemas_run;
    if (std::find(e.tags.begin(), e.tags.end(), "core") == e.tags.end()) continue;
    CoreOpCoverage o;
    o.name = name;
    if (op) {
      o.schema = true;
      o.cpu = has_kernel(*op, keys::CPU);
      o.meta = has_kernel(*op, keys::Meta);
      o.cuda = has_kernel(*op, keys::CUDA);
      // A formula (or nondifferentiable) in derivatives.yaml, a CompositeImplicitAutograd kernel
      // (autograd goes through what it calls), or nothing to differentiate.
      o.derivative = derivatives.count(name) > 0 || std::string(op->entry(keys::CPU).kind) == "math kernel" ||
                     !differentiable_kind(e.schema);
    }
    c.core.push_back(std::move(o));
  }
  return c;
}

std::string format_opset_coverage(const OpsetCoverage& c) {
  std::ostringstream o;
  const size_t n = c.core.size();
  o << "Core ATen opset of PyTorch 2.15 (operators tagged core): " << n << "\n";
  struct Column {
    const char* label;
    bool CoreOpCoverage::*have;
  };
  const Column columns[] = {{"schema", &CoreOpCoverage::schema},
                            {"CPU", &CoreOpCoverage::cpu},
                            {"Meta", &CoreOpCoverage::meta},
                            {"CUDA (simulated GPU)", &CoreOpCoverage::cuda},
                            {"derivative", &CoreOpCoverage::derivative}};
  for (const auto& col : columns) {
    const auto have =
        std::count_if(c.core.begin(), c.core.end(), [&](const CoreOpCoverage& op) { return op.*col.have; });
    o << "  " << col.label << std::string(22 - std::string(col.label).size(), ' ') << have << "/" << n << "\n";
  }
  o << "PyTorch 2.15 schemas that run here (a CPU kernel): " << c.pytorch_schemas_run << "/" << c.pytorch_schemas
    << "\n";
  for (const auto& col : columns) {
    std::vector<std::string> lacking;
    for (const auto& op : c.core)
      if (!(op.*col.have) && (col.have == &CoreOpCoverage::schema || op.schema)) lacking.push_back(op.name);
    if (lacking.empty()) continue;
    o << "\n"
      << (col.have == &CoreOpCoverage::schema ? "missing" : std::string("without ") + col.label) << " ("
      << lacking.size() << "):";
    for (const auto& name : lacking) o << " " << name;
    o << "\n";
  }
  return o.str();
}

}  // namespace ipt::app
