#pragma once
// Drawing a view headless: an ImGui context with no window and no GPU (the font atlas is built
// in memory and the frame's draw data is thrown away), input given to ImGui directly.
#include <imgui.h>
#include <imgui_internal.h>

#include <cstring>

#include "app/gui/view.h"

namespace ipt::gui::testing {

class Headless {
 public:
  Headless() {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1600, 1000);
    io.IniFilename = nullptr;
    unsigned char* pixels;
    int w, h;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  ~Headless() { ImGui::DestroyContext(); }

  // One frame of `view` in a window filling the display; returns false when ImGui's window
  // stack is not balanced afterwards (a Begin without End in the view).
  bool frame(View& view, ViewContext& c) {
    ImGuiIO& io = ImGui::GetIO();
    io.DeltaTime = 1.0f / 60;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("view", nullptr, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove);
    view.draw(c);
    const bool balanced = ImGui::GetCurrentContext()->CurrentWindowStack.Size >= 1;
    ImGui::End();
    ImGui::Render();
    return balanced && ImGui::GetCurrentContext()->CurrentWindowStack.Size == 0;
  }

  void mouse(ImVec2 p, bool down) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = p;
    io.MouseDown[0] = down;
  }

  // Moves to `p`, presses and releases, a frame each; false as frame() is.
  bool click(View& view, ViewContext& c, ImVec2 p) {
    bool ok = true;
    for (bool down : {false, true, false}) {
      mouse(p, down);
      ok = frame(view, c) && ok;
    }
    return ok;
  }

  static ImGuiWindow* window_named(const char* part) {
    for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
      if (w->Active && std::strstr(w->Name, part)) return w;
    return nullptr;
  }
};

}  // namespace ipt::gui::testing
