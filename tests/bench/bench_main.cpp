// ipt_bench entry point.
//   ipt_bench [google benchmark flags]           plain Google Benchmark run
//   ipt_bench --report [google benchmark flags]  run everything and print the ratio table
//   ipt_bench --env                              print thread counts and library versions
#include <cstring>
#include <iostream>
#include <vector>

#include <benchmark/benchmark.h>

#include "tests/bench/bench.h"

int main(int argc, char** argv) {
  bool report = false, env = false;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && std::strcmp(argv[i], "--report") == 0) report = true;
    else if (i > 0 && std::strcmp(argv[i], "--env") == 0) env = true;
    else rest.push_back(argv[i]);
  }
  int n = static_cast<int>(rest.size());
  rest.push_back(nullptr);
  if (env) {
    ipt_bench::print_environment(std::cout);
    return 0;
  }
  if (report) return ipt_bench::run_report(n, rest.data());

  benchmark::Initialize(&n, rest.data());
  if (benchmark::ReportUnrecognizedArguments(n, rest.data())) return 1;
  ipt_bench::print_environment(std::cerr);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
