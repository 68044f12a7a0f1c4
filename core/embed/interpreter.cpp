#include "core/embed/interpreter.h"
#include "core/embed/modeled_time.h"

#include <Python.h>
#include <frameobject.h>
#include <pybind11/embed.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <array>
#include <cstdint>
#include <mutex>
#include <vector>

#include "core/python/bindings.h"
#include "core/tensor/tensor_trace.h"
#include "core/trace/recorder.h"
#include "core/util/interrupt.h"
#include "core/util/utf8.h"

namespace py = pybind11;
namespace fs = std::filesystem;

namespace ipt::python {

std::string RunResult::exception_line() const {
  if (error_message.empty()) return error_kind;
  return error_kind + ": " + error_message;
}

namespace {

// sys.stdout while a program runs.
struct Writer {
  Interpreter::OutputSink* sink;
  std::ostream* fallback = &std::cout;  // where text goes when there is no sink
  // As CPython's UTF-8 stdout: a str that is not valid Unicode (a lone surrogate) raises
  // UnicodeEncodeError; a non-str is a TypeError. Returns the characters written.
  size_t write(py::handle obj) {
    if (!PyUnicode_Check(obj.ptr()))
      throw py::type_error(std::string("write() argument must be str, not ") + Py_TYPE(obj.ptr())->tp_name);
    Py_ssize_t n = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(obj.ptr(), &n);
    if (!utf8) throw py::error_already_set();
    const std::string_view s(utf8, static_cast<size_t>(n));
    if (*sink) (*sink)(s);
    else *fallback << s;
    return static_cast<size_t>(PyUnicode_GetLength(obj.ptr()));
  }
  void flush() {
    if (!*sink) fallback->flush();
  }
};

// What the tracing hook needs while one program runs (see Note [What a running program records]).
struct Tracer {
  PyObject* filename = nullptr;  // the program's file name (borrowed from its code object)
  PyObject* globals = nullptr;
  int line_offset = 0;  // the program's line 1 is the file's line line_offset + 1
  int line_count = 0;   // lines of the program (a lesson step is part of its file)

  // Module-level name (a reference to the globals' key object) -> tensor id last recorded. A
  // hook call looks the names up by the key objects' identity (the compiler interns them), and by
  // their text only for a key object not seen before.
  struct Bound {
    PyObject* key;
    uint64_t id;
  };
  std::vector<Bound> bound;

  // The line and column of recent (code, instruction) pairs: PyCode_Addr2Location walks the code
  // object's location table from its start on every call. A cached code object is kept alive
  // (a reference) so that its address cannot come back as another code object's.
  struct Location {
    PyCodeObject* code = nullptr;
    int lasti = -1, line = 0, col = 0;
  };
  std::array<Location, 256> locations{};

  Tracer() = default;
  Tracer(const Tracer&) = delete;
  Tracer& operator=(const Tracer&) = delete;
  ~Tracer() {  // the GIL is held: the tracer lives in run_with_gil
    for (Bound& b : bound) Py_DECREF(b.key);
    for (Location& l : locations) Py_XDECREF(l.code);
  }

  Location location(PyCodeObject* code, int lasti) {
    Location& slot =
        locations[(reinterpret_cast<uintptr_t>(code) / 16 + static_cast<uintptr_t>(lasti) * 7) % locations.size()];
    if (slot.code == code && slot.lasti == lasti) return slot;
    int line = 0, col = 0, end_line = 0, end_col = 0;
    if (!PyCode_Addr2Location(code, lasti, &line, &col, &end_line, &end_col)) line = 0;
    Py_INCREF(code);
    Py_XDECREF(slot.code);
    slot = {code, lasti, line, col};
    return slot;
  }

  Bound* bound_entry(PyObject* key) {
    for (Bound& b : bound)
      if (b.key == key) return &b;
    for (Bound& b : bound)
      if (PyUnicode_Compare(b.key, key) == 0) return &b;
    return nullptr;
  }

