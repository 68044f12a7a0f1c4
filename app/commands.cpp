#include "app/commands.h"

#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <sstream>

#include "core/dispatch/dispatcher.h"
#include "core/lesson/lesson.h"
#include "core/lesson/runner.h"
#include "core/embed/session.h"
#include "core/schema/schema_cli.h"
#include "core/tensor/backend.h"
#include "core/trace/trace_json.h"
#include "core/util/error.h"
#include "core/util/read_file.h"
#include "core/util/write_file.h"
#include "core/views/autograd_model.h"
#include "core/views/dispatch_model.h"
#include "app/ops_coverage.h"
#include "app/stop_on_signal.h"

namespace ipt::app {

namespace fs = std::filesystem;

namespace {

// The limit for reading a program: text someone wrote (trace files are read in pieces).
constexpr uint64_t kMaxProgramBytes = uint64_t(16) << 20;

// What CPython prints for an uncaught exception: the traceback, then "Kind: message".
void print_error(const python::RunResult& r) { std::cerr << r.traceback << std::flush; }

// Writes the recorder's events; returns false (after saying why) when it cannot.
bool save_trace(const std::string& path, const trace::TraceMeta& meta) {
  try {
    trace::write_trace_file(path, trace::Recorder::current().events(), meta);
    std::cerr << "trace written to " << path << " (" << trace::Recorder::current().size() << " events)\n";
    return true;
  } catch (const std::exception& e) {
    std::cerr << "error: could not write the trace: " << e.what() << "\n";
    return false;
  }
}

// Writes the autograd graph of the recorded events as Graphviz DOT (see Note [Replacing a
// file, or writing through to one]); returns false (after saying why) when it cannot.
bool save_dot(const std::string& path) {
  const views::AutogradGraph g = views::autograd_graph(trace::Recorder::current().events());
  try {
    write_file(path, views::to_dot(g), "DOT file");
  } catch (const ipt::Error& e) {
    std::cerr << "error: could not write the autograd graph: " << e.what() << "\n";
    return false;
  }
  if (g.empty()) std::cerr << "no autograd graph was recorded (create tensors with requires_grad=True); ";
  std::cerr << "autograd graph written to " << path << " (" << g.nodes.size() << " nodes, " << g.leaves.size()
            << " leaves)\n";
  return true;
}

std::optional<lesson::Lesson> find_lesson(int number, std::string& why) {
  try {
    for (const auto& e : lesson::load_index(lesson::lessons_dir())) {
      if (e.number != number) continue;
      if (!e.file) {
        why = "lesson " + std::to_string(number) + " (" + e.title.en + ") is not written yet: it is coming";
        return std::nullopt;
      }
      return lesson::load_lesson(*e.file);
    }
    why = "there is no lesson " + std::to_string(number) + " (see `inside-pytorch lessons`)";
  } catch (const std::exception& ex) {
    why = ex.what();
  }
  return std::nullopt;
}

std::string indent(const std::string& text, const std::string& pad) {
  std::string out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out += pad + line + "\n";
  return out;
}

// The autograd graph as indented text: each node with its next_functions.
std::string graph_text(const views::AutogradGraph& g) {
  std::string out;
  for (const auto& n : g.nodes) {
    out += "  " + n.name;
    if (n.leaf) out += " (leaf tensor #" + std::to_string(*n.leaf) + ")";
    if (!n.output_value.empty()) out += "  out = " + n.output_value;
    out += "\n";
    for (const auto& e : n.next) {
      const auto* to = e.valid ? g.find(e.node) : nullptr;
      out += "      -> " + (to ? to->name + ", " + std::to_string(e.input_nr) : std::string("None")) + "\n";
    }
  }
  return out;
}

// The step's view as text, from the events the step recorded (headless stand-in for the
// GUI view the step is about).
void print_view(const lesson::Step& s, size_t first_event, const std::string& lang) {
  if (s.view != lesson::ViewKind::Dispatch && s.view != lesson::ViewKind::Storage && s.view != lesson::ViewKind::Graph)
    return;
  auto events = trace::Recorder::current().events();
  std::string text;
  if (s.view == lesson::ViewKind::Dispatch)
    text = views::render_dispatch_text(views::dispatch_forest(events, first_event), 2);
  else if (s.view == lesson::ViewKind::Storage)
    text = views::render_tensors_text(views::tensors_seen(events, first_event));
  else text = graph_text(views::autograd_graph(events, first_event));
  if (text.empty()) return;
  std::cout << "\n"
            << (lang == "zh" ? "[" : "[") << lesson::view_name(s.view) << (lang == "zh" ? " 视图]\n" : " view]\n")
            << text;
}

// Runs the lesson's steps 1..last in one session; prints steps from `first_shown` on.
// The session is always traced: each step's view is printed from its events.
int run_lesson(const lesson::Lesson& l, int first_shown, int last, const std::string& lang) {
  python::Session session;
  StopOnSignal stop_on_ctrl_c(session);
  trace::ScopedTrace tracing;
  int failures = 0;
  lesson::StepCallbacks cb;
  cb.before = [&](int k) {
    const lesson::Step& s = l.steps[static_cast<size_t>(k)];
    if (k + 1 < first_shown) return;
    std::cout << "\n── " << (lang == "zh" ? "第 " + std::to_string(k + 1) + " 步" : "Step " + std::to_string(k + 1))
              << "/" << l.steps.size() << " · " << s.title.in(lang) << "  [" << lesson::view_name(s.view) << "]\n\n"
              << s.narration.in(lang) << "\n"
              << indent(s.code, "    >>> ") << "\n";
  };
  cb.after = [&](int k, const lesson::StepRun& r) {
    if (k + 1 >= first_shown) {
      std::cout << r.output;
      print_view(l.steps[static_cast<size_t>(k)], r.first_event, lang);
    }
    if (!r.result.ok) {
      ++failures;
      std::cerr << "lesson " << l.number << " step " << k + 1 << " failed:\n";
      print_error(r.result);
    }
  };
  lesson::run_steps(l, last - 1, session, cb);
  return failures == 0 ? 0 : 1;
}

}  // namespace

int cmd_run(const std::string& file, const std::string& trace_path, const std::string& dot_path,
            const std::string& clock) {
  std::optional<std::string> code;
  try {
    code = read_regular_file(file, kMaxProgramBytes, "program");
  } catch (const ipt::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  const trace::ClockKind kind = clock == "modeled" ? trace::ClockKind::Modeled : trace::ClockKind::Measured;
  const std::string device = start_recording(trace::Recorder::current(), kind);
  std::optional<trace::ScopedTrace> tracing;
  if (!trace_path.empty() || !dot_path.empty()) tracing.emplace();
  python::Session session([](std::string_view s) { std::cout << s << std::flush; },
                          [](std::string_view s) {
                            std::cout << std::flush;
                            std::cerr << s << std::flush;
                          });
  python::StepResult r;
  {
    StopOnSignal stop_on_ctrl_c(session);
    session.set_main_file(file);
    r = session.run(*code, file);
    wait_for_devices();
  }
  tracing.reset();
  if (!r.result.ok) print_error(r.result);
  if (!trace_path.empty()) {
    trace::TraceMeta meta;
    meta.title = fs::path(file).filename().string();
    meta.source = *code;
    meta.fields["kind"] = "snippet";
    meta.fields["clock"] = trace::clock_kind_name(kind);
    if (!device.empty()) meta.fields["device"] = device;
    if (!save_trace(trace_path, meta)) return 2;
  }
  if (!dot_path.empty() && !save_dot(dot_path)) return 2;
  return r.result.ok ? 0 : 1;
}

int cmd_lessons(const std::string& lang) {
  try {
    for (const auto& e : lesson::load_index(lesson::lessons_dir())) {
      std::string status;
      if (e.file) {
        auto l = lesson::load_lesson(*e.file);
        status = std::to_string(l.steps.size()) + (lang == "zh" ? " 步" : " steps");
      } else {
        status = lang == "zh" ? "即将推出" : "coming";
      }
      std::cout << "  " << e.number << "  " << e.title.in(lang) << "  (" << status << ")\n";
    }
  } catch (const std::exception& ex) {
    std::cerr << "error: " << ex.what() << "\n";
    return 2;
  }
  return 0;
}

int cmd_lesson(int number, std::optional<int> step, const std::string& lang, const std::string& trace_path,
               const std::string& clock) {
  std::string why;
  auto l = find_lesson(number, why);
  if (!l) {
    std::cerr << "error: " << why << "\n";
    return 2;
  }
  const int n = static_cast<int>(l->steps.size());
  if (step && (*step < 1 || *step > n)) {
    std::cerr << "error: lesson " << number << " has steps 1 to " << n << ", not " << *step << "\n";
    return 2;
  }
  std::cout << (lang == "zh" ? "第 " + std::to_string(number) + " 课 · " : "Lesson " + std::to_string(number) + " · ")
            << l->title.in(lang) << "\n"
            << l->summary.in(lang) << "\n";
  const bool modeled = clock.empty() ? l->clock == lesson::Clock::Modeled : clock == "modeled";
  const trace::ClockKind kind = modeled ? trace::ClockKind::Modeled : trace::ClockKind::Measured;
  const std::string device = start_recording(trace::Recorder::current(), kind);
  int rc = run_lesson(*l, step.value_or(1), step.value_or(n), lang);
  wait_for_devices();
  if (!trace_path.empty()) {
    trace::TraceMeta meta;
    meta.title = "Lesson " + std::to_string(number) + ": " + l->title.en;
    meta.fields["kind"] = "lesson";
    meta.fields["lesson"] = std::to_string(number);
    meta.fields["steps"] = std::to_string(step.value_or(n));
    meta.fields["clock"] = trace::clock_kind_name(kind);
    if (!device.empty()) meta.fields["device"] = device;
    for (int k = 1; k <= step.value_or(n); ++k)
      meta.source += "# --- step " + std::to_string(k) + " ---\n" + l->steps[static_cast<size_t>(k - 1)].code;
    if (!save_trace(trace_path, meta)) return 2;
  }
  return rc;
}

int cmd_all_lessons(const std::string& out_dir, const std::string& lang) {
  std::vector<lesson::LessonEntry> index;
  try {
    index = lesson::load_index(lesson::lessons_dir());
  } catch (const std::exception& ex) {
    std::cerr << "error: " << ex.what() << "\n";
    return 2;
  }
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  int rc = 0;
  for (const auto& e : index) {
    if (!e.file) {
      std::cout << "\nLesson " << e.number << " · " << e.title.in(lang) << " — coming\n";
      continue;
    }
    std::string path = (fs::path(out_dir) / ("lesson-" + std::to_string(e.number) + ".json")).string();
    int r = cmd_lesson(e.number, std::nullopt, lang, path);
    rc = std::max(rc, r);
  }
  return rc;
}

int cmd_schema(const std::string& schema_text, const std::string& yaml_path) {
  if (!yaml_path.empty()) return schema::schema_check_yaml(yaml_path, std::cout, std::cerr);
  return schema::schema_print_json(schema_text, std::cout, std::cerr);
}

int cmd_ops(const std::string& table_of, const std::string& registrations_of, bool coverage) {
  Dispatcher& d = Dispatcher::singleton();
  if (coverage) {
    try {
      std::cout << format_opset_coverage(opset_coverage());
      return 0;
    } catch (const std::exception& e) {
      std::cerr << "error: " << e.what() << "\n";
      return 2;
    }
  }
  auto find = [&](std::string n) -> OperatorEntry* {
    if (n.rfind("aten::", 0) != 0) n = "aten::" + n;
    OperatorEntry* e = d.find(n);
    if (!e) std::cerr << "error: unknown operator " << n << " (run `inside-pytorch ops` for the list)\n";
    return e;
  };
  if (!table_of.empty()) {
    OperatorEntry* e = find(table_of);
    if (!e) return 2;
    std::cout << e->dump_table();
    return 0;
  }
  if (!registrations_of.empty()) {
    OperatorEntry* e = find(registrations_of);
    if (!e) return 2;
    std::cout << e->dump_registrations();
    return 0;
  }
  for (const auto& op : d.operators()) std::cout << op->schema() << "\n";
  return 0;
}

int cmd_trace_check(const std::string& path) {
  try {
    // The Chrome part is checked on a second thread while the payload loads.
    auto rules = std::async(std::launch::async, [&path] { return trace::check_chrome_trace_rules_file(path); });
    trace::LoadedTrace t = trace::read_trace_file(path);
    auto problems = rules.get();
    std::cout << path << ": " << t.events.size() << " events, title \"" << t.meta.title << "\"\n";
    if (!problems.empty()) {
      for (const auto& p : problems) std::cout << "  problem: " << p << "\n";
      return 1;
    }
    std::cout << "  Chrome Trace Event rules: ok (opens in Perfetto UI)\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace ipt::app
