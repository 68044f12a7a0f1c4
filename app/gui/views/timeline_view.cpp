// The Timeline: the trace over time, one track per host thread (device streams get their own
// tracks the same way), slices nested by depth, instants as ticks, forward-backward flows as
// arrows, lesson steps as bands, and a selected range's counts and time per operator.
//
// [SECTION] index
//   window      the visible TimeWindow: fit, zoom about a point, pan, clamping
//   input       wheel / W S zoom, drag / A D pan, right- or Shift-drag a range, click selects
//   selection   follows Selection::event from other views (centres on it) and sets it on click
//   stats       the range panel (views::range_stats, recomputed only when the range changes)
//
// Note [Timeline cost]
// Per frame the view binary-searches each visible row for the window (views::fold_slices)
// and draws at most a few boxes per min_px pixels, so its cost follows pixels, not events.
// The row layout is built once per document; the range statistics once per range.

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/i18n.h"
#include "app/gui/views/event_text.h"
#include "app/gui/views/timeline_draw.h"
#include "app/gui/views/timeline_memory.h"
#include "app/gui/views/views.h"

namespace ipt::gui {

namespace {

using views::TimeWindow;

constexpr double kMinNsPerPx = 0.01;  // 1 ns spans 100 pixels at the deepest zoom

class TimelineView : public View {
 public:
  const char* id() const override { return "timeline"; }
  const char* title() const override { return "Timeline"; }
  void default_rect(float& x, float& y, float& w, float& h) const override {
    x = 0.56f, y = 0.62f, w = 0.44f, h = 0.38f;
  }

  bool shows_events() const override { return true; }
  void draw_content(ViewContext& c) override {
    const TraceDoc& doc = c.doc;
    const char* micro = ImGui::GetFont()->FindGlyphNoFallback(0xB5) ? "\xC2\xB5s" : "us";
    if (generation_ != doc.generation) on_new_document(doc);
    draw_toolbar(doc, micro);

    const float rh = ImGui::GetTextLineHeight() + 4;
    const float band_h = steps_.size() > 1 ? rh : 0;
    const float ruler_h = rh + 2;
    const float stats_h = range_ ? std::min(ImGui::GetContentRegionAvail().y * 0.45f, rh * 9) : 0;
    const ImVec2 top = ImGui::GetCursorScreenPos();
    const float width = std::max(50.0f, ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize);
    win_.width = width;
    if (pending_fit_) apply_fit();
    apply_sweep(c);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 mouse = ImGui::GetIO().MousePos;

    int band_hover = -1;
    if (band_h > 0) band_hover = timeline::draw_step_bands(dl, top, width, band_h, win_, steps_, shown_step_, mouse);
    const ImVec2 ruler_pos(top.x, top.y + band_h);
    timeline::draw_ruler(dl, ruler_pos, width, ruler_h, win_, doc.index->t_min, micro);
    ImGui::Dummy(ImVec2(width, band_h + ruler_h));
    if (band_hover >= 0) {
      ImGui::SetTooltip(
          "%s %d: %s - %s\n%s", tr("Step"), band_hover + 1,
          views::format_ns(static_cast<double>(steps_[band_hover].first - doc.index->t_min), micro).c_str(),
          views::format_ns(static_cast<double>(steps_[band_hover].second - doc.index->t_min), micro).c_str(),
          tr("Click to zoom to this step."));
      if (ImGui::IsMouseClicked(0)) fit(steps_[band_hover].first, steps_[band_hover].second);
    }

    // The tracks: a child window that scrolls vertically (the wheel zooms instead).
    const float tracks_h = std::max(rh * 3, ImGui::GetContentRegionAvail().y - stats_h);
    ImGui::BeginChild("tracks", ImVec2(0, tracks_h), false, ImGuiWindowFlags_NoScrollWithMouse);
    if (pending_scroll_y_) {
      ImGui::SetScrollY(*pending_scroll_y_);
      pending_scroll_y_.reset();
    }
    if (rows_.row_h != rh) rows_ = timeline::layout_rows(*doc.index, rh);
    timeline::Canvas cv;
    cv.dl = ImGui::GetWindowDrawList();
    cv.origin = ImGui::GetCursorScreenPos();
    const ImVec2 wpos = ImGui::GetWindowPos(), wsize = ImGui::GetWindowSize();
    cv.clip_y0 = wpos.y;
    cv.clip_y1 = wpos.y + wsize.y;
    cv.mouse = mouse;
    cv.mouse_in = ImGui::IsWindowHovered() && mouse.x >= cv.origin.x && mouse.x < cv.origin.x + width;
    timeline::Hover hover;
    timeline::draw_tracks(cv, win_, doc, rows_, c.sel.event, hover, boxes_);
    timeline::draw_flows(cv, win_, *doc.index, rows_, c.sel.event, 2000);
    const std::string memory_tip = timeline::draw_memory(cv, win_, memory_, rows_.total_h, rh, doc.index->t_min, micro);
    draw_range_overlay(cv, wpos.y, wpos.y + wsize.y, micro);
    ImGui::Dummy(ImVec2(width, rows_.total_h + timeline::memory_height(memory_, rh)));
    handle_input(c, cv, hover, top.y + band_h, ruler_h);
    if (hover.any && drag_ == Drag::None) tooltip(doc, hover, micro);
    else if (!memory_tip.empty() && drag_ == Drag::None) ImGui::SetTooltip("%s", memory_tip.c_str());
    ImGui::EndChild();

    follow_selection(c);
    if (range_) draw_stats(doc, micro);
  }

