#include "core/python/session.h"

#include "core/trace/recorder.h"

namespace ipt::python {

Session::Session(std::function<void(std::string_view)> echo) : echo_(std::move(echo)) {
  interp_.set_output([this](std::string_view s) {
    if (capture_) capture_->append(s);
    if (echo_) echo_(s);
    if (trace::tracing_enabled())
      trace::Recorder::current().instant(trace::Category::Script, "print", trace::Text{std::string(s)});
  });
}

StepResult Session::run(const std::string& code, const std::string& filename, int first_line) {
  StepResult r;
  capture_ = &r.output;
  r.result = interp_.run(code, filename, first_line);
  capture_ = nullptr;
  if (!r.result.ok && trace::tracing_enabled())
    trace::Recorder::current().instant(trace::Category::Script, "uncaught exception",
                                       trace::Text{r.result.exception_line()});
  return r;
}

}  // namespace ipt::python
