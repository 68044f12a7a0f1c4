#pragma once
// Resolver: decides, for every variable reference, where it lives (Python's scoping rules):
// names bound anywhere in a function body are locals of that function (a frame slot);
// names of enclosing functions are read through the closure chain; everything else is a
// module global (looked up by symbol id, then in the builtins).

#include <string>
#include <unordered_map>
#include <vector>

#include "core/script/ast.h"

namespace ipt::script {

// Interned global names: symbol id <-> name. One table per interpreter.
class SymbolTable {
 public:
  int intern(const std::string& name);
  int find(const std::string& name) const;  // -1 if unknown
  const std::string& name(int id) const { return names_[id]; }
  size_t size() const { return names_.size(); }

 private:
  std::unordered_map<std::string, int> ids_;
  std::vector<std::string> names_;
};

// Annotates all Name nodes and frame layouts of the program.
void resolve_program(ast::Program& program, SymbolTable& symbols);

}  // namespace ipt::script