  bool in_program(PyFrameObject* frame) const {
    PyCodeObject* code = PyFrame_GetCode(frame);
    bool same = code->co_filename == filename || PyUnicode_Compare(code->co_filename, filename) == 0;
    Py_DECREF(code);
    return same;
  }

  void record_bindings() {
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(globals, &pos, &key, &value)) {
      if (!is_tensor_object(value) || !PyUnicode_Check(key)) continue;
      const Tensor& t = unpack(value);
      const uint64_t id = t.impl()->id();
      Bound* b = bound_entry(key);
      if (b && b->id == id) continue;
      const char* name = PyUnicode_AsUTF8(key);
      if (!name) {
        PyErr_Clear();
        continue;
      }
      if (name[0] == '_') continue;
      if (b) {
        b->id = id;
      } else {
        Py_INCREF(key);
        bound.push_back({key, id});
      }
      trace::Recorder::current().instant(trace::Category::Script, "binding", tensor_meta(t, trace::intern(name)));
    }
  }
};

int trace_hook(PyObject* obj, PyFrameObject* frame, int what, PyObject*) {
  auto* tracer = reinterpret_cast<Tracer*>(PyCapsule_GetPointer(obj, "ipt.tracer"));
  if (!tracer || !trace::tracing_enabled()) return 0;
  if (what != PyTrace_LINE && what != PyTrace_RETURN) return 0;
  if (!tracer->in_program(frame)) return 0;
  PyObject* frame_globals = PyFrame_GetGlobals(frame);  // a new reference
  const bool top_level = frame_globals == tracer->globals;
  Py_DECREF(frame_globals);
  if (top_level) {
    PyCodeObject* code = PyFrame_GetCode(frame);
    const bool module_code = code->co_name && PyUnicode_CompareWithASCIIString(code->co_name, "<module>") == 0;
    Py_DECREF(code);
    if (module_code) tracer->record_bindings();
  }
  if (what == PyTrace_LINE) {
    PyCodeObject* code = PyFrame_GetCode(frame);
    const Tracer::Location at = tracer->location(code, PyFrame_GetLasti(frame));
    Py_DECREF(code);
    int line = at.line;
    const int col = at.col;
    if (line <= 0) line = PyFrame_GetLineNumber(frame);
    // Lines in the program's own terms; a line of an earlier step of the same lesson file
    // (a function it defined) is not one of this program's lines.
    line -= tracer->line_offset;
    if (line >= 1 && line <= tracer->line_count)
      trace::Recorder::current().instant(trace::Category::Script, "statement", trace::ScriptLine{line, col + 1});
  }
  return 0;
}

std::string str_of(PyObject* o) {
  if (!o) return "";
  PyObject* s = PyObject_Str(o);
  if (!s) {
    PyErr_Clear();
    return "<unprintable>";
  }
  const char* c = PyUnicode_AsUTF8(s);
  std::string out = c ? c : "";
  Py_DECREF(s);
  return out;
}

std::string line_of(std::string_view source, int line) {
  int k = 1;
  size_t start = 0;
  while (k < line && start < source.size()) {
    size_t nl = source.find('\n', start);
    if (nl == std::string_view::npos) return "";
    start = nl + 1;
    ++k;
  }
  size_t end = source.find('\n', start);
  return std::string(source.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
}

std::once_flag g_init_once;
PyThreadState* g_main_state = nullptr;

}  // namespace

// The program's namespace: the dict of a module of its own, which is sys.modules["__main__"]
// while the program runs, so that what pickle, multiprocessing and torch.save look up by
// `__main__.Name` (a class the program defines) is found. Plain PyObject*s (new references,
// released with the GIL held): a pybind11 member would have hidden visibility, which
// Interpreter, holding State, cannot.
struct Interpreter::State {
  PyObject* module_ref = PyModule_New("__main__");
  PyObject* globals_ref = module_ref ? Py_NewRef(PyModule_GetDict(module_ref)) : PyDict_New();
  py::dict globals() const { return py::reinterpret_borrow<py::dict>(globals_ref); }
  ~State() {
    Py_XDECREF(globals_ref);
    Py_XDECREF(module_ref);
  }
  State() = default;
  State(const State&) = delete;
  State& operator=(const State&) = delete;
};

std::string Interpreter::package_dir() {
  if (const char* env = std::getenv("IPT_PYTHON_DIR")) return env;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec)
    for (fs::path p = exe.parent_path(); !p.empty() && p != p.root_path(); p = p.parent_path()) {
      // The project's own folder (python/ beside lessons/), not build/python, the copy made
      // for a system python3 next to its extension module.
      if (fs::exists(p / "python" / "torch" / "__init__.py") && fs::exists(p / "lessons" / "index.yaml"))
        return (p / "python").string();
      if (fs::exists(p / "share" / "inside-pytorch" / "python" / "torch" / "__init__.py"))
        return (p / "share" / "inside-pytorch" / "python").string();
    }
  return "python";
}

