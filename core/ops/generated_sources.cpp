#include "core/ops/generated_sources.h"

#include <algorithm>

namespace ipt {

std::vector<std::string_view> generated_source_names() {
  std::vector<std::string_view> out;
  for (size_t i = 0; i < embedded::kSourceCount; ++i) out.emplace_back(embedded::kSources[i].name);
  return out;
}

std::optional<std::string_view> generated_source(std::string_view name) {
  for (size_t i = 0; i < embedded::kSourceCount; ++i)
    if (name == embedded::kSources[i].name) return std::string_view(embedded::kSources[i].text);
  return std::nullopt;
}

SourceLines generated_source_lines(std::string_view name, int first, int last) {
  SourceLines out;
  out.name = std::string(name);
  auto text = generated_source(name);
  if (!text || last < first) return out;
  first = std::max(first, 1);
  int line = 1;
  size_t pos = 0;
  while (pos <= text->size() && line <= last) {
    size_t end = text->find('\n', pos);
    if (end == std::string_view::npos) end = text->size();
    if (line >= first) out.lines.push_back(text->substr(pos, end - pos));
    if (end == text->size()) break;
    pos = end + 1;
    ++line;
  }
  if (!out.lines.empty()) out.first = first;
  return out;
}

std::optional<std::string> schema_yaml_entry(std::string_view name) {
  if (name.rfind("aten::", 0) == 0) name.remove_prefix(6);
  auto text = generated_source("core/ops/native_functions.yaml");
  if (!text) return std::nullopt;
  std::string head = "- func: " + std::string(name) + "(";
  size_t at = 0;
  while ((at = text->find(head, at)) != std::string_view::npos && at != 0 && (*text)[at - 1] != '\n') ++at;
  if (at == std::string_view::npos) return std::nullopt;
  // The entry runs until a line that starts another entry, a comment or a blank line.
  size_t end = text->find('\n', at);
  while (end != std::string_view::npos && end + 1 < text->size()) {
    char c = (*text)[end + 1];
    if (c != ' ') break;
    end = text->find('\n', end + 1);
  }
  if (end == std::string_view::npos) end = text->size();
  return std::string(text->substr(at, end - at));
}

}  // namespace ipt
