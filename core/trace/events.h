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
#include "core/trace/payloads.h"
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
  Compile,      // torch.compile: its phases (Begin/End, CompilePhase), cache lookups and artifacts (Instant)
};
const char* category_name(Category c);

// A typed autograd payload as the key/value fields views list (the Event log, tooltips, the
// Dispatch view's details, the CLI's dispatch text): {"node", "5"}, {"name", "MulBackward0"}...
using Fields = std::vector<std::pair<const char*, std::string>>;
// These are summaries for readers, not the format (Note [Payloads are declared once]).
Fields payload_fields(const GraphNode& g);
Fields payload_fields(const EngineStep& s);
Fields payload_fields(const DeviceWork& w);
Fields payload_fields(const DeviceMemory& m);
Fields payload_fields(const SchemaCheck& c);
Fields payload_fields(const CompileArtifact& a);
Fields payload_fields(const FusionDecisions& f);
Fields payload_fields(const Recompile& r);
Fields payload_fields(const CacheLookup& c);
// A compile id as PyTorch writes it: frame 0, its second compile -> "0/1".
std::string compile_id_text(int32_t frame_id, int32_t compile_index);
// "grad mode on, an input requires grad -> records MulBackward0" (without the operator).
std::string decision_text(const AutogradDecision& d);
bool is_violation(std::string_view finding_kind);
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

// Every payload type, in the order of their numbers (variant index = number + 1).
#define IPT_VARIANT_ALTERNATIVE(T, FIELDS, number, name, since) , T
using Payload = std::variant<std::monostate IPT_PAYLOAD_TYPES(IPT_VARIANT_ALTERNATIVE)>;
#undef IPT_VARIANT_ALTERNATIVE

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
