// The one table of all views: each view's id, how to make it, and the lesson view kinds it
// shows (a lesson step's `view:`, core/lesson/lesson.h). The GUI makes its windows from this
// table, in this order, and brings a step's view to the front through view_for().
#include <cstring>

#include "app/gui/views/views.h"
#include "core/util/error.h"

namespace ipt::gui {

namespace {

struct ViewEntry {
  const char* id;
  std::unique_ptr<View> (*make)();
  std::vector<lesson::ViewKind> shows;  // the lesson view kinds this view shows
};

const std::vector<ViewEntry>& registry() {
  using lesson::ViewKind;
  static const std::vector<ViewEntry> views = {
      {"lessons", make_lesson_browser_view, {}},
      {"player", make_lesson_player_view, {}},
      {"storage", make_storage_view, {ViewKind::Output, ViewKind::Storage}},
      {"dispatch", make_dispatch_view, {ViewKind::Dispatch}},
      {"graph", make_graph_view, {ViewKind::Graph}},
      {"schema", make_schema_view, {ViewKind::Schema}},
      {"compile", make_compile_view, {ViewKind::Compile}},
      {"events", make_event_log_view, {ViewKind::Events}},
      {"timeline", make_timeline_view, {ViewKind::Timeline}},
  };
  return views;
}

}  // namespace

std::vector<std::unique_ptr<View>> make_views() {
  std::vector<std::unique_ptr<View>> v;
  for (const ViewEntry& e : registry()) {
    v.push_back(e.make());
    IPT_CHECK(std::strcmp(v.back()->id(), e.id) == 0, RuntimeError, "the view registry names view '", v.back()->id(),
              "' as '", e.id, "'");
  }
  return v;
}

const char* view_for(lesson::ViewKind kind) {
  for (const ViewEntry& e : registry())
    for (lesson::ViewKind k : e.shows)
      if (k == kind) return e.id;
  return "storage";
}

}  // namespace ipt::gui
