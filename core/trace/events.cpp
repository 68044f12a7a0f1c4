// intern(), category_name() and the fields of autograd payloads: the out-of-line parts of
// core/trace/events.h.
#include "core/trace/events.h"

#include <cstring>
#include <mutex>
#include <sstream>
#include <unordered_set>

namespace ipt::trace {

const char* intern(std::string_view s) {
  // Interned texts are leaked on purpose: they must outlive every Event (Note [Event strings
  // are interned]). The set's keys view those leaked copies, so a lookup never allocates.
  static std::mutex mu;
  static auto* texts = new std::unordered_set<std::string_view>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = texts->find(s);
  if (it != texts->end()) return it->data();
  char* copy = new char[s.size() + 1];
  if (!s.empty()) std::memcpy(copy, s.data(), s.size());
  copy[s.size()] = '\0';
  texts->insert(std::string_view(copy, s.size()));
  return copy;
}

const char* category_name(Category c) {
  switch (c) {
    case Category::Dispatch: return "dispatch";
    case Category::Kernel: return "kernel";
    case Category::Tensor: return "tensor";
    case Category::Storage: return "storage";
    case Category::Autograd: return "autograd";
    case Category::Script: return "script";
    case Category::Lesson: return "lesson";
    case Category::Note: return "note";
    case Category::CudaRuntime: return "cuda_runtime";
    case Category::GpuMemcpy: return "gpu_memcpy";
    case Category::CudaSync: return "cuda_sync";
    case Category::GpuMemory: return "gpu_memory";
    case Category::Compile: return "compile";
  }
  return "note";
}

Fields payload_fields(const GraphNode& g) {
  std::string next;
  for (size_t i = 0; i < g.next.size(); ++i)
    next +=
        (i ? "," : "") + (g.next[i].valid ? std::to_string(g.next[i].node) + ":" + std::to_string(g.next[i].input_nr)
                                          : std::string("none"));
  Fields f = {{"node", std::to_string(g.node)}, {"name", g.name}, {"seq", std::to_string(g.seq)}, {"next", next}};
  if (g.output_tensor) f.emplace_back("output_tensor", std::to_string(g.output_tensor));
  for (const LeafEdge& l : g.leaves) f.emplace_back("leaf", std::to_string(l.node) + "=" + std::to_string(l.tensor));
  if (g.deps >= 0) f.emplace_back("deps", std::to_string(g.deps));
  return f;
}

Fields payload_fields(const EngineStep& s) {
  Fields f = {{"node", std::to_string(s.node)}, {"name", s.name}};
  if (s.from) {
    f.emplace_back("from", std::to_string(s.from));
    f.emplace_back("input_nr", std::to_string(s.input_nr));
    f.emplace_back("deps_left", std::to_string(s.deps_left));
    f.emplace_back("sum", sum_text(s));
  }
  if (s.tensor) {
    f.emplace_back("tensor", std::to_string(s.tensor));
    f.emplace_back("grad_tensor", std::to_string(s.grad_tensor));
  }
  return f;
}

std::string track_name(uint32_t tid) {
  if (is_device_track(tid)) return "stream " + std::to_string(track_stream(tid)) + " ";
  return "host thread " + std::to_string(tid);
}

Fields payload_fields(const DeviceWork& w) {
  Fields f;
  if (w.correlation) f.emplace_back("correlation", std::to_string(w.correlation));
  f.emplace_back("device", std::to_string(w.device));
  if (w.stream >= 0) f.emplace_back("stream", std::to_string(w.stream));
  if (w.event >= 0) f.emplace_back("event", std::to_string(w.event));
  if (w.bytes) f.emplace_back("bytes", std::to_string(w.bytes));
  if (w.flops) {
    std::ostringstream o;
    o << w.flops;
    f.emplace_back("flops", o.str());
  }
  if (*w.math) f.emplace_back("math", w.math);
  if (w.addr) f.emplace_back("addr", std::to_string(w.addr));
  return f;
}

Fields payload_fields(const DeviceMemory& m) {
  std::ostringstream addr;
  addr << "0x" << std::hex << m.addr;
  Fields f = {{"action", m.action}};
  f.emplace_back("device", std::to_string(m.device));
  f.emplace_back("stream", std::to_string(m.stream));
  f.emplace_back("addr", addr.str());
  f.emplace_back("size", std::to_string(m.size));
  f.emplace_back("allocated", std::to_string(m.allocated));
  f.emplace_back("reserved", std::to_string(m.reserved));
  return f;
}

std::string compile_id_text(int32_t frame_id, int32_t compile_index) {
  return std::to_string(frame_id) + "/" + std::to_string(compile_index);
}

std::string decision_text(const AutogradDecision& d) {
  std::string s = std::string("grad mode ") + (d.grad_mode ? "on" : "off") + ", " +
                  (d.requires_grad ? "an input requires grad" : "no input requires grad") + " -> ";
  if (!d.records()) return s + "no graph is recorded";
  return s + "records " + (d.node && *d.node ? d.node : "a backward node");
}

std::string sum_text(const EngineStep& s) {
  if (s.sum_none) return "None";
  std::ostringstream o;
  o << "[";
  for (size_t i = 0; i < s.sum.size(); ++i) o << (i ? ", " : "") << s.sum[i];
  if (s.sum_truncated) o << ", ...";
  o << "]";
  return o.str();
}

}  // namespace ipt::trace

