#pragma once
// A FunctionSchema as JSON, for the app's CLI and the GUI's operator browser.
//
//   {"name": "add", "overload_name": "Tensor", "schema": "add.Tensor(...) -> Tensor",
//    "arguments": [{"name", "type", "default", "kwarg_only", "is_out",
//                   "alias_set", "alias_after_set", "is_write"}, ...],
//    "returns":   [{"name", "type", "alias_set", "alias_after_set", "is_write"}, ...],
//    "is_inplace", "is_out", "is_mutable", "kind", "is_vararg", "is_varret"}
//
// "kind" is torchgen's SchemaKind: "functional", "inplace", "out" or "mutable".
//
// "type" is the canonical type text without the alias annotation ("Tensor[]" for
// Tensor(a!)[]); the annotation is in alias_set / alias_after_set / is_write. "default"
// and a return's "name" are null when absent.

#include <nlohmann/json.hpp>

#include "core/schema/function_schema.h"

namespace ipt::schema {

nlohmann::json schema_to_json(const FunctionSchema& schema);

}  // namespace ipt::schema
