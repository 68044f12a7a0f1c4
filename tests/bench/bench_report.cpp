// Report mode: run the benchmarks with a reporter that both prints (console) and captures
// the results, then print ours/reference ratios against the targets. Targets are reported as
// PASS/MISS only; nothing here asserts or fails on timings.
#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <iostream>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include <benchmark/benchmark.h>

#include "tests/bench/bench.h"
#include "tests/bench/bench_autograd.h"
#include "tests/bench/bench_sim.h"

namespace ipt_bench {
namespace {

struct Result {
  double seconds = 0;           // per iteration, on the benchmark's own basis: wall time for
                                // UseRealTime() cases (mm), CPU time of its thread otherwise
  double bytes_per_second = 0;  // 0 when not set (computed on the same basis)
  double items_per_second = 0;  // 0 when not set
};

// Captures every repetition and prints only the aggregates (mean/median/stddev/cv) when
// there are repetitions. Estimator per benchmark: the median of its repetitions for CPU-time
// benchmarks; the best (minimum) for wall-time ones (mm), because other processes on the
// machine only ever add wall time, by a lot and at random (the OpenBLAS pool waits for its
// slowest thread). Falls back to the "median" aggregate if only aggregates were reported.
class CapturingReporter : public benchmark::ConsoleReporter {
 public:
  explicit CapturingReporter(OutputOptions opts) : ConsoleReporter(opts) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    std::vector<Run> shown;
    for (const Run& r : runs) {
      const bool aggregate = r.run_type == Run::RT_Aggregate;
      if (aggregate || r.repetitions <= 1) shown.push_back(r);
      if (r.error_occurred) continue;
      const std::string name = r.run_name.function_name;  // without /real_time etc.
      Result res;
      const bool wall = r.run_name.time_type.find("real_time") != std::string::npos;
      res.seconds =
          (wall ? r.GetAdjustedRealTime() : r.GetAdjustedCPUTime()) / benchmark::GetTimeUnitMultiplier(r.time_unit);
      if (auto it = r.counters.find("bytes_per_second"); it != r.counters.end()) res.bytes_per_second = it->second;
      if (auto it = r.counters.find("items_per_second"); it != r.counters.end()) res.items_per_second = it->second;
      if (aggregate) {
        if (r.aggregate_name == "median") medians_[name] = res;
      } else {
        samples_[name].push_back(res);
        wall_[name] = wall;
      }
    }
    if (!shown.empty()) ConsoleReporter::ReportRuns(shown);
  }

  std::optional<Result> get(const std::string& name) const {
    auto it = samples_.find(name);
    if (it == samples_.end() || it->second.empty()) {
      if (auto m = medians_.find(name); m != medians_.end()) return m->second;
      return std::nullopt;
    }
    std::vector<Result> v = it->second;
    std::sort(v.begin(), v.end(), [](const Result& a, const Result& b) { return a.seconds < b.seconds; });
    return wall_.at(name) ? v.front() : v[v.size() / 2];
  }

 private:
  std::map<std::string, Result> medians_;
  std::map<std::string, std::vector<Result>> samples_;
  std::map<std::string, bool> wall_;
};

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string fmt_time(double s) {
  if (s < 1e-6) return fmt("%.1f ns", s * 1e9);
  if (s < 1e-3) return fmt("%.2f us", s * 1e6);
  return fmt("%.2f ms", s * 1e3);
}

struct Row {
  std::string what, ours, ref, value, target, status;
};

void print_table(const std::vector<Row>& rows) {
  const char* heads[] = {"comparison", "ours", "reference", "result", "target", ""};
  size_t w[6] = {};
  for (int i = 0; i < 6; ++i) w[i] = std::string(heads[i]).size();
  for (const Row& r : rows) {
    const std::string* f[] = {&r.what, &r.ours, &r.ref, &r.value, &r.target, &r.status};
    for (int i = 0; i < 6; ++i) w[i] = std::max(w[i], f[i]->size());
  }
  auto line = [&](const std::string* f[]) {
    std::string s;
    for (int i = 0; i < 6; ++i) {
      s += *f[i];
      if (i < 5) s += std::string(w[i] - f[i]->size() + 2, ' ');
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    std::cout << s << "\n";
  };
  std::string hs[6];
  for (int i = 0; i < 6; ++i) hs[i] = heads[i];
  const std::string* hp[] = {&hs[0], &hs[1], &hs[2], &hs[3], &hs[4], &hs[5]};
  line(hp);
  size_t total = 0;
  for (size_t x : w) total += x + 2;
  std::cout << std::string(total - 2, '-') << "\n";
  for (const Row& r : rows) {
    const std::string* f[] = {&r.what, &r.ours, &r.ref, &r.value, &r.target, &r.status};
    line(f);
  }
}

const char* pass(bool ok) { return ok ? "PASS" : "MISS"; }

}  // namespace

int run_report(int argc, char** argv) {
  // Defaults for a stable report; flags given on the command line come later and win.
  std::vector<std::string> args = {argv[0], "--benchmark_repetitions=5", "--benchmark_enable_random_interleaving=true",
                                   "--benchmark_min_time=0.5"};
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  std::vector<char*> cargv;
  for (std::string& s : args) cargv.push_back(s.data());
  int cargc = static_cast<int>(cargv.size());
  cargv.push_back(nullptr);
  benchmark::Initialize(&cargc, cargv.data());
  if (benchmark::ReportUnrecognizedArguments(cargc, cargv.data())) return 1;

  const std::string load_before = load_average();
  std::cout << "== ipt_bench --report ==\n";
  print_environment(std::cout);
  std::cout << "\n";

  // Colour only on a terminal, unless --benchmark_color=false/no was given.
  bool color = isatty(STDOUT_FILENO) != 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--benchmark_color=false" || a == "--benchmark_color=no") color = false;
  }
  CapturingReporter rep(color ? benchmark::ConsoleReporter::OO_ColorTabular : benchmark::ConsoleReporter::OO_Tabular);
  benchmark::RunSpecifiedBenchmarks(&rep);
  benchmark::Shutdown();

