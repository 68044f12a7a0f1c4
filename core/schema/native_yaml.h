#pragma once
// Reads PyTorch's operator list, native_functions.yaml. Each entry looks like
//
//   - func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
//     structured: True
//     dispatch:
//       CPU, CUDA: add_out
//
// load_native_functions() is strict: any problem throws an ipt::Error naming the file
// and line. parse_all_funcs() is the bulk check: it parses every `func` and lists the
// ones that fail instead of stopping (the YAML itself must still be readable).
// Keys this project does not use (autogen, device_check, ...) are ignored.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/schema/function_schema.h"

namespace ipt::schema {

struct NativeFunctionEntry {
  std::string func;  // the schema text as written in the file
  FunctionSchema schema;
  std::vector<std::string> variants;            // "function" and/or "method"; default {"function"}
  std::map<std::string, std::string> dispatch;  // "CPU" -> "add_out"; "CPU, CUDA" gives two keys
  bool structured = false;
  std::optional<std::string> structured_delegate;  // "add.out"
  bool manual_cpp_binding = false;
  std::string python_module;      // "nn" puts the Python binding in torch._C._nn; empty: torch
  std::vector<std::string> tags;  // "core", "pointwise", ... (PyTorch's tags.yaml)

  int line = 0;  // 1-based line of the entry's `- func:`
};

std::vector<NativeFunctionEntry> load_native_functions(const std::string& path);
std::vector<NativeFunctionEntry> load_native_functions_from_string(const std::string& text,
                                                                   const std::string& source_name);

struct ParseFailure {
  int line = 0;
  std::string func;   // empty when the entry has no readable `func`
  std::string error;  // the SchemaParseError message, caret line included
};

struct ParseReport {
  std::string source;
  int entries = 0;
  int parsed = 0;
  std::vector<ParseFailure> failures;
  bool all_ok() const { return failures.empty(); }
};

ParseReport parse_all_funcs(const std::string& path);
ParseReport parse_all_funcs_from_string(const std::string& text, const std::string& source_name);

}  // namespace ipt::schema
