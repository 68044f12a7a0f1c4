// Placeholder until the view lands: draws a short note.
#include <imgui.h>

#include "app/gui/views/views.h"

namespace ipt::gui {
namespace {
class ThisView : public View {
 public:
  const char* id() const override { return "storage"; }
  const char* title() const override { return "storage"; }
  void default_rect(float& x, float& y, float& w, float& h) const override { x = 0.56f, y = 0.0f, w = 0.44f, h = 0.5f; }
  void draw(ViewContext& c) override { ImGui::Text("%zu events", c.doc.events.size()); }
};
}  // namespace
std::unique_ptr<View> make_storage_view() { return std::make_unique<ThisView>(); }
}  // namespace ipt::gui
