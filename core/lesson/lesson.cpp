#include "core/lesson/lesson.h"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "core/schema/schema_parser.h"
#include "core/util/error.h"
#include "core/util/read_file.h"
#include "core/util/utf8.h"

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
    case ViewKind::Compile: return "compile";
  }
  return "output";
}

std::optional<ViewKind> parse_view(std::string_view s) {
  for (auto v : {ViewKind::Output, ViewKind::Storage, ViewKind::Dispatch, ViewKind::Events, ViewKind::Graph,
                 ViewKind::Timeline, ViewKind::Schema, ViewKind::Compile})
    if (s == view_name(v)) return v;
  return std::nullopt;
}

namespace {

// "aten::add.out", "add_.Tensor", "relu": an operator's name with an optional namespace and overload.
bool is_operator_name(std::string_view s) {
  if (s.rfind("aten::", 0) == 0) s.remove_prefix(6);
  if (s.empty() || s.front() == '.' || s.back() == '.') return false;
  int dots = 0;
  for (char ch : s) {
    if (ch == '.') ++dots;
    else if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_')) return false;
  }
  return dots <= 1;
}

[[noreturn]] void fail(const std::string& src, const YAML::Node& at, const std::string& what) {
  int line = at.IsDefined() ? at.Mark().line + 1 : 0;
  if (line > 0) IPT_FAIL(ValueError, src, ":", line, ": ", what);
  IPT_FAIL(ValueError, src, ": ", what);
}

const char* kind_of(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Scalar: return "text";
    default: return "empty";
  }
}

// parent[key], or an undefined node when parent is not a mapping (yaml-cpp throws there).
YAML::Node field(const YAML::Node& parent, const std::string& key) {
  return parent.IsMap() ? parent[key] : YAML::Node(YAML::NodeType::Undefined);
}

// `prefix` names the enclosing field in messages: "missing 'narration.zh'".
std::string need_string(const std::string& src, const YAML::Node& parent, const std::string& key,
                        const std::string& where, const std::string& prefix = "") {
  YAML::Node n = field(parent, key);
  const std::string name = prefix + key;
  if (!n) fail(src, parent, where + "missing '" + name + "'");
  if (!n.IsScalar()) fail(src, n, where + "'" + name + "' must be text, not " + kind_of(n));
  std::string s = n.Scalar();
  if (s.empty()) fail(src, n, where + "'" + name + "' is empty");
  return s;
}

Text need_text(const std::string& src, const YAML::Node& parent, const std::string& key, const std::string& where) {
  YAML::Node n = field(parent, key);
  if (!n) fail(src, parent, where + "missing '" + key + "'");
  if (!n.IsMap()) fail(src, n, where + "'" + key + "' must be a mapping with 'en' and 'zh' texts, not " + kind_of(n));
  return Text{need_string(src, n, "en", where, key + "."), need_string(src, n, "zh", where, key + ".")};
}

int need_int(const std::string& src, const YAML::Node& parent, const std::string& key, const std::string& where) {
  YAML::Node n = field(parent, key);
  if (!n) fail(src, parent, where + "missing '" + key + "'");
  int v = 0;
  if (!n.IsScalar() || !YAML::convert<int>::decode(n, v))
    fail(src, n,
         where + "'" + key + "' must be an integer, not " +
             (n.IsScalar() ? "'" + n.Scalar() + "'" : std::string(kind_of(n))));
  return v;
}

YAML::Node load_yaml(const std::string& text, const std::string& src) {
  // YAML is UTF-8 text; yaml-cpp would pass other bytes through into narration and code.
  if (auto bad = find_invalid_utf8(text)) {
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02x", bad->byte);
    IPT_FAIL(ValueError, src, ":", bad->line, ": not UTF-8 text (byte ", byte, " at offset ", bad->offset, ")");
  }
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    IPT_FAIL(ValueError, src, ":", e.mark.line + 1, ": not valid YAML: ", e.msg);
  }
}

