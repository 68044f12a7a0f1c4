#pragma once
// The generator's view of one operator and the C++ spellings every generated file shares.

#include <string>

#include "core/schema/native_yaml.h"

namespace ipt::codegen {

struct Op {
  const schema::NativeFunctionEntry* e;
  std::string id;         // add_Tensor
  std::string qualified;  // aten::add.Tensor
  std::string ret;        // C++ return type
};
Op make_op(const schema::NativeFunctionEntry& e);

// The first line of every generated file.
extern const char* const kHeader;

// "add_Tensor": the overload's C++ identifier.
std::string op_id(const schema::FunctionSchema& s);
// "const Tensor& self, const Tensor& other, const Scalar& alpha" (optionally with defaults).
std::string params(const Op& op, bool with_defaults);
// "self, other, alpha".
std::string arg_names(const Op& op);
// The dispatch table's signature, "Tensor (*)(DispatchKeySet, const Tensor&, ...)".
std::string fn_type(const Op& op);
// The kernels' C++ signature as torch._C._dispatch_dump prints it: "(Tensor _0, Scalar _1) ->
// Tensor _0" (types without alias annotations or list sizes).
std::string kernel_signature(const schema::FunctionSchema& s);
// One kernel registration under `key` in a register_*_kernels(Dispatcher& d) body.
std::string kernel_registration(const Op& op, const std::string& key, const std::string& fn_expr,
                                const std::string& name);

}  // namespace ipt::codegen
