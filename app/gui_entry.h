#pragma once
// The `gui` subcommand: options and entry point. Without a display (or without the GUI
// built in) it says so and runs every lesson headless instead.

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace ipt::app {

struct GuiOptions {
  std::optional<int> lesson;
  std::optional<int> step;
  std::string run_file;
  std::string screenshot;
  std::string lang = "en";
  int width = 1600, height = 1000;
  std::string out_dir = "traces";
  std::string trace_file;
  int frames = 0;
  bool report_frame_times = false;
  std::string view;    // the view to bring to the front
  int zoom_sweep = 0;  // the Timeline zooms from the whole trace to one call over N frames
  std::string schema;  // open the Schema view at this operator or schema text
};

void add_gui_options(CLI::App& cmd, GuiOptions& o);
int run_gui(const GuiOptions& o);

}  // namespace ipt::app
