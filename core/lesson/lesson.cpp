#include "core/lesson/lesson.h"

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/util/error.h"
#include "core/util/read_file.h"

namespace ipt::lesson {

namespace fs = std::filesystem;

const char* view_name(ViewKind v) {
  switch (v) {
    case ViewKind::Output: return "output";
    case ViewKind::Storage: return "storage";
    case ViewKind::Dispatch: return "dispatch";
    case ViewKind::Events: return "events";
    case ViewKind::Graph: return "graph";
    case ViewKind::Timeline: return "timeline";
    case ViewKind::Schema: return "schema";
  }
  return "output";
}

std::optional<ViewKind> parse_view(std::string_view s) {
  for (auto v : {ViewKind::Output, ViewKind::Storage, ViewKind::Dispatch, ViewKind::Events, ViewKind::Graph,
                 ViewKind::Timeline, ViewKind::Schema})
    if (s == view_name(v)) return v;
  return std::nullopt;
}

namespace {

[[noreturn]] void fail(const std::string& src, const YAML::Node& at, const std::string& what) {
  int line = at.IsDefined() ? at.Mark().line + 1 : 0;
  if (line > 0) IPT_FAIL(ValueError, src, ":", line, ": ", what);
  IPT_FAIL(ValueError, src, ": ", what);
}

// `prefix` names the enclosing field in messages: "missing 'narration.zh'".
std::string need_string(const std::string& src, const YAML::Node& parent, const std::string& key,
                        const std::string& where, const std::string& prefix = "") {
  YAML::Node n = parent[key];
  const std::string name = prefix + key;
  if (!n) fail(src, parent, where + "missing '" + name + "'");
  if (!n.IsScalar()) fail(src, n, where + "'" + name + "' must be text");
  std::string s = n.as<std::string>();
  if (s.empty()) fail(src, n, where + "'" + name + "' is empty");
  return s;
}

Text need_text(const std::string& src, const YAML::Node& parent, const std::string& key, const std::string& where) {
  YAML::Node n = parent[key];
  if (!n) fail(src, parent, where + "missing '" + key + "'");
  if (!n.IsMap()) fail(src, n, where + "'" + key + "' must have 'en' and 'zh' texts");
  return Text{need_string(src, n, "en", where, key + "."), need_string(src, n, "zh", where, key + ".")};
}

}  // namespace

Lesson parse_lesson(const std::string& text, const std::string& src) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    IPT_FAIL(ValueError, src, ":", e.mark.line + 1, ": not valid YAML: ", e.msg);
  }
  if (!root.IsMap()) IPT_FAIL(ValueError, src, ": a lesson file must be a mapping with number, title, summary and steps");
  Lesson l;
  l.source_path = src;
  try {
    YAML::Node num = root["number"];
    if (!num) fail(src, root, "missing 'number'");
    l.number = num.as<int>();
  } catch (const YAML::Exception&) {
    fail(src, root["number"], "'number' must be an integer");
  }
  l.title = need_text(src, root, "title", "");
  l.summary = need_text(src, root, "summary", "");
  YAML::Node steps = root["steps"];
  if (!steps) fail(src, root, "missing 'steps'");
  if (!steps.IsSequence() || steps.size() == 0) fail(src, steps, "'steps' must be a non-empty list");
  for (size_t i = 0; i < steps.size(); ++i) {
    const YAML::Node s = steps[i];
    std::string where = "step " + std::to_string(i + 1) + ": ";
    if (!s.IsMap()) fail(src, s, where + "must be a mapping");
    Step st;
    st.line = s.Mark().line + 1;
    st.title = need_text(src, s, "title", where);
    st.narration = need_text(src, s, "narration", where);
    st.code = need_string(src, s, "code", where);
    std::string view = need_string(src, s, "view", where);
    auto v = parse_view(view);
    if (!v) fail(src, s["view"], where + "unknown view '" + view + "' (expected output, storage, dispatch, events, graph, timeline or schema)");
    st.view = *v;
    l.steps.push_back(std::move(st));
  }
  return l;
}

static std::string read_file(const std::string& path) {
  return read_regular_file(path, uint64_t(4) << 20, "lesson file");  // lessons are a few KB
}

Lesson load_lesson(const std::string& path) { return parse_lesson(read_file(path), path); }

std::vector<LessonEntry> load_index(const std::string& dir) {
  std::string path = (fs::path(dir) / "index.yaml").string();
  std::string text = read_file(path);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    IPT_FAIL(ValueError, path, ":", e.mark.line + 1, ": not valid YAML: ", e.msg);
  }
  YAML::Node list = root["lessons"];
  if (!list || !list.IsSequence()) fail(path, root, "missing 'lessons' list");
  std::vector<LessonEntry> out;
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node n = list[i];
    std::string where = "lesson entry " + std::to_string(i + 1) + ": ";
    LessonEntry e;
    try {
      e.number = n["number"].as<int>();
    } catch (const YAML::Exception&) {
      fail(path, n, where + "'number' must be an integer");
    }
    e.title = need_text(path, n, "title", where);
    if (n["file"]) e.file = (fs::path(dir) / n["file"].as<std::string>()).string();
    out.push_back(std::move(e));
  }
  return out;
}

std::string lessons_dir() {
  if (const char* env = std::getenv("IPT_LESSONS_DIR")) return env;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (fs::path p = exe.parent_path(); !p.empty() && p != p.root_path(); p = p.parent_path()) {
      if (fs::exists(p / "lessons" / "index.yaml")) return (p / "lessons").string();
      if (fs::exists(p / "share" / "inside-pytorch" / "lessons" / "index.yaml"))
        return (p / "share" / "inside-pytorch" / "lessons").string();
    }
  }
  return "lessons";
}

}  // namespace ipt::lesson
