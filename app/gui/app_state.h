#pragma once
// The GUI's state: the lesson being played, the recorded trace the views draw from, the
// selection, and the playground. Views read the TraceDoc and the Selection; only the
// runner (app_state.cpp) executes snippets, and it replaces the TraceDoc wholesale.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/requests.h"
#include "core/lesson/lesson.h"
#include "core/trace/events.h"
#include "core/trace/trace_index.h"
#include "core/trace/trace_json.h"

namespace ipt::gui {

// What the views show: a recorded (or loaded) trace.
struct TraceDoc {
  std::vector<trace::Event> events;
  // The events' nesting and tracks, built once per document (never null).
  std::shared_ptr<const trace::TraceIndex> index = std::make_shared<const trace::TraceIndex>();
  trace::TraceMeta meta;
  std::vector<size_t> step_begin;  // lesson runs: index of the first event of each step
  uint64_t generation = 0;         // changes whenever the document is replaced
  // The events of the step being shown: [first, last).
  size_t first = 0, last = 0;
  // Views open at the start of the shown step instead of its end (a lesson step's opens_at).
  bool opens_at_start = false;
};

struct Selection {
  std::optional<size_t> event;     // selected event index (a dispatch Begin, a tensor, ...)
  std::optional<uint64_t> tensor;  // selected tensor id
  // Hover state, reset every frame by the storage view.
  std::optional<uint64_t> hover_storage;
  std::optional<int64_t> hover_cell;
};

struct StepOutput {
  std::string text;
  std::string error;  // empty when the step ran fine
  int error_line = 0, error_col = 0;
};

// A program (lesson steps or the playground) running on its worker thread.
struct BackgroundRun;
// A trace file loading on its worker thread.
struct BackgroundLoad;

struct AppState {
  // Lessons.
  std::vector<lesson::LessonEntry> index;
  std::string index_error;
  std::optional<lesson::Lesson> lesson;
  std::string lesson_error;
  int current_step = 0;             // 0-based step shown
  std::vector<StepOutput> outputs;  // per executed step
  int running_line = 0;             // line in the current step's code of the last statement run
  bool show_playground = false;

  // Playground.
  std::string playground_code;
  StepOutput playground_result;

  TraceDoc doc;
  Selection sel;
  Requests requests;       // Note [Views ask each other by typed requests]
  std::string trace_path;  // non-empty while showing a trace opened from a file
  std::string banner;      // status / error line shown at the top
  std::string font_warning;

  // Scripted measurements (--zoom-sweep N): the Timeline zooms from the whole trace down to
  // one call over N frames.
  int zoom_sweep = 0;

  // The run in progress, if any (see Note [Programs run off the UI thread] in app_state.cpp).
  std::shared_ptr<BackgroundRun> job;
  // The trace file loading, if any: the window shows its progress and a Cancel button.
  std::shared_ptr<BackgroundLoad> loading;

  bool busy() const;
  bool has_lesson() const { return lesson.has_value(); }
  int step_count() const { return lesson ? static_cast<int>(lesson->steps.size()) : 0; }
};

// Loads the lesson index (errors go to state.index_error; never throws).
void load_index(AppState& s);
// Opens lesson `number` (errors go to lesson_error) and runs it to step 0.
void open_lesson(AppState& s, int number);
// Starts running steps 0..step (0-based) of the open lesson in a fresh session on a worker
// thread; when it finishes (poll_run), the doc shows `step`.
void run_lesson_to(AppState& s, int step);
// Starts running the playground code in a fresh session; the code is never modified.
void run_playground(AppState& s);
// Called every frame: takes a finished run's results into the state.
void poll_run(AppState& s);
// Interrupts the running program (KeyboardInterrupt at its next bytecode) — Stop / Esc.
void stop_run(AppState& s);
// Blocks until the running program ends, then polls (scripted runs: screenshots, tests).
void wait_run(AppState& s);
// Starts loading a trace file on a worker thread; when it is loaded (poll_load), it replaces
// the document. On failure or cancel everything is kept and the banner says why.
void open_trace(AppState& s, const std::string& path);
// open_trace and wait for it (scripted runs): false when it failed.
bool open_trace_wait(AppState& s, const std::string& path);
// Called every frame: takes a finished load into the state.
void poll_load(AppState& s);
// The loading file's path and how far it is (0 to 1); false when nothing loads.
bool load_progress(const AppState& s, std::string& path, double& fraction);
void cancel_load(AppState& s);
bool export_trace(AppState& s, const std::string& path);
// Shows step `k` (0-based) of a loaded trace: only the range of events changes.
void show_trace_step(AppState& s, size_t k);

// Example snippets preloaded into the playground.
const std::vector<std::pair<const char*, const char*>>& playground_examples();

}  // namespace ipt::gui
