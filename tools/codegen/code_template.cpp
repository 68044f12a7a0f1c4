#include "tools/codegen/code_template.h"

#include <cctype>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace ipt::codegen {

namespace {

// The lines of a block value: a newline ends a line, so "a\n" and "a" are one line, "" none.
void append_lines(const std::string& s, std::vector<std::string>& lines) {
  size_t start = 0;
  while (start < s.size()) {
    size_t end = s.find('\n', start);
    if (end == std::string::npos) end = s.size();
    lines.push_back(s.substr(start, end - start));
    start = end + 1;
  }
}

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

CodeTemplate::CodeTemplate(std::string text, std::string name) : text_(std::move(text)), name_(std::move(name)) {}

CodeTemplate CodeTemplate::from_file(const std::string& path, const std::string& name) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read the code template " + name + " (" + path + ")");
  std::stringstream ss;
  ss << in.rdbuf();
  return CodeTemplate(ss.str(), name);
}

std::string CodeTemplate::substitute(const TemplateEnv& env, std::map<std::string, int>* block_lines) const {
  std::string out;
  int out_lines = 0;  // newlines written so far
  int template_line = 1;
  size_t i = 0;
  while (i < text_.size()) {
    const size_t p = text_.find("${", i);
    const size_t chunk_end = p == std::string::npos ? text_.size() : p;
    for (size_t j = i; j < chunk_end; ++j) {
      out += text_[j];
      if (text_[j] == '\n') ++out_lines, ++template_line;
    }
    if (p == std::string::npos) break;
    size_t q = p + 2;
    while (q < text_.size() && is_name_char(text_[q])) ++q;
    if (q == p + 2 || q >= text_.size() || text_[q] != '}')
      throw std::runtime_error(name_ + ":" + std::to_string(template_line) + ": '${' does not open a placeholder");
    const std::string key = text_.substr(p + 2, q - p - 2);
    auto it = env.find(key);
    if (it == env.end())
      throw std::runtime_error(name_ + ":" + std::to_string(template_line) + ": no value for the placeholder ${" + key +
                               "}");
    i = q + 1;
    // A block: only spaces between the line's start and the placeholder, and the line ends after it.
    const size_t line_start = out.rfind('\n') == std::string::npos ? 0 : out.rfind('\n') + 1;
    const bool spaces_before = out.find_first_not_of(' ', line_start) == std::string::npos;
    const bool line_ends = i == text_.size() || text_[i] == '\n';
    if (spaces_before && line_ends) {
      const std::string indent = out.substr(line_start);
      out.resize(line_start);
      std::vector<std::string> lines;
      if (const auto* s = std::get_if<std::string>(&it->second)) append_lines(*s, lines);
      else
        for (const auto& item : std::get<std::vector<std::string>>(it->second)) append_lines(item, lines);
      if (block_lines) (*block_lines)[key] = out_lines + 1;
      for (const auto& l : lines) out += (l.empty() ? "" : indent) + l + "\n";
      out_lines += static_cast<int>(lines.size());
      if (i < text_.size()) ++i, ++template_line;  // the placeholder's own newline: each line ends with one
      continue;
    }
    std::string value;
    if (const auto* s = std::get_if<std::string>(&it->second)) {
      value = *s;
    } else {
      const auto& items = std::get<std::vector<std::string>>(it->second);
      for (size_t k = 0; k < items.size(); ++k) value += (k ? ", " : "") + items[k];
    }
    out += value;
    for (char c : value) out_lines += c == '\n';
  }
  return out;
}

namespace {
std::string& template_dir() {
  static std::string dir;
  return dir;
}
}  // namespace

void set_template_dir(const std::string& dir) { template_dir() = dir; }

const CodeTemplate& templates(const std::string& file) {
  static std::map<std::string, std::unique_ptr<CodeTemplate>> loaded;
  auto& t = loaded[file];
  if (!t) t = std::make_unique<CodeTemplate>(CodeTemplate::from_file(template_dir() + "/" + file, "templates/" + file));
  return *t;
}

}  // namespace ipt::codegen
