// [SECTION] index
//   fonts          Latin + CJK (WenQuanYi Micro Hei) when found
//   screenshot     glReadPixels -> PNG (stb_image_write)
//   menu           File / View / Language
//   keyboard       <- / -> / space step through the lesson
//   main loop      frames, frame-time percentiles
#include "app/gui/gui_app.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <stb_image_write.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string_view>
#include <time.h>
#include <unistd.h>

#include "app/gui/app_state.h"
#include "app/gui/i18n.h"
#include "app/gui/view.h"
#include "core/tensor/backend.h"
#include "core/util/error.h"
#include "core/util/write_file.h"

namespace ipt::gui {

namespace fs = std::filesystem;

namespace {

// [SECTION] fonts ------------------------------------------------------------------------

const char* find_cjk_font() {
  static const char* candidates[] = {"/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
                                     "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
                                     "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"};
  for (const char* c : candidates)
    if (fs::exists(c)) return c;
  return nullptr;
}

// Loads the UI font; returns false when no CJK font exists (the UI then stays in English).
bool load_fonts(const AppState& s) {
  ImGuiIO& io = ImGui::GetIO();
  const char* cjk = find_cjk_font();
  if (!cjk) {
    io.Fonts->AddFontDefault();
    return false;
  }
  // Only the glyphs the program can show: ASCII, common punctuation, every character in the
  // lessons' Chinese texts and the UI strings (keeps the atlas small and fast to build).
  ImFontGlyphRangesBuilder b;
  b.AddRanges(io.Fonts->GetGlyphRangesDefault());
  static const ImWchar extra[] = {0x2000, 0x206F, 0x2190, 0x21FF, 0x2200, 0x22FF, 0x2500,
                                  0x257F, 0x3000, 0x303F, 0xFF00, 0xFFEF, 0x0370, 0x03FF,
                                  0x1D00, 0x1DBF, 0x2070, 0x209F, 0x00B7, 0x00B7, 0};
  b.AddRanges(extra);
  b.AddRanges(io.Fonts->GetGlyphRangesChineseSimplifiedCommon());
  for (const auto& e : s.index) {
    b.AddText(e.title.zh.c_str());
    if (e.file) {
      try {
        auto l = lesson::load_lesson(*e.file);
        b.AddText(l.title.zh.c_str());
        b.AddText(l.summary.zh.c_str());
        for (const auto& st : l.steps) {
          b.AddText(st.title.zh.c_str());
          b.AddText(st.narration.zh.c_str());
        }
      } catch (...) {}
    }
  }
  for_each_translation(
      [](const char* zh, void* builder) { static_cast<ImFontGlyphRangesBuilder*>(builder)->AddText(zh); }, &b);
  static ImVector<ImWchar> ranges;
  ranges.clear();
  b.BuildRanges(&ranges);
  ImFontConfig cfg;
  cfg.OversampleH = 1;
  cfg.OversampleV = 1;
  cfg.PixelSnapH = true;
  io.Fonts->AddFontFromFileTTF(cjk, 17.0f, &cfg, ranges.Data);
  return true;
}

// [SECTION] screenshot ------------------------------------------------------------------

bool save_png(GLFWwindow* w, const std::string& path, std::string& err) {
  int fw = 0, fh = 0;
  glfwGetFramebufferSize(w, &fw, &fh);
  std::vector<unsigned char> px(static_cast<size_t>(fw) * fh * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, fw, fh, GL_RGB, GL_UNSIGNED_BYTE, px.data());
  std::vector<unsigned char> flipped(px.size());
  const size_t row = static_cast<size_t>(fw) * 3;
  for (int y = 0; y < fh; ++y)
    std::copy_n(&px[static_cast<size_t>(fh - 1 - y) * row], row, &flipped[static_cast<size_t>(y) * row]);
  std::string png;
  auto append = [](void* ctx, void* data, int size) {
    static_cast<std::string*>(ctx)->append(static_cast<char*>(data), size);
  };
  if (!stbi_write_png_to_func(append, &png, fw, fh, 3, flipped.data(), static_cast<int>(row))) {
    err = "cannot encode the screenshot as PNG";
    return false;
  }
  try {
    write_file(path, png, "screenshot");
  } catch (const ipt::Error& e) {
    err = e.what();
    return false;
  }
  return true;
}

std::string config_dir() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  fs::path base = xdg && *xdg ? fs::path(xdg) : home ? fs::path(home) / ".config" : fs::path(".");
  fs::path dir = base / "inside-pytorch";
  std::error_code ec;
  fs::create_directories(dir, ec);
  return dir.string();
}

// [SECTION] menu -------------------------------------------------------------------------

struct PathPopup {
  enum Kind { None, OpenTrace, ExportTrace, ExportPng } kind = None;
  char path[1024] = "";
};

void draw_menu(AppState& s, std::vector<std::unique_ptr<View>>& views, PathPopup& popup, bool& quit, bool has_cjk,
               bool& reset_layout) {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu(tr("File"))) {
    if (ImGui::MenuItem(tr("Open trace..."))) popup.kind = PathPopup::OpenTrace;
    if (ImGui::MenuItem(tr("Export trace..."))) {
      popup.kind = PathPopup::ExportTrace;
      std::snprintf(popup.path, sizeof popup.path, "inside-pytorch-trace.json");
    }
    if (ImGui::MenuItem(tr("Export PNG..."))) {
      popup.kind = PathPopup::ExportPng;
      std::snprintf(popup.path, sizeof popup.path, "inside-pytorch.png");
    }
    ImGui::Separator();
    if (ImGui::MenuItem(tr("Quit"), "Ctrl+Q")) quit = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(tr("View"))) {
    for (auto& v : views) ImGui::MenuItem(tr(v->title()), nullptr, &v->open);
    ImGui::Separator();
    if (ImGui::MenuItem("Reset layout")) reset_layout = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(tr("Device"))) {
    // Applies to the next run; not while one runs (its kernels may be queued on the device).
    static bool gpu_on = has_backend(DeviceType::CUDA);
    if (ImGui::MenuItem(tr("Simulated GPU (device=\"cuda\")"), nullptr, &gpu_on, !s.busy()))
      set_device_enabled(DeviceType::CUDA, gpu_on);
    ImGui::TextDisabled("%s", tr(gpu_on ? "torch.cuda.is_available() is True"
                                        : "torch.cuda.is_available() is False, as on a CPU-only PyTorch"));
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu(tr("Language"))) {
    if (ImGui::MenuItem("English", nullptr, lang() == Lang::En)) set_lang(Lang::En);
    if (ImGui::MenuItem("中文", nullptr, lang() == Lang::Zh, has_cjk)) set_lang(Lang::Zh);
    ImGui::EndMenu();
  }
  if (s.busy()) {
    // The program runs on its worker thread; the window keeps drawing (and can stop it).
    ImGui::SameLine(0, 30);
    const char spin[] = "|/-\\";
    ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "%c %s", spin[static_cast<int>(ImGui::GetTime() * 8) % 4],
                       tr("Running…"));
    ImGui::SameLine();
    if (ImGui::SmallButton(tr("Stop (Esc)"))) stop_run(s);
  }
  std::string loading_path;
  double loaded = 0;
  if (load_progress(s, loading_path, loaded)) {
    // The trace loads on its worker thread (Note [Trace files load off the UI thread]).
    ImGui::SameLine(0, 30);
    ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "%s %s", tr("Loading"), loading_path.c_str());
    ImGui::SameLine();
    ImGui::ProgressBar(static_cast<float>(loaded), ImVec2(160, 0));
    ImGui::SameLine();
    if (ImGui::SmallButton(tr("Cancel"))) cancel_load(s);
  }
  if (!s.banner.empty()) {
    ImGui::SameLine(0, 30);
    ImGui::TextColored(s.banner.rfind(tr("Error"), 0) == 0 ? ImVec4(1, 0.45f, 0.4f, 1) : ImVec4(0.6f, 0.85f, 0.6f, 1),
                       "%s", s.banner.c_str());
  }
  ImGui::EndMainMenuBar();
}

