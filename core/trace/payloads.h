#pragma once
// Every payload an Event can carry, declared once.
//
// Note [Payloads are declared once]
// Each payload type is a list of fields, FIELD(C++ type, name, wire kind, initial value, since,
// meaning), and IPT_PAYLOAD_TYPES lists the types with their number in the trace format, their
// name, and the format version that added them. Everything else is derived from these lists:
//   - the structs themselves (IPT_DECLARE_FIELD below);
//   - PayloadInfo<T>: the name, number, field count and a visitor over the fields, which the
//     compact writer and reader (core/trace/payload_wire.h), the full-fidelity JSON codec
//     (payload_codec.cpp) and the payload table of docs/trace-format.md (payload_doc.cpp) use;
//   - the version table: which payload numbers and fields a file of a given version holds
//     (a field with `since` later than the file's version is not in its records and keeps its
//     initial value, which core/trace/trace_upgrade.cpp may then fill in from older facts).
// A new payload is one list here, one line in IPT_PAYLOAD_TYPES, and its presentation
// (payload_fields() in events.cpp and its Chrome args in chrome_args.cpp, which are summaries
// for readers and not part of the format). New fields go at the end of their list with the
// version that adds them.
//
// Wire kinds (core/trace/payload_wire.h says how each is written):
//   U64 U32 I64 I32  integers;      Flag  a bool (0/1);      F64  a double ("nan", "inf")
//   Str   an interned string (Note [Event strings are interned]), by its string table index
//   Text  an owned std::string, by its string table index
//   KeySet / KeySets  a DispatchKeySet's raw bits (a list of them), as "0x..." strings
//   Key   a DispatchKey, by name (or [functionality, backend, alias] when it has no name)
//   Ints  a list of integers;  Doubles  a list of doubles;  Preview  a storage preview (by
//         its index in the trace's table of distinct previews)
//   Enum  an enum with EnumInfo<T> (its count and names)
//   Records  a list of nested records (each a list of the element type's fields)
//   Edges, Leaves  a node's next edges / leaf edges as flat pairs;  Pairs  key, value pairs
//   that fill the rest of the record;  Nodes  a list of graph_node records

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/dispatch/dispatch_key.h"
#include "core/util/small_vector.h"

