#include "core/ops/op_sources.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "core/ops/generated_sources.h"

namespace ipt {

namespace {

std::vector<std::string_view> file_lines(std::string_view file) {
  auto text = generated_source(file);
  return text ? split_lines(*text) : std::vector<std::string_view>{};
}

std::string_view qualified_tail(std::string_view op) {
  if (op.rfind("aten::", 0) == 0) op.remove_prefix(6);
  return op;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// A YAML entry: from line `i` (0-based) while the next lines are indented.
std::string entry_at(const std::vector<std::string_view>& lines, size_t i) {
  std::string out(lines[i]);
  for (size_t j = i + 1; j < lines.size() && !lines[j].empty() && lines[j][0] == ' '; ++j) {
    out += '\n';
    out += lines[j];
  }
  return out;
}

// Note [The operator index] (tools/codegen/op.h): the generator's rows, read once.
struct IndexRow {
  std::string kind, name, file;
  int first = 0, second = 0;
  std::vector<std::string> extra;
};

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (true) {
    const size_t at = s.find(sep, pos);
    out.emplace_back(s.substr(pos, at == std::string_view::npos ? std::string_view::npos : at - pos));
    if (at == std::string_view::npos) break;
    pos = at + 1;
  }
  return out;
}

const std::vector<IndexRow>& index_rows() {
  static const std::vector<IndexRow> rows = [] {
    std::vector<IndexRow> out;
    for (std::string_view l : file_lines(kOperatorIndexFile)) {
      if (l.empty() || l[0] == '#') continue;
      std::vector<std::string> f = split(l, '\t');
      if (f.size() < 5) continue;
      IndexRow r{f[0], f[1], f[2], std::atoi(f[3].c_str()), std::atoi(f[4].c_str()), {}};
      r.extra.assign(f.begin() + 5, f.end());
      out.push_back(std::move(r));
    }
    return out;
  }();
  return rows;
}

const IndexRow* row(std::string_view kind, std::string_view name) {
  for (const IndexRow& r : index_rows())
    if (r.kind == kind && r.name == name) return &r;
  return nullptr;
}

SourceSite site_of(const IndexRow* r) { return r ? SourceSite{r->file, r->first} : SourceSite{}; }

// A kernel row: key, name, wrapper, hand-written functions; the block's 7 lines from `first`.
KernelSite kernel_of(const IndexRow& r) {
  KernelSite k;
  k.key = r.extra.size() > 0 ? r.extra[0] : "";
  k.name = r.extra.size() > 1 ? r.extra[1] : "";
  k.wrapper = r.extra.size() > 2 ? r.extra[2] : "";
  if (r.extra.size() > 3 && !r.extra[3].empty()) k.hand_written = split(r.extra[3], ',');
  k.at = {r.file, r.second};
  k.block_first = r.first;
  const auto lines = file_lines(r.file);
  for (int i = r.first; i < r.first + 7 && i >= 1 && i <= static_cast<int>(lines.size()); ++i)
    k.block.push_back(lines[static_cast<size_t>(i) - 1]);
  return k;
}

}  // namespace

std::vector<std::string> yaml_operators() {
  std::vector<std::string> out;
  for (std::string_view l : file_lines("core/ops/native_functions.yaml")) {
    if (l.rfind("- func: ", 0) != 0) continue;
    l.remove_prefix(8);
    out.push_back("aten::" + std::string(l.substr(0, l.find('('))));
  }
  return out;
}

std::vector<std::string> yaml_schemas() {
  std::vector<std::string> out;
  for (std::string_view l : file_lines("core/ops/native_functions.yaml"))
    if (l.rfind("- func: ", 0) == 0) out.emplace_back(trim(l.substr(8)));
  return out;
}

std::vector<std::string> pytorch_schemas() {
  std::vector<std::string> out;
  for (std::string_view l : file_lines(kPytorchSchemasFile))
    if (l.rfind("- func: ", 0) == 0) out.emplace_back(trim(l.substr(8)));
  return out;
}

OpSources op_sources(std::string_view op_name) {
  OpSources s;
  const std::string_view tail = qualified_tail(op_name);
  s.op = "aten::" + std::string(tail);
  const std::string_view base = tail.substr(0, tail.find('.'));
  const std::string_view overload = tail.find('.') == std::string_view::npos ? "" : tail.substr(tail.find('.') + 1);

  const char* yaml = "core/ops/native_functions.yaml";
  const auto ylines = file_lines(yaml);
  const std::string head = "- func: " + std::string(tail) + "(";
  for (size_t i = 0; i < ylines.size(); ++i)
    if (ylines[i].rfind(head, 0) == 0) {
      s.yaml = {yaml, static_cast<int>(i) + 1};
      s.yaml_entry = entry_at(ylines, i);
      break;
    }

  const char* derivs = "core/ops/derivatives.yaml";
  const auto dlines = file_lines(derivs);
  const std::string dhead = "- name: " + std::string(tail);
  for (size_t i = 0; i < dlines.size(); ++i)
    if (trim(dlines[i]) == dhead) {
      s.derivative = {derivs, static_cast<int>(i) + 1};
      s.derivative_entry = entry_at(dlines, i);
      break;
    }

  s.id = overload.empty() ? std::string(base) : std::string(base) + "_" + std::string(overload);
  s.declaration = site_of(row("declare", s.op));
  s.python_binding = site_of(row("definition", "op_" + s.id));
  s.backward_node = site_of(row("definition", s.id + "_Node"));
  s.schema_registration = site_of(row("schema", s.op));
  // Kernels in file order: the generated files as embedded, each by line.
  const auto names = generated_source_names();
  auto file_rank = [&](const std::string& f) {
    return static_cast<size_t>(std::find(names.begin(), names.end(), f) - names.begin());
  };
  std::vector<const IndexRow*> kernels;
  for (const IndexRow& r : index_rows())
    if (r.kind == "kernel" && r.name == s.op) kernels.push_back(&r);
  std::stable_sort(kernels.begin(), kernels.end(), [&](const IndexRow* a, const IndexRow* b) {
    return std::make_pair(file_rank(a->file), a->first) < std::make_pair(file_rank(b->file), b->first);
  });
  for (const IndexRow* r : kernels) s.kernels.push_back(kernel_of(*r));
  return s;
}

Definition generated_definition(std::string_view file, std::string_view name) {
  Definition d;
  for (const IndexRow& r : index_rows()) {
    if (r.kind != "definition" || r.name != name || r.file != file) continue;
    const auto lines = file_lines(file);
    if (r.first < 1 || r.second < r.first || r.second > static_cast<int>(lines.size())) return d;
    d.first = r.first;
    d.lines.assign(lines.begin() + (r.first - 1), lines.begin() + r.second);
    return d;
  }
  return d;
}

}  // namespace ipt
