// The one list of all views.
#include "app/gui/views/views.h"

namespace ipt::gui {

std::vector<std::unique_ptr<View>> make_views() {
  std::vector<std::unique_ptr<View>> v;
  v.push_back(make_lesson_browser_view());
  v.push_back(make_lesson_player_view());
  v.push_back(make_storage_view());
  v.push_back(make_dispatch_view());
  v.push_back(make_graph_view());
  v.push_back(make_schema_view());
  v.push_back(make_compile_view());
  v.push_back(make_event_log_view());
  v.push_back(make_timeline_view());
  return v;
}

}  // namespace ipt::gui