namespace ipt::trace {

// A storage preview: its first values (Note [Small lists stay inside the event]).
using PreviewValues = SmallVector<double, 1>;
// Up to three dimensions are kept inside the event (Note [Small lists stay inside the event]).
using SmallDims = SmallVector<int64_t, 3>;
using SmallKeySets = SmallVector<uint64_t, 3>;
using DetailFields = std::vector<std::pair<const char*, std::string>>;

namespace wire {
// One tag per wire kind; `doc` is how the docs' payload table shows a field of that kind.
#define IPT_WIRE_KIND(K, text)               \
  struct K {                                 \
    static constexpr const char* doc = text; \
  };
IPT_WIRE_KIND(U64, "unsigned integer")
IPT_WIRE_KIND(U32, "unsigned 32-bit integer")
IPT_WIRE_KIND(I64, "integer")
IPT_WIRE_KIND(I32, "32-bit integer")
IPT_WIRE_KIND(Flag, "0 or 1")
IPT_WIRE_KIND(F64, "number")
IPT_WIRE_KIND(Str, "string index")
IPT_WIRE_KIND(Text, "string index")
IPT_WIRE_KIND(KeySet, "string index of a key set")
IPT_WIRE_KIND(KeySets, "list of key set string indexes")
IPT_WIRE_KIND(Key, "string index of a key name, or [functionality, backend, alias]")
IPT_WIRE_KIND(Ints, "list of integers")
IPT_WIRE_KIND(Doubles, "list of numbers")
IPT_WIRE_KIND(Preview, "index into values")
IPT_WIRE_KIND(Enum, "enum number")
IPT_WIRE_KIND(Records, "list of records")
IPT_WIRE_KIND(Edges, "flat list of node, input_nr (node -1: None)")
IPT_WIRE_KIND(Leaves, "flat list of node, tensor")
IPT_WIRE_KIND(Pairs, "key, value string indexes to the record's end")
IPT_WIRE_KIND(Nodes, "list of graph_node records")
#undef IPT_WIRE_KIND
}  // namespace wire

// What the docs and the readers know of one field.
struct FieldDoc {
  const char* name;
  const char* wire;
  int since;  // 0: since its payload type
  const char* meaning;
  bool fills_record;  // its values take the rest of the record (wire::Pairs)
};

template <typename T>
struct PayloadInfo;  // defined for every payload and nested record type below
template <typename E>
struct EnumInfo;  // count and name() for every enum a payload holds

#define IPT_DECLARE_FIELD(type, name, kind, init, since, meaning) type name = init;

// ---- the payload types ------------------------------------------------------------------

// A tensor's metadata, with a preview of its storage's values.
#define IPT_TENSOR_META_FIELDS(FIELD)                                                                 \
  FIELD(uint64_t, tensor_id, U64, 0, 0, "the tensor's id")                                            \
  FIELD(uint64_t, storage_id, U64, 0, 0, "its storage's id")                                          \
  FIELD(int64_t, storage_nbytes, I64, 0, 0, "the storage's size in bytes")                            \
  FIELD(const char*, dtype, Str, "float32", 0, "\"float32\", \"float64\", \"int64\", \"bool\", ...")  \
  FIELD(const char*, device, Str, "cpu", 0, "\"cpu\", \"cuda:0\", \"meta\"")                          \
  FIELD(SmallDims, sizes, Ints, {}, 0, "sizes")                                                       \
  FIELD(SmallDims, strides, Ints, {}, 0, "strides, in elements")                                      \
  FIELD(int64_t, storage_offset, I64, 0, 0, "offset into the storage, in elements")                   \
  FIELD(uint64_t, version, U64, 0, 0, "the version counter")                                          \
  FIELD(uint64_t, key_set, KeySet, 0, 0, "its DispatchKeySet")                                        \
  FIELD(const char*, label, Str, "", 0, "variable name or role (\"self\", \"result\"); may be empty") \
  FIELD(PreviewValues, storage_values, Preview, {}, 0, "the first storage elements, from index 0")    \
  FIELD(bool, requires_grad, Flag, false, 0, "requires grad")                                         \
  FIELD(bool, is_view, Flag, false, 0, "shares storage with the tensor it was made from")             \
  FIELD(bool, storage_truncated, Flag, false, 0, "the storage has more elements than the preview")
// Versions 1 to 6 wrote the flags requires_grad and is_view before the label (the struct keeps
// its flags together, so that an Event stays within its size).
#define IPT_TENSOR_META_FIELDS_V6(FIELD)                   \
  FIELD(uint64_t, tensor_id, U64, 0, 0, "")                \
  FIELD(uint64_t, storage_id, U64, 0, 0, "")               \
  FIELD(int64_t, storage_nbytes, I64, 0, 0, "")            \
  FIELD(const char*, dtype, Str, "float32", 0, "")         \
  FIELD(const char*, device, Str, "cpu", 0, "")            \
  FIELD(SmallDims, sizes, Ints, {}, 0, "")                 \
  FIELD(SmallDims, strides, Ints, {}, 0, "")               \
  FIELD(int64_t, storage_offset, I64, 0, 0, "")            \
  FIELD(uint64_t, version, U64, 0, 0, "")                  \
  FIELD(uint64_t, key_set, KeySet, 0, 0, "")               \
  FIELD(bool, requires_grad, Flag, false, 0, "")           \
  FIELD(bool, is_view, Flag, false, 0, "")                 \
  FIELD(const char*, label, Str, "", 0, "")                \
  FIELD(PreviewValues, storage_values, Preview, {}, 0, "") \
  FIELD(bool, storage_truncated, Flag, false, 0, "")
struct TensorMeta {
  IPT_TENSOR_META_FIELDS(IPT_DECLARE_FIELD)
};

// One dispatcher decision: see Note [What a dispatch records] in core/dispatch/dispatcher.h.
#define IPT_DISPATCH_STEP_FIELDS(FIELD)                                                                          \
  FIELD(const char*, op, Str, "", 0, "the operator, \"aten::add.Tensor\"")                                       \
  FIELD(bool, redispatch, Flag, false, 0, "0 for the entry call, 1 below a wrapper kernel")                      \
  FIELD(SmallKeySets, arg_key_sets, KeySets, {}, 0, "each tensor argument's key set")                            \
  FIELD(uint64_t, tls_included, KeySet, 0, 0, "the thread's included keys")                                      \
  FIELD(uint64_t, tls_excluded, KeySet, 0, 0, "the thread's excluded keys")                                      \
  FIELD(uint64_t, merged, KeySet, 0, 0, "(args | included) - excluded, limited to non-fallthrough keys")         \
  FIELD(uint64_t, skipped_fallthrough, KeySet, 0, 0, "keys removed because this operator's entry falls through") \
  FIELD(DispatchKey, chosen, Key, {}, 0, "the runtime key that picked the kernel")                               \
  FIELD(const char*, kernel, Str, "", 0, "the kernel function's name")                                           \
  FIELD(const char*, kernel_kind, Str, "", 0,                                                                    \
        "\"kernel\", \"autograd kernel\", \"math kernel\", \"default backend kernel\", \"backend fallback\"")    \
  FIELD(const char*, registered_at, Str, "", 0, "where the kernel was registered, \"file:line\"")
struct DispatchStep {
  IPT_DISPATCH_STEP_FIELDS(IPT_DECLARE_FIELD)
};

#define IPT_STORAGE_INFO_FIELDS(FIELD)                             \
  FIELD(uint64_t, storage_id, U64, 0, 0, "the storage's id")       \
  FIELD(int64_t, nbytes, I64, 0, 0, "its size in bytes")           \
  FIELD(const char*, device, Str, "cpu", 0, "\"cpu\", \"cuda:0\"") \
  FIELD(bool, freed, Flag, false, 0, "0: allocated, 1: freed")
struct StorageInfo {
  IPT_STORAGE_INFO_FIELDS(IPT_DECLARE_FIELD)
};

#define IPT_SCRIPT_LINE_FIELDS(FIELD)                 \
  FIELD(int, line, I32, 0, 0, "the statement's line") \
  FIELD(int, col, I32, 0, 0, "its column, from 1")
struct ScriptLine {
  IPT_SCRIPT_LINE_FIELDS(IPT_DECLARE_FIELD)
};

#define IPT_TEXT_FIELDS(FIELD) FIELD(std::string, text, Text, {}, 0, "free text")
struct Text {
  IPT_TEXT_FIELDS(IPT_DECLARE_FIELD)
};

// Key/value details of a kernel's work (e.g. {"copy", "blocked transpose"}, {"lda", "64"}).
#define IPT_KERNEL_DETAIL_FIELDS(FIELD) \
  FIELD(DetailFields, fields, Pairs, {}, 0, "key, value, key, value, ... (order kept, repeated keys allowed)")
struct KernelDetail {
  IPT_KERNEL_DETAIL_FIELDS(IPT_DECLARE_FIELD)
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
#define IPT_GRAPH_NODE_FIELDS(FIELD)                                                                        \
  FIELD(uint64_t, node, U64, 0, 0, "the node's id")                                                         \
  FIELD(const char*, name, Str, "", 0, "\"MulBackward0\", \"torch::autograd::AccumulateGrad\"")             \
  FIELD(int64_t, seq, I64, -1, 0, "sequence_nr; -1 for AccumulateGrad")                                     \
  FIELD(std::vector<NextEdge>, next, Edges, {}, 0, "its next edges, in forward-input order")                \
  FIELD(uint64_t, output_tensor, U64, 0, 0, "the forward output it is the grad_fn of (0: none)")            \
  FIELD(std::vector<LeafEdge>, leaves, Leaves, {}, 0,                                                       \
        "node created: one per edge that reaches a leaf; an AccumulateGrad in graph_nodes: itself and its " \
        "leaf")                                                                                             \
  FIELD(int32_t, deps, I32, -1, 0, "in graph_nodes: dependencies counted at the start (-1: not counted)")
struct GraphNode {
  IPT_GRAPH_NODE_FIELDS(IPT_DECLARE_FIELD)
};

// "autograd graph": every node of one backward run, when the engine has counted them.
#define IPT_GRAPH_NODES_FIELDS(FIELD) FIELD(std::vector<GraphNode>, nodes, Nodes, {}, 0, "every node of the run")
struct GraphNodes {
  IPT_GRAPH_NODES_FIELDS(IPT_DECLARE_FIELD)
};

// What one step of the backward engine is (EngineStep::action).
enum class EngineAction : uint8_t {
  Unknown,      // a step recorded before format version 7 whose name was not one of the below
  NodeReady,    // "node ready": every gradient the node waits for has arrived
  GradArrived,  // "grad arrived": a gradient arrived at one of the node's inputs
  NodeRuns,     // the node's own Begin/End slice
  GradWritten,  // "grad written": AccumulateGrad set its leaf's .grad
  GradAdded,    // "grad added": AccumulateGrad added to its leaf's .grad
};
inline constexpr int kNumEngineActions = static_cast<int>(EngineAction::GradAdded) + 1;
const char* engine_action_name(EngineAction a);  // "unknown", "node_ready", ...

// One step of the backward engine: a node became ready, a gradient arrived at it, it ran (its
// Begin/End slice), or AccumulateGrad wrote or added its leaf's .grad. Fields a step does not
// have stay 0.
#define IPT_ENGINE_STEP_FIELDS(FIELD)                                                                           \
  FIELD(uint64_t, node, U64, 0, 0, "the node's id")                                                             \
  FIELD(const char*, name, Str, "", 0, "the node's name")                                                       \
  FIELD(uint64_t, from, U64, 0, 0, "grad arrived: the node that sent it")                                       \
  FIELD(uint32_t, input_nr, U32, 0, 0, "grad arrived: which input of the node it is")                           \
  FIELD(int32_t, deps_left, I32, 0, 0, "grad arrived: gradients the node still waits for")                      \
  FIELD(std::vector<double>, sum, Doubles, {}, 0, "grad arrived: the first values of that input's running sum") \
  FIELD(bool, sum_truncated, Flag, false, 0, "grad arrived: the sum has more values than `sum` holds")          \
  FIELD(bool, sum_none, Flag, false, 0, "grad arrived: no gradient came along the edge (None)")                 \
  FIELD(uint64_t, tensor, U64, 0, 0, "grad written / added: the leaf")                                          \
  FIELD(uint64_t, grad_tensor, U64, 0, 0, "grad written / added: its .grad afterwards")                         \
  FIELD(EngineAction, action, Enum, EngineAction::Unknown, 7,                                                   \
        "unknown, node_ready, grad_arrived, node_runs, grad_written, grad_added")
struct EngineStep {
  IPT_ENGINE_STEP_FIELDS(IPT_DECLARE_FIELD)
};
constexpr size_t kEngineSumValues = 8;  // values of a running sum an EngineStep keeps

// "backward": the Begin of one run of the backward engine (its End closes the slice).
#define IPT_ENGINE_RUN_FIELDS(FIELD)                                                                     \
  FIELD(uint64_t, root_tensor, U64, 0, 0, "the tensor backward() started from (0: torch.autograd.grad)") \
  FIELD(std::string, what, Text, {}, 0, "what started it: \"backward\", \"autograd.grad\"")
struct EngineRun {
  IPT_ENGINE_RUN_FIELDS(IPT_DECLARE_FIELD)
};

// One line of an operator's computed dispatch table (as torch._C._dispatch_dump_table prints
// it): the runtime key, whether its entry is a fallthrough, where the kernel was registered
// and what kind of entry it is.
#define IPT_DISPATCH_TABLE_ROW_FIELDS(FIELD)                                              \
  FIELD(DispatchKey, key, Key, {}, 0, "the runtime key")                                  \
  FIELD(bool, fallthrough, Flag, false, 0, "its entry is a fallthrough")                  \
  FIELD(const char*, registered_at, Str, "", 0, "\"build/generated/RegisterCPU.cpp:96\"") \
  FIELD(const char*, kind, Str, "", 0, "\"kernel\", \"autograd kernel\", \"math kernel\", \"backend fallback\", ...")
struct DispatchTableRow {
  IPT_DISPATCH_TABLE_ROW_FIELDS(IPT_DECLARE_FIELD)
};

// "dispatch table": an operator's computed table, recorded at its first call in a recording
// (Note [The dispatch table travels with the trace] in core/dispatch/dispatcher.cpp).
#define IPT_DISPATCH_TABLE_FIELDS(FIELD)                                    \
  FIELD(const char*, op, Str, "", 0, "\"aten::add.Tensor\"")                \
  FIELD(const char*, schema, Str, "", 0,                                    \
        "\"aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) " \
        "-> Tensor\"")                                                      \
  FIELD(std::vector<DispatchTableRow>, rows, Records, {}, 0, "one row per runtime key with an entry")
struct DispatchTable {
  IPT_DISPATCH_TABLE_FIELDS(IPT_DECLARE_FIELD)
};

// "autograd decision": what an operator's Autograd kernel found before redispatching, and so
// whether it records a backward node.
#define IPT_AUTOGRAD_DECISION_FIELDS(FIELD)                              \
  FIELD(const char*, op, Str, "", 0, "\"aten::mul.Tensor\"")             \
  FIELD(bool, grad_mode, Flag, false, 0, "grad mode was on")             \
  FIELD(bool, requires_grad, Flag, false, 0, "some input requires grad") \
  FIELD(const char*, node, Str, "", 0, "the node it records when both hold (may be \"\")")
struct AutogradDecision {
  IPT_AUTOGRAD_DECISION_FIELDS(IPT_DECLARE_FIELD)
  bool records() const { return grad_mode && requires_grad; }
};

// A runtime call on the host, or the work it put on a device stream (Note [Device tracks]).
#define IPT_DEVICE_WORK_FIELDS(FIELD)                                                                   \
  FIELD(uint64_t, correlation, U64, 0, 0, "the same on a call and its work; 0 for none")                \
  FIELD(int32_t, device, I32, 0, 0, "the device")                                                       \
  FIELD(int32_t, stream, I32, 0, 0, "the stream the work went to (for a synchronize: -1, the device)")  \
  FIELD(int32_t, event, I32, -1, 0, "the CUDA event recorded, waited for or synchronized; -1 for none") \
  FIELD(int64_t, bytes, I64, 0, 0, "bytes read and written, as the model counts them")                  \
  FIELD(double, flops, F64, 0, 0, "floating-point operations")                                          \
  FIELD(const char*, math, Str, "", 0, "\"FP32\", \"TF32\", \"BF16\" for a kernel; \"\" otherwise")     \
  FIELD(uint64_t, addr, U64, 0, 0, "the device address of the block the work writes; 0 for none or the host")
struct DeviceWork {
  IPT_DEVICE_WORK_FIELDS(IPT_DECLARE_FIELD)
};

// One action of a device's caching allocator (the actions of torch.cuda.memory._snapshot()'s
// device_traces), with the device's totals after it.
#define IPT_DEVICE_MEMORY_FIELDS(FIELD)                                                           \
  FIELD(const char*, action, Str, "", 0,                                                          \
        "\"alloc\", \"free_requested\", \"free_completed\", \"segment_alloc\", \"segment_free\"") \
  FIELD(int32_t, device, I32, 0, 0, "the device")                                                 \
  FIELD(int32_t, stream, I32, 0, 0, "the stream")                                                 \
  FIELD(uint64_t, addr, U64, 0, 0, "the block's address")                                         \
  FIELD(int64_t, size, I64, 0, 0, "its size in bytes")                                            \
  FIELD(int64_t, allocated, I64, 0, 0, "memory_allocated() after the action")                     \
  FIELD(int64_t, reserved, I64, 0, 0, "memory_reserved() after the action")
struct DeviceMemory {
  IPT_DEVICE_MEMORY_FIELDS(IPT_DECLARE_FIELD)
};

// What the schema check mode found on one call (Note [Schema check mode] in core/ops/schema_check.h).
#define IPT_SCHEMA_CHECK_FINDING_FIELDS(FIELD)                                                                   \
  FIELD(const char*, kind, Str, "", 0,                                                                           \
        "violations: \"mutated_without_annotation\", \"alias_without_annotation\", \"outputs_alias\"; what the " \
        "schema promised: \"annotated_but_unchanged\", \"mutated\", \"aliased\"")                                \
  FIELD(const char*, argument, Str, "", 0, "\"input\", \"out\", \"output_0\"")                                   \
  FIELD(const char*, message, Str, "", 0, "\"Argument input is not defined as mutable but was mutated\"")
struct SchemaCheckFinding {
  IPT_SCHEMA_CHECK_FINDING_FIELDS(IPT_DECLARE_FIELD)
};

// "schema check": no findings means the call wrote and aliased nothing.
#define IPT_SCHEMA_CHECK_FIELDS(FIELD)                        \
  FIELD(const char*, op, Str, "", 0, "\"aten::add_.Tensor\"") \
  FIELD(std::vector<SchemaCheckFinding>, findings, Records, {}, 0, "what it found")
struct SchemaCheck {
  IPT_SCHEMA_CHECK_FIELDS(IPT_DECLARE_FIELD)
  bool violation() const;
};

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
#define IPT_COMPILE_ARTIFACT_FIELDS(FIELD)                                                              \
  FIELD(CompileArtifactKind, kind, Enum, CompileArtifactKind::Graph, 0,                                 \
        "frame, graph, guards, recompile, graph_break, aot_forward, aot_backward, fusion, output_code") \
  FIELD(const char*, compile_id, Str, "", 0, "\"0/1\": frame 0, its second compile")                    \
  FIELD(const char*, file, Str, "", 0, "the user's file the artifact points at (a break's line)")       \
  FIELD(int32_t, line, I32, 0, 0, "0 when none")                                                        \
  FIELD(std::string, text, Text, {}, 0, "the artifact")                                                 \
  FIELD(int32_t, frame_id, I32, 0, 7, "the compile id's two numbers: the frame")                        \
  FIELD(int32_t, compile_index, I32, 0, 7, "and which of its compiles")
struct CompileArtifact {
  IPT_COMPILE_ARTIFACT_FIELDS(IPT_DECLARE_FIELD)
};

// What Inductor's scheduler decided for one node (python/torch/_inductor/scheduler.py).
enum class FusionAction : uint8_t {
  StartsKernel,    // the node opens `kernel`; `reason`: why the kernel open before it ended ("" if none was)
  FusedInto,       // the node joins `kernel`
  FusedReduction,  // a reduction of the kernel's values, computed in `kernel`
  NotFused,        // the node runs on its own (an extern call); `reason` says why; `kernel` is ""
};
inline constexpr int kNumFusionActions = static_cast<int>(FusionAction::NotFused) + 1;
const char* fusion_action_name(FusionAction a);  // "starts", "fused", "reduction", "not_fused"
#define IPT_FUSION_DECISION_FIELDS(FIELD)                                                             \
  FIELD(const char*, node, Str, "", 0, "the FX node (\"mul_1\")")                                     \
  FIELD(FusionAction, action, Enum, FusionAction::NotFused, 0, "starts, fused, reduction, not_fused") \
  FIELD(const char*, kernel, Str, "", 0, "\"cpp_fused_add_mul_0\"; \"\" when not fused")              \
  FIELD(std::string, reason, Text, {}, 0, "why")                                                      \
  FIELD(int32_t, kernel_index, I32, -1, 7, "the kernel's number in its graph (cpp_fused_mul_2: 2); -1: not fused")
struct FusionDecision {
  IPT_FUSION_DECISION_FIELDS(IPT_DECLARE_FIELD)
};

// "fusion [0/1]": the decisions for each node of one lowered graph, in the graph's order
// (version 5 recorded them as a CompileArtifact of text lines, which loading turns into this).
#define IPT_FUSION_DECISIONS_FIELDS(FIELD)                                                                        \
  FIELD(int32_t, frame_id, I32, 0, 0, "the compile id \"0/1\" as its two numbers: the frame (0),")                \
  FIELD(int32_t, compile_index, I32, 0, 0, "and which of its compiles (1: the second)")                           \
  FIELD(int32_t, graph, I32, 0, 0, "0: the captured graph (or AOTAutograd's forward), 1: AOTAutograd's backward") \
  FIELD(std::vector<FusionDecision>, decisions, Records, {}, 0, "one per node")
struct FusionDecisions {
  IPT_FUSION_DECISIONS_FIELDS(IPT_DECLARE_FIELD)
};

// One cache entry whose guards failed on a call, and so one reason for the compile that follows
// (TORCH_LOGS=recompiles): the entry, the first guard that failed, and PyTorch's words for it.
#define IPT_GUARD_FAILURE_FIELDS(FIELD)                                                                       \
  FIELD(int32_t, frame_id, I32, 0, 0, "the entry whose guard failed, by its compile id's two numbers")        \
  FIELD(int32_t, compile_index, I32, 0, 0, "and which of its compiles")                                       \
  FIELD(const char*, guard, Str, "", 0, "the failing guard's label: \"TENSOR_MATCH\", \"EQUALS_MATCH\", ...") \
  FIELD(const char*, source, Str, "", 0, "the value it checks: \"L['x']\" (\"\" for a guard at the root)")    \
  FIELD(std::string, expected, Text, {}, 0, "what the entry was compiled for: \"3\", \"torch.float32\"")      \
  FIELD(std::string, actual, Text, {}, 0, "what the call brought: \"4\"")                                     \
  FIELD(int32_t, tree_line, I32, -1, 0, "the guard's line in the entry's guard tree, 0-based; -1: none")      \
  FIELD(std::string, reason, Text, {}, 0, "\"tensor 'L['x']' size mismatch at index 0. expected 3, actual 4\"")
struct GuardFailure {
  IPT_GUARD_FAILURE_FIELDS(IPT_DECLARE_FIELD)
};

// "recompile [0/1]": why compile 0/1 happened, one failure per cache entry (version 5 wrote a
// CompileArtifact of "0/0: <reason>" lines, which loading turns into this).
#define IPT_RECOMPILE_FIELDS(FIELD)                                     \
  FIELD(int32_t, frame_id, I32, 0, 0, "the compile")                    \
  FIELD(int32_t, compile_index, I32, 0, 0, "and which of its compiles") \
  FIELD(std::vector<GuardFailure>, failures, Records, {}, 0, "one per cache entry")
struct Recompile {
  IPT_RECOMPILE_FIELDS(IPT_DECLARE_FIELD)
};

// "cache hit [0/1]" or "cache miss": a call of a compiled frame looked its cache up (version 5
// wrote a Text "guards checked in N ns, K entries").
#define IPT_CACHE_LOOKUP_FIELDS(FIELD)                                      \
  FIELD(bool, hit, Flag, false, 0, "an entry's guards passed")              \
  FIELD(int32_t, frame_id, I32, -1, 0, "the entry that ran (-1 on a miss)") \
  FIELD(int32_t, compile_index, I32, -1, 0, "and which of its compiles")    \
  FIELD(int64_t, check_ns, I64, 0, 0, "how long the guard check took")      \
  FIELD(int32_t, entries, I32, 0, 0, "how many entries the cache held")
struct CacheLookup {
  IPT_CACHE_LOOKUP_FIELDS(IPT_DECLARE_FIELD)
};

// One phase of a compile ("capture", "aot", "lowering", "c++ compile", or "compile" around
// them all), on its Begin and its End.
#define IPT_COMPILE_PHASE_FIELDS(FIELD)                                                                     \
  FIELD(const char*, phase, Str, "", 0, "\"capture\", \"aot\", \"lowering\", \"c++ compile\", \"compile\"") \
  FIELD(int32_t, frame_id, I32, 0, 0, "the compile id's two numbers")                                       \
  FIELD(int32_t, compile_index, I32, 0, 0, "and which of its compiles")
struct CompilePhase {
  IPT_COMPILE_PHASE_FIELDS(IPT_DECLARE_FIELD)
};

// "torch._dynamo.reset()": compile ids start again; views begin a new epoch of frames.
#define IPT_DYNAMO_RESET_FIELDS(FIELD) FIELD(int32_t, resets, I32, 0, 0, "resets before this one")
struct DynamoReset {
  IPT_DYNAMO_RESET_FIELDS(IPT_DECLARE_FIELD)
};

// ---- the list -----------------------------------------------------------------------------
// P(type, its fields, number in the compact format, name, the format version that added it)
#define IPT_PAYLOAD_TYPES(P)                                                    \
  P(DispatchStep, IPT_DISPATCH_STEP_FIELDS, 0, "dispatch_step", 1)              \
  P(TensorMeta, IPT_TENSOR_META_FIELDS, 1, "tensor_meta", 1)                    \
  P(StorageInfo, IPT_STORAGE_INFO_FIELDS, 2, "storage_info", 1)                 \
  P(ScriptLine, IPT_SCRIPT_LINE_FIELDS, 3, "script_line", 1)                    \
  P(Text, IPT_TEXT_FIELDS, 4, "text", 1)                                        \
  P(KernelDetail, IPT_KERNEL_DETAIL_FIELDS, 5, "kernel_detail", 1)              \
  P(GraphNode, IPT_GRAPH_NODE_FIELDS, 6, "graph_node", 3)                       \
  P(GraphNodes, IPT_GRAPH_NODES_FIELDS, 7, "graph_nodes", 3)                    \
  P(EngineStep, IPT_ENGINE_STEP_FIELDS, 8, "engine_step", 3)                    \
  P(DispatchTable, IPT_DISPATCH_TABLE_FIELDS, 9, "dispatch_table", 3)           \
  P(AutogradDecision, IPT_AUTOGRAD_DECISION_FIELDS, 10, "autograd_decision", 3) \
  P(DeviceWork, IPT_DEVICE_WORK_FIELDS, 11, "device_work", 3)                   \
  P(DeviceMemory, IPT_DEVICE_MEMORY_FIELDS, 12, "device_memory", 3)             \
  P(SchemaCheck, IPT_SCHEMA_CHECK_FIELDS, 13, "schema_check", 4)                \
  P(CompileArtifact, IPT_COMPILE_ARTIFACT_FIELDS, 14, "compile_artifact", 5)    \
  P(FusionDecisions, IPT_FUSION_DECISIONS_FIELDS, 15, "fusion_decisions", 6)    \
  P(Recompile, IPT_RECOMPILE_FIELDS, 16, "recompile", 6)                        \
  P(CacheLookup, IPT_CACHE_LOOKUP_FIELDS, 17, "cache_lookup", 6)                \
  P(EngineRun, IPT_ENGINE_RUN_FIELDS, 18, "engine_run", 7)                      \
  P(CompilePhase, IPT_COMPILE_PHASE_FIELDS, 19, "compile_phase", 7)             \
  P(DynamoReset, IPT_DYNAMO_RESET_FIELDS, 20, "dynamo_reset", 7)

// Records nested inside payloads: R(type, its fields, what one is called in messages)
#define IPT_NESTED_RECORDS(R)                                                             \
  R(DispatchTableRow, IPT_DISPATCH_TABLE_ROW_FIELDS, "a row of the dispatch table")       \
  R(SchemaCheckFinding, IPT_SCHEMA_CHECK_FINDING_FIELDS, "a finding of the schema check") \
  R(FusionDecision, IPT_FUSION_DECISION_FIELDS, "a fusion decision")                      \
  R(GuardFailure, IPT_GUARD_FAILURE_FIELDS, "a guard failure")

// ---- what is derived from the lists -------------------------------------------------------

#define IPT_VISIT_FIELD(type, name, kind, init, since, meaning) v(wire::kind{}, #name, p.name, since);
#define IPT_COUNT_FIELD(type, name, kind, init, since, meaning) +1
#define IPT_DOC_FIELD(type, name, kind, init, since, meaning) \
  FieldDoc{#name, wire::kind::doc, since, meaning, std::is_same_v<wire::kind, wire::Pairs>},
#define IPT_DESCRIBE_RECORD(T, FIELDS, number_, name_, since_, what_)                \
  template <>                                                                        \
  struct PayloadInfo<T> {                                                            \
    static constexpr int number = number_;                                           \
    static constexpr const char* name = name_;                                       \
    static constexpr int since = since_;                                             \
    static constexpr const char* what = what_;                                       \
    static constexpr size_t field_count = 0 FIELDS(IPT_COUNT_FIELD);                 \
    static constexpr FieldDoc fields[] = {FIELDS(IPT_DOC_FIELD)};                    \
    /* Calls v(wire kind, field name, the field, since) for each field, in order. */ \
    template <typename P, typename V>                                                \
    static void visit(P& p, V&& v) {                                                 \
      FIELDS(IPT_VISIT_FIELD)                                                        \
    }                                                                                \
  };
#define IPT_DESCRIBE_PAYLOAD(T, FIELDS, number, name, since) \
  IPT_DESCRIBE_RECORD(T, FIELDS, number, name, since, "the payload")
#define IPT_DESCRIBE_NESTED(T, FIELDS, what) IPT_DESCRIBE_RECORD(T, FIELDS, -1, #T, 0, what)
IPT_PAYLOAD_TYPES(IPT_DESCRIBE_PAYLOAD)
IPT_NESTED_RECORDS(IPT_DESCRIBE_NESTED)
#undef IPT_DESCRIBE_PAYLOAD
#undef IPT_DESCRIBE_NESTED
#undef IPT_DESCRIBE_RECORD

// A payload's record layout in format versions up to `until`, where it differed.
template <typename T>
struct LegacyLayout;
template <>
struct LegacyLayout<TensorMeta> {
  static constexpr int until = 6;
  template <typename P, typename V>
  static void visit(P& p, V&& v) {
    IPT_TENSOR_META_FIELDS_V6(IPT_VISIT_FIELD)
  }
};

template <>
struct EnumInfo<CompileArtifactKind> {
  static constexpr int count = kNumCompileArtifactKinds;
  static const char* name(CompileArtifactKind k) { return compile_artifact_kind_name(k); }
};
template <>
struct EnumInfo<FusionAction> {
  static constexpr int count = kNumFusionActions;
  static const char* name(FusionAction a) { return fusion_action_name(a); }
};
template <>
struct EnumInfo<EngineAction> {
  static constexpr int count = kNumEngineActions;
  static const char* name(EngineAction a) { return engine_action_name(a); }
};

// The highest payload number a file of format `version` may hold (-1: none), and how many of
// a payload's fields its records hold there (Note [Payloads are declared once]).
int max_payload_number(int version);
// A record's field names as a file of `version` holds them: "key, fallthrough, registered_at, kind".
template <typename T>
std::string field_names(int version = std::numeric_limits<int>::max()) {
  std::string s;
  for (const FieldDoc& f : PayloadInfo<T>::fields)
    if (f.since <= version) s += (s.empty() ? "" : ", ") + std::string(f.name);
  return s;
}
template <typename T>
constexpr size_t fields_in_version(int version) {
  size_t n = 0;
  for (const FieldDoc& f : PayloadInfo<T>::fields)
    if (f.since <= version) ++n;
  return n;
}

}  // namespace ipt::trace