  using namespace names;
  auto r = [&](const char* n) { return rep.get(n); };
  const std::string no_torch = have_libtorch() ? "(not run)" : "n/a: built without libtorch";
  std::vector<Row> rows;

  // Time ratio ours/ref with an upper target.
  auto time_row = [&](const std::string& what, const char* ours, const char* ref, double max_ratio) {
    auto o = r(ours), f = r(ref);
    Row row{what,
            o ? fmt_time(o->seconds) : "(not run)",
            f ? fmt_time(f->seconds) : no_torch,
            "-",
            fmt("<= %.2fx", max_ratio),
            "-"};
    if (o && f) {
      const double ratio = o->seconds / f->seconds;
      row.value = fmt("%.2fx time", ratio);
      row.status = pass(ratio <= max_ratio);
    }
    rows.push_back(row);
  };
  // Throughput ours vs ref, time(ref)/time(ours), with a 95% target; `cell` shows a result.
  auto throughput_row = [&](const std::string& what, const std::optional<Result>& ours,
                            const std::optional<Result>& ref,
                            const std::function<std::string(const std::optional<Result>&)>& cell) {
    Row row{what, ours ? cell(ours) : "(not run)", ref ? cell(ref) : "(not run)", "-", ">= 95% throughput", "-"};
    if (ours && ref) {
      const double frac = ref->seconds / ours->seconds;
      row.value = fmt("%.1f%% throughput", 100.0 * frac);
      row.status = pass(frac >= 0.95);
    }
    rows.push_back(row);
  };
  time_row("add 1-elem, tracing off vs libtorch at::add", kAddOursOff, kAddTorch, 1.0);
  time_row("add 1-elem, tracing on  vs libtorch at::add", kAddOursOn, kAddTorch, 1.5);
  if (auto fresh = r(kAddOursOnFresh), t = r(kAddTorch); fresh && t)
    rows.push_back({"  (info) tracing on, into fresh memory, vs libtorch", fmt_time(fresh->seconds),
                    fmt_time(t->seconds), fmt("%.2fx time", fresh->seconds / t->seconds), "", ""});
  if (auto on = r(kAddOursOn), off = r(kAddOursOff); on && off)
    rows.push_back({"  (info) tracing on / tracing off", fmt_time(on->seconds), fmt_time(off->seconds),
                    fmt("%.2fx time", on->seconds / off->seconds), "", ""});
  time_row("transpose view 64x64 vs libtorch", kTransposeOurs, kTransposeTorch, 1.0);

  {  // contiguous: speed-up vs libtorch, fraction of memcpy bandwidth
    auto o = r(kContigOurs), t = r(kContigTorch), m = r(kMemcpy), mf = r(kMemcpyFresh);
    auto gbs = [](const std::optional<Result>& x) { return fmt("%.2f GB/s", x->bytes_per_second / 1e9); };
    auto cell = [&](const std::optional<Result>& x) { return fmt_time(x->seconds) + " = " + gbs(x); };
    Row row{"contiguous() of transposed 4096^2 f32 vs libtorch",
            o ? cell(o) : "(not run)",
            t ? cell(t) : no_torch,
            "-",
            ">= 2.00x faster",
            "-"};
    if (o && t) {
      const double speedup = t->seconds / o->seconds;
      row.value = fmt("%.2fx faster", speedup);
      row.status = pass(speedup >= 2.0);
    }
    rows.push_back(row);
    if (o && m)
      rows.push_back({"  (info) contiguous vs memcpy 64 MiB (warm dst)", cell(o), cell(m),
                      fmt("%.0f%% of memcpy bw", 100.0 * o->bytes_per_second / m->bytes_per_second), "", ""});
    if (o && mf)
      rows.push_back({"  (info) contiguous vs memcpy 64 MiB (fresh malloc dst)", cell(o), cell(mf),
                      fmt("%.0f%% of memcpy bw", 100.0 * o->bytes_per_second / mf->bytes_per_second), "", ""});
    if (auto ow = r(kContigOursWarm), tw = r(kContigTorchWarm); ow && tw)
      rows.push_back({"  (info) copy kernel only: copy_ into warm dst vs libtorch", cell(ow), cell(tw),
                      fmt("%.2fx faster", tw->seconds / ow->seconds), "", ""});
    if (t && m)
      rows.push_back({"  (info) libtorch contiguous vs memcpy (warm dst)", cell(t), cell(m),
                      fmt("%.0f%% of memcpy bw", 100.0 * t->bytes_per_second / m->bytes_per_second), "", ""});
  }