 private:
  enum class Drag { None, Pending, Pan, Range };

  // [SECTION] window ------------------------------------------------------------------------

  void on_new_document(const TraceDoc& doc) {
    generation_ = doc.generation;
    memory_ = views::device_memory_model(doc.events, *doc.index);
    rows_ = timeline::RowLayout{};
    rows_.row_h = -1;
    range_.reset();
    seen_sel_.reset();
    sweep_frame_ = 0;
    const auto& ev = doc.events;
    steps_.clear();
    shown_step_ = -1;
    for (size_t k = 0; k < doc.step_begin.size(); ++k) {
      const size_t b = doc.step_begin[k];
      if (b >= ev.size()) continue;
      const int64_t t0 = ev[b].ts_ns;
      const int64_t t1 = k + 1 < doc.step_begin.size() && doc.step_begin[k + 1] < ev.size()
                             ? ev[doc.step_begin[k + 1]].ts_ns
                             : doc.index->t_max;
      if (b == doc.first) shown_step_ = static_cast<int>(steps_.size());
      steps_.emplace_back(t0, std::max(t0, t1));
    }
    // Open on the shown step (the whole trace when there is one step).
    if (shown_step_ >= 0 && steps_.size() > 1)
      fit(steps_[static_cast<size_t>(shown_step_)].first, steps_[static_cast<size_t>(shown_step_)].second);
    else fit(doc.index->t_min, doc.index->t_max);
    whole_ = {doc.index->t_min, doc.index->t_max};
  }

  void fit(int64_t a, int64_t b) {
    fit_a_ = a;
    fit_b_ = std::max(b, a + 1);
    pending_fit_ = true;
  }
  void apply_fit() {
    const double span = static_cast<double>(fit_b_ - fit_a_);
    win_.ns_per_px = std::max(kMinNsPerPx, span * 1.04 / win_.width);
    win_.t0 = static_cast<double>(fit_a_) + span * 0.5 - win_.ns_per_px * win_.width * 0.5;
    pending_fit_ = false;
  }
  void zoom_at(double x, double factor) {
    const double t = win_.t_at(x);
    const double whole = static_cast<double>(std::max<int64_t>(1, whole_.second - whole_.first));
    win_.ns_per_px = std::clamp(win_.ns_per_px * factor, kMinNsPerPx, std::max(kMinNsPerPx, whole * 4 / win_.width));
    win_.t0 = t - x * win_.ns_per_px;
    clamp_pan();
  }
  void pan_px(double dx) {
    win_.t0 += dx * win_.ns_per_px;
    clamp_pan();
  }
  void clamp_pan() {
    const double span = win_.ns_per_px * win_.width;
    const double lo = static_cast<double>(whole_.first) - span * 0.5,
                 hi = static_cast<double>(whole_.second) - span * 0.5;
    win_.t0 = std::clamp(win_.t0, lo, std::max(lo, hi));
  }

