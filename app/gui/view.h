#pragma once
// View: one window of the GUI. A view draws from the TraceDoc and the Selection it is given
// and owns neither; views talk to each other only through the Selection and typed requests
// (Note [Views ask each other by typed requests] in app/gui/requests.h).
// Every view is registered in one table, keyed by the lesson file's view kind: views/registry.cpp.

#include <memory>
#include <vector>

#include "app/gui/app_state.h"

namespace ipt::gui {

struct ViewContext {
  AppState& state;      // lesson player and playground state (only their own views change it)
  const TraceDoc& doc;  // the recorded events to draw
  Selection& sel;       // shared selection
  Requests& requests;   // what views ask of each other
};

class View {
 public:
  virtual ~View() = default;
  // Stable id (also the ImGui window id) and English title (translated with tr()).
  virtual const char* id() const = 0;
  virtual const char* title() const = 0;
  // Draws the window's content (the caller has called ImGui::Begin): the shared empty state
  // when the view shows recorded events and the document has none, else draw_content().
  // Not virtual: every view gets the same empty state.
  void draw(ViewContext& ctx);
  // Default placement as fractions of the main viewport: x, y, w, h.
  virtual void default_rect(float& x, float& y, float& w, float& h) const = 0;
  bool open = true;

 protected:
  // Whether the view draws recorded events (the Dispatch, Graph and Timeline views do; the
  // lesson player, the Schema view... draw without them).
  virtual bool shows_events() const { return false; }
  virtual void draw_content(ViewContext& ctx) = 0;
};

// The shared empty state: one dimmed, wrapped sentence (already translated).
void draw_empty_state(const char* text);

// Every view, in the registry's order.
std::vector<std::unique_ptr<View>> make_views();
// The id of the view that shows a lesson step of this view kind ("storage" for output).
const char* view_for(lesson::ViewKind kind);

}  // namespace ipt::gui
