#include "app/gui/app_state.h"

#include <algorithm>
#include <atomic>
#include <thread>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "app/gui/i18n.h"

#include "core/lesson/runner.h"
#include "core/embed/session.h"
#include "core/tensor/backend.h"
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

// Note [Programs run off the UI thread]
// A lesson step or playground program is real Python and may run for a long time (or for
// ever: `while True: pass`). It runs on a worker thread with its own recorder and session;
// the window keeps drawing, shows that it is running, and Stop (or Esc) interrupts it with
// KeyboardInterrupt. The UI thread never touches the run's recorder while it runs: when
// the worker is done, poll_run() takes its events, outputs and errors into the document.
struct BackgroundRun {
  enum class Kind { Lesson, Playground } kind;
  int step = 0;
  std::string code;  // playground: a copy of the editor's text (the editor is never touched)
  std::optional<lesson::Lesson> lesson;
  std::unique_ptr<python::Session> session;
  trace::Recorder recorder;
  std::string device;  // the GPU that ran CUDA work ("" without one)
  std::vector<lesson::StepRun> runs;
  // Set by the worker when the run ends: the recorded events and their index (built there, so
  // the UI thread only moves them into the document).
  std::vector<trace::Event> events;
  std::shared_ptr<const trace::TraceIndex> index;
  std::atomic<bool> done{false};
  std::thread worker;

  ~BackgroundRun() {
    if (worker.joinable()) {
      if (session) session->request_stop();
      worker.join();
    }
  }
};

namespace {

// Reading a big trace frees as much as it keeps (the parser's buffers, the index's scratch):
// hand that back to the system instead of keeping it in this process's heap.
void release_free_memory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

// Replaces the document's events with a finished run's (and their index).
void take_events(TraceDoc& doc, BackgroundRun& job) {
  doc.events = std::move(job.events);
  doc.index = std::move(job.index);
  doc.generation++;
}

StepOutput step_output(const std::string& text, const python::RunResult& r) {
  StepOutput o;
  o.text = text;
  if (!r.ok) {
    o.error = r.exception_line();
    o.error_line = r.line;
    o.error_col = r.col;
  }
  return o;
}

void start(AppState& s, std::shared_ptr<BackgroundRun> job) {
  stop_run(s);
  if (s.job && s.job->worker.joinable()) s.job->worker.join();
  s.job = job;
  job->session = std::make_unique<python::Session>();
  job->worker = std::thread([job] {
    // Current before it starts: the simulated GPU reads the current recorder's clock.
    trace::Recorder* prev = trace::Recorder::set_current(&job->recorder);
    const bool modeled = job->lesson && job->lesson->clock == lesson::Clock::Modeled;
    job->device = start_recording(job->recorder, modeled ? trace::ClockKind::Modeled : trace::ClockKind::Measured);
    {
      trace::ScopedTrace on(job->recorder);
      if (job->kind == BackgroundRun::Kind::Lesson) {
        job->runs = lesson::run_steps(*job->lesson, job->step, *job->session);
      } else {
        python::StepResult r = job->session->run(job->code, "<playground>");
        job->runs.push_back(lesson::StepRun{std::move(r.output), std::move(r.result), 0});
      }
    }
    wait_for_devices();
    trace::Recorder::set_current(prev);
    job->events = job->recorder.events();
    job->index = std::make_shared<const trace::TraceIndex>(trace::build_trace_index(job->events));
    job->done = true;
  });
}

void finish_lesson(AppState& s, BackgroundRun& job) {
  s.outputs.clear();
  std::vector<size_t> begins;
  for (const auto& r : job.runs) {
    s.outputs.push_back(step_output(r.output, r.result));
    begins.push_back(r.first_event);
  }
  take_events(s.doc, job);
  s.sel = Selection{};
  if (begins.empty()) begins.push_back(0);
  // The last statement that ran in the shown step: its running line.
  int running_line = 0;
  for (size_t i = begins.back(); i < s.doc.events.size(); ++i)
    if (const auto* l = std::get_if<trace::ScriptLine>(&s.doc.events[i].payload)) running_line = l->line;
  s.doc.step_begin = begins;
  s.doc.first = begins.back();
  s.doc.last = s.doc.events.size();
  s.doc.meta = trace::TraceMeta{};
  s.doc.meta.title = "Lesson " + std::to_string(job.lesson->number) + ": " + job.lesson->title.en;
  s.doc.meta.source = job.lesson->steps[static_cast<size_t>(job.step)].code;
  s.doc.meta.fields["kind"] = "lesson";
  s.doc.meta.fields["lesson"] = std::to_string(job.lesson->number);
  s.doc.meta.fields["step"] = std::to_string(job.step + 1);
  s.current_step = job.step;
  s.running_line = running_line;
  s.doc.opens_at_start = job.lesson->steps[static_cast<size_t>(job.step)].opens_at == lesson::Moment::Start;
}

void finish_playground(AppState& s, BackgroundRun& job) {
  s.playground_result = job.runs.empty() ? StepOutput{} : step_output(job.runs[0].output, job.runs[0].result);
  take_events(s.doc, job);
  s.sel = Selection{};
  s.doc.step_begin = {0};
  s.doc.first = 0;
  s.doc.last = s.doc.events.size();
  s.doc.meta = trace::TraceMeta{};
  s.doc.meta.title = "Playground";
  s.doc.meta.source = job.code;
  s.doc.meta.fields["kind"] = "snippet";
  s.doc.opens_at_start = false;
}

}  // namespace

