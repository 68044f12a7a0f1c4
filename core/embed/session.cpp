#include "core/embed/session.h"

#include "core/trace/recorder.h"

namespace ipt::python {

Session::Session(std::function<void(std::string_view)> echo, std::function<void(std::string_view)> echo_error)
    : echo_(std::move(echo)), echo_error_(std::move(echo_error)) {
  interp_.set_output([this](std::string_view s) {
    record(s);
    if (echo_) echo_(s);
  });
  interp_.set_error_output([this](std::string_view s) {
    record(s);
    if (echo_error_) echo_error_(s);
    else if (echo_) echo_(s);
  });
}

void Session::record(std::string_view s) {
  if (capture_) capture_->append(s);
  if (trace::tracing_enabled())
    trace::Recorder::current().instant(trace::Category::Script, "print", trace::Text{std::string(s)});
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
