// check_chrome_trace_rules: the Chrome Trace Event rules our files promise Perfetto, as a
// list of readable violations. Slices on one track must nest: each lies inside the one it
// starts in, or starts at or after its end. That is checked twice, as two kinds of reader see
// the times: in microseconds as written (ts, and ts + dur added as doubles, what a strict
// checker compares) and in whole nanoseconds (ts and dur each rounded from us * 1000).
// A pair of slices is reported once (Note [Microseconds that never overlap] in
// chrome_layout.cpp says how our writer satisfies both). The rules read one event at a time,
// from a document tree or from a file read in pieces.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <type_traits>
#include <unordered_map>

#include "core/trace/json_scan.h"
#include "core/trace/trace_json.h"
#include "core/util/mapped_file.h"

namespace ipt::trace {

using nlohmann::json;

namespace {

// 48 bytes a slice: a file of a million slices is checked in about 48 MB. Names are
// interned (a trace has few distinct ones), and only a reported overlap spells them out.
struct Slice {
  size_t index;
  int64_t start, end;       // ns: ts and dur each rounded
  double start_us, end_us;  // as written: ts, and ts + dur
  uint32_t name;
};

class NameTable {
 public:
  uint32_t id(const std::string& name) {
    auto [it, added] = ids_.try_emplace(name, static_cast<uint32_t>(names_.size()));
    if (added) names_.push_back(&it->first);
    return it->second;
  }
  const std::string& operator[](uint32_t id) const { return *names_[id]; }

 private:
  std::unordered_map<std::string, uint32_t> ids_;
  std::vector<const std::string*> names_;
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

std::string us_text(double us) {
  char buf[40];
  auto r = std::to_chars(buf, buf + sizeof buf, us);
  return std::string(buf, r.ptr);
}

// Strict nesting per track, in one reader's times (get: a slice's (start, end)): sorted by
// (start, longer first), each slice lies inside the innermost open slice or starts at/after
// its end. A pair already in `reported` is not reported again.
template <class Get>
void check_nesting(std::vector<Slice>& slices, Get get, const char* view, const NameTable& names,
                   const std::string& track, std::set<std::pair<size_t, size_t>>& reported,
                   std::vector<std::string>& out) {
  std::stable_sort(slices.begin(), slices.end(), [&](const Slice& a, const Slice& b) {
    const auto [as, ae] = get(a);
    const auto [bs, be] = get(b);
    return as != bs ? as < bs : ae > be;
  });
  auto span = [&](const Slice& x) {
    const auto [start, end] = get(x);
    if constexpr (std::is_floating_point_v<std::remove_cv_t<decltype(start)>>)
      return "[" + us_text(start) + ", " + us_text(end) + "] us";
    else return "[" + std::to_string(start) + ", " + std::to_string(end) + "] ns";
  };
  std::vector<const Slice*> open;
  for (const Slice& s : slices) {
    const auto [start, end] = get(s);
    while (!open.empty() && !(end <= get(*open.back()).second) && start >= get(*open.back()).second) open.pop_back();
    if (!open.empty() && end > get(*open.back()).second) {
      const Slice& p = *open.back();
      if (reported.insert({std::min(s.index, p.index), std::max(s.index, p.index)}).second)
        out.push_back("traceEvents[" + std::to_string(s.index) + "] \"" + names[s.name] + "\" " + span(s) +
                      " overlaps traceEvents[" + std::to_string(p.index) + "] \"" + names[p.name] + "\" " + span(p) +
                      " on " + track + " without nesting inside it (" + view + ")");
      continue;
    }
    open.push_back(&s);
  }
}

// One traceEvents element, as the rules read it (from a tree or from simdjson).
class EventFields {
 public:
  virtual ~EventFields() = default;
  virtual bool is_object() const = 0;
  virtual std::optional<std::string> string(const char* key) const = 0;  // present and a string
  virtual bool is_number(const char* key) const = 0;
  virtual std::optional<int64_t> integer(const char* key) const = 0;  // an integer int64 holds
  virtual double number(const char* key) const = 0;                   // is_number(key) holds
  virtual std::string dump(const char* key) const = 0;
  virtual bool has(const char* key) const = 0;
  virtual bool args_has_string_name() const = 0;
};

class ChromeRules {
 public:
  void unit(std::optional<std::string> display_time_unit) {
    if (!display_time_unit || !(*display_time_unit == "ns" || *display_time_unit == "ms"))
      out_.push_back("displayTimeUnit must be \"ns\" or \"ms\"");
  }

