#include "app/gui_entry.h"

#include <cstdlib>
#include <iostream>

#include "app/commands.h"
#if IPT_HAVE_GUI
#include "app/gui/gui_app.h"
#endif

namespace ipt::app {

void add_gui_options(CLI::App& cmd, GuiOptions& o) {
  cmd.add_option("--lesson", o.lesson, "open lesson N");
  cmd.add_option("--step", o.step, "at step K");
  cmd.add_option("--run", o.run_file, "open this .py file in the playground and run it");
  cmd.add_option("--screenshot", o.screenshot, "render one frame to this PNG and exit");
  cmd.add_option("--lang", o.lang, "en or zh")->check(CLI::IsMember({"en", "zh"}));
  cmd.add_option("--width", o.width, "window width")->capture_default_str();
  cmd.add_option("--height", o.height, "window height")->capture_default_str();
  cmd.add_option("--out", o.out_dir, "headless fallback: folder for lesson traces")->capture_default_str();
  cmd.add_option("--trace", o.trace_file, "open this trace file");
  cmd.add_option("--frames", o.frames, "render N frames and exit");
  cmd.add_flag("--report-frame-times", o.report_frame_times, "print frame-time percentiles (CPU time per frame)");
  cmd.add_option("--view", o.view, "bring this view to the front: storage, dispatch, graph, events, timeline or schema")
      ->check(CLI::IsMember({"storage", "dispatch", "graph", "events", "timeline", "schema", "compile"}));
  cmd.add_option("--zoom-sweep", o.zoom_sweep,
                 "open the Timeline and zoom it from the whole trace down to one call over N frames (with --frames)")
      ->check(CLI::Range(0, 1000000));
  cmd.add_option(
      "--schema", o.schema,
      "open the Schema view at this operator (aten::add.out) or schema text, kept as given even if malformed");
}

int run_gui(const GuiOptions& o) {
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  const bool has_display = (display && *display) || (wayland && *wayland);
#if IPT_HAVE_GUI
  if (has_display) {
    gui::GuiConfig c;
    c.lesson = o.lesson;
    c.step = o.step;
    c.run_file = o.run_file;
    c.trace_file = o.trace_file;
    c.screenshot = o.screenshot;
    c.lang = o.lang;
    c.width = o.width;
    c.height = o.height;
    c.frames = o.frames;
    c.report_frame_times = o.report_frame_times;
    c.view = o.zoom_sweep > 0 && o.view.empty() ? "timeline" : o.view;
    c.zoom_sweep = o.zoom_sweep;
    c.schema = o.schema;
    return gui::run_gui_app(c);
  }
#endif
  if (!o.screenshot.empty() || o.frames > 0) {
    std::cerr << "error: "
              << (has_display ? "this build has no GUI (IPT_BUILD_GUI=OFF)" : "no display found (DISPLAY is not set)")
              << "; run it under a display or `xvfb-run`\n";
    return 2;
  }
  std::cout << (has_display ? "This build has no desktop window (built with IPT_BUILD_GUI=OFF)"
                            : "No display found (DISPLAY is not set)")
            << ": running every lesson headless instead, writing traces to " << o.out_dir << "/.\n";
  return cmd_all_lessons(o.out_dir, o.lang);
}

}  // namespace ipt::app