void Interpreter::initialize() {
  std::call_once(g_init_once, [] {
    if (Py_IsInitialized()) return;  // imported from a Python that is already running
    PyConfig config;
    PyConfig_InitPythonConfig(&config);
    config.install_signal_handlers = 0;  // Ctrl+C stays the host program's
    config.parse_argv = 0;
    config.use_environment = 0;  // PYTHONPATH / PYTHONHOME of the shell do not apply
    config.user_site_directory = 0;
    config.write_bytecode = 0;
    PyConfig_SetString(&config, &config.program_name, L"/usr/bin/python3");
    PyStatus st = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    if (PyStatus_Exception(st)) {
      std::fprintf(stderr, "error: could not start the embedded Python: %s\n", st.err_msg ? st.err_msg : "?");
      std::exit(2);
    }
    {
      py::module_ sys = py::module_::import("sys");
      sys.attr("path").attr("insert")(0, package_dir());
      sys.attr("dont_write_bytecode") = true;
      PyObject* c = init_torch_c();
      if (!c) {
        PyErr_Print();
        std::exit(2);
      }
      PyDict_SetItemString(PyImport_GetModuleDict(), "torch._C", c);
      // Not py::module_::import("torch._C"): that would run torch/__init__.py here, outside any
      // program, where an error in it could not be reported as the program's ImportError.
      py::class_<Writer>(py::reinterpret_borrow<py::module_>(c), "_Writer")
          .def("write", &Writer::write)
          .def("flush", &Writer::flush)
          .def_property_readonly("encoding", [](const Writer&) { return "utf-8"; })
          .def("isatty", [](const Writer&) { return false; });
      Py_DECREF(c);
    }
    g_main_state = PyEval_SaveThread();  // every run() takes the GIL itself
  });
}

Interpreter::Interpreter() {
  initialize();
  py::gil_scoped_acquire gil;
  state_ = std::make_unique<State>();
  state_->globals()["__name__"] = "__main__";
  state_->globals()["__builtins__"] = py::module_::import("builtins");
  // A new namespace is a new program (Note [Each run on a fresh device]): torch.compile's
  // caches and counters start empty, so compile ids and generated names are those a new
  // process would print.
  py::dict modules = py::module_::import("sys").attr("modules");
  if (modules.contains("torch._dynamo.convert_frame")) modules["torch._dynamo.convert_frame"].attr("reset")();
  if (modules.contains("torch._logging")) modules["torch._logging"].attr("_reset")();
}

void Interpreter::set_main_file(std::string_view path) {
  py::gil_scoped_acquire gil;
  state_->globals()["__file__"] = py::str(std::string(path));
}

Interpreter::~Interpreter() {
  py::gil_scoped_acquire gil;
  state_->globals().clear();
  state_.reset();
}

void Interpreter::request_stop() {
  stop_requested_ = true;
  if (!running_) return;
  // A running kernel takes the request and throws KeyboardInterrupt (Note [Stopping a
  // kernel]); Python code gets it asynchronously only if no kernel took it first.
  request_interrupt();
  // running_ is read again under the GIL, which the program's thread holds from the end of its
  // evaluation until it clears running_: a program that has just finished gets no exception
  // that would go off in whatever that thread runs next.
  PyGILState_STATE g = PyGILState_Ensure();
  if (running_ && take_interrupt()) PyThreadState_SetAsyncExc(thread_id_.load(), PyExc_KeyboardInterrupt);
  PyGILState_Release(g);
}

