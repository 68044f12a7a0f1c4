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
#include "core/util/small_vector.h"

namespace ipt::trace {

// A process-lifetime copy of `s` (thread-safe; the same text gives the same pointer).
const char* intern(std::string_view s);

enum class Phase : uint8_t { Begin, End, Instant };

enum class Category : uint8_t {
  Dispatch,  // a call or redispatch through the dispatcher (Begin/End)
  Kernel,    // a kernel's own work, e.g. a BLAS call or a copy (Begin/End or Instant)
  Tensor,    // a tensor was produced (Instant, TensorMeta)
  Storage,   // storage allocated or freed (Instant, StorageInfo)
  Autograd,  // autograd decisions (Instant, Note)
  Script,    // a snippet statement starts (Instant, ScriptLine) / printed output (Output)
  Lesson,    // a lesson step starts (Instant, Note)
  Note,      // free text
  // Work on a device (Note [Device tracks]); Kineto's categories.
  CudaRuntime,  // a host call into the CUDA runtime: a launch, a copy, an event, a synchronize
  GpuMemcpy,    // a copy on a device stream (Begin/End on the stream's track)
  CudaSync,     // a stream waiting for an event, on the stream's track
  GpuMemory,    // the caching allocator acted (Instant, DeviceMemory)
  Compile,      // torch.compile: its phases (Begin/End), cache hits and artifacts (Instant, CompileArtifact)
};
const char* category_name(Category c);

// A storage preview: its first values (Note [Small lists stay inside the event]).
using PreviewValues = SmallVector<double, 1>;

// Metadata snapshot of a tensor, with a preview of its storage's values.
struct TensorMeta {
  uint64_t tensor_id = 0;
  uint64_t storage_id = 0;
  int64_t storage_nbytes = 0;
  const char* dtype = "float32";  // "float32", "float64", "int64", "bool"
  const char* device = "cpu";     // "cpu", "cuda:0", "meta"
  // Up to three dimensions are kept inside the event (Note [Small lists stay inside the event]).
  SmallVector<int64_t, 3> sizes;
  SmallVector<int64_t, 3> strides;
  int64_t storage_offset = 0;
  uint64_t version = 0;
  uint64_t key_set = 0;    // DispatchKeySet::raw()
  const char* label = "";  // variable name or role ("self", "result"), may be empty
  // The first storage elements (element units, from storage index 0), as doubles.
  PreviewValues storage_values;
  bool requires_grad = false;
  bool is_view = false;            // shares storage with the tensor it was made from
  bool storage_truncated = false;  // storage has more elements than storage_values holds
};

// One dispatcher decision: see Note [What a dispatch records] in core/dispatch/dispatcher.h.
struct DispatchStep {
  const char* op = "";                    // "aten::add.Tensor"
  bool redispatch = false;                // false for the entry call, true below a wrapper kernel
  SmallVector<uint64_t, 3> arg_key_sets;  // each tensor argument's DispatchKeySet::raw()
  uint64_t tls_included = 0;
  uint64_t tls_excluded = 0;
  uint64_t merged = 0;               // (args | included) - excluded, restricted to non-fallthrough keys
  uint64_t skipped_fallthrough = 0;  // keys removed because this op's entry is a fallthrough
  DispatchKey chosen;                // the runtime key that picked the kernel
  const char* kernel = "";           // kernel function name
  const char* kernel_kind =
      "";  // "kernel", "autograd kernel", "math kernel", "default backend kernel", "backend fallback"
  const char* registered_at = "";  // "core/ops/cpu/binary_ops.cpp:42"
};

struct StorageInfo {
  uint64_t storage_id = 0;
  int64_t nbytes = 0;
  const char* device = "cpu";
  bool freed = false;  // false: allocated, true: freed
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

// One of a backward node's next functions (PyTorch's `grad_fn.next_functions`): the node that
// receives the gradient of one forward input and which of that node's inputs it is; not
// valid (None) for an input that needs no gradient.
struct NextEdge {
  bool valid = false;
  uint64_t node = 0;
  uint32_t input_nr = 0;
  bool operator==(const NextEdge&) const = default;
};

// A leaf reached by a node's edge: its AccumulateGrad node and the leaf tensor.
struct LeafEdge {
  uint64_t node = 0;
  uint64_t tensor = 0;
  bool operator==(const LeafEdge&) const = default;
};

// A backward node, as recorded when a forward operator creates it ("node created": with the
// output it is the grad_fn of and the leaves its edges reach) and, for every node of a run,
// when the engine starts a backward (in GraphNodes, with its dependency count).
struct GraphNode {
  uint64_t node = 0;
  const char* name = "";         // "MulBackward0", "torch::autograd::AccumulateGrad"
  int64_t seq = -1;              // sequence_nr; -1 for AccumulateGrad
  std::vector<NextEdge> next;    // in forward-input order
  uint64_t output_tensor = 0;    // the forward output this node is the grad_fn of (0: none)
  std::vector<LeafEdge> leaves;  // node created: one per edge that reaches a leaf; an
                                 // AccumulateGrad in GraphNodes: itself and its leaf
  int32_t deps = -1;             // in GraphNodes: dependencies counted at the start (-1: not counted)
};

// "autograd graph": every node of one backward run, when the engine has counted them.
struct GraphNodes {
  std::vector<GraphNode> nodes;
};

// One step of the backward engine: a node became ready ("node ready"), a gradient arrived at
// it ("grad arrived"), it ran (its Begin/End slice), or AccumulateGrad wrote or added its
// leaf's .grad ("grad written", "grad added"). Fields a step does not have stay 0.
struct EngineStep {
  uint64_t node = 0;
  const char* name = "";       // the node's name
  uint64_t from = 0;           // grad arrived: the node that sent it
  uint32_t input_nr = 0;       // grad arrived: which input of `node` it is
  int32_t deps_left = 0;       // grad arrived: gradients `node` still waits for
  std::vector<double> sum;     // grad arrived: the first values of that input's running sum
  bool sum_truncated = false;  // grad arrived: the sum has more values than `sum` holds
  bool sum_none = false;       // grad arrived: no gradient came along the edge (None)
  uint64_t tensor = 0;         // grad written / added: the leaf
  uint64_t grad_tensor = 0;    // grad written / added: its .grad afterwards
};
constexpr size_t kEngineSumValues = 8;  // values of a running sum an EngineStep keeps

// One line of an operator's computed dispatch table (as torch._C._dispatch_dump_table prints
// it): the runtime key, whether its entry is a fallthrough, where the kernel was registered
// and what kind of entry it is.
struct DispatchTableRow {
  DispatchKey key;
  bool fallthrough = false;
  const char* registered_at = "";  // "build/generated/RegisterCPU.cpp:96"
  const char* kind = "";           // "kernel", "autograd kernel", "math kernel", "backend fallback", ...
};

// "dispatch table": an operator's computed table, recorded at its first call in a recording
// (Note [The dispatch table travels with the trace] in core/dispatch/dispatcher.cpp).
struct DispatchTable {
  const char* op = "";      // "aten::add.Tensor"
  const char* schema = "";  // "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
  std::vector<DispatchTableRow> rows;
};

// "autograd decision": what an operator's Autograd kernel found before redispatching, and so
// whether it records a backward node.
struct AutogradDecision {
  const char* op = "";         // "aten::mul.Tensor"
  bool grad_mode = false;      // grad mode was on
  bool requires_grad = false;  // some input requires grad
  const char* node = "";       // the node it records when both hold ("MulBackward0"; may be "")
  bool records() const { return grad_mode && requires_grad; }
};
// "grad mode on, an input requires grad -> records MulBackward0" (without the operator).
std::string decision_text(const AutogradDecision& d);

// A typed autograd payload as the key/value fields views list (the Event log, tooltips, the
// Dispatch view's details, the CLI's dispatch text): {"node", "5"}, {"name", "MulBackward0"}...
using Fields = std::vector<std::pair<const char*, std::string>>;
Fields payload_fields(const GraphNode& g);
Fields payload_fields(const EngineStep& s);
// A running sum as text: "[1, 2, 3]", "[1, 2, ...]" past the values kept, "None" for no gradient.
std::string sum_text(const EngineStep& s);

// Note [Device tracks]
// What a device does is recorded on tracks of its own, one per stream: an event whose tid has
// kDeviceTrackBit set belongs to device (tid >> 16) & 0xff, stream tid & 0xffff, and its times
// are the device's (a kernel's Begin is when it starts on the device, its End when it ends).
// The host call that enqueued the work (a CudaRuntime slice on the host thread) and the work
// share a correlation id, as Kineto's "ac2g" flows link them. Device events are recorded by
// the host thread when the work is enqueued, with the times the device model gives it, so
// each stream's events are in time order while the trace as a whole is not.
constexpr uint32_t kDeviceTrackBit = 1u << 30;
constexpr uint32_t device_track(int device, int stream) {
  return kDeviceTrackBit | (static_cast<uint32_t>(device & 0xff) << 16) | static_cast<uint32_t>(stream & 0xffff);
}
constexpr bool is_device_track(uint32_t tid) { return (tid & kDeviceTrackBit) != 0; }
constexpr int track_device(uint32_t tid) { return static_cast<int>((tid >> 16) & 0xff); }
constexpr int track_stream(uint32_t tid) { return static_cast<int>(tid & 0xffff); }
// "host thread 0", or for a device track "stream 7 " (Kineto's thread names end in a space).
std::string track_name(uint32_t tid);

// A runtime call on the host, or the work it put on a device stream (Note [Device tracks]).
struct DeviceWork {
  uint64_t correlation = 0;  // the same on a call and its work; 0 for none
  int32_t device = 0;
  int32_t stream = 0;  // the stream the work went to (for a synchronize: -1, the device)
  int32_t event = -1;  // the CUDA event recorded, waited for or synchronized; -1 for none
  int64_t bytes = 0;   // bytes read and written, as the model counts them
  double flops = 0;
  const char* math = "";  // "FP32", "TF32", "BF16" for a kernel; "" otherwise
  uint64_t addr = 0;      // the device address of the block the work writes (a kernel's
                          // output, a copy's destination); 0 for none or host memory
};

// One action of a device's caching allocator (the actions of torch.cuda.memory._snapshot()'s
// device_traces), with the device's totals after it.
struct DeviceMemory {
  const char* action = "";  // "alloc", "free_requested", "free_completed", "segment_alloc", "segment_free"
  int32_t device = 0;
  int32_t stream = 0;
  uint64_t addr = 0;
  int64_t size = 0;
  int64_t allocated = 0;  // memory_allocated() after the action
  int64_t reserved = 0;   // memory_reserved() after the action
};
Fields payload_fields(const DeviceWork& w);
Fields payload_fields(const DeviceMemory& m);

// "schema check": what the schema check mode found on one call (Note [Schema check mode] in
// core/ops/schema_check.h). No findings: the call wrote and aliased nothing.
struct SchemaCheckFinding {
  // "mutated_without_annotation", "alias_without_annotation", "outputs_alias" (violations);
  // "annotated_but_unchanged", "mutated", "aliased" (what the schema promised, or over-promised)
  const char* kind = "";
  const char* argument = "";  // "input", "out", "output_0"
  const char* message = "";   // "Argument input is not defined as mutable but was mutated"
};
struct SchemaCheck {
  const char* op = "";  // "aten::add_.Tensor"
  std::vector<SchemaCheckFinding> findings;
  bool violation() const;
};
bool is_violation(std::string_view finding_kind);
Fields payload_fields(const SchemaCheck& c);

// "compile artifact": one product of torch.compile, for the Compile view (Note [What
// torch.compile records] in python/torch/_dynamo/trace_events.py).
enum class CompileArtifactKind : uint8_t {
  Frame,        // a frame was captured: text = "fn (prog.py:3)"
  Graph,        // the captured graph's code (TORCH_LOGS=graph_code's forward())
  Guards,       // the guard tree (TORCH_LOGS=guards)
  Recompile,    // format version 5 only: why the compile happened, "0/0: <reason>" lines (now the Recompile payload)
  GraphBreak,   // a graph break: its reason; file and line name the user's line
  AotForward,   // AOTAutograd's forward graph
  AotBackward,  // AOTAutograd's backward graph
  Fusion,       // format version 5 only: the fusion decisions as "node<TAB>decision" lines (now FusionDecisions)
  OutputCode,   // the generated module (C++ kernels and the Python wrapper)
};
const char* compile_artifact_kind_name(CompileArtifactKind k);  // "graph", "guards", ...
inline constexpr int kNumCompileArtifactKinds = static_cast<int>(CompileArtifactKind::OutputCode) + 1;
struct CompileArtifact {
  CompileArtifactKind kind = CompileArtifactKind::Graph;
  const char* compile_id = "";  // "0/1": frame 0, its second compile
  const char* file = "";        // the user's file the artifact points at (a break's line)
  int32_t line = 0;             // 0 when none
  std::string text;
};
Fields payload_fields(const CompileArtifact& a);

// "fusion [0/1]": what Inductor's scheduler decided for each node of one lowered graph
// (python/torch/_inductor/scheduler.py), in the graph's order (format version 6; version 5
// recorded the decisions as a CompileArtifact of text lines, which loading turns into this).
enum class FusionAction : uint8_t {
  StartsKernel,    // the node opens `kernel`; `reason`: why the kernel open before it ended ("" if none was)
  FusedInto,       // the node joins `kernel`
  FusedReduction,  // a reduction of the kernel's values, computed in `kernel`
  NotFused,        // the node runs on its own (an extern call); `reason` says why; `kernel` is ""
};
inline constexpr int kNumFusionActions = static_cast<int>(FusionAction::NotFused) + 1;
const char* fusion_action_name(FusionAction a);  // "starts", "fused", "reduction", "not_fused"
struct FusionDecision {
  const char* node = "";  // the FX node ("mul_1")
  FusionAction action = FusionAction::NotFused;
  const char* kernel = "";  // "cpp_fused_add_mul_0"; "" when not fused
  std::string reason;
};
struct FusionDecisions {
  int32_t frame_id = 0;       // the compile id "0/1" as its two numbers: frame 0,
  int32_t compile_index = 0;  // its second compile
  int32_t graph = 0;          // 0: the captured graph (or AOTAutograd's forward), 1: AOTAutograd's backward
  std::vector<FusionDecision> decisions;
};
Fields payload_fields(const FusionDecisions& f);

// One cache entry whose guards failed on a call, and so one reason for the compile that follows
// (TORCH_LOGS=recompiles): the entry, the first guard that failed, and PyTorch's words for it.
struct GuardFailure {
  int32_t frame_id = 0;  // the entry whose guard failed, by its compile id's two numbers
  int32_t compile_index = 0;
  const char* guard = "";   // the failing guard's label: "TENSOR_MATCH", "EQUALS_MATCH", "GLOBAL_STATE", ...
  const char* source = "";  // the value it checks: "L['x']" ("" for a guard at the root)
  std::string expected;     // what the entry was compiled for: "3" (a size), "torch.float32", "True"
  std::string actual;       // what the call brought: "4"
  int32_t tree_line = -1;   // the guard's line in the entry's guard tree (its "guards" artifact), 0-based; -1: none
  std::string reason;       // "tensor 'L['x']' size mismatch at index 0. expected 3, actual 4"
};
// "recompile [0/1]": why compile 0/1 happened, one failure per cache entry (format version 6;
// version 5 wrote a CompileArtifact of "0/0: <reason>" lines, which loading turns into this).
struct Recompile {
  int32_t frame_id = 0;
  int32_t compile_index = 0;
  std::vector<GuardFailure> failures;
};
Fields payload_fields(const Recompile& r);

// "cache hit [0/1]" or "cache miss": a call of a compiled frame looked its cache up (format
// version 6; version 5 wrote a Text "guards checked in N ns, K entries").
struct CacheLookup {
  bool hit = false;
  int32_t frame_id = -1;  // the entry that ran (-1 on a miss)
  int32_t compile_index = -1;
  int64_t check_ns = 0;  // how long the guard check took
  int32_t entries = 0;   // how many entries the cache held
};
Fields payload_fields(const CacheLookup& c);

using Payload = std::variant<std::monostate, DispatchStep, TensorMeta, StorageInfo, ScriptLine, Text, KernelDetail,
                             GraphNode, GraphNodes, EngineStep, DispatchTable, AutogradDecision, DeviceWork,
                             DeviceMemory, SchemaCheck, CompileArtifact, FusionDecisions, Recompile, CacheLookup>;

struct Event {
  uint64_t seq = 0;   // order of recording, 0-based, unique per recorder
  int64_t ts_ns = 0;  // nanoseconds since the recorder's epoch
  uint32_t tid = 0;   // small per-recorder thread number (0 = first thread seen)
  Phase phase = Phase::Instant;
  Category category = Category::Note;
  const char* name = "";  // slice name shown in Perfetto, e.g. "aten::add.Tensor [AutogradCPU]"
  Payload payload;
};

}  // namespace ipt::trace
