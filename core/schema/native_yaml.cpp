// native_functions.yaml -> NativeFunctionEntry, with yaml-cpp (see native_yaml.h).
// Every error message starts with "<file>:<line>: " so it can be found in the file.

#include "core/schema/native_yaml.h"

#include <yaml-cpp/yaml.h>

#include <sstream>

#include "core/schema/schema_parser.h"
#include "core/util/error.h"
#include "core/util/read_file.h"

namespace ipt::schema {

namespace {

int line_of(const YAML::Node& node) { return node.Mark().line + 1; }

[[noreturn]] void fail(const std::string& source, int line, const std::string& msg) {
  IPT_FAIL(RuntimeError, source, ":", line, ": ", msg);
}

// PyTorch's own native_functions.yaml is about 0.5 MB.
std::string read_file(const std::string& path) {
  return read_regular_file(path, uint64_t(64) << 20, "native_functions.yaml");
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t");
  size_t e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// "CPU, CUDA" -> {"CPU", "CUDA"}
std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ',')) parts.push_back(trim(part));
  return parts;
}

// The top-level list of entries; an empty document is an empty list.
YAML::Node load_entries(const std::string& text, const std::string& source) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    fail(source, e.mark.line + 1, "invalid YAML: " + e.msg);
  }
  if (root.IsNull()) return YAML::Node(YAML::NodeType::Sequence);
  if (!root.IsSequence()) fail(source, line_of(root), "expected a list of entries ('- func: ...')");
  return root;
}

std::string scalar(const YAML::Node& node, const std::string& key, const std::string& source) {
  if (!node.IsScalar()) fail(source, line_of(node), "'" + key + "' must be a string");
  return node.Scalar();
}

bool boolean(const YAML::Node& node, const std::string& key, const std::string& source) {
  try {
    return node.as<bool>();
  } catch (const YAML::Exception&) {
    fail(source, line_of(node), "'" + key + "' must be True or False");
  }
}

std::vector<std::string> variants(const YAML::Node& node, const std::string& source) {
  std::vector<std::string> out = split_commas(scalar(node, "variants", source));
  for (const auto& v : out)
    if (v != "function" && v != "method")
      fail(source, line_of(node), "unknown variant '" + v + "' (expected function or method)");
  return out;
}

// `tags: core` or `tags: [core, pointwise]`.
std::vector<std::string> tags(const YAML::Node& node, const std::string& source) {
  if (node.IsScalar()) return {node.Scalar()};
  if (!node.IsSequence()) fail(source, line_of(node), "'tags' must be a tag or a list of tags");
  std::vector<std::string> out;
  for (const auto& t : node) out.push_back(scalar(t, "tags", source));
  return out;
}

std::map<std::string, std::string> dispatch(const YAML::Node& node, const std::string& source) {
  if (!node.IsMap()) fail(source, line_of(node), "'dispatch' must be a mapping of key: kernel");
  std::map<std::string, std::string> out;
  for (const auto& kv : node) {
    std::string kernel = scalar(kv.second, "dispatch kernel", source);
    for (const auto& key : split_commas(scalar(kv.first, "dispatch key", source))) {
      if (key.empty()) fail(source, line_of(kv.first), "empty dispatch key");
      if (!out.emplace(key, kernel).second) fail(source, line_of(kv.first), "dispatch key '" + key + "' given twice");
    }
  }
  return out;
}

// The entry's `func` text; throws when the entry has none.
std::string func_text(const YAML::Node& entry, const std::string& source) {
  if (!entry.IsMap()) fail(source, line_of(entry), "entry is not a mapping ('- func: ...')");
  YAML::Node func = entry["func"];
  if (!func) fail(source, line_of(entry), "entry has no 'func'");
  return scalar(func, "func", source);
}

NativeFunctionEntry read_entry(const YAML::Node& entry, const std::string& source) {
  NativeFunctionEntry e;
  e.line = line_of(entry);
  e.func = func_text(entry, source);
  try {
    e.schema = parse_schema(e.func);
  } catch (const SchemaParseError& err) {
    fail(source, e.line, std::string("cannot parse func: ") + err.what());
  }
  e.variants = {"function"};
  if (YAML::Node n = entry["variants"]) e.variants = variants(n, source);
  if (YAML::Node n = entry["dispatch"]) e.dispatch = dispatch(n, source);
  if (YAML::Node n = entry["structured"]) e.structured = boolean(n, "structured", source);
  if (YAML::Node n = entry["structured_delegate"]) e.structured_delegate = scalar(n, "structured_delegate", source);
  if (YAML::Node n = entry["python_module"]) e.python_module = scalar(n, "python_module", source);
  if (YAML::Node n = entry["manual_cpp_binding"]) e.manual_cpp_binding = boolean(n, "manual_cpp_binding", source);
  if (YAML::Node n = entry["tags"]) e.tags = tags(n, source);
  return e;
}

}  // namespace

std::vector<NativeFunctionEntry> load_native_functions_from_string(const std::string& text,
                                                                   const std::string& source_name) {
  std::vector<NativeFunctionEntry> out;
  for (const auto& entry : load_entries(text, source_name)) out.push_back(read_entry(entry, source_name));
  return out;
}

std::vector<NativeFunctionEntry> load_native_functions(const std::string& path) {
  return load_native_functions_from_string(read_file(path), path);
}

ParseReport parse_all_funcs_from_string(const std::string& text, const std::string& source_name) {
  ParseReport report;
  report.source = source_name;
  for (const auto& entry : load_entries(text, source_name)) {
    ++report.entries;
    std::string func;
    try {
      func = func_text(entry, source_name);
      parse_schema(func);
      ++report.parsed;
    } catch (const ipt::Error& err) {
      report.failures.push_back({line_of(entry), func, err.what()});
    }
  }
  return report;
}

ParseReport parse_all_funcs(const std::string& path) { return parse_all_funcs_from_string(read_file(path), path); }

}  // namespace ipt::schema