namespace {

// Tracebacks show the program's lines even when it is not a file on disk (a lesson step,
// the playground). The steps of one lesson file share its entry: each fills in its own lines.
void cache_source_lines(std::string_view source, const std::string& filename, int first_line) {
  py::dict cache = py::module_::import("linecache").attr("cache");
  py::str key(filename);
  py::list lines;
  if (first_line > 1 && cache.contains(key)) {
    py::object old = cache[key];
    if (py::isinstance<py::tuple>(old) && py::len(old) == 4 && py::isinstance<py::list>(old[py::int_(2)]))
      lines = py::list(old[py::int_(2)]);
  }
  // Bytes that are not UTF-8 show as U+FFFD here; the compiler reports them as CPython does.
  py::object text = py::reinterpret_steal<py::object>(
      PyUnicode_DecodeUTF8(source.data(), static_cast<Py_ssize_t>(source.size()), "replace"));
  if (!text) throw py::error_already_set();
  py::list own = text.attr("splitlines")(true);
  const size_t start = static_cast<size_t>(first_line - 1);
  while (py::len(lines) < start + py::len(own)) lines.append(py::str("\n"));
  for (size_t i = 0; i < py::len(own); ++i) lines[start + i] = own[i];
  cache[key] = py::make_tuple(source.size(), py::none(), lines, key);
}

// CPython reads a program file as UTF-8 (PEP 3120) and refuses other bytes before compiling;
// compiling from a string would let them through in comments. Sets its SyntaxError and
// returns true when `src` is not UTF-8 (a coding declaration is not honoured here).
bool refuse_non_utf8(const std::string& src, const std::string& filename) {
  const std::optional<InvalidUtf8> bad = find_invalid_utf8(src);
  if (!bad) return false;
  char byte[8];
  std::snprintf(byte, sizeof byte, "\\x%02x", bad->byte);
  const std::string msg = std::string("Non-UTF-8 code starting with '") + byte + "' in file " + filename + " on line " +
                          std::to_string(bad->line) +
                          ", but no encoding declared; see https://peps.python.org/pep-0263/ for details";
  PyErr_SetString(PyExc_SyntaxError, msg.c_str());  // no location, as CPython prints it
  return true;
}

}  // namespace

RunResult Interpreter::run(std::string_view source, std::string_view filename, int first_line) {
  py::gil_scoped_acquire gil;
  if (state_->module_ref) PyDict_SetItemString(PyImport_GetModuleDict(), "__main__", state_->module_ref);
  py::object old_stdout = py::module_::import("sys").attr("stdout");
  try {
    ModeledTime modeled_time;
    return run_with_gil(source, filename, first_line);
  } catch (const std::exception& e) {
    // Only the host's own preparation can fail here (the program's errors are in the result);
    // it is reported as the program's error all the same, never thrown.
    running_ = false;
    PyEval_SetTrace(nullptr, nullptr);
    py::module_::import("sys").attr("stdout") = old_stdout;
    RunResult r;
    r.ok = false;
    r.error_kind = "RuntimeError";
    r.error_message = e.what();
    r.traceback = r.exception_line() + "\n";
    PyErr_Clear();
    return r;
  }
}

