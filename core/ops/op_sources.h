#pragma once
// Where one operator comes from, read from the embedded sources alone (generated_sources.h;
// no dispatcher, so a view can show it for an operator that never ran): its entry in the
// schema YAML, the generated line that registers its schema, each generated kernel
// registration (the key, the line its "registered at" names, the statement block, and whether
// the kernel it installs is a generated wrapper or hand-written code), and its derivative
// formula. This is the pipeline lesson 7 follows: YAML -> parsed schema -> generated files ->
// registrations -> dispatch table.

#include <string>
#include <string_view>
#include <vector>

namespace ipt {

// A line of an embedded file ("build/generated/RegisterCPU.cpp", 785); line 0: none.
struct SourceSite {
  std::string file;
  int line = 0;
  bool found() const { return line > 0; }
  std::string str() const { return file + ":" + std::to_string(line); }  // as "registered at" prints it
};

struct KernelSite {
  std::string key;      // the key it is registered under: "CPU", "Autograd", "CompositeImplicitAutograd"
  SourceSite at;        // the `k.registered_at = IPT_HERE;` line: what the dispatch table prints
  std::string name;     // the kernel's name as the table shows it: "meta_add + add_out_cpu"
  int block_first = 0;  // the registration's statement block `{ KernelFunction k; ... }`
  std::vector<std::string_view> block;
  // A generated wrapper (Autograd, ADInplaceOrView, BackendSelect, Autocast): its function,
  // defined in the same generated file ("add_Tensor_Autograd"). Empty for a kernel that calls
  // hand-written code.
  std::string wrapper;
  // The hand-written functions the kernel calls ("meta_add", "add_out_cpu"); empty for a wrapper.
  std::vector<std::string> hand_written;
};

struct OpSources {
  std::string op;                   // "aten::add.Tensor"
  SourceSite yaml;                  // its "- func:" line in core/ops/native_functions.yaml
  std::string yaml_entry;           // the entry as written
  SourceSite schema_registration;   // register_operators.cpp: d.register_operator(...)
  std::vector<KernelSite> kernels;  // in file order: Register<Key>.cpp files as embedded
  // What the generator wrote for it besides registrations, under its C++ name `id`
  // ("add_Tensor", "add__Tensor", "relu"): the C++ function others call (ops.h), its Python
  // binding (python_functions.cpp) and, when it has a derivative formula, its backward node
  // (RegisterAutograd.cpp: struct add_Tensor_Node, the node autograd names AddBackward0).
  std::string id;
  SourceSite declaration;
  SourceSite python_binding;
  SourceSite backward_node;
  SourceSite derivative;         // its "- name:" line in core/ops/derivatives.yaml
  std::string derivative_entry;  // the formulas (hand-written), as written
  bool found() const { return yaml.found(); }
};

// Everything the embedded sources say about `op` ("aten::add.Tensor" or "add.Tensor").
OpSources op_sources(std::string_view op);

// The operators the schema YAML declares, "aten::name.overload", in file order.
std::vector<std::string> yaml_operators();

// The schemas a reader can pick from, as written: the schema YAML's (its "- func:" lines) and
// PyTorch 2.15's own native_functions.yaml (all 2,590; core/ops/pytorch/, embedded under
// kPytorchSchemasFile).
inline constexpr const char* kPytorchSchemasFile = "core/ops/pytorch/native_functions.yaml";
// What the generator wrote where (Note [The operator index] in tools/codegen/op.h), embedded
// with the generated files: op_sources and generated_definition read it, and search no C++.
inline constexpr const char* kOperatorIndexFile = "build/generated/operator_index.tsv";
std::vector<std::string> yaml_schemas();
std::vector<std::string> pytorch_schemas();

// The top-level function or struct `name` defined in an embedded file: its first line and
// lines (up to the closing brace at column 0); first 0 when absent.
struct Definition {
  int first = 0;
  std::vector<std::string_view> lines;
};
Definition generated_definition(std::string_view file, std::string_view name);

}  // namespace ipt
