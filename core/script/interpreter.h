#pragma once
// Interpreter: runs snippets written in the Python subset on the project's own runtime.
// Globals persist across run() calls (like cells of a notebook) until reset().
// Native modules (torch, ...) are registered by name and imported lazily on `import`.
//
//   ipt::script::Interpreter interp;
//   interp.register_module("torch", [] { return make_torch_module(); });
//   interp.set_output([](std::string_view s) { console += s; });
//   RunResult r = interp.run("import torch\nprint(torch.ones(2))");
//   if (!r.ok) std::cerr << r.format() << "\n";

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/script/object.h"
#include "core/script/value.h"

namespace ipt::script {

class Runtime;

// The outcome of run(): ok, or the uncaught Python exception (or syntax error) with where it
// happened (1-based line/column of the innermost position).
struct RunResult {
  bool ok = true;
  std::string error_kind;     // "RuntimeError", "SyntaxError", ...
  std::string error_message;  // str(exception)
  int line = 0, col = 0;
  std::string source_line;    // the text of that line (no newline)
  std::vector<TracebackEntry> traceback;  // outermost call first; last == (line, col)

  // "line 3, column 9: SyntaxError: invalid syntax (expected ':' after 'if' condition)"
  std::string format() const;
  // Python's last traceback line: "RuntimeError: message" (just the kind when no message).
  std::string exception_line() const;
  explicit operator bool() const { return ok; }
};

class Interpreter {
 public:
  using OutputSink = std::function<void(std::string_view)>;
  using StatementHook = std::function<void(int line, int col)>;
  using ModuleFactory = std::function<Value()>;

  Interpreter();
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // Parses and runs a snippet. Never throws; errors are in the result.
  RunResult run(std::string_view source, std::string_view filename = "<snippet>");
  // Parses only (syntax check for editors). Never throws.
  static RunResult check_syntax(std::string_view source);

  // `import name` / `from name import x` look modules up here; the factory runs once, on
  // first import. Dotted names ("torch.nn") may be registered separately; otherwise
  // `import torch.nn` imports torch and reads its attribute nn.
  void register_module(const std::string& name, ModuleFactory factory);
  bool has_module(const std::string& name) const;
  // A new exception kind native code may raise by name (e.g. "OutOfMemoryError" under
  // "RuntimeError"). It becomes catchable by `except <parent>`.
  void register_exception(const std::string& name, const std::string& parent = "Exception");

  // Where print() writes. Default: stdout.
  void set_output(OutputSink sink);
  // Called before each statement runs (and before each loop test/iteration of while/for).
  void set_statement_hook(StatementHook hook);
  // Writes text through the output sink (for native code that prints).
  void write(std::string_view text);

  // Globals of the snippet namespace.
  void set_global(const std::string& name, Value value);
  std::optional<Value> get_global(const std::string& name) const;
  void reset();  // drops all globals and imported modules (registrations stay)
  // Adds or replaces a builtin (visible in every snippet unless shadowed).
  void set_builtin(const std::string& name, Value value);

  // Limits. Script call depth (RecursionError), statements per run (0 = unlimited; the run
  // then stops with KeyboardInterrupt, which `except` cannot catch).
  void set_max_call_depth(int depth);
  void set_step_limit(uint64_t max_statements);
  // Thread-safe: asks the running snippet to stop at its next statement (KeyboardInterrupt).
  void request_stop();

  Runtime& runtime() { return *rt_; }

 private:
  std::unique_ptr<Runtime> rt_;
};

}  // namespace ipt::script