RunResult Interpreter::run_with_gil(std::string_view source, std::string_view filename, int first_line) {
  RunResult r;
  stop_requested_ = false;
  clear_interrupt();
  first_line = std::max(first_line, 1);
  py::module_ sys = py::module_::import("sys");
  py::object old_stdout = sys.attr("stdout");
  py::object old_stderr = sys.attr("stderr");
  Writer writer{&output_};
  Writer error_writer{&error_output_, &std::cerr};
  sys.attr("stdout") = py::cast(writer);
  sys.attr("stderr") = py::cast(error_writer);
  const std::string fname(filename);
  cache_source_lines(source, fname, first_line);

  // Blank lines before the program put its lines where they are in its file, so tracebacks
  // name the file's own lines (RunResult::line stays in the program's terms).
  const int offset = first_line - 1;
  const std::string src = std::string(static_cast<size_t>(offset), '\n') + std::string(source);
  PyObject* code = refuse_non_utf8(src, fname)
                       ? nullptr
                       : Py_CompileStringExFlags(src.c_str(), fname.c_str(), Py_file_input, nullptr, -1);
  PyObject* result = nullptr;
  Tracer tracer;
  tracer.line_offset = offset;
  tracer.line_count = static_cast<int>(std::count(source.begin(), source.end(), '\n')) + 1;
  if (code) {
    tracer.filename = reinterpret_cast<PyCodeObject*>(code)->co_filename;
    tracer.globals = state_->globals_ref;
    // The hook only while recording: a trace function slows every bytecode of CPython's
    // evaluation loop, and Stop does not need it (request_stop raises asynchronously).
    const bool hooked = trace::tracing_enabled();
    if (hooked) {
      PyObject* capsule = PyCapsule_New(&tracer, "ipt.tracer", nullptr);
      PyEval_SetTrace(trace_hook, capsule);
      Py_DECREF(capsule);
    }
    thread_id_ = PyThread_get_thread_ident();
    running_ = true;
    if (stop_requested_) PyErr_SetString(PyExc_KeyboardInterrupt, "");
    else result = PyEval_EvalCode(code, state_->globals_ref, state_->globals_ref);
    running_ = false;
    if (hooked) PyEval_SetTrace(nullptr, nullptr);
    if (result && trace::tracing_enabled()) tracer.record_bindings();
    Py_DECREF(code);
  }
  if (!result) {
    r.ok = false;
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb) PyException_SetTraceback(value, tb);
    r.error_kind = reinterpret_cast<PyTypeObject*>(type)->tp_name;
    if (const char* dot = std::strrchr(r.error_kind.c_str(), '.')) r.error_kind = dot + 1;
    if (PyErr_GivenExceptionMatches(type, PyExc_SyntaxError)) {
      py::object v = py::reinterpret_borrow<py::object>(value);
      r.error_message = str_of(py::getattr(v, "msg", py::none()).ptr());
      if (py::object ln = py::getattr(v, "lineno", py::none()); !ln.is_none()) r.line = ln.cast<int>();
      if (py::object off = py::getattr(v, "offset", py::none()); !off.is_none()) r.col = off.cast<int>();
    } else {
      r.error_message = str_of(value);
      // The innermost frame in the program's own file.
      for (PyObject* t = tb; t; t = reinterpret_cast<PyObject*>(reinterpret_cast<PyTracebackObject*>(t)->tb_next)) {
        auto* tbo = reinterpret_cast<PyTracebackObject*>(t);
        PyCodeObject* c = PyFrame_GetCode(tbo->tb_frame);
        if (PyUnicode_CompareWithASCIIString(c->co_filename, fname.c_str()) == 0) {
          int line = 0, col = 0, el = 0, ec = 0;
          if (PyCode_Addr2Location(c, tbo->tb_lasti, &line, &col, &el, &ec) && line > 0) {
            r.line = line;
            r.col = col + 1;
          } else {
            r.line = tbo->tb_lineno;
          }
        }
        Py_DECREF(c);
      }
    }
    r.line = r.line > offset ? r.line - offset : 0;
    if (r.line == 0) r.col = 0;
    r.source_line = line_of(source, r.line);
    try {
      py::object fmt = py::module_::import("traceback").attr("format_exception");
      py::object lines = fmt(py::handle(type), py::handle(value), tb ? py::handle(tb) : py::handle(Py_None));
      for (auto l : lines) r.traceback += l.cast<std::string>();
    } catch (py::error_already_set&) {
      r.traceback = r.exception_line() + "\n";
    }
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
  } else {
    Py_DECREF(result);
  }
  sys.attr("stdout") = old_stdout;
  sys.attr("stderr") = old_stderr;
  return r;
}

}  // namespace ipt::python
