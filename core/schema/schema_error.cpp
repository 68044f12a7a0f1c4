// Formats SchemaParseError messages (see schema_error.h).

#include "core/schema/schema_error.h"

namespace ipt::schema {

namespace {

std::string format(size_t column, const std::string& detail, std::string_view text) {
  // Newlines and tabs in the text would move the caret; show them as spaces.
  std::string shown(text);
  for (char& c : shown)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return "schema error at column " + std::to_string(column) + ": " + detail + "\n  " + shown +
         "\n  " + std::string(column, ' ') + "^";
}

}  // namespace

SchemaParseError::SchemaParseError(size_t column, std::string detail, std::string_view text)
    : ipt::Error(ErrorKind::RuntimeError, format(column, detail, text)),
      column_(column),
      detail_(std::move(detail)) {}

}  // namespace ipt::schema
