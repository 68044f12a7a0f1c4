#pragma once
// Typed trace events: everything the runtime does is one of these; everything the program
// shows (CLI output, JSON trace, GUI views) is a view of a sequence of them.
//
// Note [Event strings are interned]
// Event names, operator names, kernel names and registration sites are `const char*` that
// live for the whole process: either string literals from registrations or strings passed
// through intern() (used when a trace file is loaded back). Recording an event therefore
// never allocates for them, which keeps tracing cheap on the dispatcher's hot path.

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/dispatch/dispatch_key.h"

namespace ipt::trace {

// A process-lifetime copy of `s` (thread-safe; the same text gives the same pointer).
const char* intern(std::string_view s);

enum class Phase : uint8_t { Begin, End, Instant };

enum class Category : uint8_t {
  Dispatch,   // a call or redispatch through the dispatcher (Begin/End)
  Kernel,     // a kernel's own work, e.g. a BLAS call or a copy (Begin/End or Instant)
  Tensor,     // a tensor was produced (Instant, TensorMeta)
  Storage,    // storage allocated or freed (Instant, StorageInfo)
  Autograd,   // autograd decisions (Instant, Note)
  Script,     // a snippet statement starts (Instant, ScriptLine) / printed output (Output)
  Lesson,     // a lesson step starts (Instant, Note)
  Note,       // free text
};
const char* category_name(Category c);

// Metadata snapshot of a tensor, with a preview of its storage's values.
struct TensorMeta {
  uint64_t tensor_id = 0;
  uint64_t storage_id = 0;
  int64_t storage_nbytes = 0;
  const char* dtype = "float32";  // "float32", "float64", "int64", "bool"
  const char* device = "cpu";     // "cpu", "cuda:0", "meta"
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  int64_t storage_offset = 0;
  uint64_t version = 0;
  uint64_t key_set = 0;           // DispatchKeySet::raw()
  bool requires_grad = false;
  bool is_view = false;           // shares storage with the tensor it was made from
  const char* label = "";         // variable name or role ("self", "result"), may be empty
  // The first storage elements (element units, from storage index 0), as doubles.
  std::vector<double> storage_values;
  bool storage_truncated = false; // storage has more elements than storage_values holds
};

// One dispatcher decision: see Note [What a dispatch records] in core/dispatch/dispatcher.h.
struct DispatchStep {
  const char* op = "";            // "aten::add.Tensor"
  bool redispatch = false;        // false for the entry call, true below a wrapper kernel
  std::vector<uint64_t> arg_key_sets;  // each tensor argument's DispatchKeySet::raw()
  uint64_t tls_included = 0;
  uint64_t tls_excluded = 0;
  uint64_t merged = 0;            // (args | included) - excluded, restricted to non-fallthrough keys
  uint64_t skipped_fallthrough = 0;  // keys removed because this op's entry is a fallthrough
  DispatchKey chosen;             // the runtime key that picked the kernel
  const char* kernel = "";        // kernel function name
  const char* kernel_kind = "";   // "kernel", "autograd kernel", "math kernel", "default backend kernel", "backend fallback"
  const char* registered_at = ""; // "core/ops/cpu/binary_ops.cpp:42"
};

struct StorageInfo {
  uint64_t storage_id = 0;
  int64_t nbytes = 0;
  const char* device = "cpu";
  bool freed = false;             // false: allocated, true: freed
};

struct ScriptLine {
  int line = 0;
  int col = 0;
};

struct Text {
  std::string text;
};

// Key/value details of a kernel's work (e.g. {"copy", "blocked transpose"}, {"lda", "64"}).
struct KernelDetail {
  std::vector<std::pair<const char*, std::string>> fields;
};

using Payload = std::variant<std::monostate, DispatchStep, TensorMeta, StorageInfo, ScriptLine, Text, KernelDetail>;

struct Event {
  uint64_t seq = 0;     // order of recording, 0-based, unique per recorder
  int64_t ts_ns = 0;    // nanoseconds since the recorder's epoch
  uint32_t tid = 0;     // small per-recorder thread number (0 = first thread seen)
  Phase phase = Phase::Instant;
  Category category = Category::Note;
  const char* name = "";  // slice name shown in Perfetto, e.g. "aten::add.Tensor [AutogradCPU]"
  Payload payload;
};

}  // namespace ipt::trace