  void add(size_t i, const EventFields& e) {
    if (!e.is_object()) {
      out_.push_back("traceEvents[" + std::to_string(i) + "] is not an object");
      return;
    }
    const std::optional<std::string> name = e.string("name");
    const std::string where = "traceEvents[" + std::to_string(i) + "]" + (name ? " \"" + *name + "\"" : "");
    bool ok = true;
    for (const char* key : {"ph", "name"})
      if (!e.string(key)) {
        out_.push_back(where + " has no string \"" + key + "\"");
        ok = false;
      }
    for (const char* key : {"ts", "pid", "tid"})
      if (!e.is_number(key)) {
        out_.push_back(where + " has no numeric \"" + key + "\"");
        ok = false;
      }
    if (!ok) return;
    const std::string ph = *e.string("ph");
    const std::optional<int64_t> pid_or = e.integer("pid"), tid_or = e.integer("tid");
    for (const char* key : {"pid", "tid"})
      if (!e.integer(key)) {
        out_.push_back(where + " has \"" + key + "\" " + e.dump(key) +
                       ", which is not an integer from -2^63 to 2^63-1");
        ok = false;
      }
    if (!time_in_range(e.number("ts"))) {
      out_.push_back(where + " has \"ts\" " + e.dump("ts") + ", out of range");
      ok = false;
    }
    if (!ok) return;
    const int64_t pid = *pid_or, tid = *tid_or;
    if (ph == "M") {
      if (*name == "process_name" || *name == "thread_name") {
        if (!e.args_has_string_name()) out_.push_back(where + " has no string args.name");
        else if (*name == "process_name") named_pids_.insert(pid);
        else named_threads_.insert({pid, tid});
      }
      return;
    }
    used_pids_.insert(pid);
    if (ph != "C") used_threads_.insert({pid, tid});  // a counter is the process's, not a thread's
    if (ph == "X") {
      if (!e.is_number("dur")) {
        out_.push_back(where + " is an X slice without a numeric \"dur\"");
        return;
      }
      const double ts = e.number("ts"), dur = e.number("dur");
      if (!(dur >= 0)) {
        out_.push_back(where + " has a negative dur");
        return;
      }
      if (!time_in_range(dur) || !time_in_range(ts + dur)) {
        out_.push_back(where + " has \"dur\" " + e.dump("dur") + ", out of range");
        return;
      }
      const int64_t start = to_ns(ts);
      slices_[{pid, tid}].push_back({i, start, start + to_ns(dur), ts, ts + dur, names_.id(*name)});
    } else if (ph == "i" || ph == "I") {
      const std::optional<std::string> scope = e.string("s");
      if (e.has("s") && !(scope && (*scope == "t" || *scope == "p" || *scope == "g")))
        out_.push_back(where + " has an instant scope other than \"t\", \"p\" or \"g\"");
    }
  }

  std::vector<std::string> finish() {
    auto num = [](int64_t v) { return std::to_string(v); };
    for (int64_t pid : used_pids_)
      if (!named_pids_.count(pid)) out_.push_back("process " + num(pid) + " has no process_name M event");
    for (const auto& [pid, tid] : used_threads_)
      if (!named_threads_.count({pid, tid}))
        out_.push_back("thread " + num(tid) + " of process " + num(pid) + " has no thread_name M event");
    for (auto& [track, list] : slices_) {
      const std::string where = "pid " + num(track.first) + " tid " + num(track.second);
      std::set<std::pair<size_t, size_t>> reported;
      check_nesting(
          list, [](const Slice& x) { return std::pair<double, double>(x.start_us, x.end_us); },
          "in microseconds as written", names_, where, reported, out_);
      check_nesting(
          list, [](const Slice& x) { return std::pair<int64_t, int64_t>(x.start, x.end); },
          "in nanoseconds rounded from them", names_, where, reported, out_);
    }
    return std::move(out_);
  }

  std::vector<std::string>& problems() { return out_; }

