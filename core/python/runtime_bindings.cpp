// Runtime state from Python: print options, torch.Size, and the trace recorder (so the
// package imported from a system Python can record and export a trace).
#include <algorithm>
#include "core/format/format.h"
#include "core/python/bindings.h"
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
  if (!g_size_class) return std::move(t);
  return g_size_class(t);
}

void init_runtime_control(py::module_& m) {
  m.def("_set_size_class", [](py::object cls) { g_size_class = std::move(cls); });
  m.def("_set_printoptions",
        [](int precision, double threshold, int64_t edgeitems, int64_t linewidth, std::optional<bool> sci_mode) {
          IPT_CHECK(precision >= 0, ValueError, "Format specifier missing precision");
          format::print_options() = format::PrintOptions{precision, threshold, edgeitems, linewidth, sci_mode};
        });
  m.def("_trace_enabled", [] { return trace::tracing_enabled(); });
  m.def("_trace_set_enabled", [](bool on) { trace::Recorder::current().set_enabled(on); });
  m.def("_trace_event_count", [] { return trace::Recorder::current().size(); });
  // torch.compile's phases and artifacts (python/torch/_dynamo/trace_events.py).
  m.def("_trace_compile_phase", [](bool begin, const std::string& name) {
    if (!trace::tracing_enabled()) return;
    if (begin) trace::Recorder::current().begin(trace::Category::Compile, trace::intern(name));
    else trace::Recorder::current().end(trace::Category::Compile, trace::intern(name));
  });
  m.def("_trace_compile_mark", [](const std::string& name) {
    if (trace::tracing_enabled()) trace::Recorder::current().instant(trace::Category::Compile, trace::intern(name));
  });
  m.def("_trace_compile_artifact", [](const std::string& kind, const std::string& compile_id, const std::string& file,
                                      int line, std::string text) {
    if (!trace::tracing_enabled()) return;
    for (int k = 0; k < trace::kNumCompileArtifactKinds; ++k) {
      const auto kk = static_cast<trace::CompileArtifactKind>(k);
      if (kind != trace::compile_artifact_kind_name(kk)) continue;
      std::string label = kind == "graph_break" ? "graph break" : kind;
      std::replace(label.begin(), label.end(), '_', ' ');
      trace::Recorder::current().instant(
          trace::Category::Compile, trace::intern(label + " [" + compile_id + "]"),
          trace::CompileArtifact{kk, trace::intern(compile_id), trace::intern(file), line, std::move(text)});
      return;
    }
    IPT_FAIL(ValueError, "unknown compile artifact kind '", kind, "'");
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