// The file line of a scalar's first line: a block scalar ('|' or '>') starts on the line
// after its indicator.
int first_line_of(const std::string& text, const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  const size_t pos = m.pos >= 0 ? static_cast<size_t>(m.pos) : std::string::npos;
  const bool block = pos < text.size() && (text[pos] == '|' || text[pos] == '>');
  return m.line + 1 + (block ? 1 : 0);
}

}  // namespace

Lesson parse_lesson(const std::string& text, const std::string& src) {
  YAML::Node root = load_yaml(text, src);
  if (!root.IsMap())
    IPT_FAIL(ValueError, src, ": a lesson file must be a mapping with number, title, summary and steps, not ",
             kind_of(root));
  Lesson l;
  l.source_path = src;
  l.number = need_int(src, root, "number", "");
  l.title = need_text(src, root, "title", "");
  l.summary = need_text(src, root, "summary", "");
  if (root["clock"]) {
    const std::string c = need_string(src, root, "clock", "");
    if (c != "modeled" && c != "measured")
      fail(src, root["clock"], "clock must be 'modeled' or 'measured', not '" + c + "'");
    l.clock = c == "modeled" ? Clock::Modeled : Clock::Measured;
  }
  YAML::Node steps = root["steps"];
  if (!steps) fail(src, root, "missing 'steps'");
  if (!steps.IsSequence() || steps.size() == 0)
    fail(src, steps,
         std::string("'steps' must be a non-empty list, not ") +
             (steps.IsSequence() ? "an empty list" : kind_of(steps)));
  for (size_t i = 0; i < steps.size(); ++i) {
    const YAML::Node s = steps[i];
    std::string where = "step " + std::to_string(i + 1) + ": ";
    if (!s.IsMap()) fail(src, s, where + "must be a mapping with title, narration, view and code, not " + kind_of(s));
    Step st;
    st.line = s.Mark().line + 1;
    st.title = need_text(src, s, "title", where);
    st.narration = need_text(src, s, "narration", where);
    st.code = need_string(src, s, "code", where);
    st.code_line = first_line_of(text, s["code"]);
    std::string view = need_string(src, s, "view", where);
    auto v = parse_view(view);
    if (!v)
      fail(src, s["view"],
           where + "unknown view '" + view +
               "' (expected output, storage, dispatch, events, graph, timeline or schema)");
    st.view = *v;
    if (s["opens_at"]) {
      const std::string at = need_string(src, s, "opens_at", where);
      if (at != "start" && at != "end")
        fail(src, s["opens_at"], where + "opens_at must be 'start' or 'end', not '" + at + "'");
      st.opens_at = at == "start" ? Moment::Start : Moment::End;
    }
    if (s["schema"]) {
      st.schema = need_string(src, s, "schema", where);
      if (st.schema.find('(') != std::string::npos) {
        try {
          schema::parse_schema(st.schema);
        } catch (const std::exception& e) {
          fail(src, s["schema"], where + "schema does not parse: " + e.what());
        }
      } else if (!is_operator_name(st.schema)) {
        fail(src, s["schema"],
             where + "schema must be an operator (aten::add.out) or a schema text, not '" + st.schema + "'");
      }
    }
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
  return parse_index(read_file(path), path, dir);
}

std::vector<LessonEntry> parse_index(const std::string& text, const std::string& path, const std::string& dir) {
  YAML::Node root = load_yaml(text, path);
  YAML::Node list = field(root, "lessons");
  if (!list) fail(path, root, std::string("expected a mapping with a 'lessons' list, not ") + kind_of(root));
  if (!list.IsSequence()) fail(path, list, std::string("'lessons' must be a list, not ") + kind_of(list));
  std::vector<LessonEntry> out;
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node n = list[i];
    std::string where = "lesson entry " + std::to_string(i + 1) + ": ";
    if (!n.IsMap())
      fail(path, n, where + "must be a mapping with number, title and (once written) file, not " + kind_of(n));
    LessonEntry e;
    e.number = need_int(path, n, "number", where);
    e.title = need_text(path, n, "title", where);
    if (n["file"]) e.file = (fs::path(dir) / need_string(path, n, "file", where)).string();
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
