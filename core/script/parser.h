#pragma once
// Parser: recursive descent over the token stream, producing the syntax tree (ast.h) for the
// supported Python subset. Errors are SyntaxErrorInfo with line/column and what was
// expected; unsupported Python (class, global, yield, ...) is reported as
// "'class' is not supported in snippets".

#include <memory>
#include <string>

#include "core/script/ast.h"
#include "core/script/lexer.h"

namespace ipt::script {

// Parses a whole snippet. `source` must use "\n" line endings. Throws SyntaxErrorInfo.
std::unique_ptr<ast::Program> parse_program(std::string source, std::string filename);

}  // namespace ipt::script
