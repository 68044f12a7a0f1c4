#pragma once
// The two schema commands of the app's command line, as plain functions:
//
//   schema_print_json("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", ...)
//     prints schema_to_json() with a 2-space indent; returns 0, or 2 (error on err) when
//     the schema is malformed.
//   schema_check_yaml("native_functions.yaml", ...)
//     prints "parsed 2590 of 2590 schemas in native_functions.yaml" and each failure with
//     its line; returns 0 when all parse, 1 when some fail, 2 when the file cannot be read
//     or is not valid YAML.

#include <ostream>
#include <string>

namespace ipt::schema {

int schema_print_json(const std::string& schema_text, std::ostream& out, std::ostream& err);
int schema_check_yaml(const std::string& path, std::ostream& out, std::ostream& err);

}  // namespace ipt::schema
