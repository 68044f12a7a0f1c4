#pragma once
// The desktop window: GLFW + OpenGL 3.3 core + Dear ImGui, the menu, keyboard stepping,
// screenshots (--screenshot) and frame-time reports (--frames N --report-frame-times).

#include <optional>
#include <string>

namespace ipt::gui {

struct GuiConfig {
  std::optional<int> lesson;
  std::optional<int> step;  // 1-based
  std::string run_file;     // load into the playground and run
  std::string trace_file;   // open a trace
  std::string screenshot;   // render, save PNG, exit
  std::string lang = "en";
  int width = 1600, height = 1000;
  int frames = 0;  // >0: render this many frames then exit
  bool report_frame_times = false;
  std::string view;    // a view id to bring to the front ("timeline"), or empty
  int zoom_sweep = 0;  // AppState::zoom_sweep
  std::string schema;  // open the Schema view at this operator or schema text, or empty
};

// Returns the process exit code: 0, 1 when a step/snippet reported an error in screenshot
// mode, 2 when the window could not be created.
int run_gui_app(const GuiConfig& cfg);

}  // namespace ipt::gui
