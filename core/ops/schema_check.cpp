#include "core/ops/schema_check.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string_view>

#include "core/tensor/index_math.h"
#include "core/trace/recorder.h"
#include "core/util/error.h"

namespace ipt::schema_check {

namespace {

// IPT_SCHEMA_CHECK=1 switches the mode on for the whole run, from the first call.
bool enabled_by_environment() {
  const char* env = std::getenv("IPT_SCHEMA_CHECK");
  return env && std::string_view(env) == "1";
}

std::atomic<bool> g_enabled{enabled_by_environment()};
std::atomic<bool> g_raise{true};
std::mutex g_mu;
std::vector<std::string> g_ops;
std::vector<Finding> g_findings;

// The tensor's elements in row-major order (a dense tensor's bytes in one copy).
std::vector<unsigned char> element_bytes(const Tensor& t) {
  const size_t item = element_size(t.dtype());
  const size_t n = static_cast<size_t>(t.numel());
  std::vector<unsigned char> out(n * item);
  const Storage& st = *t.storage();
  const auto* base = static_cast<const unsigned char*>(st.data());
  if (!base || n == 0) return out;
  if (t.is_contiguous()) {
    std::memcpy(out.data(), base + t.storage_offset() * static_cast<int64_t>(item), out.size());
    return out;
  }
  const int64_t dims = t.dim();
  std::vector<int64_t> index(static_cast<size_t>(dims), 0);
  int64_t off = t.storage_offset();
  for (size_t i = 0; i < n; ++i) {
    std::memcpy(out.data() + i * item, base + off * static_cast<int64_t>(item), item);
    for (int64_t d = dims - 1; d >= 0; --d) {  // the next index, as an odometer
      if (++index[d] < t.sizes()[d]) {
        off += t.strides()[d];
        break;
      }
      off -= (index[d] - 1) * t.strides()[d];
      index[d] = 0;
    }
  }
  return out;
}

// Whether two tensors' elements may share memory (the same storage, overlapping byte ranges).
bool overlaps(const Tensor& a, const Tensor& b) {
  if (!a.defined() || !b.defined() || a.numel() == 0 || b.numel() == 0) return false;
  if (a.device().type == DeviceType::Meta || b.device().type == DeviceType::Meta) return false;  // no memory
  if (a.storage().get() != b.storage().get()) return false;
  auto range = [](const Tensor& t) {
    int64_t lo = t.storage_offset(), hi = t.storage_offset();
    for (int64_t d = 0; d < t.dim(); ++d) {
      const int64_t span = (t.sizes()[d] - 1) * t.strides()[d];
      (span < 0 ? lo : hi) += span;
    }
    const int64_t item = static_cast<int64_t>(element_size(t.dtype()));
    return std::pair<int64_t, int64_t>{lo * item, (hi + 1) * item};
  };
  auto [a0, a1] = range(a);
  auto [b0, b1] = range(b);
  return a0 < b1 && b0 < a1;
}

std::set<std::string_view> sets_of(const char* s) {
  std::set<std::string_view> out;
  std::string_view v(s);
  while (!v.empty()) {
    size_t bar = v.find('|');
    out.insert(v.substr(0, bar));
    if (bar == std::string_view::npos) break;
    v.remove_prefix(bar + 1);
  }
  return out;
}

bool may_alias(const ArgInfo& x, const ArgInfo& y) {
  if (x.wildcard || y.wildcard) return true;
  auto a = sets_of(x.alias_set), b = sets_of(y.alias_set);
  if (a.count("*") || b.count("*")) return !a.empty() && !b.empty();
  for (auto s : a)
    if (b.count(s)) return true;
  return false;
}

std::string python_name(const char* n) { return std::string_view(n) == "self" ? "input" : n; }

// Findings kept while the mode is on; past this, only violations are kept (a long run of
// correct calls would otherwise grow the list without bound).
constexpr size_t kMaxFindings = 100000;

const char* kind_name(Finding::Kind k) {
  switch (k) {
    case Finding::Kind::MutatedWithoutAnnotation: return "mutated_without_annotation";
    case Finding::Kind::AliasWithoutAnnotation: return "alias_without_annotation";
    case Finding::Kind::OutputsAlias: return "outputs_alias";
    case Finding::Kind::AnnotatedButUnchanged: return "annotated_but_unchanged";
    case Finding::Kind::Mutated: return "mutated";
    case Finding::Kind::Aliased: return "aliased";
  }
  return "";
}

// What one call found: kept in the list, recorded as a "schema check" event when tracing (so
// the Schema view can show an operator's last check), then the first violation raised.
void record(const char* op, std::vector<Finding> found) {
  if (trace::tracing_enabled()) {
    trace::SchemaCheck ev{trace::intern(op), {}};
    for (const Finding& f : found)
      ev.findings.push_back({kind_name(f.kind), trace::intern(f.argument), trace::intern(f.message)});
    trace::Recorder::current().instant(trace::Category::Note, "schema check", std::move(ev));
  }
  std::string raise;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    for (Finding& f : found) {
      if (f.violation() && raise.empty() && g_raise.load(std::memory_order_relaxed))
        raise = f.message + " (" + f.op + ")";
      if (g_findings.size() < kMaxFindings || f.violation()) g_findings.push_back(std::move(f));
    }
  }
  if (!raise.empty()) IPT_FAIL(RuntimeError, raise);
}

}  // namespace