  // A scripted measurement (--zoom-sweep N): from the whole trace down to one call about the
  // middle of the trace, geometrically, one zoom level per frame.
  void apply_sweep(ViewContext& c) {
    const int n = c.state.zoom_sweep;
    if (n <= 0 || sweep_frame_ >= n) return;
    const TraceDoc& doc = c.doc;
    const auto& idx = *doc.index;
    if (sweep_frame_ == 0) {
      // The call: the depth-0 slice nearest the middle of the first track.
      sweep_call_ = {idx.t_min, idx.t_max};
      const double mid = 0.5 * static_cast<double>(idx.t_min) + 0.5 * static_cast<double>(idx.t_max);
      if (!idx.tracks.empty() && !idx.tracks[0].levels.empty() && !idx.tracks[0].levels[0].slices.empty()) {
        const auto& v = idx.tracks[0].levels[0].slices;
        auto it =
            std::partition_point(v.begin(), v.end(), [&](const auto& s) { return static_cast<double>(s.t1) < mid; });
        if (it == v.end()) --it;
        sweep_call_ = {it->t0, std::max(it->t1, it->t0 + 1)};
      }
    }
    const double whole = static_cast<double>(std::max<int64_t>(1, idx.t_max - idx.t_min));
    const double call = static_cast<double>(sweep_call_.second - sweep_call_.first);
    const double f = n > 1 ? static_cast<double>(sweep_frame_) / (n - 1) : 1.0;
    const double span = whole * std::pow(call / whole, f);
    const double centre = (1 - f) * (0.5 * static_cast<double>(idx.t_min) + 0.5 * static_cast<double>(idx.t_max)) +
                          f * 0.5 * static_cast<double>(sweep_call_.first + sweep_call_.second);
    win_.ns_per_px = std::max(kMinNsPerPx, span * 1.04 / win_.width);
    win_.t0 = centre - win_.ns_per_px * win_.width * 0.5;
    ++sweep_frame_;
  }

  // [SECTION] input -------------------------------------------------------------------------

  void handle_input(ViewContext& c, const timeline::Canvas& cv, const timeline::Hover& hover, float ruler_y,
                    float ruler_h) {
    ImGuiIO& io = ImGui::GetIO();
    const double mx = io.MousePos.x - cv.origin.x;
    const bool over_ruler = ImGui::IsMouseHoveringRect(
        ImVec2(cv.origin.x, ruler_y), ImVec2(cv.origin.x + static_cast<float>(win_.width), ruler_y + ruler_h), false);
    const bool over = cv.mouse_in || over_ruler;
    if (over && io.MouseWheel != 0) zoom_at(mx, std::pow(1.25, -io.MouseWheel));
    // Keys (the GLFW backend's codes for letters are their ASCII capitals), when this window
    // has focus and no text field takes typing.
    if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) && !io.WantTextInput) {
      const double at = over ? mx : win_.width * 0.5;
      if (ImGui::IsKeyPressed('W')) zoom_at(at, 1 / 1.5);
      if (ImGui::IsKeyPressed('S')) zoom_at(at, 1.5);
      if (ImGui::IsKeyPressed('A')) pan_px(-win_.width * 0.15);
      if (ImGui::IsKeyPressed('D')) pan_px(win_.width * 0.15);
      if (ImGui::IsKeyPressed('F')) fit(whole_.first, whole_.second);
    }
    // Mouse: a left click selects; a left drag pans; a right drag, a Shift+left drag or a
    // drag on the ruler measures a range; a right click clears the range.
    if (drag_ == Drag::None && over && (ImGui::IsMouseClicked(0) || ImGui::IsMouseClicked(1))) {
      drag_ = Drag::Pending;
      drag_button_ = ImGui::IsMouseClicked(0) ? 0 : 1;
      drag_t_ = win_.t_at(mx);
      drag_range_ = drag_button_ == 1 || io.KeyShift || over_ruler;
    }
    if (drag_ == Drag::Pending && ImGui::IsMouseDragging(drag_button_, 3))
      drag_ = drag_range_ ? Drag::Range : Drag::Pan;
    if (drag_ == Drag::Pan) {
      pan_px(-io.MouseDelta.x);
      if (io.MouseDelta.y != 0) ImGui::SetScrollY(ImGui::GetScrollY() - io.MouseDelta.y);
    } else if (drag_ == Drag::Range) {
      const double t = win_.t_at(mx);
      set_range(static_cast<int64_t>(std::min(drag_t_, t)), static_cast<int64_t>(std::max(drag_t_, t)));
    }
    if (drag_ != Drag::None && ImGui::IsMouseReleased(drag_button_)) {
      if (drag_ == Drag::Pending) click(c, hover);
      drag_ = Drag::None;
    }
    if (over && hover.any && ImGui::IsMouseDoubleClicked(0)) fit(hover.box.t0, hover.box.t1);
  }

