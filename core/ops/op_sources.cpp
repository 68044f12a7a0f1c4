#include "core/ops/op_sources.h"

#include <regex>

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

// The statement block `{ ... }` (lines of their own, as the generator writes them) around line `at`.
void block_around(const std::vector<std::string_view>& lines, size_t at, KernelSite& k) {
  size_t start = at, end = at;
  while (start > 0 && at - start < 12 && trim(lines[start]) != "{") --start;
  while (end + 1 < lines.size() && end - at < 6 && trim(lines[end]) != "}") ++end;
  if (trim(lines[start]) != "{" || trim(lines[end]) != "}") start = end = at;
  k.block_first = static_cast<int>(start) + 1;
  k.block.assign(lines.begin() + static_cast<long>(start), lines.begin() + static_cast<long>(end) + 1);
  static const std::regex kWrapper(R"(reinterpret_cast<void\*>\(&(\w+)\))");
  static const std::regex kNative(R"(native::(\w+)\()");
  static const std::regex kName(R"re(k\.name = "([^"]*)")re");
  for (std::string_view l : k.block) {
    const std::string line(l);
    std::smatch m;
    if (std::regex_search(line, m, kName)) k.name = m[1];
    if (line.find("k.fn = ") == std::string::npos) continue;
    if (std::regex_search(line, m, kWrapper)) k.wrapper = m[1];
    for (auto it = std::sregex_iterator(line.begin(), line.end(), kNative); it != std::sregex_iterator(); ++it) {
      std::string f = (*it)[1];
      bool seen = false;
      for (const auto& h : k.hand_written) seen = seen || h == f;
      if (!seen) k.hand_written.push_back(f);
    }
  }
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
  auto first_line = [](const char* file, auto&& is_it) {
    const auto lines = file_lines(file);
    for (size_t i = 0; i < lines.size(); ++i)
      if (is_it(lines[i])) return SourceSite{file, static_cast<int>(i) + 1};
    return SourceSite{};
  };
  const std::string call = " " + s.id + "(";
  s.declaration = first_line("build/generated/ops.h", [&](std::string_view l) {
    return !l.empty() && l[0] != ' ' && l[0] != '/' && l.find(call) != std::string_view::npos;
  });
  const std::string py = "PyObject* op_" + s.id + "(";
  s.python_binding =
      first_line("build/generated/python_functions.cpp", [&](std::string_view l) { return l.rfind(py, 0) == 0; });
  const std::string node = "struct " + s.id + "_Node : Node {";
  s.backward_node = first_line("build/generated/RegisterAutograd.cpp", [&](std::string_view l) { return l == node; });

  const std::string reg =
      "d.register_operator(\"aten::" + std::string(base) + "\", \"" + std::string(overload) + "\", ";
  const std::string kernel = "d.get(\"" + s.op + "\").register_kernel(*DispatchKey::parse(\"";
  for (std::string_view file : generated_source_names()) {
    if (file.rfind("build/generated/", 0) != 0 || file == "build/generated/embedded_sources.cpp") continue;
    const auto lines = file_lines(file);
    for (size_t i = 0; i < lines.size(); ++i) {
      const std::string_view l = lines[i];
      if (!s.schema_registration.found() && l.find(reg) != std::string_view::npos)
        s.schema_registration = {std::string(file), static_cast<int>(i) + 1};
      const size_t at = l.find(kernel);
      if (at == std::string_view::npos) continue;
      KernelSite k;
      const std::string_view rest = l.substr(at + kernel.size());
      k.key = std::string(rest.substr(0, rest.find('"')));
      // The registered_at line is the statement before, as the generator writes it.
      size_t here = i;
      while (here > 0 && i - here < 4 && lines[here].find("registered_at = IPT_HERE") == std::string_view::npos) --here;
      k.at = {std::string(file), static_cast<int>(here) + 1};
      block_around(lines, i, k);
      s.kernels.push_back(std::move(k));
    }
  }
  return s;
}

Definition generated_definition(std::string_view file, std::string_view name) {
  Definition d;
  const auto lines = file_lines(file);
  const std::regex start("^(?:struct |\\S.*[ &*])" + std::string(name) + "\\b.*\\{$");
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find(name) == std::string_view::npos || !std::regex_match(lines[i].begin(), lines[i].end(), start))
      continue;
    for (size_t j = i + 1; j < lines.size(); ++j)
      if (!lines[j].empty() && lines[j][0] == '}') {
        d.first = static_cast<int>(i) + 1;
        d.lines.assign(lines.begin() + static_cast<long>(i), lines.begin() + static_cast<long>(j) + 1);
        return d;
      }
    return d;
  }
  return d;
}

}  // namespace ipt
