#include "app/gui_entry.h"

#include <cstdlib>
#include <iostream>

#include "app/commands.h"

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
}

int run_gui(const GuiOptions& o) {
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((!display || !*display) && (!wayland || !*wayland)) {
    std::cout << "No display found (DISPLAY is not set): running every lesson headless instead, writing traces to "
              << o.out_dir << "/.\n";
  } else {
    std::cout << "The desktop window is not part of this build yet: running every lesson headless instead, "
                 "writing traces to "
              << o.out_dir << "/.\n";
  }
  return cmd_all_lessons(o.out_dir, o.lang);
}

}  // namespace ipt::app
