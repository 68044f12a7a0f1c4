// ipt_trace_bench: trace files of a million events, written and read back in the current
// format (version 3) and in the first one (version 1) as the reference, side by side:
// export events/s, bytes per event, load time, memory per event, and their ratios.
//
//   ipt_trace_bench [--events N] [--v1-events M]
//   ipt_trace_bench --write PATH [--events N]   only write the generated trace (for the GUI's
//                                               Timeline measurements) and exit
//
// The events are the mix a program of tensor additions records (per addition: two statement
// lines, a binding and three tensor snapshots, an autograd decision, two dispatch calls with
// their ends, a storage allocated and freed), with real key sets and kernel names. The
// previous format is slow and large (a document tree), so by default it runs on fewer events
// (--v1-events) and its figures are per event. Timings are reported, never asserted.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "core/dispatch/dispatch_key_set.h"
#include "core/trace/trace_index.h"
#include "core/trace/trace_json.h"

using namespace ipt;
using namespace ipt::trace;

namespace {

std::vector<Event> make_events(size_t n) {
  std::vector<Event> ev;
  ev.reserve(n + 16);
  DispatchStep outer;
  outer.op = "aten::add.Tensor";
  outer.arg_key_sets = {tensor_key_set(BackendComponent::CPU).raw(), tensor_key_set(BackendComponent::CPU).raw()};
  outer.tls_included = keysets::default_included.raw();
  outer.tls_excluded = keysets::default_excluded.raw();
  outer.merged = (tensor_key_set(BackendComponent::CPU) | keysets::default_included).raw();
  outer.chosen = keys::AutogradCPU;
  outer.kernel = "VariableType::add_Tensor";
  outer.kernel_kind = "autograd kernel";
  outer.registered_at = "build/generated/RegisterAutograd.cpp:6650";
  DispatchStep inner = outer;
  inner.redispatch = true;
  inner.arg_key_sets.clear();
  inner.chosen = keys::CPU;
  inner.kernel = "add_cpu";
  inner.kernel_kind = "kernel";
  inner.registered_at = "build/generated/RegisterCPU.cpp:96";
  TensorMeta t;
  t.dtype = "float32";
  t.sizes = {1};
  t.strides = {1};
  t.storage_nbytes = 4;
  t.key_set = tensor_key_set(BackendComponent::CPU).raw();
  t.storage_values = {2.0};
  int64_t ts = 0;
  uint64_t id = 10;
  auto add = [&](Phase ph, Category c, const char* name, Payload p = {}) {
    Event e;
    e.seq = ev.size();
    ts += 150 + static_cast<int64_t>(ev.size() % 7) * 40;
    e.ts_ns = ts;
    e.phase = ph;
    e.category = c;
    e.name = name;
    e.payload = std::move(p);
    ev.push_back(std::move(e));
  };
  while (ev.size() < n) {
    add(Phase::Instant, Category::Script, "statement", ScriptLine{3, 0});
    add(Phase::Instant, Category::Script, "statement", ScriptLine{4, 4});
    add(Phase::Begin, Category::Dispatch, "aten::add.Tensor [AutogradCPU]", outer);
    t.label = "self";
    t.tensor_id = t.storage_id = 1;
    add(Phase::Instant, Category::Tensor, "tensor", t);
    t.label = "other";
    add(Phase::Instant, Category::Tensor, "tensor", t);
    add(Phase::Instant, Category::Autograd, "autograd decision", AutogradDecision{"aten::add.Tensor", true, false, ""});
    add(Phase::Begin, Category::Dispatch, "aten::add.Tensor [CPU]", inner);
    add(Phase::Instant, Category::Storage, "storage allocated", StorageInfo{++id, 4, "cpu", false});
    add(Phase::End, Category::Dispatch, "aten::add.Tensor [CPU]");
    t.label = "result";
    t.tensor_id = t.storage_id = id;
    add(Phase::Instant, Category::Tensor, "tensor", t);
    add(Phase::End, Category::Dispatch, "aten::add.Tensor [AutogradCPU]");
    t.label = "b";
    add(Phase::Instant, Category::Script, "binding", t);
    add(Phase::Instant, Category::Storage, "storage freed", StorageInfo{id - 1, 4, "cpu", true});
  }
  return ev;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Resident memory of this process now (bytes).
double rss_bytes() {
  std::ifstream f("/proc/self/statm");
  long pages = 0, resident = 0;
  f >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(::sysconf(_SC_PAGESIZE));
}

// The peak resident memory since the last reset_peak() (Linux's VmHWM, bytes).
void reset_peak() { std::ofstream("/proc/self/clear_refs") << "5"; }
double peak_bytes() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::strtod(line.c_str() + 6, nullptr) * 1024.0;
  return 0;
}

struct Figures {
  size_t events = 0;
  double export_s = 0, file_s = 0, bytes = 0, load_s = 0, load_rss = 0, load_peak = 0, index_s = 0, index_rss = 0;
  double events_per_s() const { return events / export_s; }
  double file_events_per_s() const { return events / file_s; }
  double bytes_per_event() const { return bytes / events; }
  double load_us_per_event() const { return load_s * 1e6 / events; }
  double rss_per_event() const { return load_rss / events; }
  double peak_per_event() const { return load_peak / events; }
};

Figures measure(size_t n, bool v2, const std::filesystem::path& path) {
  Figures f;
  f.events = n;
  {
    std::vector<Event> events = make_events(n);
    f.events = events.size();
    // The text alone (to a sink that only counts), then the whole file (written, flushed to disk).
    auto t0 = std::chrono::steady_clock::now();
    size_t produced = 0;
    if (v2) write_trace(events, {"bench", "", {}}, [&](std::string_view piece) { produced += piece.size(); });
    else produced = to_json_text_v1(events, {"bench", "", {}}).size();
    f.export_s = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    if (v2) {
      write_trace_file(path, events, {"bench", "", {}});
    } else {
      const std::string text = to_json_text_v1(events, {"bench", "", {}});
      std::ofstream(path, std::ios::binary) << text;
    }
    f.file_s = seconds_since(t0);
    (void)produced;
  }
  f.bytes = static_cast<double>(std::filesystem::file_size(path));
  const double before = rss_bytes();
  reset_peak();
  auto t0 = std::chrono::steady_clock::now();
  LoadedTrace back;
  if (v2) {
    back = read_trace_file(path);
  } else {
    std::ifstream in(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    back = read_trace_json(text);
  }
  f.load_s = seconds_since(t0);
  f.load_rss = rss_bytes() - before;
  f.load_peak = peak_bytes() - before;
  if (v2) {
    // The index every view reads (Note [One index per trace]), as the window builds it.
    const double before_index = rss_bytes();
    t0 = std::chrono::steady_clock::now();
    const TraceIndex index = build_trace_index(back.events);
    f.index_s = seconds_since(t0);
    f.index_rss = rss_bytes() - before_index;
    if (index.size() != back.events.size())
      std::fprintf(stderr, "indexed %zu events of %zu\n", index.size(), back.events.size());
  }
  if (back.events.size() != f.events)
    std::fprintf(stderr, "read back %zu events of %zu\n", back.events.size(), f.events);
  std::filesystem::remove(path);
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  size_t n = 1'000'000, n_v1 = 100'000;
  const char* write_only = nullptr;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--events") == 0) n = std::strtoull(argv[++i], nullptr, 10);
    else if (std::strcmp(argv[i], "--v1-events") == 0) n_v1 = std::strtoull(argv[++i], nullptr, 10);
    else if (std::strcmp(argv[i], "--write") == 0) write_only = argv[++i];
  }
  if (write_only) {
    try {
      const std::vector<Event> events = make_events(n);
      write_trace_file(write_only, events, {"bench", "", {}});
      std::printf("wrote %zu events to %s\n", events.size(), write_only);
      return 0;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "error: %s\n", e.what());
      return 1;
    }
  }
  const auto dir = std::filesystem::temp_directory_path();
  const auto path = dir / ("ipt_trace_bench_" + std::to_string(::getpid()) + ".json");
  const Figures now = measure(n, true, path);
  const Figures old = measure(n_v1, false, path);
  std::printf("trace files: %zu events (format 3) vs %zu events (format 1, the reference)\n\n", now.events, old.events);
  std::printf("%-28s %14s %14s %10s\n", "", "format 3", "format 1", "ratio");
  std::printf("%-28s %14.0f %14.0f %9.1fx\n", "export (the text), events/s", now.events_per_s(), old.events_per_s(),
              now.events_per_s() / old.events_per_s());
  std::printf("%-28s %14.0f %14.0f %9.1fx\n", "export to a file, events/s", now.file_events_per_s(),
              old.file_events_per_s(), now.file_events_per_s() / old.file_events_per_s());
  std::printf("%-28s %14.1f %14.1f %9.2fx\n", "bytes per event", now.bytes_per_event(), old.bytes_per_event(),
              now.bytes_per_event() / old.bytes_per_event());
  std::printf("%-28s %14.3f %14.3f %9.2fx\n", "load, us per event", now.load_us_per_event(), old.load_us_per_event(),
              now.load_us_per_event() / old.load_us_per_event());
  std::printf("%-28s %14.3f %14.3f\n", "load, s for the whole file", now.load_s, old.load_s);
  std::printf("%-28s %14.1f %14.1f %9.2fx\n", "memory after load, B/event", now.rss_per_event(), old.rss_per_event(),
              now.rss_per_event() / old.rss_per_event());
  std::printf("%-28s %14.1f %14.1f %9.2fx\n", "peak while loading, B/event", now.peak_per_event(), old.peak_per_event(),
              now.peak_per_event() / old.peak_per_event());
  std::printf("%-28s %14.0f %14.0f\n", "peak while loading, MB", now.load_peak / 1e6, old.load_peak / 1e6);
  std::printf("%-28s %14.3f\n", "index, s", now.index_s);
  std::printf("%-28s %14.1f\n", "index, B/event", now.index_rss / static_cast<double>(now.events));
  return 0;
}
