// torch._C._dynamo: the cache of compiled frames and the hook that consults it.
//
// Note [The cache of compiled frames]
// Each code object torch.compile was asked to compile (a function's, or a resume function's
// after a graph break) has a list of entries, newest first: the guards of one compile and the
// Python function that runs the compiled code for a frame's locals. When the hook sees a frame
// of such a code object it tries the entries in order; the first whose guards hold runs (a
// hit). When none holds, the Python callback (torch/_dynamo/convert_frame.py) is given the
// frame's locals and every entry's first failure (a GuardFailure: "0/0: tensor 'L['x']' size
// mismatch ...", with the guard, its source, expected and actual, and its guard-tree line)
// and compiles anew, or says the frame is to run as plain Python from now on. The callback
// and the compiled code themselves run with the hook still installed (a resume function
// called by compiled code is a frame to compile too), but the callback's own frames are never
// looked up: the thread is marked as inside the compiler while it runs.
#include <chrono>
#include <unordered_map>

#include "core/dynamo/eval_frame_hook.h"
#include "core/dynamo/guard_manager.h"
#include "core/trace/recorder.h"

namespace py = pybind11;

namespace ipt::python::dynamo {

namespace {

struct CacheEntry {
  std::shared_ptr<RootGuardManager> guards;
  py::object run;  // run(locals) -> the frame's result
  std::string compile_id;
  int64_t hits = 0;
  int32_t frame_id = -1, compile_index = -1;  // compile_id's two numbers
};

// "0/1" -> frame 0, compile 1 (both -1 when it is not of that form).
void set_compile_numbers(CacheEntry& e) {
  const size_t slash = e.compile_id.find('/');
  if (slash == std::string::npos) return;
  try {
    e.frame_id = std::stoi(e.compile_id.substr(0, slash));
    e.compile_index = std::stoi(e.compile_id.substr(slash + 1));
  } catch (const std::exception&) {
    e.frame_id = e.compile_index = -1;
  }
}

struct CodeCache {
  py::object code;  // keeps the code object (and so its address) alive
  std::vector<CacheEntry> entries;
  bool skip = false;
  int64_t guard_checks = 0;
  int64_t guard_ns = 0;       // all guard checks of this code, in ns
  int64_t last_guard_ns = 0;  // the last call's
};

std::unordered_map<PyCodeObject*, CodeCache>& caches() {
  static auto* c = new std::unordered_map<PyCodeObject*, CodeCache>();
  return *c;
}
py::object& callback() {
  static auto* c = new py::object();
  return *c;
}
int g_active_calls = 0;
thread_local bool t_in_compiler = false;

struct InCompiler {
  InCompiler() { t_in_compiler = true; }
  ~InCompiler() { t_in_compiler = false; }
};

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

PyObject* handle_frame(PyCodeObject* code, PyObject* locals, PyObject* globals, PyObject* builtins) {
  if (t_in_compiler) return IPT_RUN_FRAME_DEFAULT;
  auto it = caches().find(code);
  if (it == caches().end() || it->second.skip) return IPT_RUN_FRAME_DEFAULT;
  CodeCache& cache = it->second;
  IPT_PY_BEGIN
  // The guard check is a slice of its own on the Timeline (Note [What torch.compile records]).
  const bool traced = trace::tracing_enabled();
  if (traced) trace::Recorder::current().begin(trace::Category::Compile, "guard check");
  const int64_t start = now_ns();
  CacheEntry* hit = nullptr;
  for (CacheEntry& e : cache.entries)
    if (e.guards->check_frame(locals, globals, false).empty()) {
      hit = &e;
      break;
    }
  cache.last_guard_ns = now_ns() - start;
  if (traced) trace::Recorder::current().end(trace::Category::Compile, "guard check");
  cache.guard_ns += cache.last_guard_ns;
  ++cache.guard_checks;
  py::object run;
  if (traced) {  // Note [What torch.compile records] (python/torch/_dynamo/trace_events.py)
    trace::CacheLookup lookup{hit != nullptr, hit ? hit->frame_id : -1, hit ? hit->compile_index : -1,
                              cache.last_guard_ns, static_cast<int32_t>(cache.entries.size())};
    trace::Recorder::current().instant(
        trace::Category::Compile, trace::intern(hit ? "cache hit [" + hit->compile_id + "]" : "cache miss"), lookup);
  }
  if (hit) {
    ++hit->hits;
    run = hit->run;
  } else {
    py::list failures;
    for (CacheEntry& e : cache.entries)
      failures.append(py::cast(EntryFailure{e.compile_id, e.guards->check_frame_parts(locals, globals)}));
    py::object compiled;
    {
      InCompiler in;
      compiled = callback()(py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(code)),
                            py::reinterpret_borrow<py::dict>(locals), py::reinterpret_borrow<py::dict>(globals),
                            py::reinterpret_borrow<py::dict>(builtins), failures);
    }
    if (compiled.is_none()) {  // nothing to compile: plain Python from now on
      cache.skip = true;
      return IPT_RUN_FRAME_DEFAULT;
    }
    if (py::isinstance<py::str>(compiled)) return IPT_RUN_FRAME_DEFAULT;  // this call only (cache full)
    auto t = compiled.cast<py::tuple>();
    CacheEntry e{t[0].cast<std::shared_ptr<RootGuardManager>>(), t[1], t[2].cast<std::string>(), 1};
    set_compile_numbers(e);
    run = e.run;
    cache.entries.insert(cache.entries.begin(), std::move(e));
  }
  return run(py::reinterpret_borrow<py::dict>(locals)).release().ptr();
  IPT_PY_END
}

// Calls fn(*args, **kwargs) with the hook installed (nested calls keep it installed).
py::object call_with_capture(py::object fn, py::args args, py::kwargs kwargs) {
  if (g_active_calls++ == 0) ipt_set_frame_handler(handle_frame);
  struct Uninstall {
    ~Uninstall() {
      if (--g_active_calls == 0) ipt_set_frame_handler(nullptr);
    }
  } uninstall;
  return fn(*args, **kwargs);
}

}  // namespace

void init_dynamo(py::module_& torch_c) {
  py::module_ m = torch_c.def_submodule("_dynamo", "TorchDynamo's C++ half: the frame hook, the cache and guards");
  init_guard_manager(m);
  m.def("set_callback", [](py::object cb) { callback() = std::move(cb); });
  m.def("register_code", [](py::object code) {
    IPT_CHECK(PyCode_Check(code.ptr()), TypeError, "register_code() expects a code object");
    auto& c = caches()[reinterpret_cast<PyCodeObject*>(code.ptr())];
    if (!c.code) c.code = std::move(code);
  });
  m.def("call_with_capture", &call_with_capture);
  m.def("reset", [] { caches().clear(); });
  m.def("cache_entries", [](py::object code) {
    py::list out;
    auto it = caches().find(reinterpret_cast<PyCodeObject*>(code.ptr()));
    if (it == caches().end()) return out;
    for (const CacheEntry& e : it->second.entries) out.append(py::make_tuple(e.compile_id, e.guards, e.hits));
    return out;
  });
  m.def("guard_stats", [](py::object code) {
    auto it = caches().find(reinterpret_cast<PyCodeObject*>(code.ptr()));
    if (it == caches().end()) return py::make_tuple(0, 0, 0);
    return py::make_tuple(it->second.guard_checks, it->second.guard_ns, it->second.last_guard_ns);
  });
}

}  // namespace ipt::python::dynamo
