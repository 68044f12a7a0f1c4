#pragma once
// What the simulated GPU shows in the trace (Note [Device tracks] in core/trace/events.h):
// each runtime call as a slice on the calling host thread, the work it enqueued on its
// stream's track at the model's times, and the caching allocator's actions with the memory
// totals after them.
#include "backends/sim/caching_allocator.h"
#include "backends/sim/sim_gpu.h"

namespace ipt::sim {

// The host clock of the trace's recorder (Note [The modeled clock]): the modeled one while
// the current recorder stamps with it, the measured one otherwise.
HostClock& trace_host_clock();

// Records op into the current recorder (when tracing).
void trace_device_op(const DeviceOp& op);
// Records an allocator action into the current recorder (when tracing).
void trace_memory_action(const DeviceTraceEntry& e, const DeviceMemoryStats& after);

}  // namespace ipt::sim
