#pragma once
// The generator's view of one operator and the C++ spellings every generated file shares.

#include <string>
#include <utility>
#include <vector>

#include "core/schema/native_yaml.h"
#include "tools/codegen/code_template.h"

namespace ipt::codegen {

struct Op {
  const schema::NativeFunctionEntry* e;
  std::string id;         // add_Tensor
  std::string qualified;  // aten::add.Tensor
  std::string ret;        // C++ return type
};
Op make_op(const schema::NativeFunctionEntry& e);

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
// The plain Tensor arguments, and the arguments the operator writes (Tensor(a!)).
std::vector<const schema::Argument*> tensor_args(const Op& op);
std::vector<const schema::Argument*> written_args(const Op& op);
// Whether the operator has only a CompositeImplicitAutograd kernel (then it gets no wrapper kernels).
bool is_composite_implicit(const Op& op);

// The values every per-operator template may use: ret, id, qualified, params (without
// defaults) and args (the argument names).
TemplateEnv op_env(const Op& op);
// Fills the template file `file` of templates/ (Note [Code templates]).
std::string fill(const std::string& file, const TemplateEnv& env);

// Note [The operator index]
// Besides code, the generator writes data: build/generated/operator_index.tsv, one row per
// thing it wrote for an operator, with the embedded file and line it wrote it at. op_sources
// and the Schema view read it instead of searching the generated C++. Rows (tab-separated):
//   schema     <op>  <file> <line>                     d.register_operator(...)
//   kernel     <op>  <file> <first> <registered_at> <key> <name> <wrapper> <hand_written,...>
//   declare    <op>  <file> <line>                     its function in ops.h
//   definition <name> <file> <first> <last>            a generated function or struct (a wrapper,
//                                                      a backward node, a Python binding)
// The generated text is made of filled templates (Note [Code templates] in code_template.h).
// What goes into a file template's block placeholder is built as an IndexedText, which records
// its rows with lines counted from its own first line (the lines of what was appended before).
// fill_file() learns from the template which output line each block starts at, and adds the
// rows to the index there, under the file being generated (operator_index_file).
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
// The index as the TSV file described above.
std::string operator_index_tsv();

// Text for a block placeholder, and the index rows of what it holds (lines from its line 1).
class IndexedText {
 public:
  // The 1-based line (of this text) the next append starts at.
  int next_line() const { return lines_ + 1; }
  void append(const std::string& s);
  void add_row(IndexRow row) { rows_.push_back(std::move(row)); }
  // Records a generated definition (a function or struct) appended from line `first` to the line
  // before next_line() (its closing brace; each definition ends with a blank line).
  void definition(const std::string& name, int first);
  const std::string& text() const { return text_; }
  const std::vector<IndexRow>& rows() const { return rows_; }

 private:
  std::string text_;
  int lines_ = 0;
  std::vector<IndexRow> rows_;
};

// Fills the file template `file` (templates/<file>) from `env` and the IndexedTexts in `texts`
// (placeholder name -> text, each alone on its template line), and adds their rows to the index
// at the lines they land on.
std::string fill_file(const std::string& file, TemplateEnv env,
                      const std::vector<std::pair<std::string, const IndexedText*>>& texts);

// Appends one kernel registration under `key` to a register_*_kernels(Dispatcher& d) body, and
// its index row: `wrapper` is the generated function it installs ("" for an adapter that calls
// hand-written code), `hand_written` the hand-written functions it calls.
void emit_kernel_registration(IndexedText& o, const Op& op, const std::string& key, const std::string& fn_expr,
                              const std::string& name, const std::string& wrapper,
                              const std::vector<std::string>& hand_written);

}  // namespace ipt::codegen
