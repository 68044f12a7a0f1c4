// check_chrome_trace_rules: the Chrome Trace Event rules our files promise Perfetto, as a
// list of readable violations. Times are compared at whole nanoseconds (us * 1000, rounded).
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "core/trace/trace_json.h"

namespace ipt::trace {

using nlohmann::json;

namespace {

struct Slice {
  size_t index;
  int64_t start, end;
  std::string name;
};

int64_t to_ns(double us) { return std::llround(us * 1000.0); }

// Microseconds whose nanoseconds an int64 holds (about 292 years).
bool time_in_range(double us) { return std::isfinite(us) && std::fabs(us) < 9.2e15; }

// pid and tid are integers a 64-bit signed integer holds.
std::optional<int64_t> id_of(const json& v) {
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
    return static_cast<int64_t>(u);
  }
  if (v.is_number_integer()) return v.get<int64_t>();
  return std::nullopt;
}

std::string where(size_t i, const json& e) {
  std::string s = "traceEvents[" + std::to_string(i) + "]";
  auto name = e.find("name");
  if (name != e.end() && name->is_string()) s += " \"" + name->get<std::string>() + "\"";
  return s;
}

// Strict nesting per track: sorted by (start, longer first), each slice lies inside the
// innermost open slice or starts at/after its end.
void check_nesting(std::vector<Slice>& slices, const std::string& track, std::vector<std::string>& out) {
  std::stable_sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) {
    return a.start != b.start ? a.start < b.start : a.end > b.end;
  });
  std::vector<const Slice*> open;
  for (const Slice& s : slices) {
    while (!open.empty() && !(s.end <= open.back()->end) && s.start >= open.back()->end) open.pop_back();
    if (!open.empty() && s.end > open.back()->end) {
      const Slice& p = *open.back();
      out.push_back("traceEvents[" + std::to_string(s.index) + "] \"" + s.name + "\" [" + std::to_string(s.start) +
                    ", " + std::to_string(s.end) + "] ns overlaps traceEvents[" + std::to_string(p.index) + "] \"" +
                    p.name + "\" [" + std::to_string(p.start) + ", " + std::to_string(p.end) + "] ns on " + track +
                    " without nesting inside it");
      continue;
    }
    open.push_back(&s);
  }
}

}  // namespace

std::vector<std::string> check_chrome_trace_rules(const json& doc) {
  std::vector<std::string> out;
  if (!doc.is_object()) return {"the document is not a JSON object"};
  auto unit = doc.find("displayTimeUnit");
  if (unit != doc.end() && !(unit->is_string() && (*unit == "ns" || *unit == "ms")))
    out.push_back("displayTimeUnit must be \"ns\" or \"ms\"");
  auto events = doc.find("traceEvents");
  if (events == doc.end()) return out.push_back("traceEvents is missing"), out;
  if (!events->is_array()) return out.push_back("traceEvents is not an array"), out;

  std::set<int64_t> named_pids;
  std::set<std::pair<int64_t, int64_t>> named_threads;
  std::set<int64_t> used_pids;
  std::set<std::pair<int64_t, int64_t>> used_threads;
  std::map<std::pair<int64_t, int64_t>, std::vector<Slice>> slices;
  for (size_t i = 0; i < events->size(); ++i) {
    const json& e = (*events)[i];
    if (!e.is_object()) {
      out.push_back("traceEvents[" + std::to_string(i) + "] is not an object");
      continue;
    }
    bool ok = true;
    for (const char* key : {"ph", "name"})
      if (!e.contains(key) || !e[key].is_string()) {
        out.push_back(where(i, e) + " has no string \"" + key + "\"");
        ok = false;
      }
    for (const char* key : {"ts", "pid", "tid"})
      if (!e.contains(key) || !e[key].is_number()) {
        out.push_back(where(i, e) + " has no numeric \"" + key + "\"");
        ok = false;
      }
    if (!ok) continue;
    const std::string ph = e["ph"];
    const std::optional<int64_t> pid_or = id_of(e["pid"]), tid_or = id_of(e["tid"]);
    for (const char* key : {"pid", "tid"})
      if (!id_of(e[key])) {
        out.push_back(where(i, e) + " has \"" + key + "\" " + e[key].dump() +
                      ", which is not an integer from -2^63 to 2^63-1");
        ok = false;
      }
    if (!time_in_range(e["ts"].get<double>())) {
      out.push_back(where(i, e) + " has \"ts\" " + e["ts"].dump() + ", out of range");
      ok = false;
    }
    if (!ok) continue;
    const int64_t pid = *pid_or, tid = *tid_or;
    if (ph == "M") {
      const auto& args = e.find("args");
      const bool has_name = args != e.end() && args->is_object() && args->contains("name") && (*args)["name"].is_string();
      if (e["name"] == "process_name" || e["name"] == "thread_name") {
        if (!has_name) out.push_back(where(i, e) + " has no string args.name");
        else if (e["name"] == "process_name") named_pids.insert(pid);
        else named_threads.insert({pid, tid});
      }
      continue;
    }
    used_pids.insert(pid);
    used_threads.insert({pid, tid});
    if (ph == "X") {
      if (!e.contains("dur") || !e["dur"].is_number()) {
        out.push_back(where(i, e) + " is an X slice without a numeric \"dur\"");
        continue;
      }
      const double ts = e["ts"], dur = e["dur"];
      if (!(dur >= 0)) {
        out.push_back(where(i, e) + " has a negative dur");
        continue;
      }
      if (!time_in_range(dur) || !time_in_range(ts + dur)) {
        out.push_back(where(i, e) + " has \"dur\" " + e["dur"].dump() + ", out of range");
        continue;
      }
      const int64_t start = to_ns(ts);
      slices[{pid, tid}].push_back({i, start, start + to_ns(dur), e["name"]});
    } else if (ph == "i" || ph == "I") {
      if (e.contains("s") && !(e["s"] == "t" || e["s"] == "p" || e["s"] == "g"))
        out.push_back(where(i, e) + " has an instant scope other than \"t\", \"p\" or \"g\"");
    }
  }
  auto num = [](int64_t v) { return std::to_string(v); };
  for (int64_t pid : used_pids)
    if (!named_pids.count(pid)) out.push_back("process " + num(pid) + " has no process_name M event");
  for (const auto& [pid, tid] : used_threads)
    if (!named_threads.count({pid, tid}))
      out.push_back("thread " + num(tid) + " of process " + num(pid) + " has no thread_name M event");
  for (auto& [track, list] : slices)
    check_nesting(list, "pid " + num(track.first) + " tid " + num(track.second), out);
  return out;
}

}  // namespace ipt::trace
