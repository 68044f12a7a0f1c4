#pragma once
// While a program runs on the modeled clock (Note [The modeled clock] in
// core/trace/trace_clock.h), Python's time.perf_counter, perf_counter_ns, monotonic and
// monotonic_ns read that clock: a host timer then measures what the model says the host
// spent (a launch's cost, the wait of a synchronize), the same on every run. The originals
// come back when the run ends. Needs the GIL.
#include "core/python/pybind.h"

namespace ipt::python {

// Hidden, as the pybind11 types of its members are.
class __attribute__((visibility("hidden"))) ModeledTime {
 public:
  ModeledTime();  // a no-op on the measured clock
  ~ModeledTime();
  ModeledTime(const ModeledTime&) = delete;
  ModeledTime& operator=(const ModeledTime&) = delete;

 private:
  pybind11::object time_;
  pybind11::dict saved_;
};

}  // namespace ipt::python
