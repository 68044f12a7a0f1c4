#include "core/lesson/runner.h"

#include <algorithm>

#include "core/trace/recorder.h"

namespace ipt::lesson {

std::vector<StepRun> run_steps(const Lesson& l, int last, python::Session& session, const StepCallbacks& cb) {
  std::vector<StepRun> runs;
  last = std::clamp(last, -1, static_cast<int>(l.steps.size()) - 1);
  for (int k = 0; k <= last; ++k) {
    StepRun r;
    trace::Recorder& rec = trace::Recorder::current();
    r.first_event = rec.size();
    if (trace::tracing_enabled())
      rec.instant(trace::Category::Lesson, "lesson step",
                  trace::Text{"lesson " + std::to_string(l.number) + " step " + std::to_string(k + 1)});
    if (cb.before) cb.before(k);
    const Step& step = l.steps[static_cast<size_t>(k)];
    python::StepResult s = session.run(step.code, l.source_path, step.code_line);
    r.output = std::move(s.output);
    r.result = std::move(s.result);
    if (cb.after) cb.after(k, r);
    const bool stopped = !r.result.ok && r.result.error_kind == "KeyboardInterrupt";
    runs.push_back(std::move(r));
    if (stopped) break;  // Stop ends the lesson's run, not just its step
  }
  return runs;
}

}  // namespace ipt::lesson
