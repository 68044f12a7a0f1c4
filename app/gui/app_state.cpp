#include "app/gui/app_state.h"

#include "app/gui/i18n.h"
#include "core/pytorch/session.h"
#include "core/trace/recorder.h"

namespace ipt::gui {

void load_index(AppState& s) {
  try {
    s.index = lesson::load_index(lesson::lessons_dir());
    s.index_error.clear();
  } catch (const std::exception& e) {
    s.index_error = e.what();
  }
}

void open_lesson(AppState& s, int number) {
  s.lesson.reset();
  s.lesson_error.clear();
  for (const auto& e : s.index) {
    if (e.number != number) continue;
    if (!e.file) {
      s.lesson_error = std::string(tr("coming")) + ": " + e.title.in(lang_code());
      return;
    }
    try {
      s.lesson = lesson::load_lesson(*e.file);
    } catch (const std::exception& ex) {
      s.lesson_error = ex.what();  // the window stays up and says what is wrong
      return;
    }
    s.show_playground = false;
    run_lesson_to(s, 0);
    return;
  }
  s.lesson_error = "no lesson " + std::to_string(number);
}

namespace {
// Runs `fn` with a fresh recorder as the current one, then moves its events into the doc.
// Sessions passed in must outlive this call, so their tensors are not recorded as freed.
template <typename F>
void record_into(AppState& s, F&& fn) {
  trace::Recorder rec;
  trace::Recorder* prev = trace::Recorder::set_current(&rec);
  {
    trace::ScopedTrace on(rec);
    fn(rec);
  }
  trace::Recorder::set_current(prev);
  s.doc.events = rec.events();
  s.doc.generation++;
  s.sel = Selection{};
}
}  // namespace

void run_lesson_to(AppState& s, int step) {
  if (!s.lesson) return;
  s.trace_path.clear();
  step = std::clamp(step, 0, s.step_count() - 1);
  s.outputs.assign(static_cast<size_t>(step + 1), StepOutput{});
  std::vector<size_t> begins;
  int running_line = 0;
  pytorch::Session session;
  record_into(s, [&](trace::Recorder& rec) {
    for (int k = 0; k <= step; ++k) {
      begins.push_back(rec.size());
      rec.instant(trace::Category::Lesson, "lesson step",
                  trace::Text{"lesson " + std::to_string(s.lesson->number) + " step " + std::to_string(k + 1)});
      const auto& st = s.lesson->steps[static_cast<size_t>(k)];
      pytorch::StepResult r = session.run(st.code, s.lesson->source_path + ":step" + std::to_string(k + 1));
      s.outputs[static_cast<size_t>(k)].text = r.output;
      if (!r.result.ok) {
        s.outputs[static_cast<size_t>(k)].error = r.result.exception_line();
        s.outputs[static_cast<size_t>(k)].error_line = r.result.line;
        s.outputs[static_cast<size_t>(k)].error_col = r.result.col;
      }
    }
  });
  // The last statement that ran in the shown step: its running line.
  for (size_t i = begins.back(); i < s.doc.events.size(); ++i)
    if (const auto* l = std::get_if<trace::ScriptLine>(&s.doc.events[i].payload)) running_line = l->line;
  s.doc.step_begin = begins;
  s.doc.first = begins.back();
  s.doc.last = s.doc.events.size();
  s.doc.meta = trace::TraceMeta{};
  s.doc.meta.title = "Lesson " + std::to_string(s.lesson->number) + ": " + s.lesson->title.en;
  s.doc.meta.source = s.lesson->steps[static_cast<size_t>(step)].code;
  s.doc.meta.fields["kind"] = "lesson";
  s.doc.meta.fields["lesson"] = std::to_string(s.lesson->number);
  s.doc.meta.fields["step"] = std::to_string(step + 1);
  s.current_step = step;
  s.running_line = running_line;
}

void run_playground(AppState& s) {
  std::string code = s.playground_code;  // run a copy: the editor's text is never touched
  s.trace_path.clear();
  s.playground_result = StepOutput{};
  pytorch::Session session;
  record_into(s, [&](trace::Recorder&) {
    pytorch::StepResult r = session.run(code, "<playground>");
    s.playground_result.text = r.output;
    if (!r.result.ok) {
      s.playground_result.error = r.result.exception_line();
      s.playground_result.error_line = r.result.line;
      s.playground_result.error_col = r.result.col;
    }
  });
  s.doc.step_begin = {0};
  s.doc.first = 0;
  s.doc.last = s.doc.events.size();
  s.doc.meta = trace::TraceMeta{};
  s.doc.meta.title = "Playground";
  s.doc.meta.source = code;
  s.doc.meta.fields["kind"] = "snippet";
}

bool open_trace(AppState& s, const std::string& path) {
  try {
    trace::LoadedTrace t = trace::read_trace_file(path);
    s.doc.events = std::move(t.events);
    s.doc.meta = std::move(t.meta);
    // Lesson traces mark where each step begins; show the last step, as when recorded.
    s.doc.step_begin.clear();
    for (size_t i = 0; i < s.doc.events.size(); ++i)
      if (s.doc.events[i].category == trace::Category::Lesson) s.doc.step_begin.push_back(i);
    if (s.doc.step_begin.empty()) s.doc.step_begin = {0};
    s.doc.first = s.doc.step_begin.back();
    s.doc.last = s.doc.events.size();
    s.lesson.reset();
    s.show_playground = false;
    s.trace_path = path;
    s.doc.generation++;
    s.sel = Selection{};
    s.banner = "opened " + path;
    return true;
  } catch (const std::exception& e) {
    s.banner = std::string(tr("Error")) + ": " + e.what();
    return false;
  }
}

void show_trace_step(AppState& s, size_t k) {
  if (k >= s.doc.step_begin.size()) return;
  s.doc.first = s.doc.step_begin[k];
  s.doc.last = k + 1 < s.doc.step_begin.size() ? s.doc.step_begin[k + 1] : s.doc.events.size();
  s.doc.generation++;
  s.sel = Selection{};
}

bool export_trace(AppState& s, const std::string& path) {
  try {
    trace::write_trace_file(path, s.doc.events, s.doc.meta);
    s.banner = "trace written to " + path;
    return true;
  } catch (const std::exception& e) {
    s.banner = std::string(tr("Error")) + ": " + e.what();
    return false;
  }
}

const std::vector<std::pair<const char*, const char*>>& playground_examples() {
  static const std::vector<std::pair<const char*, const char*>> ex = {
      {"Views and storage",
       "import torch\nx = torch.arange(12.).reshape(3, 4)\ny = x.t()              # a view: same storage\n"
       "z = y.contiguous()     # a copy: new storage\nprint(y.stride(), z.stride())\n"
       "print(y.storage().data_ptr() == x.storage().data_ptr())\n"},
      {"Dispatch of an in-place op",
       "import torch\na = torch.ones(2, 3)\nb = torch.ones(3)\na.add_(b)          # AutogradCPU -> ADInplaceOrView -> CPU\n"
       "print(a, a._version)\n"},
      {"no_grad vs below autograd",
       "import torch\nx = torch.ones(2)\nwith torch.no_grad():\n    y = x * 2        # AutogradCPU still entered\n"
       "with torch._C._AutoDispatchBelowAutograd():\n    z = x * 2        # AutogradCPU skipped\nprint(y, z)\n"},
      {"matmul through OpenBLAS",
       "import torch\na = torch.randn(4, 3)\nb = torch.randn(5, 3)\nc = a @ b.t()        # mm with a transposed operand: no copy\n"
       "print(c.shape)\n"},
  };
  return ex;
}

}  // namespace ipt::gui
