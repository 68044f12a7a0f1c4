// inside-pytorch: watch what happens underneath a PyTorch call.
// One executable; every subcommand has --help. See README.md.
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "app/commands.h"
#include "app/gui_entry.h"
#include "core/parallel/openblas_kernels.h"
#include "core/trace/recorder.h"

int main(int argc, char** argv) {
  // OpenBLAS's kernels are chosen when it loads: start again with them named (Note [OpenBLAS's
  // kernels on an unknown CPU]); if that fails, go on with what OpenBLAS chose.
  if (ipt::choose_openblas_kernels()) execv("/proc/self/exe", argv);
  CLI::App app{
      "Inside PyTorch: watch what happens underneath a PyTorch call.\n"
      "Runs PyTorch snippets on an instrumented runtime, lesson by lesson."};
  app.require_subcommand(0, 1);
  std::string lang = "en";

  auto* run = app.add_subcommand("run", "Run a PyTorch program and print what PyTorch would print");
  std::string file, trace_path;
  run->add_option("FILE", file, "the .py file to run")->required();
  run->add_option("--trace", trace_path, "write a JSON trace (opens in Perfetto UI) to this path");
  std::string dot_path;
  run->add_option("--dot", dot_path,
                  "after the run, write the autograd graph it recorded as Graphviz DOT to this path "
                  "(render it with `dot -Tpng out.dot -o out.png`)");

  std::string clock;
  for (CLI::App* c : {run})
    c->add_option("--clock", clock,
                  "stamp the trace on the 'measured' clock (the default) or the 'modeled' one, which gives the same "
                  "trace on every run (the simulated GPU's model of the host and device)")
        ->check(CLI::IsMember({"measured", "modeled"}));

  auto* lessons = app.add_subcommand("lessons", "List the seven lessons (written ones and those coming)");
  lessons->add_option("--lang", lang, "en or zh")->check(CLI::IsMember({"en", "zh"}));

  auto* lesson = app.add_subcommand("lesson", "Run a lesson headless: narration, code and output of each step");
  int number = 0;
  std::optional<int> step;
  lesson->add_option("N", number, "lesson number (1-7)")->required();
  lesson->add_option("--step", step, "show only step K (earlier steps still run)");
  lesson->add_option("--lang", lang, "en or zh")->check(CLI::IsMember({"en", "zh"}));
  lesson->add_option("--trace", trace_path, "write the lesson's JSON trace to this path");
  lesson->add_option("--clock", clock, "'measured' or 'modeled' (default: the lesson's own, see lessons/README.md)")
      ->check(CLI::IsMember({"measured", "modeled"}));

  auto* all = app.add_subcommand("all-lessons", "Run every written lesson headless and write their traces");
  std::string out_dir = "traces";
  all->add_option("--out", out_dir, "folder for lesson-N.json traces")->capture_default_str();
  all->add_option("--lang", lang, "en or zh")->check(CLI::IsMember({"en", "zh"}));

  auto* schema =
      app.add_subcommand("schema", "Parse an operator schema and print it as JSON, or check a native_functions.yaml");
  std::string schema_text, yaml_path;
  schema->add_option("SCHEMA", schema_text,
                     "e.g. 'add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor'");
  schema->add_option("--yaml", yaml_path, "parse every func: of this native_functions.yaml and report how many parsed");

  auto* ops = app.add_subcommand("ops", "List the operators, or dump one operator's dispatch table");
  std::string table_of, regs_of;
  ops->add_option("--table", table_of, "print the computed dispatch table of OP (like torch._C._dispatch_dump_table)");
  ops->add_option("--registrations", regs_of, "print OP's registrations (like torch._C._dispatch_dump)");
  bool coverage = false;
  ops->add_flag("--coverage", coverage,
                "print how much of PyTorch 2.15's Core ATen opset has CPU, Meta, CUDA kernels and derivatives here");

  auto* trace = app.add_subcommand("trace", "Check a trace file: read it back and verify the Perfetto rules");
  std::string trace_file;
  trace->add_option("FILE", trace_file, "trace JSON written by --trace")->required();

  ipt::app::GuiOptions gui_opts;
  auto* gui = app.add_subcommand("gui", "Open the desktop window (without a display: run every lesson headless)");
  ipt::app::add_gui_options(*gui, gui_opts);

  // Every command that records a trace keeps at most this many events (Note [A bounded trace]).
  uint64_t max_events = ipt::trace::Recorder::kDefaultMaxEvents;
  for (CLI::App* c : {run, lesson, all, gui})
    c->add_option("--max-events", max_events, "stop recording the trace after this many events (a marker says so)")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);

  CLI11_PARSE(app, argc, argv);
  ipt::trace::Recorder::set_max_events(max_events);

  if (*run) return ipt::app::cmd_run(file, trace_path, dot_path, clock);
  if (*lessons) return ipt::app::cmd_lessons(lang);
  if (*lesson) return ipt::app::cmd_lesson(number, step, lang, trace_path, clock);
  if (*all) return ipt::app::cmd_all_lessons(out_dir, lang);
  if (*schema) {
    if (schema_text.empty() == yaml_path.empty()) {
      std::cerr << "error: give either a SCHEMA or --yaml FILE\n" << schema->help();
      return 2;
    }
    return ipt::app::cmd_schema(schema_text, yaml_path);
  }
  if (*ops) return ipt::app::cmd_ops(table_of, regs_of, coverage);
  if (*trace) return ipt::app::cmd_trace_check(trace_file);
  if (*gui) return ipt::app::run_gui(gui_opts);
  std::cout << app.help();
  return 0;
}
