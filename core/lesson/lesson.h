#pragma once
// Lessons are data: one YAML file per lesson in lessons/, each step a snippet, its
// narration (English and 中文) and the view it is about. See lessons/README.md for the format.

#include <optional>
#include <string>
#include <vector>

namespace ipt::lesson {

// A text in both languages.
struct Text {
  std::string en;
  std::string zh;
  const std::string& in(std::string_view lang) const { return lang == "zh" ? zh : en; }
};

// Which view a step is about (the GUI opens it; the CLI names it).
enum class ViewKind { Output, Storage, Dispatch, Events, Graph, Timeline, Schema, Compile };
const char* view_name(ViewKind v);
std::optional<ViewKind> parse_view(std::string_view s);

// The moment of a step its views open at: the end of what it ran (the default), or its start,
// for a step about how something unfolds (the Graph view then opens at the engine's first step).
enum class Moment { End, Start };

struct Step {
  Text title;
  Text narration;
  ViewKind view = ViewKind::Output;
  Moment opens_at = Moment::End;  // `opens_at: start` in the lesson file
  // `schema:` what the Schema view opens at — an operator ("aten::add.out", "add_.Tensor") or a
  // whole schema text; empty: the step's last top-level dispatcher call.
  std::string schema;
  std::string code;   // Python source; runs after the lesson's earlier steps, in the same namespace
  int line = 0;       // line of the step in the lesson file
  int code_line = 0;  // the file's line of the code's first line (tracebacks name it)
};

// The clock a lesson's trace is stamped with (Note [The modeled clock] in
// core/trace/trace_clock.h): `clock: modeled` makes its runs, and so its trace, the same
// every time.
enum class Clock { Measured, Modeled };

struct Lesson {
  int number = 0;
  Text title;
  Text summary;
  Clock clock = Clock::Measured;
  std::vector<Step> steps;
  std::string source_path;  // file it was read from
};

// A lesson of the series, written or not yet.
struct LessonEntry {
  int number = 0;
  Text title;
  std::optional<std::string> file;  // absent: "coming"
};

// Reads and validates one lesson file; throws ipt::Error naming the file, line and the
// missing or malformed field (e.g. "lessons/02.yaml:14: step 3: missing 'narration.zh'").
Lesson load_lesson(const std::string& path);
Lesson parse_lesson(const std::string& yaml_text, const std::string& source_name);

// Reads lessons/index.yaml (the seven lessons of the series, with their files).
std::vector<LessonEntry> load_index(const std::string& lessons_dir);
// The same from the index's text; `source` names it in errors, files are relative to `dir`.
std::vector<LessonEntry> parse_index(const std::string& yaml_text, const std::string& source, const std::string& dir);

// The lessons directory: $IPT_LESSONS_DIR, else the installed/in-tree lessons/ folder
// found next to the executable or in the source tree the program was built from.
std::string lessons_dir();

}  // namespace ipt::lesson
