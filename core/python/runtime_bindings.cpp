// Runtime state from Python: print options, torch.Size, and the trace recorder (so the
// package imported from a system Python can record and export a trace).
#include <algorithm>
#include "core/format/format.h"
#include "core/python/bindings.h"
#include "core/dynamo/guard_manager.h"
#include "core/parallel/parallel.h"
#include "core/trace/recorder.h"
#include "core/trace/trace_json.h"

namespace py = pybind11;

namespace ipt::python {

namespace {
py::object g_size_class;
}

py::object make_size(const std::vector<int64_t>& sizes) {
  py::tuple t(sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) t[i] = py::int_(sizes[i]);
  if (!g_size_class) return t;
  return g_size_class(t);
}

void init_runtime_control(py::module_& m) {
  m.def("_set_size_class", [](py::object cls) { g_size_class = std::move(cls); });
  m.def("_set_printoptions",
        [](int precision, double threshold, int64_t edgeitems, int64_t linewidth, std::optional<bool> sci_mode) {
          IPT_CHECK(precision >= 0, ValueError, "Format specifier missing precision");
          format::print_options() = format::PrintOptions{precision, threshold, edgeitems, linewidth, sci_mode};
        });
  // torch.get_num_threads / set_num_threads: the intra-op thread team (core/parallel/parallel.h).
  m.def("get_num_threads", [] { return get_num_threads(); });
  m.def("set_num_threads", [](py::handle n) {
    IPT_CHECK(PyLong_Check(n.ptr()) && !PyBool_Check(n.ptr()), RuntimeError, "set_num_threads expects an int, but got ",
              Py_TYPE(n.ptr())->tp_name);
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(n.ptr(), &overflow);
    IPT_CHECK(!overflow, ValueError, "Overflow when unpacking long long");
    IPT_CHECK(v >= INT32_MIN && v <= INT32_MAX, ValueError, "Overflow when unpacking long");
    IPT_CHECK(v > 0, RuntimeError, "set_num_threads expects a positive integer");
    // A team of more threads than this is a mistake, not a setting (each is an OS thread).
    IPT_CHECK(v <= 4096, RuntimeError, "set_num_threads: ", v,
              " threads is more than this program runs (at most 4096)");
    set_num_threads(static_cast<int>(v));
  });
  m.def("_trace_enabled", [] { return trace::tracing_enabled(); });
  m.def("_trace_set_enabled", [](bool on) { trace::Recorder::current().set_enabled(on); });
  m.def("_trace_event_count", [] { return trace::Recorder::current().size(); });
  // torch.compile's phases and artifacts (python/torch/_dynamo/trace_events.py).
  // A compile phase's Begin or End, "capture [0/1]", with its typed CompilePhase.
  m.def("_trace_compile_phase", [](bool begin, const std::string& phase, int frame_id, int compile_index) {
    if (!trace::tracing_enabled()) return;
    const char* label = trace::intern(phase + " [" + trace::compile_id_text(frame_id, compile_index) + "]");
    trace::CompilePhase p{trace::intern(phase), frame_id, compile_index};
    if (begin) trace::Recorder::current().begin(trace::Category::Compile, label, p);
    else trace::Recorder::current().end(trace::Category::Compile, label, p);
  });
  m.def("_trace_dynamo_reset", [](int resets) {
    if (trace::tracing_enabled())
      trace::Recorder::current().instant(trace::Category::Compile, "torch._dynamo.reset()", trace::DynamoReset{resets});
  });
  m.def("_trace_compile_artifact", [](const std::string& kind, int frame_id, int compile_index, const std::string& file,
                                      int line, std::string text) {
    if (!trace::tracing_enabled()) return;
    for (int k = 0; k < trace::kNumCompileArtifactKinds; ++k) {
      const auto kk = static_cast<trace::CompileArtifactKind>(k);
      if (kind != trace::compile_artifact_kind_name(kk)) continue;
      std::string label = kind == "graph_break" ? "graph break" : kind;
      std::replace(label.begin(), label.end(), '_', ' ');
      const std::string compile_id = trace::compile_id_text(frame_id, compile_index);
      trace::Recorder::current().instant(trace::Category::Compile, trace::intern(label + " [" + compile_id + "]"),
                                         trace::CompileArtifact{kk, trace::intern(compile_id), trace::intern(file),
                                                                line, std::move(text), frame_id, compile_index});
      return;
    }
    IPT_FAIL(ValueError, "unknown compile artifact kind '", kind, "'");
  });
  // Inductor's scheduler decisions for one lowered graph: (node, action, kernel, reason) tuples,
  // action one of "starts", "fused", "reduction", "not_fused" (trace::FusionDecisions).
  m.def("_trace_compile_fusion",
        [](int frame_id, int compile_index, int graph,
           const std::vector<std::tuple<std::string, std::string, std::string, int, std::string>>& ds) {
          if (!trace::tracing_enabled()) return;
          trace::FusionDecisions f{frame_id, compile_index, graph, {}};
          for (const auto& [node, action, kernel, kernel_index, reason] : ds) {
            int a = 0;
            while (a < trace::kNumFusionActions &&
                   action != trace::fusion_action_name(static_cast<trace::FusionAction>(a)))
              ++a;
            if (a == trace::kNumFusionActions) IPT_FAIL(ValueError, "unknown fusion action '", action, "'");
            f.decisions.push_back(trace::FusionDecision{trace::intern(node), static_cast<trace::FusionAction>(a),
                                                        trace::intern(kernel), reason, kernel_index});
          }
          const std::string id = trace::compile_id_text(frame_id, compile_index);
          trace::Recorder::current().instant(trace::Category::Compile, trace::intern("fusion [" + id + "]"),
                                             std::move(f));
        });
  // Why a compile happened: the torch._C._dynamo.GuardFailure of each cache entry (trace::Recompile).
  m.def("_trace_compile_recompile", [](int frame_id, int compile_index, const std::vector<py::object>& failures) {
    if (!trace::tracing_enabled()) return;
    trace::Recompile r{frame_id, compile_index, {}};
    for (const py::object& o : failures) {
      const auto& e = o.cast<const dynamo::EntryFailure&>();
      trace::GuardFailure f;
      const size_t slash = e.compile_id.find('/');
      if (slash != std::string::npos) {
        f.frame_id = std::atoi(e.compile_id.substr(0, slash).c_str());
        f.compile_index = std::atoi(e.compile_id.substr(slash + 1).c_str());
      }
      f.guard = trace::intern(e.failure.guard);
      f.source = trace::intern(e.failure.source);
      f.expected = e.failure.expected;
      f.actual = e.failure.actual;
      f.tree_line = e.failure.tree_line;
      f.reason = e.failure.reason;
      r.failures.push_back(std::move(f));
    }
    const std::string id = trace::compile_id_text(frame_id, compile_index);
    trace::Recorder::current().instant(trace::Category::Compile, trace::intern("recompile [" + id + "]"), std::move(r));
  });
  m.def("_trace_write", [](const std::string& path, const std::string& title, const std::string& source) {
    trace::TraceMeta meta;
    meta.title = title;
    meta.source = source;
    meta.fields["kind"] = "snippet";
    trace::write_trace_file(path, trace::Recorder::current().events(), meta);
    return trace::Recorder::current().size();
  });
}

}  // namespace ipt::python
