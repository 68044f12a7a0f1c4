#pragma once
// Python operator semantics on Values, used by the interpreter and builtins: arithmetic with
// Python's floor division/modulo and error messages, comparisons, membership, subscripts.
// The public entry points (binary_op, compare, get_item, ...) are declared in object.h.

#include "core/script/object.h"

namespace ipt::script {

// x op= y: native inplace_op first, lists extend in place, else the binary operator
// (errors read "unsupported operand type(s) for +=: ...").
Value inplace_op(BinaryOp op, const Value& a, const Value& b);
// `a is b`.
bool is_identical(const Value& a, const Value& b);

}  // namespace ipt::script
