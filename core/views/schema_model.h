#pragma once
// The Schema view's model: what one operator schema says, laid out to be drawn or printed.
// A pure function of the schema text (core/schema parses it); no runtime, no GUI.
//
//   schema_model("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)")
//     args: self Tensor(a!) written, set a; other Tensor; alpha Scalar =1 keyword-only
//     returns: Tensor(a!) set a      links: self -> return 0 (set a, written)
//     kind: inplace, because its name ends in '_'
//
// A malformed text gives ok = false with the parser's column and message; the text itself is
// the caller's, so a view keeps what was typed.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/schema/function_schema.h"

namespace ipt::views {

struct SchemaRow {
  std::string name;           // "self"; a return's may be "" (unnamed)
  std::string type;           // with its annotation: "Tensor(a!)"
  std::string default_value;  // "" when there is none
  bool kwarg_only = false;
  bool is_out = false;             // an out= buffer (keyword-only and written)
  bool write = false;              // `!`: the operator writes it
  std::vector<std::string> sets;   // alias sets before the call ({"a"}; {"*"} for wildcard)
  std::vector<std::string> after;  // after `->` ({"*"} for `Tensor(a -> *)`)
};

// An argument and a return that may share memory: they have an alias set in common.
struct AliasLink {
  size_t arg = 0;
  size_t ret = 0;
  std::string set;     // "a"
  bool write = false;  // the argument is written through this alias
};

// Why an operator is of its kind (torchgen's SchemaKind), as a fixed sentence the GUI
// translates; the argument names involved are in `because`.
enum class KindReason {
  InplaceName,       // its name ends in '_'
  InplaceDunder,     // an augmented assignment: __iadd__, __iand__ ...
  OutArguments,      // keyword-only written arguments: out= buffers
  WrittenArguments,  // writes arguments other than self, without an in-place name or out=
  FunctionalView,    // nothing written, but a result aliases an input (a view)
  Functional,        // nothing written, results are new
};
const char* kind_reason_text(KindReason r);  // English, one sentence

struct SchemaModel {
  bool ok = false;
  // When !ok: the parser's message, its 0-based column and what it expected there.
  std::string error;
  size_t error_column = 0;
  std::string error_detail;
  schema::FunctionSchema schema;
  std::string canonical;  // schema.str()
  std::vector<SchemaRow> args, returns;
  std::vector<AliasLink> links;
  schema::FunctionSchema::Kind kind = schema::FunctionSchema::Kind::Functional;
  KindReason reason = KindReason::Functional;
  std::vector<std::string> because;  // the argument names the reason is about ("self", "out")
};

SchemaModel schema_model(std::string_view text);

// "aten::add.Tensor" for a parsed schema (the name an operator is registered under).
std::string qualified_name(const schema::FunctionSchema& s);

// Headless rendering (the CLI, tests): one line per argument and return, then links and kind.
std::string render_schema_text(const SchemaModel& m);

}  // namespace ipt::views
