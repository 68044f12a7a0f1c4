#pragma once
// Factories of the views (registered in views/registry.cpp) and small shared widgets.

#include <memory>
#include <string>

#include "app/gui/view.h"

namespace ipt::gui {

std::unique_ptr<View> make_lesson_browser_view();
std::unique_ptr<View> make_lesson_player_view();
std::unique_ptr<View> make_storage_view();
std::unique_ptr<View> make_dispatch_view();
std::unique_ptr<View> make_event_log_view();
std::unique_ptr<View> make_graph_view();
std::unique_ptr<View> make_timeline_view();
std::unique_ptr<View> make_schema_view();
std::unique_ptr<View> make_compile_view();

// The playground (drawn inside the lesson player window when selected).
void draw_playground(ViewContext& c);

}  // namespace ipt::gui
