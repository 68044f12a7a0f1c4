// The public Interpreter facade (a thin layer over Runtime) and RunResult formatting.
#include "core/script/interpreter.h"

#include "core/script/parser.h"
#include "core/script/runtime.h"

namespace ipt::script {

using namespace ast;

// ---- RunResult ------------------------------------------------------------------------------

std::string RunResult::format() const {
  if (ok) return "ok";
  return "line " + std::to_string(line) + ", column " + std::to_string(col) + ": " + exception_line();
}

std::string RunResult::exception_line() const {
  if (error_message.empty()) return error_kind;
  return error_kind + ": " + error_message;
}

// ---- source text helpers ------------------------------------------------------------------------

std::string normalize_newlines(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\r') {
      out += '\n';
      if (i + 1 < s.size() && s[i + 1] == '\n') ++i;
    } else if (s[i] == '\0') {
      out += ' ';
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string line_text(const std::string& src, int line) {
  if (line <= 0) return {};
  size_t pos = 0;
  for (int l = 1; l < line; ++l) {
    pos = src.find('\n', pos);
    if (pos == std::string::npos) return {};
    ++pos;
  }
  size_t end = src.find('\n', pos);
  return src.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
}

// ---- Interpreter (public facade) ---------------------------------------------------------------------

Interpreter::Interpreter() : rt_(std::make_unique<Runtime>(this)) { set_global("__name__", Value("__main__")); }
Interpreter::~Interpreter() = default;

RunResult Interpreter::run(std::string_view source, std::string_view filename) {
  try {
    return rt_->run(source, filename);
  } catch (...) {
    RunResult r;
    r.ok = false;
    r.error_kind = "RuntimeError";
    r.error_message = "internal error";
    return r;
  }
}

RunResult Interpreter::check_syntax(std::string_view source) {
  RunResult result;
  try {
    std::string src = normalize_newlines(source);
    auto prog = parse_program(src, "<snippet>");
    SymbolTable syms;
    resolve_program(*prog, syms);
  } catch (const SyntaxErrorInfo& e) {
    result.ok = false;
    result.error_kind = e.kind;
    result.error_message = e.message;
    result.line = e.line;
    result.col = e.col;
    result.source_line = line_text(normalize_newlines(source), e.line);
  } catch (...) {
    result.ok = false;
    result.error_kind = "MemoryError";
  }
  return result;
}

void Interpreter::register_module(const std::string& name, ModuleFactory factory) {
  rt_->factories[name] = std::move(factory);
  rt_->modules.erase(name);
}
bool Interpreter::has_module(const std::string& name) const {
  return rt_->factories.count(name) || rt_->modules.count(name);
}
void Interpreter::register_exception(const std::string& name, const std::string& parent) {
  rt_->register_exception(name, parent);
}
void Interpreter::set_output(OutputSink sink) { rt_->out = std::move(sink); }
void Interpreter::set_statement_hook(StatementHook hook) { rt_->hook = std::move(hook); }
void Interpreter::write(std::string_view text) { rt_->write(text); }

void Interpreter::set_global(const std::string& name, Value value) {
  int sym = rt_->symbols.intern(name);
  if (rt_->globals.size() <= static_cast<size_t>(sym)) rt_->globals.resize(sym + 1, Value::unbound());
  rt_->globals[sym] = std::move(value);
}

std::optional<Value> Interpreter::get_global(const std::string& name) const {
  int sym = rt_->symbols.find(name);
  if (sym < 0 || static_cast<size_t>(sym) >= rt_->globals.size() || rt_->globals[sym].is_unbound()) return std::nullopt;
  return rt_->globals[sym];
}

void Interpreter::reset() {
  std::vector<Value> old;
  old.swap(rt_->globals);  // destroy after the table is consistent again
  rt_->globals.assign(old.size(), Value::unbound());
  rt_->modules.clear();
  set_global("__name__", Value("__main__"));
}

void Interpreter::set_builtin(const std::string& name, Value value) { rt_->set_builtin(name, std::move(value)); }
void Interpreter::set_max_call_depth(int depth) { rt_->max_call_depth = depth; }
void Interpreter::set_step_limit(uint64_t max_statements) { rt_->step_limit = max_statements; }
void Interpreter::request_stop() { rt_->stop_requested = true; }

}  // namespace ipt::script
