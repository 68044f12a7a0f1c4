#pragma once
// Interpreter: runs real Python (CPython 3.11, embedded) with the project's own `torch`
// package. Globals persist across run() calls of one Interpreter (like cells of a
// notebook); every Interpreter has its own namespace, all share the process's CPython.
//
//   ipt::python::Interpreter py;
//   py.set_output([](std::string_view s) { console += s; });
//   RunResult r = py.run("import torch\nprint(torch.ones(2))", "prog.py");
//   if (!r.ok) std::cerr << r.traceback;
//
// Note [What a running program records]
// While the trace recorder is on, CPython's tracing hook reports each line of the program
// (only frames of the program's own file, not of the torch package) as a "statement"
// event with its line and column (from the code object's positions), and after each
// top-level statement every module-level name newly bound to a tensor as a "binding"
// event: a tensor snapshot whose label is the Python name. Views label tensors from those
// events instead of re-reading the source.

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace ipt::python {

// The outcome of run(): ok, or the uncaught exception (or syntax error) and where it
// happened in the program (1-based line/column of the innermost frame in its file).
struct RunResult {
  bool ok = true;
  std::string error_kind;     // "RuntimeError", "SyntaxError", "KeyboardInterrupt", ...
  std::string error_message;  // str(exception)
  int line = 0, col = 0;      // in the program's own lines (1 = its first line)
  std::string source_line;    // the text of that line (no newline)
  std::string traceback;      // what CPython prints: "Traceback (most recent call last):\n..."

  // Python's last traceback line: "RuntimeError: message" (just the kind when no message).
  std::string exception_line() const;
  explicit operator bool() const { return ok; }
};

class Interpreter {
 public:
  using OutputSink = std::function<void(std::string_view)>;

  Interpreter();
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // Compiles and runs `source` as the file `filename` in this interpreter's namespace, its
  // first line being the file's line `first_line` (a lesson step is part of its lesson file:
  // tracebacks name the file's own lines). Never throws; errors are in the result, with
  // RunResult::line counted in `source`. Any thread may call it (it takes the GIL).
  RunResult run(std::string_view source, std::string_view filename = "<snippet>", int first_line = 1);
  // A program run from a file sees its path as __file__, as `python FILE` gives it.
  void set_main_file(std::string_view path);

  // Where print() (sys.stdout) writes during run(). Default: the process's stdout.
  void set_output(OutputSink sink) { output_ = std::move(sink); }
  // Where sys.stderr writes during run() (warnings, TORCH_LOGS). Default: the process's stderr.
  void set_error_output(OutputSink sink) { error_output_ = std::move(sink); }
  // Thread-safe: the running program gets KeyboardInterrupt at its next bytecode boundary.
  void request_stop();
  bool running() const { return running_.load(); }

  // Starts CPython (once per process; run() calls it too). `python/` of the project comes
  // first on sys.path, so `import torch` is always this project's package.
  static void initialize();
  // The folder holding the `torch` package (python/ of the project).
  static std::string package_dir();

 private:
  struct State;
  std::unique_ptr<State> state_;
  OutputSink output_;
  OutputSink error_output_;
  RunResult run_with_gil(std::string_view source, std::string_view filename, int first_line);

  std::atomic<bool> running_{false};
  std::atomic<unsigned long> thread_id_{0};
  std::atomic<bool> stop_requested_{false};
};

}  // namespace ipt::python
