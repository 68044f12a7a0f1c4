#pragma once
// The Timeline's device-memory section, below the tracks: allocated and reserved bytes over
// time, and one bar per caching-allocator block with its moments (Note [Three moments of a
// device tensor] in core/views/device_memory_model.cpp).

#include <string>

#include "app/gui/views/timeline_draw.h"
#include "core/views/device_memory_model.h"

namespace ipt::gui::timeline {

// The section's height (0 when the trace has no device memory).
float memory_height(const views::DeviceMemoryModel& m, float row_h);
// Draws the section `y0` below the canvas origin. Returns the tooltip for what the mouse is
// over ("" for nothing); times in it are relative to `t_origin`.
std::string draw_memory(const Canvas& c, const views::TimeWindow& w, const views::DeviceMemoryModel& m, float y0,
                        float row_h, int64_t t_origin, const char* micro);

}  // namespace ipt::gui::timeline