  void click(ViewContext& c, const timeline::Hover& hover) {
    if (drag_button_ == 1) {
      range_.reset();
      return;
    }
    if (!hover.any) return;
    if (hover.box.count > 1) {  // a folded run: zoom into it
      fit(hover.box.t0, hover.box.t1);
      return;
    }
    c.sel.event = hover.box.event;
    if (const auto* t = std::get_if<trace::TensorMeta>(&c.doc.events[hover.box.event].payload))
      c.sel.tensor = t->tensor_id;
    seen_sel_ = c.sel.event;  // our own change: no re-centring
  }

  void tooltip(const TraceDoc& doc, const timeline::Hover& h, const char* micro) {
    const auto rel = [&](int64_t t) { return views::format_ns(static_cast<double>(t - doc.index->t_min), micro); };
    if (h.box.count > 1) {
      ImGui::SetTooltip("%u %s  (%s - %s)\n%s", h.box.count, tr(h.mark ? "instants" : "events folded"),
                        rel(h.box.t0).c_str(), rel(h.box.t1).c_str(), tr("Click to zoom in."));
      return;
    }
    std::string when = std::string(tr("at")) + " " + rel(h.box.t0);
    if (!h.mark)
      when +=
          "  " + std::string(tr("duration")) + " " + views::format_ns(static_cast<double>(h.box.t1 - h.box.t0), micro);
    draw_payload_tooltip(doc.events[h.box.event], when);
  }

  // [SECTION] selection ---------------------------------------------------------------------

  // Another view selected an event: centre the window on it (fit it when it is wider), and
  // scroll its row into view.
  void follow_selection(ViewContext& c) {
    if (c.sel.event == seen_sel_) return;
    seen_sel_ = c.sel.event;
    if (!c.sel.event) return;
    const auto& idx = *c.doc.index;
    int64_t a = 0, b = 0;
    if (!idx.span_of(*c.sel.event, a, b)) return;
    const double span = static_cast<double>(b - a);
    if (span > win_.ns_per_px * win_.width * 0.8) {
      fit(a, b);
    } else {
      win_.t0 = 0.5 * static_cast<double>(a + b) - win_.ns_per_px * win_.width * 0.5;
      clamp_pan();
    }
    const size_t e = *c.sel.event;
    if (idx.track[e] < rows_.track_y.size())
      pending_scroll_y_ = std::max(0.0f, rows_.level_y(idx.track[e], idx.depth[e]) - rows_.row_h * 3);
  }

  // [SECTION] stats -------------------------------------------------------------------------

  void set_range(int64_t a, int64_t b) {
    if (range_ && range_->first == a && range_->second == b) return;
    range_ = {a, b};
    stats_dirty_ = true;
  }

  void draw_range_overlay(const timeline::Canvas& cv, float y0, float y1, const char* micro) {
    if (!range_) return;
    const double xa = win_.px(static_cast<double>(range_->first)), xb = win_.px(static_cast<double>(range_->second));
    const float w = static_cast<float>(win_.width);
    const float a = cv.origin.x + static_cast<float>(std::clamp(xa, -2.0, static_cast<double>(w) + 2));
    const float b = cv.origin.x + static_cast<float>(std::clamp(xb, -2.0, static_cast<double>(w) + 2));
    cv.dl->AddRectFilled(ImVec2(a, y0), ImVec2(std::max(b, a + 1), y1), IM_COL32(120, 170, 255, 45));
    cv.dl->AddLine(ImVec2(a, y0), ImVec2(a, y1), IM_COL32(120, 170, 255, 200));
    cv.dl->AddLine(ImVec2(b, y0), ImVec2(b, y1), IM_COL32(120, 170, 255, 200));
    const std::string d = views::format_ns(static_cast<double>(range_->second - range_->first), micro);
    cv.dl->AddText(ImVec2(a + 4, y0 + 2), IM_COL32(190, 215, 255, 255), d.c_str());
  }

