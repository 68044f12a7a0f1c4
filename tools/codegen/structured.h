#pragma once
// Structured kernels in the generator: an out= operator marked `structured: True` in the YAML
// and the functional and in-place operators whose `structured_delegate` names it.
// See Note [Structured kernels] in core/ops/structured.h for what the generated code does.

#include <string>
#include <vector>

#include "tools/codegen/op.h"

namespace ipt::codegen {

struct StructuredGroup {
  const Op* out = nullptr;           // add.out: `structured: True`, its dispatch names the impls
  std::vector<const Op*> delegates;  // add.Tensor, add_.Tensor: `structured_delegate: add.out`
};

// The groups of the YAML, checked: a delegate names a structured out= operator of the file,
// has the out= operator's arguments (less `out`) and no backend kernels of its own; a
// structured operator has exactly one out= argument, returns it, and names kernels only for
// CPU and CUDA (its Meta kernel is generated). Throws std::runtime_error naming the line.
std::vector<StructuredGroup> structured_groups(const std::vector<Op>& ops);

// True when `op` is a structured operator or a delegate of one: its backend registrations
// come from emit_structured_registrations, not from its `dispatch:` entries.
bool is_structured_member(const Op& op);

// The registrations, for Register<key>.cpp (key CPU, CUDA or Meta), of every structured
// group's operators that have a kernel under `key`: for each, a wrapper that runs the meta
// function, then prepares the result (allocates it, checks self, or checks and resizes out),
// then calls the impl (none for Meta).
// Appends the group kernels' registrations under `key` to `o` (and their operator index rows).
void emit_structured_registrations(IndexedText& o, const std::vector<StructuredGroup>& groups, const std::string& key);

// native_functions.h's declarations of the hand-written halves: each group's meta function
// `StructuredMeta meta_<name>(inputs)` and its impls `void <impl>(inputs, out)`.
std::string structured_declarations(const std::vector<StructuredGroup>& groups);

}  // namespace ipt::codegen
