// The Chrome args of each payload type (chrome_args.h).
#include "core/trace/chrome_args.h"

#include <string>
#include <variant>

#include "core/trace/payload_codec.h"

namespace ipt::trace {

namespace {

// The Chrome args of an event: a short readable summary (the full payload, and its seq, are in
// the insidePyTorch part, in the same order). Dispatch steps, most of a trace, show their
// kernel only. Each arg is written with a leading comma, which the caller drops for the first.
struct ChromeArgs {
  JsonText& o;
  void field(const char* k) {
    o.ch(',');
    o.key(k);
  }
  template <typename List>
  void int_list(const char* k, const List& xs) {
    std::string s = "[";
    for (size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + std::to_string(xs[i]);
    field(k);
    o.str(s + "]");
  }
  void operator()(const std::monostate&) {}
  void operator()(const DispatchStep& d) {
    field("kernel");
    o.str(d.kernel);
  }
  void operator()(const TensorMeta& m) {
    if (*m.label) {
      field("label");
      o.str(m.label);
    }
    int_list("sizes", m.sizes);
  }
  void operator()(const StorageInfo& s) {
    field("nbytes");
    o.i64(s.nbytes);
  }
  void operator()(const ScriptLine& l) {
    field("line");
    o.i64(l.line);
  }
  void operator()(const Text& x) {
    field("text");
    o.str(x.text);
  }
  void operator()(const GraphNode& g) {
    field("node");
    o.u64(g.node);
    field("node_name");
    o.str(g.name);
    std::string next;
    for (size_t i = 0; i < g.next.size(); ++i)
      next +=
          (i ? ", " : "") + (g.next[i].valid ? std::to_string(g.next[i].node) + ":" + std::to_string(g.next[i].input_nr)
                                             : std::string("None"));
    field("next");
    o.str(next);
  }
  void operator()(const GraphNodes& g) {
    field("nodes");
    o.u64(g.nodes.size());
  }
  void operator()(const DeviceWork& w) {
    // Kineto's names for the same facts.
    if (w.correlation) {
      field("correlation");
      o.u64(w.correlation);
    }
    field("device");
    o.i64(w.device);
    if (w.stream >= 0) {
      field("stream");
      o.i64(w.stream);
    }
    if (w.event >= 0) {
      field("event");
      o.i64(w.event);
    }
    if (w.bytes) {
      field("bytes");
      o.i64(w.bytes);
    }
    if (w.flops) {
      field("flops");
      o.dbl(w.flops);
    }
    if (w.addr) {
      field("addr");
      o.u64(w.addr);
    }
  }
  void operator()(const DeviceMemory& m) {
    field("action");
    o.str(m.action);
    field("Total Allocated");
    o.i64(m.allocated);
    field("Total Reserved");
    o.i64(m.reserved);
    field("Bytes");
    o.i64(m.size);
  }
  void operator()(const CompileArtifact& a) {
    field("artifact");
    o.str(compile_artifact_kind_name(a.kind));
    field("compile_id");
    o.str(a.compile_id);
    if (a.line) {
      field("line");
      o.i64(a.line);
    }
  }
  void operator()(const FusionDecisions& f) {
    field("compile_id");
    o.str(compile_id_text(f.frame_id, f.compile_index));
    field("graph");
    o.i64(f.graph);
    field("nodes");
    o.u64(f.decisions.size());
  }
  void operator()(const Recompile& r) {
    field("compile_id");
    o.str(compile_id_text(r.frame_id, r.compile_index));
    for (const GuardFailure& f : r.failures) {  // the first reason, as TORCH_LOGS=recompiles leads with it
      field("reason");
      o.str(f.reason);
      break;
    }
    field("failures");
    o.u64(r.failures.size());
  }
  void operator()(const CacheLookup& c) {
    if (c.hit) {
      field("compile_id");
      o.str(compile_id_text(c.frame_id, c.compile_index));
    }
    field("guard_check_ns");
    o.i64(c.check_ns);
    field("entries");
    o.i64(c.entries);
  }
  void operator()(const SchemaCheck& c) {
    field("op");
    o.str(c.op);
    field("findings");
    o.u64(c.findings.size());
    for (const auto& f : c.findings)
      if (is_violation(f.kind)) {
        field("violation");
        o.str(f.message);
        break;
      }
  }
  void operator()(const AutogradDecision& d) {
    field("decision");  // the operator is the enclosing slice's
    o.str(decision_text(d));
  }
  void operator()(const DispatchTable& d) {
    field("op");
    o.str(d.op);
    field("rows");
    o.u64(d.rows.size());
  }
  void operator()(const EngineStep& x) {
    field("node");
    o.u64(x.node);
    field("node_name");
    o.str(x.name);
    if (x.from) {
      field("from");
      o.u64(x.from);
      field("deps_left");
      o.i64(x.deps_left);
    }
    if (x.tensor) {
      field("tensor");
      o.u64(x.tensor);
    }
  }
  void operator()(const EngineRun& r) {
    if (r.root_tensor) {
      field("root_tensor");
      o.u64(r.root_tensor);
    }
    field("what");
    o.str(r.what);
  }
  void operator()(const CompilePhase& c) {
    field("compile_id");
    o.str(compile_id_text(c.frame_id, c.compile_index));
  }
  void operator()(const DynamoReset& r) {
    field("resets");
    o.i64(r.resets);
  }
  void operator()(const KernelDetail& k) {
    std::vector<std::string> seen;  // a repeated key gets a suffix: lda, lda (2)
    for (const auto& [name, value] : k.fields) {
      std::string unique = name;
      for (int n = 2; std::find(seen.begin(), seen.end(), unique) != seen.end(); ++n)
        unique = std::string(name) + " (" + std::to_string(n) + ")";
      seen.push_back(unique);
      o.ch(',');
      o.key(unique);
      o.str(value);
    }
  }
};

// Where a track goes in the Chrome part: the host's threads in process 1; a device's streams,
// as Kineto writes them, in the process numbered by the device, one thread per stream
// (Note [Device tracks] in core/trace/events.h).

}  // namespace

void write_chrome_args(JsonText& o, const Payload& p) { std::visit(ChromeArgs{o}, p); }

}  // namespace ipt::trace