 private:
  std::vector<std::string> out_;
  std::set<int64_t> named_pids_, used_pids_;
  std::set<std::pair<int64_t, int64_t>> named_threads_, used_threads_;
  std::map<std::pair<int64_t, int64_t>, std::vector<Slice>> slices_;
  NameTable names_;
};

class TreeFields : public EventFields {
 public:
  explicit TreeFields(const json& e) : e_(e) {}
  bool is_object() const override { return e_.is_object(); }
  std::optional<std::string> string(const char* key) const override {
    auto it = e_.find(key);
    if (it == e_.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
  }
  bool is_number(const char* key) const override {
    auto it = e_.find(key);
    return it != e_.end() && it->is_number();
  }
  std::optional<int64_t> integer(const char* key) const override { return id_of(e_.at(key)); }
  double number(const char* key) const override { return e_.at(key).get<double>(); }
  std::string dump(const char* key) const override { return e_.at(key).dump(); }
  bool has(const char* key) const override { return e_.contains(key); }
  bool args_has_string_name() const override {
    auto args = e_.find("args");
    return args != e_.end() && args->is_object() && args->contains("name") && (*args)["name"].is_string();
  }

 private:
  const json& e_;
};

// One simdjson object, its members looked up once (the rules ask for each several times).
class SimdFields : public EventFields {
 public:
  explicit SimdFields(simdjson::dom::element e) : e_(e) {
    if (e.type() != simdjson::dom::element_type::OBJECT) return;
    const simdjson::dom::object members = e.get_object().value_unsafe();
    for (auto [key, value] : members)
      for (size_t k = 0; k < kKeys; ++k)
        if (key == kNames[k]) {
          field_[k] = value;
          has_[k] = true;
        }
  }
  bool is_object() const override { return e_.type() == simdjson::dom::element_type::OBJECT; }
  std::optional<std::string> string(const char* key) const override {
    const auto* v = find(key);
    if (!v || v->type() != simdjson::dom::element_type::STRING) return std::nullopt;
    return std::string(v->get_string().value_unsafe());
  }
  bool is_number(const char* key) const override {
    const auto* v = find(key);
    if (!v) return false;
    using T = simdjson::dom::element_type;
    const auto t = v->type();
    return t == T::INT64 || t == T::UINT64 || t == T::DOUBLE;
  }
  std::optional<int64_t> integer(const char* key) const override {
    const auto* v = find(key);
    if (v && v->type() == simdjson::dom::element_type::INT64) return v->get_int64().value_unsafe();
    return std::nullopt;
  }
  double number(const char* key) const override {
    const auto* v = find(key);
    using T = simdjson::dom::element_type;
    switch (v->type()) {
      case T::INT64: return static_cast<double>(v->get_int64().value_unsafe());
      case T::UINT64: return static_cast<double>(v->get_uint64().value_unsafe());
      default: return v->get_double().value_unsafe();
    }
  }
  std::string dump(const char* key) const override { return simdjson::minify(*find(key)); }
  bool has(const char* key) const override { return find(key) != nullptr; }
  bool args_has_string_name() const override {
    const auto* args = find("args");
    if (!args) return false;
    auto name = (*args)["name"];
    return !name.error() && name.type().value_unsafe() == simdjson::dom::element_type::STRING;
  }

 private:
  static constexpr size_t kKeys = 8;
  static constexpr std::string_view kNames[kKeys] = {"ph", "name", "ts", "pid", "tid", "dur", "s", "args"};
  const simdjson::dom::element* find(const char* key) const {
    for (size_t k = 0; k < kKeys; ++k)
      if (has_[k] && kNames[k] == key) return &field_[k];
    return nullptr;
  }
  simdjson::dom::element e_;
  simdjson::dom::element field_[kKeys];
  bool has_[kKeys] = {};
};

}  // namespace

std::vector<std::string> check_chrome_trace_rules(const json& doc) {
  if (!doc.is_object()) return {"the document is not a JSON object"};
  ChromeRules rules;
  auto unit = doc.find("displayTimeUnit");
  if (unit != doc.end())
    rules.unit(unit->is_string() ? std::optional<std::string>(unit->get<std::string>()) : std::nullopt);
  auto events = doc.find("traceEvents");
  if (events == doc.end()) return rules.problems().push_back("traceEvents is missing"), rules.problems();
  if (!events->is_array()) return rules.problems().push_back("traceEvents is not an array"), rules.problems();
  for (size_t i = 0; i < events->size(); ++i) rules.add(i, TreeFields((*events)[i]));
  return rules.finish();
}

std::vector<std::string> check_chrome_trace_rules_text(std::string_view text,
                                                       const std::function<void(size_t, size_t)>& release) {
  JsonScan s(text, release);
  if (s.peek() != '{') {
    s.skip_value("at the top level");
    return {"the document is not a JSON object"};
  }
  ChromeRules rules;
  bool seen = false;
  s.object("in the top-level object", [&](std::string_view key, size_t) {
    if (key == "displayTimeUnit") {
      simdjson::dom::element u = s.parse_value("in displayTimeUnit");
      rules.unit(u.type() == simdjson::dom::element_type::STRING
                     ? std::optional<std::string>(std::string(u.get_string().value_unsafe()))
                     : std::nullopt);
    } else if (key == "traceEvents" && s.peek() == '[') {
      seen = true;
      s.array_batches("in traceEvents",
                      [&](simdjson::dom::element e, size_t i, size_t) { rules.add(i, SimdFields(e)); });
    } else {
      if (key == "traceEvents") {
        seen = true;
        rules.problems().push_back("traceEvents is not an array");
      }
      s.skip_value("in the top-level object");
    }
  });
  if (!s.at_end()) s.fail(s.pos(), "unexpected text after the JSON document");
  if (!seen) rules.problems().push_back("traceEvents is missing");
  return rules.finish();
}

std::vector<std::string> check_chrome_trace_rules_file(const std::filesystem::path& path) {
  MappedFile f(path, uint64_t(2) << 30, "trace file");
  return check_chrome_trace_rules_text(f.text(), [&f](size_t b, size_t e) { f.release(b, e); });
}

}  // namespace ipt::trace