bool AppState::busy() const { return job && !job->done; }

void run_lesson_to(AppState& s, int step) {
  if (!s.lesson) return;
  s.trace_path.clear();
  auto job = std::make_shared<BackgroundRun>();
  job->kind = BackgroundRun::Kind::Lesson;
  job->step = std::clamp(step, 0, s.step_count() - 1);
  job->lesson = s.lesson;
  start(s, job);
}

void run_playground(AppState& s) {
  s.trace_path.clear();
  auto job = std::make_shared<BackgroundRun>();
  job->kind = BackgroundRun::Kind::Playground;
  job->code = s.playground_code;
  start(s, job);
}

void poll_run(AppState& s) {
  if (!s.job || !s.job->done) return;
  std::shared_ptr<BackgroundRun> job = std::move(s.job);
  if (job->worker.joinable()) job->worker.join();
  if (job->kind == BackgroundRun::Kind::Lesson) finish_lesson(s, *job);
  else finish_playground(s, *job);
}

void stop_run(AppState& s) {
  if (s.job && !s.job->done && s.job->session) s.job->session->request_stop();
}

void wait_run(AppState& s) {
  if (!s.job) return;
  if (s.job->worker.joinable()) s.job->worker.join();
  poll_run(s);
}

// Note [Trace files load off the UI thread]
// A million-event file takes most of a second to load: the worker thread reads it with a
// LoadProgress the window draws as a progress bar, whose Cancel sets its cancel flag. The
// document is replaced only when the load succeeded, on the UI thread (poll_load).
struct BackgroundLoad {
  std::string path;
  trace::LoadProgress progress;
  std::optional<trace::LoadedTrace> result;
  std::shared_ptr<const trace::TraceIndex> index;
  std::string error;
  std::atomic<bool> done{false};
  std::thread worker;

  ~BackgroundLoad() {
    if (worker.joinable()) {
      progress.cancel = true;
      worker.join();
    }
  }
};

void open_trace(AppState& s, const std::string& path) {
  if (s.loading) return;  // one at a time
  auto load = std::make_shared<BackgroundLoad>();
  load->path = path;
  BackgroundLoad* l = load.get();
  load->worker = std::thread([l] {
    try {
      l->result = trace::read_trace_file(l->path, &l->progress);
      l->index = std::make_shared<const trace::TraceIndex>(trace::build_trace_index(l->result->events));
      release_free_memory();
    } catch (const std::exception& e) {
      l->error = e.what();
    }
    l->done = true;
  });
  s.loading = std::move(load);
}

void poll_load(AppState& s) {
  if (!s.loading || !s.loading->done) return;
  std::shared_ptr<BackgroundLoad> load = std::move(s.loading);
  if (load->worker.joinable()) load->worker.join();
  if (!load->result) {
    s.banner = std::string(tr("Error")) + ": " + load->error;
    return;
  }
  trace::LoadedTrace& t = *load->result;
  s.doc.events = std::move(t.events);
  s.doc.index = std::move(load->index);
  s.doc.meta = std::move(t.meta);
  // Lesson traces mark where each step begins; show the last step, as when recorded.
  s.doc.step_begin.clear();
  for (size_t i = 0; i < s.doc.events.size(); ++i)
    if (s.doc.events[i].category == trace::Category::Lesson) s.doc.step_begin.push_back(i);
  if (s.doc.step_begin.empty()) s.doc.step_begin = {0};
  s.doc.first = s.doc.step_begin.back();
  s.doc.last = s.doc.events.size();
  s.doc.opens_at_start = false;
  s.lesson.reset();
  s.show_playground = false;
  s.trace_path = load->path;
  s.doc.generation++;
  s.sel = Selection{};
  s.banner = "opened " + load->path;
}

bool open_trace_wait(AppState& s, const std::string& path) {
  open_trace(s, path);
  if (!s.loading) return false;
  if (s.loading->worker.joinable()) s.loading->worker.join();
  const bool ok = s.loading->result.has_value();
  poll_load(s);
  return ok;
}

bool load_progress(const AppState& s, std::string& path, double& fraction) {
  if (!s.loading) return false;
  path = s.loading->path;
  fraction = s.loading->progress.fraction.load();
  return true;
}

void cancel_load(AppState& s) {
  if (s.loading) s.loading->progress.cancel = true;
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
       "print(y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())\n"},
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
