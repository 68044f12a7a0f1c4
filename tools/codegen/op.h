#pragma once
// The generator's view of one operator and the C++ spellings every generated file shares.

#include <sstream>
#include <string>
#include <vector>

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
// Note [The operator index]
// Besides code, the generator writes data: build/generated/operator_index.tsv, one row per
// thing it wrote for an operator, with the embedded file and line it wrote it at. op_sources
// and the Schema view read it instead of searching the generated C++. Rows (tab-separated):
//   schema     <op>  <file> <line>                     d.register_operator(...)
//   kernel     <op>  <file> <first> <registered_at> <key> <name> <wrapper> <hand_written,...>
//   declare    <op>  <file> <line>                     its function in ops.h
//   definition <name> <file> <first> <last>            a generated function or struct (a wrapper,
//                                                      a backward node, a Python binding)
// Each generator appends to one std::ostringstream per file; the index is told which file it is
// writing (operator_index_file) and counts the lines already written when a row is added.
struct IndexRow {
  std::string kind, name, file;
  int first = 0, second = 0;
  std::vector<std::string> extra;  // a kernel's key, name, wrapper and hand-written functions
};
struct OperatorIndex {
  std::string file;  // the embedded name of the file being generated: "build/generated/RegisterCPU.cpp"
  std::vector<IndexRow> rows;
};
OperatorIndex& operator_index();
// Sets the file the next rows are written to.
void operator_index_file(const std::string& generated_name);
// The 1-based number of the line `o` writes next.
int next_line(const std::ostringstream& o);
// Records a generated definition (a function or struct) written to `o` from `first` to the line
// before next_line(o) (its closing brace; the generator ends each with a blank line).
void index_definition(const std::ostringstream& o, const std::string& name, int first);
// The index as the TSV file described above.
std::string operator_index_tsv();

// Appends one kernel registration under `key` to a register_*_kernels(Dispatcher& d) body, and
// its index row: `wrapper` is the generated function it installs ("" for an adapter that calls
// hand-written code), `hand_written` the hand-written functions it calls.
void emit_kernel_registration(std::ostringstream& o, const Op& op, const std::string& key, const std::string& fn_expr,
                              const std::string& name, const std::string& wrapper,
                              const std::vector<std::string>& hand_written);

}  // namespace ipt::codegen
