#pragma once
// The subcommands of the `inside-pytorch` executable (one function each, in commands.cpp).
// Exit codes: 0 success, 1 the program/lesson raised an error, 2 bad usage or bad input file.

#include <optional>
#include <string>

namespace ipt::app {

// `dot_path`: when not empty, the autograd graph of the run is written there as Graphviz DOT.
// `clock`: "modeled" or "measured" (Note [The modeled clock]); "" for the default: measured
// for a program, the lesson's own for a lesson.
int cmd_run(const std::string& file, const std::string& trace_path, const std::string& dot_path = "",
            const std::string& clock = "");
int cmd_lessons(const std::string& lang);
int cmd_lesson(int number, std::optional<int> step, const std::string& lang, const std::string& trace_path,
               const std::string& clock = "");
// Runs every written lesson headless, writing <out_dir>/lesson-N.json for each.
int cmd_all_lessons(const std::string& out_dir, const std::string& lang);
int cmd_schema(const std::string& schema_text, const std::string& yaml_path);
// `coverage`: print the Core ATen opset's coverage (app/ops_coverage.h) instead.
int cmd_ops(const std::string& table_of, const std::string& registrations_of, bool coverage = false);
int cmd_trace_check(const std::string& path);

}  // namespace ipt::app