  void draw_stats(const TraceDoc& doc, const char* micro) {
    if (stats_dirty_) {
      stats_ = views::range_stats(doc.events, *doc.index, range_->first, range_->second);
      stats_dirty_ = false;
    }
    ImGui::Text("%s %s: %llu %s, %llu %s", tr("Range"),
                views::format_ns(static_cast<double>(range_->second - range_->first), micro).c_str(),
                static_cast<unsigned long long>(stats_.slices), tr("slices"),
                static_cast<unsigned long long>(stats_.instants), tr("instants"));
    ImGui::SameLine();
    if (ImGui::SmallButton(tr("Zoom to range"))) fit(range_->first, range_->second);
    ImGui::SameLine();
    if (ImGui::SmallButton(tr("Clear"))) {
      range_.reset();
      return;
    }
    const ImGuiTableFlags flags =
        ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_Resizable;
    if (ImGui::BeginTable("range", 4, flags, ImVec2(0, ImGui::GetContentRegionAvail().y))) {
      ImGui::TableSetupScrollFreeze(0, 1);
      ImGui::TableSetupColumn(tr("Operator"), ImGuiTableColumnFlags_WidthStretch);
      ImGui::TableSetupColumn(tr("Count"), ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableSetupColumn(tr("Total"), ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableSetupColumn(tr("Mean"), ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableHeadersRow();
      ImGuiListClipper clip;
      clip.Begin(static_cast<int>(stats_.rows.size()));
      while (clip.Step())
        for (int r = clip.DisplayStart; r < clip.DisplayEnd; ++r) {
          const auto& row = stats_.rows[static_cast<size_t>(r)];
          ImGui::TableNextRow();
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(row.name.c_str());
          ImGui::TableNextColumn();
          ImGui::Text("%llu", static_cast<unsigned long long>(row.count));
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(views::format_ns(static_cast<double>(row.total_ns), micro).c_str());
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(
              views::format_ns(
                  static_cast<double>(row.total_ns) / static_cast<double>(std::max<uint64_t>(1, row.count)), micro)
                  .c_str());
        }
      ImGui::EndTable();
    }
  }

  void draw_toolbar(const TraceDoc& doc, const char* micro) {
    if (ImGui::SmallButton(tr("Whole trace"))) fit(whole_.first, whole_.second);
    if (shown_step_ >= 0 && steps_.size() > 1) {
      ImGui::SameLine();
      if (ImGui::SmallButton(tr("This step")))
        fit(steps_[static_cast<size_t>(shown_step_)].first, steps_[static_cast<size_t>(shown_step_)].second);
    }
    ImGui::SameLine();
    ImGui::TextDisabled("%s %s  |  %zu %s", tr("showing"), views::format_ns(win_.ns_per_px * win_.width, micro).c_str(),
                        doc.events.size(), tr("events"));
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", tr("Wheel or W/S: zoom.  Drag or A/D: pan.  F: whole trace.\n"
                                 "Right-drag, Shift+drag or drag on the ruler: measure a range.\n"
                                 "Click: select (in every view).  Double-click: zoom to it."));
  }

  uint64_t generation_ = UINT64_MAX;
  TimeWindow win_;
  std::pair<int64_t, int64_t> whole_{0, 1};
  bool pending_fit_ = false;
  int64_t fit_a_ = 0, fit_b_ = 1;
  std::optional<float> pending_scroll_y_;
  timeline::RowLayout rows_;
  views::DeviceMemoryModel memory_;  // the trace's device memory, below the tracks
  std::vector<views::Box> boxes_;
  std::vector<std::pair<int64_t, int64_t>> steps_;
  int shown_step_ = -1;
  std::optional<size_t> seen_sel_;
  Drag drag_ = Drag::None;
  int drag_button_ = 0;
  bool drag_range_ = false;
  double drag_t_ = 0;
  std::optional<std::pair<int64_t, int64_t>> range_;
  bool stats_dirty_ = false;
  views::RangeStats stats_;
  int sweep_frame_ = 0;
  std::pair<int64_t, int64_t> sweep_call_{0, 1};
};

}  // namespace

std::unique_ptr<View> make_timeline_view() { return std::make_unique<TimelineView>(); }

}  // namespace ipt::gui