  {  // mm: throughput fraction of cblas_sgemm
    auto o = r(kMmOurs), c = r(kMmCblas), t = r(kMmTorch);
    auto cell = [&](const std::optional<Result>& x) {
      return fmt_time(x->seconds) + " = " + fmt("%.1f GFLOP/s", x->items_per_second / 1e9);
    };
    auto mm_row = [&](const std::string& what, const std::optional<Result>& ours, const std::optional<Result>& ref) {
      throughput_row(what, ours, ref, cell);
    };
    mm_row("mm 1024^3 f32 vs cblas_sgemm (default OpenBLAS threads; wall)", o, c);
    mm_row("mm 1024^3 f32 vs cblas_sgemm (1 OpenBLAS thread, CPU time)", r(kMmOurs1T), r(kMmCblas1T));
    if (o && t)
      rows.push_back({"  (info) mm vs libtorch at::mm (default threads; wall)", cell(o), cell(t),
                      fmt("%.1f%% throughput", 100.0 * t->seconds / o->seconds), "", ""});
    else if (!have_libtorch())
      rows.push_back(
          {"  (info) mm vs libtorch at::mm (default threads; wall)", o ? cell(o) : "(not run)", no_torch, "", "", ""});
  }

  {  // autograd: the backward engine per node, and a small forward + backward
    auto o = r(kChainBwdOurs), t = r(kChainBwdTorch);
    const double n = static_cast<double>(kChainNodes);
    auto per_node = [&](const std::optional<Result>& x) { return fmt_time(x->seconds / n) + "/node"; };
    Row row{"backward, chain of 10000 1-elem muls, per node vs libtorch",
            o ? per_node(o) : "(not run)",
            t ? per_node(t) : no_torch,
            "-",
            "<= 1.00x",
            "-"};
    if (o && t) {
      const double ratio = o->seconds / t->seconds;
      row.value = fmt("%.2fx time", ratio);
      row.status = pass(ratio <= 1.0);
    }
    rows.push_back(row);
    if (auto fo = r(kChainFwdOurs), ft = r(kChainFwdTorch); fo && ft)
      rows.push_back({"  (info) forward recording the same chain, per node", per_node(fo), per_node(ft),
                      fmt("%.2fx time", fo->seconds / ft->seconds), "", ""});
    time_row("(a*b+a).sum() 1-elem forward+backward vs libtorch", kSmallOurs, kSmallTorch, 2.0);
  }

  {  // the simulated GPU: a launch's host cost, and kernels as fast as the CPU's they run
    auto l = r(kSimLaunchOurs);
    Row row{"simulated launch, 1-elem add (host CPU time) vs a real CUDA launch",
            l ? fmt_time(l->seconds) : "(not run)",
            fmt_time(kRealLaunchOverheadSeconds) + " (PyTorch's figure)",
            "-",
            "<= 1.00x",
            "-"};
    if (l) {
      const double ratio = l->seconds / kRealLaunchOverheadSeconds;
      row.value = fmt("%.2fx time", ratio);
      row.status = pass(ratio <= 1.0);
    }
    rows.push_back(row);
    if (auto c = r(kSimLaunchCpu); l && c)
      rows.push_back({"  (info) the same add on CPU tensors, computed at once", fmt_time(l->seconds),
                      fmt_time(c->seconds), fmt("%.2fx time", l->seconds / c->seconds), "", ""});
    auto time_cell = [](const std::optional<Result>& x) { return fmt_time(x->seconds); };
    throughput_row("simulated a + b, 16M f32, + synchronize vs the CPU kernel (wall)", r(kSimAddOurs), r(kSimAddCpu),
                   time_cell);
    throughput_row("simulated mm 1024^3 f32, + synchronize vs the CPU's mm (wall)", r(kSimMmOurs), r(kSimMmCpu),
                   time_cell);
  }

  std::cout << "\n== ours / reference: CPU time of the benchmark thread, median of the repetitions; "
               "rows marked wall: wall time, best repetition ==\n";
  print_table(rows);
  const std::string load_after = load_average();
  std::cout << "load average before / after the run: " << load_before << " / " << load_after << " on "
            << std::thread::hardware_concurrency() << " hardware threads\n";
  if (std::max(std::atof(load_before.c_str()), std::atof(load_after.c_str())) >= 1.0)
    std::cout << "NOTE: other processes were running. The wall-time mm rows (OpenBLAS thread pool) are the\n"
                 "      most affected; the CPU-time rows (incl. mm with 1 OpenBLAS thread) are the reliable ones.\n";
  std::cout << "\nTargets are reported, never asserted. Ratios are time(ours)/time(reference) unless noted;\n"
               "\"faster\" = time(reference)/time(ours); throughput = time(cblas)/time(ours).\n";
  return 0;
}

}  // namespace ipt_bench
