#pragma once
// The Timeline's drawing: the steps strip, the time ruler, the tracks (slices nested by depth,
// instants as ticks, folded runs) and the flow arrows, from the document's TraceIndex and the
// visible TimeWindow. Nothing here walks all events: see Note [Folding narrow slices].

#include <imgui.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "app/gui/app_state.h"
#include "core/views/timeline_model.h"

namespace ipt::gui::timeline {

// Where each track's rows lie, relative to the top of the tracks' content: a header row with
// the thread's name, then one row per nesting level.
struct RowLayout {
  float row_h = 18;
  std::vector<float> track_y;  // header row of each track
  float total_h = 0;
  float level_y(size_t track, size_t level) const { return track_y[track] + row_h * static_cast<float>(level + 1); }
};
RowLayout layout_rows(const trace::TraceIndex& index, float row_h);

// What the mouse is over, found while drawing.
struct Hover {
  bool any = false;
  bool mark = false;  // an instant (or a folded run of instants)
  views::Box box;
};

struct Canvas {
  ImDrawList* dl = nullptr;
  ImVec2 origin;                   // screen position of time pixel 0 at the top of the tracks' content
  float clip_y0 = 0, clip_y1 = 0;  // the visible part, in screen y
  ImVec2 mouse;
  bool mouse_in = false;  // the mouse is over the tracks
};

// One band per lesson step over its time; `shown` is the step being shown. Returns the step
// under the mouse, or -1.
int draw_step_bands(ImDrawList* dl, ImVec2 pos, float width, float h, const views::TimeWindow& w,
                    const std::vector<std::pair<int64_t, int64_t>>& steps, int shown, ImVec2 mouse);
// Ticks and labels every tick_step(), times relative to `origin_ns`.
void draw_ruler(ImDrawList* dl, ImVec2 pos, float width, float h, const views::TimeWindow& w, int64_t origin_ns,
                const char* micro);
// The tracks' visible rows; `scratch` is reused between frames.
void draw_tracks(const Canvas& c, const views::TimeWindow& w, const TraceDoc& doc, const RowLayout& rows,
                 std::optional<size_t> selected, Hover& hover, std::vector<views::Box>& scratch);
// Flow arrows with an end in view (at most `max_flows`); the selected event's are highlighted.
void draw_flows(const Canvas& c, const views::TimeWindow& w, const trace::TraceIndex& index, const RowLayout& rows,
                std::optional<size_t> selected, size_t max_flows);

}  // namespace ipt::gui::timeline
