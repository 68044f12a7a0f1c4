// The app's `schema` commands (see schema_cli.h).

#include "core/schema/schema_cli.h"

#include <filesystem>
#include <sstream>

#include "core/schema/native_yaml.h"
#include "core/schema/schema_json.h"
#include "core/schema/schema_parser.h"

namespace ipt::schema {

namespace {

// Writes text with every line indented.
void indented(std::ostream& out, const std::string& text, const char* indent) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) out << indent << line << "\n";
}

}  // namespace

int schema_print_json(const std::string& schema_text, std::ostream& out, std::ostream& err) {
  try {
    // Bytes that are not UTF-8 (in a string default) print as U+FFFD instead of failing.
    out << schema_to_json(parse_schema(schema_text)).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
        << "\n";
    return 0;
  } catch (const SchemaParseError& e) {
    err << e.what() << "\n";
    return 2;
  }
}

int schema_check_yaml(const std::string& path, std::ostream& out, std::ostream& err) {
  ParseReport report;
  try {
    report = parse_all_funcs(path);
  } catch (const ipt::Error& e) {
    err << e.what() << "\n";
    return 2;
  }
  out << "parsed " << report.parsed << " of " << report.entries << " schemas in "
      << std::filesystem::path(path).filename().string() << "\n";
  for (const auto& f : report.failures) {
    out << "  line " << f.line << ": " << (f.func.empty() ? "(no func)" : f.func) << "\n";
    indented(out, f.error, "    ");
  }
  return report.all_ok() ? 0 : 1;
}

}  // namespace ipt::schema
