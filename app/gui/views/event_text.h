#pragma once
// Shared by the views that show single events: category colours, payload tooltips and small
// text helpers.

#include <imgui.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/trace/events.h"

namespace ipt::gui {

// The colour of an event category (the Event log's rows, the Timeline's slices).
ImU32 category_color(trace::Category c);
// Cuts `s` to at most `n` bytes on a UTF-8 character boundary, adding `ellipsis` when cut.
void truncate_utf8(std::string& s, size_t n, const char* ellipsis);
// "(2, 3)", "(4,)": sizes and strides as Python prints a shape.
std::string join_dims(std::span<const int64_t> v);
// A tooltip with the event's name, `when` (its time, when not empty) and its full payload
// (built only while the event is hovered).
void draw_payload_tooltip(const trace::Event& e, const std::string& when = std::string());

}  // namespace ipt::gui
