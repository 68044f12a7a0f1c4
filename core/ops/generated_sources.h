#pragma once
// What the operator generator read and wrote, kept in the program as data.
//
// The build embeds the schema YAMLs (core/ops/native_functions.yaml, derivatives.yaml,
// autocast.yaml) and every file tools/codegen wrote from them (build/generated/...), so the
// program can show the real generated code of the running binary: the YAML entry of an
// operator, and the line a dispatch table's "registered at build/generated/RegisterCPU.cpp:96"
// points to. Names are the ones the registrations print. It also embeds PyTorch 2.15's own
// schema list (core/ops/pytorch/native_functions.yaml), which the Schema view offers to pick.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/split_lines.h"  // split_lines, which the embedded files' readers use

namespace ipt {

struct EmbeddedSource {
  const char* name;  // "build/generated/RegisterCPU.cpp", "core/ops/native_functions.yaml"
  const char* text;
};

namespace embedded {
extern const EmbeddedSource kSources[];
extern const size_t kSourceCount;
}  // namespace embedded

std::vector<std::string_view> generated_source_names();
// The whole text of one embedded file; nullopt for a name that is not embedded.
std::optional<std::string_view> generated_source(std::string_view name);

// Lines [first, last] (1-based, clamped to the file) of an embedded file.
struct SourceLines {
  std::string name;
  int first = 0;  // 0 when the file is not embedded or the range is empty
  std::vector<std::string_view> lines;
};
SourceLines generated_source_lines(std::string_view name, int first, int last);

// The entry of one operator in the schema YAML: from its "- func: <name>(" line up to the
// next entry or comment block, as written; nullopt when no entry declares that name.
// `name` is "add.Tensor", "add_.Tensor" or "aten::add.out".
std::optional<std::string> schema_yaml_entry(std::string_view name);

}  // namespace ipt
