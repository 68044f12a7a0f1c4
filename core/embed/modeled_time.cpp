#include "core/embed/modeled_time.h"

#include "core/trace/recorder.h"

namespace ipt::python {

namespace py = pybind11;

namespace {
constexpr const char* kClocks[] = {"perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns"};
}

ModeledTime::ModeledTime() {
  if (trace::Recorder::current().clock() != trace::ClockKind::Modeled) return;
  time_ = py::module_::import("time");
  for (const char* name : kClocks) saved_[name] = time_.attr(name);
  auto seconds = py::cpp_function([] { return static_cast<double>(trace::modeled_now_ns()) / 1e9; });
  auto nanoseconds = py::cpp_function([] { return trace::modeled_now_ns(); });
  time_.attr("perf_counter") = seconds;
  time_.attr("monotonic") = seconds;
  time_.attr("perf_counter_ns") = nanoseconds;
  time_.attr("monotonic_ns") = nanoseconds;
}

ModeledTime::~ModeledTime() {
  if (!time_) return;
  for (auto item : saved_) time_.attr(item.first) = item.second;
}

}  // namespace ipt::python
