#pragma once
// Reads PyTorch's operator schema language into a FunctionSchema.
//
//   schema    := name ['.' overload] '(' arguments ')' '->' returns
//   arguments := [item {',' item}]        item := argument | '*' | '...'
//   argument  := type name ['=' default]  ('*' makes every later argument keyword-only)
//   type      := base [alias] {'?' | '[' [N] ']'}     e.g. Tensor(a!)[], Tensor?[], int[1]?
//   alias     := '(' set ['!'] ['->' set] ')'         set := name {'|' name}, name may be '*'
//   returns   := type [name] | '(' [return {',' return}] ')' | '...'
//
// Defaults keep their literal text: 1, -1, 1e-05, True, None, "L", 'fro', [0,1], [],
// contiguous_format, Mean, long (Note [Schema defaults]). Whitespace between tokens is free,
// and so is a '#' comment to the end of a line; str() normalizes both away. Every entry of
// PyTorch 2.15's native_functions.yaml (core/ops/pytorch/) parses and prints back unchanged.
// Malformed text throws SchemaParseError naming the column, with PyTorch's own message for the
// same mistake beside it (see schema_error.h).

#include <string_view>

#include "core/schema/function_schema.h"
#include "core/schema/schema_error.h"

namespace ipt::schema {

FunctionSchema parse_schema(std::string_view text);

// torch._C.parse_schema's reading: parse_schema, except that Dimname, which PyTorch 2.15's own
// parser no longer knows (its named-tensor schemas are gone), is an unknown type.
FunctionSchema parse_schema_pytorch(std::string_view text);

// True for the base type names the parser accepts: Tensor, int, SymInt, Scalar, ...
bool is_known_base_type(std::string_view name);

}  // namespace ipt::schema