namespace ipt::trace {
// A million loaded events must fit the GUI's memory budget: keep an Event at 200 bytes.
static_assert(sizeof(Event) <= 200, "an Event grew past 200 bytes");
bool is_violation(std::string_view kind) {
  return kind == "mutated_without_annotation" || kind == "alias_without_annotation" || kind == "outputs_alias";
}

bool SchemaCheck::violation() const {
  for (const auto& f : findings)
    if (is_violation(f.kind)) return true;
  return false;
}

Fields payload_fields(const SchemaCheck& c) {
  Fields f = {{"op", c.op}};
  if (c.findings.empty()) f.emplace_back("found", "nothing written or aliased");
  for (const auto& x : c.findings) f.emplace_back(x.kind, std::string(x.argument) + ": " + x.message);
  return f;
}

const char* compile_artifact_kind_name(CompileArtifactKind k) {
  switch (k) {
    case CompileArtifactKind::Frame: return "frame";
    case CompileArtifactKind::Graph: return "graph";
    case CompileArtifactKind::Guards: return "guards";
    case CompileArtifactKind::Recompile: return "recompile";
    case CompileArtifactKind::GraphBreak: return "graph_break";
    case CompileArtifactKind::AotForward: return "aot_forward";
    case CompileArtifactKind::AotBackward: return "aot_backward";
    case CompileArtifactKind::Fusion: return "fusion";
    case CompileArtifactKind::OutputCode: return "output_code";
  }
  return "?";
}

Fields payload_fields(const CompileArtifact& a) {
  Fields f = {{"artifact", compile_artifact_kind_name(a.kind)}, {"compile", a.compile_id}};
  if (a.line) f.emplace_back("at", std::string(a.file) + ":" + std::to_string(a.line));
  const size_t nl = a.text.find('\n');
  f.emplace_back("text", nl == std::string::npos ? a.text : a.text.substr(0, nl) + " ...");
  return f;
}

const char* fusion_action_name(FusionAction a) {
  switch (a) {
    case FusionAction::StartsKernel: return "starts";
    case FusionAction::FusedInto: return "fused";
    case FusionAction::FusedReduction: return "reduction";
    case FusionAction::NotFused: return "not_fused";
  }
  return "?";
}

Fields payload_fields(const FusionDecisions& f) {
  Fields out = {{"compile", compile_id_text(f.frame_id, f.compile_index)},
                {"graph", f.graph == 0 ? "forward" : "backward"}};
  for (const FusionDecision& d : f.decisions) {
    std::string v = fusion_action_name(d.action);
    if (d.kernel[0]) v += std::string(" ") + d.kernel;
    if (!d.reason.empty()) v += ": " + d.reason;
    out.emplace_back(d.node, std::move(v));
  }
  return out;
}

Fields payload_fields(const Recompile& r) {
  Fields out = {{"compile", compile_id_text(r.frame_id, r.compile_index)}};
  for (const GuardFailure& f : r.failures)
    out.emplace_back("failed", compile_id_text(f.frame_id, f.compile_index) + ": " + f.reason);
  return out;
}

Fields payload_fields(const CacheLookup& c) {
  Fields out = {{"lookup", c.hit ? "hit" : "miss"}};
  if (c.hit) out.emplace_back("compile", compile_id_text(c.frame_id, c.compile_index));
  out.emplace_back("guard check", std::to_string(c.check_ns) + " ns");
  out.emplace_back("entries", std::to_string(c.entries));
  return out;
}

}  // namespace ipt::trace

namespace ipt::trace {

const char* engine_action_name(EngineAction a) {
  switch (a) {
    case EngineAction::Unknown: return "unknown";
    case EngineAction::NodeReady: return "node_ready";
    case EngineAction::GradArrived: return "grad_arrived";
    case EngineAction::NodeRuns: return "node_runs";
    case EngineAction::GradWritten: return "grad_written";
    case EngineAction::GradAdded: return "grad_added";
  }
  return "?";
}

int max_payload_number(int version) {
  int max = -1;
#define IPT_MAX_NUMBER(T, FIELDS, number, name, since) \
  if (since <= version && number > max) max = number;
  IPT_PAYLOAD_TYPES(IPT_MAX_NUMBER)
#undef IPT_MAX_NUMBER
  return max;
}

}  // namespace ipt::trace
