// Lesson files: the written lessons load completely; malformed files give clear errors.
#include <gtest/gtest.h>

#include "core/lesson/lesson.h"
#include "core/util/error.h"

using namespace ipt;

namespace {
const char* kGood = R"(number: 9
title: {en: "T", zh: "标题"}
summary: {en: "S", zh: "摘要"}
steps:
  - title: {en: "A", zh: "甲"}
    view: storage
    narration: {en: "N", zh: "讲"}
    code: |
      import torch
)";

std::string error_of(const std::string& text) {
  try {
    lesson::parse_lesson(text, "x.yaml");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Lesson, ParsesAllFields) {
  auto l = lesson::parse_lesson(kGood, "x.yaml");
  EXPECT_EQ(l.number, 9);
  EXPECT_EQ(l.title.in("zh"), "标题");
  ASSERT_EQ(l.steps.size(), 1u);
  EXPECT_EQ(l.steps[0].view, lesson::ViewKind::Storage);
  EXPECT_EQ(l.steps[0].code, "import torch\n");
}

TEST(Lesson, AStepCanOpenAtItsStart) {
  EXPECT_EQ(lesson::parse_lesson(kGood, "x.yaml").steps[0].opens_at, lesson::Moment::End);
  std::string start = kGood;
  start.replace(start.find("    view: storage\n"), 18, "    view: storage\n    opens_at: start\n");
  EXPECT_EQ(lesson::parse_lesson(start, "x.yaml").steps[0].opens_at, lesson::Moment::Start);
  std::string bad = kGood;
  bad.replace(bad.find("    view: storage\n"), 18, "    view: storage\n    opens_at: middle\n");
  EXPECT_NE(error_of(bad).find("step 1: opens_at must be 'start' or 'end', not 'middle'"), std::string::npos)
      << error_of(bad);
}

TEST(Lesson, AStepCanNameWhatTheSchemaViewOpensAt) {
  EXPECT_EQ(lesson::parse_lesson(kGood, "x.yaml").steps[0].schema, "");
  auto with = [](const std::string& field) {
    std::string t = kGood;
    t.replace(t.find("    view: storage\n"), 18, "    view: storage\n    schema: " + field + "\n");
    return t;
  };
  EXPECT_EQ(lesson::parse_lesson(with("aten::add.out"), "x.yaml").steps[0].schema, "aten::add.out");
  EXPECT_EQ(lesson::parse_lesson(with("add_.Tensor"), "x.yaml").steps[0].schema, "add_.Tensor");
  EXPECT_EQ(lesson::parse_lesson(with("\"t(Tensor(a) self) -> Tensor(a)\""), "x.yaml").steps[0].schema,
            "t(Tensor(a) self) -> Tensor(a)");
  std::string e = error_of(with("\"add(Tensor self -> Tensor\""));
  EXPECT_NE(e.find("x.yaml:"), std::string::npos) << e;
  EXPECT_NE(e.find("step 1: schema does not parse"), std::string::npos) << e;
  e = error_of(with("\"add out\""));
  EXPECT_NE(e.find("step 1: schema must be an operator (aten::add.out) or a schema text, not 'add out'"),
            std::string::npos)
      << e;
}

TEST(Lesson, MissingAndMalformedFieldsAreNamed) {
  std::string no_zh = kGood;
  no_zh.replace(no_zh.find(", zh: \"讲\""), std::string(", zh: \"讲\"").size(), "");
  EXPECT_NE(error_of(no_zh).find("step 1: missing 'narration.zh'"), std::string::npos) << error_of(no_zh);
  std::string bad_view = kGood;
  bad_view.replace(bad_view.find("storage"), 7, "graphs");
  EXPECT_NE(error_of(bad_view).find("unknown view 'graphs'"), std::string::npos);
  EXPECT_NE(error_of("number: [").find("not valid YAML"), std::string::npos);
  EXPECT_NE(error_of("- 1\n- 2\n").find("must be a mapping"), std::string::npos);
  EXPECT_NE(error_of("number: two\n").find("'number' must be an integer"), std::string::npos);
  std::string no_steps = "number: 1\ntitle: {en: a, zh: b}\nsummary: {en: a, zh: b}\nsteps: []\n";
  EXPECT_NE(error_of(no_steps).find("non-empty list"), std::string::npos);
}

TEST(Lesson, WrongTypesNameTheFieldAndWhatWasExpected) {
  EXPECT_EQ(error_of("7\n"), "x.yaml: a lesson file must be a mapping with number, title, summary and steps, not text");
  EXPECT_EQ(error_of("number: [1]\n"), "x.yaml:1: 'number' must be an integer, not a list");
  std::string title_text = kGood;
  title_text.replace(title_text.find("{en: \"T\", zh: \"标题\"}"), std::string("{en: \"T\", zh: \"标题\"}").size(),
                     "T");
  EXPECT_EQ(error_of(title_text), "x.yaml:2: 'title' must be a mapping with 'en' and 'zh' texts, not text");
  std::string code_map = kGood;
  code_map.replace(code_map.find("|\n      import torch"), std::string("|\n      import torch").size(), "{a: 1}");
  EXPECT_EQ(error_of(code_map), "x.yaml:8: step 1: 'code' must be text, not a mapping");
  std::string steps_map = "number: 1\ntitle: {en: a, zh: b}\nsummary: {en: a, zh: b}\nsteps: {a: 1}\n";
  EXPECT_EQ(error_of(steps_map), "x.yaml:4: 'steps' must be a non-empty list, not a mapping");
  std::string step_text = "number: 1\ntitle: {en: a, zh: b}\nsummary: {en: a, zh: b}\nsteps: [hello]\n";
  EXPECT_NE(error_of(step_text).find("x.yaml:4: step 1: must be a mapping"), std::string::npos);
}

TEST(Lesson, CodeLineIsTheFilesOwnLine) {
  auto l = lesson::parse_lesson(kGood, "x.yaml");
  EXPECT_EQ(l.steps[0].code_line, 9);  // "code: |" is line 8, the code starts on line 9
  std::string one_line = kGood;
  one_line.replace(one_line.find("|\n      import torch"), std::string("|\n      import torch").size(), "import torch");
  EXPECT_EQ(lesson::parse_lesson(one_line, "x.yaml").steps[0].code_line, 8);
}

TEST(Lesson, TextThatIsNotUtf8IsRefused) {
  std::string bad = kGood;
  bad.replace(bad.find("\"N\""), 3, "\"N\xff\"");
  const size_t at = bad.find("\xff");
  EXPECT_EQ(error_of(bad), "x.yaml:7: not UTF-8 text (byte 0xff at offset " + std::to_string(at) + ")");
  std::string surrogate = kGood;  // CESU-style U+D800: not UTF-8 either
  surrogate.replace(surrogate.find("\"S\""), 3, "\"\xed\xa0\x80\"");
  EXPECT_NE(error_of(surrogate).find("x.yaml:3: not UTF-8 text (byte 0xed"), std::string::npos);
  EXPECT_EQ(lesson::parse_lesson(kGood, "x.yaml").title.zh, "标题");  // real UTF-8 passes
}

TEST(Lesson, DeepNestingIsRefused) {
  // yaml-cpp bounds its recursion; the lesson loader reports it as invalid YAML.
  std::string deep = "number: " + std::string(100000, '[');
  EXPECT_NE(error_of(deep).find("x.yaml:"), std::string::npos);
}

TEST(Lesson, WrittenLessonsLoad) {
  auto index = lesson::load_index(IPT_LESSONS_DIR);
  ASSERT_EQ(index.size(), 7u);
  int written = 0;
  for (const auto& e : index) {
    EXPECT_FALSE(e.title.en.empty());
    EXPECT_FALSE(e.title.zh.empty());
    if (!e.file) continue;
    auto l = lesson::load_lesson(*e.file);
    EXPECT_EQ(l.number, e.number);
    EXPECT_GE(l.steps.size(), 6u) << "lesson " << e.number << " needs at least six steps";
    ++written;
  }
  EXPECT_GE(written, 2);
}