bool enabled() { return g_enabled.load(std::memory_order_relaxed); }
void set_enabled(bool on, bool raise_on_violation) {
  g_raise.store(raise_on_violation, std::memory_order_relaxed);
  g_enabled.store(on, std::memory_order_relaxed);
}
std::vector<std::string> ops_seen() {
  std::lock_guard<std::mutex> lock(g_mu);
  return g_ops;
}
std::vector<Finding> findings() {
  std::lock_guard<std::mutex> lock(g_mu);
  return g_findings;
}
void clear() {
  std::lock_guard<std::mutex> lock(g_mu);
  g_ops.clear();
  g_findings.clear();
}

Call::Call(const char* op, std::span<const ArgInfo> args, std::span<const ArgInfo> returns)
    : op_(op), args_(args), returns_(returns) {
  std::lock_guard<std::mutex> lock(g_mu);
  if (g_ops.size() < kMaxFindings) g_ops.emplace_back(op);
}

void Call::add(size_t i, const Tensor& t) {
  if (!t.defined()) return;
  Snapshot s;
  s.arg = i;
  s.t = t;
  s.sizes = t.sizes();
  s.strides = t.strides();
  s.storage = t.storage().get();
  if (t.device().type == DeviceType::CPU) {
    s.bytes = element_bytes(t);
    s.has_bytes = true;
  }
  snaps_.push_back(std::move(s));
}
void Call::arg(size_t i, const Tensor& t) { add(i, t); }
void Call::arg(size_t i, const std::optional<Tensor>& t) {
  if (t) add(i, *t);
}
void Call::arg(size_t i, std::span<const Tensor> ts) {
  for (const auto& t : ts) add(i, t);
}
void Call::arg(size_t i, std::span<const std::optional<Tensor>> ts) {
  for (const auto& t : ts)
    if (t) add(i, *t);
}

void Call::after(const std::vector<Tensor>& rs) {
  std::vector<const Tensor*> v;
  for (const auto& r : rs) v.push_back(&r);
  check(v);
}

void Call::check(const std::vector<const Tensor*>& returns) {
  std::vector<Finding> found;
  // A list return (split's Tensor(a)[]) is one schema return for all its elements.
  auto ret_info = [&](size_t j) -> const ArgInfo& { return returns_[std::min(j, returns_.size() - 1)]; };
  // _unsafe_view returns a view under a schema that says it does not, on purpose (its result
  // takes over a temporary's memory); PyTorch's check exempts it too.
  const bool unsafe_alias = std::string_view(op_) == "aten::_unsafe_view";
  // An argument that shares memory with one the schema says is written may change with it
  // (x.sub_(x[0])), as PyTorch's SchemaInfo reasons from the argument values.
  auto aliases_written = [&](const Snapshot& s) {
    for (const Snapshot& w : snaps_)
      if (&w != &s && args_[w.arg].write && overlaps(w.t, s.t)) return true;
    return false;
  };
  for (const Snapshot& s : snaps_) {
    const ArgInfo& info = args_[s.arg];
    const Tensor& now = s.t;
    const bool changed = now.sizes() != s.sizes || now.strides() != s.strides || now.storage().get() != s.storage ||
                         (s.has_bytes && element_bytes(now) != s.bytes);
    const std::string name = python_name(info.name);
    // PyTorch's SchemaInfo knows that native_batch_norm updates its running statistics in
    // training, which its schema does not say (its list of training ops).
    const bool running_stat =
        std::string_view(op_) == "aten::native_batch_norm" &&
        (std::string_view(info.name) == "running_mean" || std::string_view(info.name) == "running_var");
    if (changed && !info.write && !running_stat && !aliases_written(s))
      found.push_back({Finding::Kind::MutatedWithoutAnnotation, op_, name,
                       "Argument " + name + " is not defined as mutable but was mutated"});
    else if (changed)
      found.push_back({Finding::Kind::Mutated, op_, name, "Argument " + name + " was mutated, as its schema says"});
    else if (info.write && s.has_bytes && now.numel() > 0)
      found.push_back({Finding::Kind::AnnotatedButUnchanged, op_, name,
                       "Argument " + name + " is defined as mutable but the call left it unchanged"});
    for (size_t j = 0; j < returns.size() && !returns_.empty(); ++j) {
      if (unsafe_alias || !overlaps(*returns[j], now)) continue;
      const std::string out = "output_" + std::to_string(std::min(j, returns_.size() - 1));
      // As for mutation, an argument that shares memory with one the result may alias may too.
      bool allowed = may_alias(ret_info(j), info);
      for (const Snapshot& w : snaps_)
        allowed = allowed || (&w != &s && may_alias(ret_info(j), args_[w.arg]) && overlaps(w.t, s.t));
      if (!allowed)
        found.push_back({Finding::Kind::AliasWithoutAnnotation, op_, name,
                         "Argument " + name + " is not defined to alias output but was aliasing"});
      else
        found.push_back(
            {Finding::Kind::Aliased, op_, name, "Argument " + name + " aliases " + out + ", as its schema says"});
    }
  }
  if (returns_.size() > 1)
    for (size_t i = 0; i < returns.size(); ++i)
      for (size_t j = i + 1; j < returns.size(); ++j)
        if (overlaps(*returns[i], *returns[j]) && !may_alias(ret_info(i), ret_info(j)))
          found.push_back({Finding::Kind::OutputsAlias, op_, "output_" + std::to_string(i),
                           "Outputs " + std::to_string(i) + " and " + std::to_string(j) + " alias unexpectedly"});
  record(op_, std::move(found));
}

}  // namespace ipt::schema_check