void draw_path_popup(AppState& s, PathPopup& popup, bool& want_png, std::string& png_path) {
  if (popup.kind == PathPopup::None) return;
  const char* title = popup.kind == PathPopup::OpenTrace     ? tr("Open trace...")
                      : popup.kind == PathPopup::ExportTrace ? tr("Export trace...")
                                                             : tr("Export PNG...");
  ImGui::OpenPopup("##path");
  if (ImGui::BeginPopupModal("##path", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::TextUnformatted(title);
    ImGui::SetNextItemWidth(480);
    bool enter = ImGui::InputText(tr("Path"), popup.path, sizeof popup.path, ImGuiInputTextFlags_EnterReturnsTrue);
    bool ok = ImGui::Button(popup.kind == PathPopup::OpenTrace ? tr("Open") : tr("Save")) || enter;
    ImGui::SameLine();
    bool cancel = ImGui::Button(tr("Cancel"));
    if (ok) {
      if (popup.kind == PathPopup::OpenTrace) open_trace(s, popup.path);
      else if (popup.kind == PathPopup::ExportTrace) export_trace(s, popup.path);
      else {
        want_png = true;
        png_path = popup.path;
      }
    }
    if (ok || cancel) {
      popup.kind = PathPopup::None;
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
}

// [SECTION] keyboard ---------------------------------------------------------------------

void handle_keys(AppState& s) {
  if (ImGui::GetIO().WantTextInput || !s.lesson || s.show_playground) return;
  // Dear ImGui 1.86: keys are indices into io.KeysDown, mapped through GetKeyIndex().
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow)) ||
      ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space)))
    run_lesson_to(s, std::min(s.current_step + 1, s.step_count() - 1));
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) run_lesson_to(s, std::max(s.current_step - 1, 0));
}

