#pragma once
// Code templates: the text of the generated files, with ${name} placeholders the generator fills.
//
// Note [Code templates]
// Every generated file, and every piece of it that repeats per operator (a registration, a
// wrapper kernel, a backward node, a Python binding), is the text of a template file in
// tools/codegen/templates/ (as torchgen's CodeTemplate): the generator's C++ only computes the
// values (names, argument lists, the lines a decision adds) and picks which template to fill.
// The rules of substitute():
//  - `${name}` is a placeholder: a name of letters, digits and underscores between `${` and `}`.
//    Every other character, `$` included, is copied as it is (no escape is needed: the
//    generated C++ never holds `${`).
//  - A placeholder alone on its line (only spaces before it, nothing after it) is a block: its
//    value becomes lines, each indented by those spaces (an empty line stays empty). A string
//    gives its lines, a list the lines of each item in turn; a newline ends a line, so "a\n"
//    and "a" are one line and "" none. A block whose value has no lines leaves no line at all:
//    an empty list is how a template line is left out.
//  - Elsewhere, a placeholder is replaced by its string, or by its list's items joined with ", ".
//  - A placeholder without a value in the environment is an error naming the template and the
//    placeholder (std::runtime_error): nothing is ever silently left empty. Values that no
//    placeholder uses are ignored.
// A template file is read once (templates()); a one-line fragment may instead be a CodeTemplate
// built from a string in the C++, named after what it makes.

#include <map>
#include <string>
#include <variant>
#include <vector>

namespace ipt::codegen {

using TemplateValue = std::variant<std::string, std::vector<std::string>>;
using TemplateEnv = std::map<std::string, TemplateValue>;

class CodeTemplate {
 public:
  // `name` is what errors call the template: its file, "templates/ops.h.in", or a fragment's name.
  CodeTemplate(std::string text, std::string name);
  // Reads a template file; throws naming the file when it cannot be read.
  static CodeTemplate from_file(const std::string& path, const std::string& name);

  // The text with every placeholder replaced (rules in Note [Code templates]). With
  // `block_lines`, also the 1-based output line each block placeholder's value starts at.
  std::string substitute(const TemplateEnv& env, std::map<std::string, int>* block_lines = nullptr) const;

  const std::string& name() const { return name_; }

 private:
  std::string text_, name_;
};

// Where templates() reads the template files from: the folder passed to ipt-codegen.
void set_template_dir(const std::string& dir);
// The template file `file` of that folder ("ops.h.in"), read on first use.
const CodeTemplate& templates(const std::string& file);

}  // namespace ipt::codegen