// The CPU time this thread has used (ms): a frame's own cost, without the time spent waiting
// for the GL driver's rasterizer threads (under Xvfb the "GPU" is llvmpipe on the same CPUs).
double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// This process's resident memory (MB), for --report-frame-times.
double resident_mb() {
  std::ifstream f("/proc/self/statm");
  long pages = 0, resident = 0;
  f >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(::sysconf(_SC_PAGESIZE)) / 1e6;
}

std::string read_file(const std::string& path, bool& ok) {
  std::ifstream in(path, std::ios::binary);
  ok = static_cast<bool>(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

// [SECTION] main loop -------------------------------------------------------------------

int run_gui_app(const GuiConfig& cfg) {
  glfwSetErrorCallback([](int code, const char* msg) { std::cerr << "GLFW error " << code << ": " << msg << "\n"; });
  if (!glfwInit()) {
    std::cerr << "error: cannot open a window (GLFW could not initialise)\n";
    return 2;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GL_TRUE);
  GLFWwindow* window = glfwCreateWindow(cfg.width, cfg.height, "Inside PyTorch", nullptr, nullptr);
  if (!window) {
    std::cerr << "error: cannot create an OpenGL 3.3 window\n";
    glfwTerminate();
    return 2;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(cfg.frames > 0 || !cfg.screenshot.empty() ? 0 : 1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  const bool scripted = !cfg.screenshot.empty() || cfg.frames > 0;
  static std::string ini_path;
  if (scripted) {
    io.IniFilename = nullptr;  // deterministic layout for pictures and measurements
  } else {
    ini_path = config_dir() + "/layout.ini";  // the layout is remembered between runs
    io.IniFilename = ini_path.c_str();
  }
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 4;
  style.FrameRounding = 3;
  style.Colors[ImGuiCol_WindowBg].w = 1.0f;  // opaque: overlapping views must not show through

  AppState s;
  load_index(s);
  const bool has_cjk = load_fonts(s);
  set_lang(cfg.lang == "zh" ? Lang::Zh : Lang::En);
  if (!has_cjk && cfg.lang == "zh") {
    set_lang(Lang::En);
    s.banner = tr("No Chinese font found (install fonts-wqy-microhei): staying in English.");
  }
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  s.playground_code = playground_examples().front().second;
  s.zoom_sweep = cfg.zoom_sweep;
  int exit_code = 0;
  if (!cfg.trace_file.empty()) {
    const double rss0 = resident_mb();
    const auto t0 = std::chrono::steady_clock::now();
    if (!open_trace_wait(s, cfg.trace_file)) exit_code = 1;
    if (cfg.report_frame_times)
      std::printf("opened: %zu events in %.3f s, resident memory +%.0f MB (%.0f MB in all)\n", s.doc.events.size(),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), resident_mb() - rss0,
                  resident_mb());
  } else if (!cfg.run_file.empty()) {
    bool ok = false;
    std::string code = read_file(cfg.run_file, ok);
    if (!ok) {
      s.banner = std::string(tr("Error")) + ": cannot read " + cfg.run_file;
      exit_code = 1;
    } else {
      s.playground_code = code;
      s.show_playground = true;
      run_playground(s);
      wait_run(s);
      if (!s.playground_result.error.empty()) exit_code = 1;
    }
  } else {
    open_lesson(s, cfg.lesson.value_or(2));
    wait_run(s);
    if (!s.lesson_error.empty()) exit_code = 1;
    if (cfg.step && s.lesson) run_lesson_to(s, *cfg.step - 1);
    wait_run(s);
    for (const auto& o : s.outputs)
      if (!o.error.empty()) exit_code = 1;
  }

  auto views = make_views();
  if (!cfg.schema.empty()) {  // as if a link asked for it
    s.requests.post(ShowOperator{cfg.schema, ""});
    s.requests.post(FocusView{"schema"});
  }
  PathPopup popup;
  bool quit = false, want_png = false, reset_layout = false;
  std::string png_path;
  std::vector<double> frame_ms, frame_cpu_ms;  // wall time and this thread's CPU time per frame
  uint64_t focused_generation = UINT64_MAX;
  const char* focus_id = nullptr;
  int focus_frames = 0;
  const int frames_to_run = !cfg.screenshot.empty() ? std::max(cfg.frames, 4) : cfg.frames;
  int frame = 0;

  while (!glfwWindowShouldClose(window) && !quit) {
    glfwPollEvents();
    auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = thread_cpu_ms();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();

    poll_run(s);
    poll_load(s);
    if (scripted) wait_run(s);  // pictures and measurements show finished runs
    if (s.busy() && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) stop_run(s);
    handle_keys(s);
    if (ImGui::GetIO().KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_Q)) quit = true;
    draw_menu(s, views, popup, quit, has_cjk, reset_layout);
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ViewContext ctx{s, s.doc, s.sel, s.requests};
    // When a new step is shown, bring the view it is about to the front (for a few frames:
    // windows appearing for the first time take focus themselves).
    if (focused_generation != s.doc.generation) {
      focused_generation = s.doc.generation;
      focus_frames = 3;
      focus_id = "storage";
      if (s.lesson && !s.show_playground)
        focus_id = view_for(s.lesson->steps[static_cast<size_t>(s.current_step)].view);
      if (!cfg.view.empty()) focus_id = cfg.view.c_str();
    }
    if (std::optional<FocusView> asked = s.requests.take<FocusView>()) {
      for (auto& v : views)
        if (asked->id == v->id()) {
          v->open = true;
          focus_id = v->id();
          focus_frames = 2;
        }
    }
    for (auto& v : views) {
      if (!v->open) continue;
      float x, y, w, h;
      v->default_rect(x, y, w, h);
      ImGuiCond cond = reset_layout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
      const float top = vp->WorkPos.y;
      const float W = vp->WorkSize.x, H = vp->WorkSize.y;
      ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + x * W, top + y * H), cond);
      ImGui::SetNextWindowSize(ImVec2(w * W, h * H), cond);
      if (focus_frames > 0 && focus_id && std::string_view(focus_id) == v->id()) ImGui::SetNextWindowFocus();
      std::string name = std::string(tr(v->title())) + "###" + v->id();
      if (ImGui::Begin(name.c_str(), &v->open)) v->draw(ctx);
      ImGui::End();
    }
    reset_layout = false;
    if (focus_frames > 0) --focus_frames;
    draw_path_popup(s, popup, want_png, png_path);

    ImGui::Render();
    int fw, fh;
    glfwGetFramebufferSize(window, &fw, &fh);
    glViewport(0, 0, fw, fh);
    glClearColor(0.09f, 0.09f, 0.11f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    frame_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    frame_cpu_ms.push_back(thread_cpu_ms() - cpu0);

    ++frame;
    if (want_png) {
      std::string err;
      s.banner = save_png(window, png_path, err) ? "PNG written to " + png_path : std::string(tr("Error")) + ": " + err;
      want_png = false;
    }
    if (!cfg.screenshot.empty() && frame >= frames_to_run) {
      std::string err;
      if (!save_png(window, cfg.screenshot, err)) {
        std::cerr << "error: " << err << "\n";
        exit_code = 2;
      }
      break;
    }
    glfwSwapBuffers(window);
    if (frames_to_run > 0 && frame >= frames_to_run) break;
  }

  if (cfg.report_frame_times && !frame_ms.empty()) {
    // The first two frames build fonts and layouts; they are left out.
    auto sorted = [](const std::vector<double>& all) {
      std::vector<double> v(all.begin() + std::min<size_t>(2, all.size() - 1), all.end());
      std::sort(v.begin(), v.end());
      return v;
    };
    const std::vector<double> v = sorted(frame_cpu_ms), w = sorted(frame_ms);
    auto pct = [](const std::vector<double>& x, double p) {
      return x[std::min(x.size() - 1, static_cast<size_t>(p * static_cast<double>(x.size() - 1) + 0.5))];
    };
    std::printf(
        "frames: %zu  events: %zu  CPU ms/frame: p50 %.2f  p90 %.2f  p95 %.2f  p99 %.2f  max %.2f"
        "  wall ms/frame: p50 %.2f  p95 %.2f  max %.2f\n",
        v.size(), s.doc.events.size(), pct(v, 0.5), pct(v, 0.9), pct(v, 0.95), pct(v, 0.99), v.back(), pct(w, 0.5),
        pct(w, 0.95), w.back());
  }
  if (scripted) {
    for (const auto& o : s.outputs)
      if (!o.error.empty()) std::cerr << "step error: " << o.error << "\n";
    if (!s.playground_result.error.empty()) std::cerr << "snippet error: " << s.playground_result.error << "\n";
    if (!s.lesson_error.empty()) std::cerr << "lesson error: " << s.lesson_error << "\n";
  }

  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return exit_code;
}

}  // namespace ipt::gui
