#include "core/views/storage_layout.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string_view>
#include <unordered_map>

namespace ipt::views::storage {

// ---- index math and formatting -------------------------------------------------------

int64_t dtype_size(const char* dtype) {
  const std::string_view d = dtype ? dtype : "";
  if (d == "float64" || d == "int64" || d == "complex64") return 8;
  if (d == "float32" || d == "int32") return 4;
  if (d == "float16" || d == "bfloat16" || d == "int16") return 2;
  if (d == "bool" || d == "int8" || d == "uint8") return 1;
  return 4;
}

int64_t element_offset(const trace::TensorMeta& t, const int64_t* index) {
  int64_t off = t.storage_offset;
  for (size_t k = 0; k < t.sizes.size() && k < t.strides.size(); ++k) off += index[k] * t.strides[k];
  return off;
}

std::string offset_formula(const trace::TensorMeta& t, const std::vector<int64_t>& index) {
  const int64_t off = element_offset(t, index.data());
  if (t.sizes.empty()) return "offset = storage_offset = " + std::to_string(off);
  std::string s = "offset = " + std::to_string(t.storage_offset);
  for (size_t k = 0; k < index.size() && k < t.strides.size(); ++k)
    s += " + " + std::to_string(index[k]) + "\xC2\xB7" + std::to_string(t.strides[k]);  // U+00B7 middle dot
  return s + " = " + std::to_string(off);
}

static std::string compact_exponent(const char* buf) {
  // "1.85e+31" -> "1.85e31", "2.8e-05" -> "2.8e-5"
  std::string s = buf;
  size_t e = s.find('e');
  if (e == std::string::npos) return s;
  std::string mant = s.substr(0, e), ex = s.substr(e + 1);
  bool neg = !ex.empty() && ex[0] == '-';
  if (!ex.empty() && (ex[0] == '+' || ex[0] == '-')) ex.erase(0, 1);
  while (ex.size() > 1 && ex[0] == '0') ex.erase(0, 1);
  return mant + "e" + (neg ? "-" : "") + ex;
}

std::string format_value(double v, const char* dtype) {
  const std::string_view d = dtype ? dtype : "";
  char buf[48];
  if (d == "bool") return v != 0 ? "T" : "F";
  if (d == "int64" || d == "int32" || d == "int16" || d == "int8" || d == "uint8") {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    return buf;
  }
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  const double a = std::fabs(v);
  if (v == std::trunc(v) && a < 1e6) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  if (a >= 1e-3 && a < 1e5) {
    std::snprintf(buf, sizeof buf, "%.4g", v);
    if (!std::strchr(buf, '.') && !std::strchr(buf, 'e')) std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.2g", v);
  return compact_exponent(buf);
}

std::string shape_text(std::span<const int64_t> v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  if (v.size() == 1) s += ",";
  return s + ")";
}

std::string index_text(const std::vector<int64_t>& index) {
  std::string s = "[";
  for (size_t i = 0; i < index.size(); ++i) s += (i ? ", " : "") + std::to_string(index[i]);
  return s + "]";
}

std::string slice_label(const std::vector<int64_t>& lead, size_t ndim) {
  std::string s = "[";
  for (size_t i = 0; i < ndim; ++i) {
    if (i) s += ", ";
    s += i < lead.size() ? std::to_string(lead[i]) : ":";
  }
  return s + "]";
}

int64_t numel(const trace::TensorMeta& t) {
  int64_t n = 1;
  for (int64_t s : t.sizes) n *= std::max<int64_t>(s, 0);
  return n;
}

// ---- the model ------------------------------------------------------------------------

namespace {

struct TensorAcc {
  const trace::TensorMeta* latest = nullptr;
  bool in_step = false;
  int64_t stmt_first = -1, stmt_last = -1;  // statements its events lie in
  bool stmt_result = false;
  bool new_storage = false;
  const char* made_by = "";
  uint64_t from_tensor = 0, from_storage = 0;
  std::vector<std::string> names;
};

struct StorageAcc {
  const trace::TensorMeta* latest = nullptr;  // latest snapshot in [0, last)
  const trace::TensorMeta* before = nullptr;  // latest snapshot in [0, first)
  bool allocated_in_step = false, freed_in_step = false;
  bool in_step_order = false;  // listed in step_storage_order
};

void add_name(TensorAcc& t, const std::string& n) {
  if (std::find(t.names.begin(), t.names.end(), n) == t.names.end()) t.names.push_back(n);
}

// One storage of the model: its preview, the cells the step wrote, and the tensors over it
// (`list`: id and accumulator of each tensor whose latest snapshot names this storage).
StorageItem storage_item(uint64_t sid, const StorageAcc& sa, std::vector<std::pair<uint64_t, const TensorAcc*>> list) {
  StorageItem s;
  s.id = sid;
  s.nbytes = sa.latest->storage_nbytes;
  s.dtype = sa.latest->dtype;
  s.device = sa.latest->device;
  s.elements = s.nbytes / dtype_size(s.dtype);
  s.values = &sa.latest->storage_values;
  s.truncated = sa.latest->storage_truncated;
  s.allocated_in_step = sa.allocated_in_step;
  s.freed_in_step = sa.freed_in_step;
  const size_t n = s.values->size();
  s.labels.reserve(n);
  for (double v : *s.values) s.labels.push_back(format_value(v, s.dtype));
  s.written.assign(n, 0);
  if (sa.before) {
    const auto& old = sa.before->storage_values;
    for (size_t k = 0; k < n; ++k)
      s.written[k] =
          k >= old.size() || !(old[k] == (*s.values)[k] || (std::isnan(old[k]) && std::isnan((*s.values)[k])));
  }
  std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [id, t] : list) {
    TensorItem ti;
    ti.meta = t->latest;
    ti.names = t->names;
    const bool temporary = t->names.empty() && t->stmt_first == t->stmt_last && !t->stmt_result;
    ti.kind = temporary ? TensorKind::Temporary : t->in_step ? TensorKind::Step : TensorKind::Earlier;
    if (!t->in_step && temporary) continue;  // an earlier step's intermediate: not context
    ti.new_storage = t->new_storage;
    ti.made_by = t->made_by;
    ti.from_tensor = t->from_tensor;
    ti.from_storage = t->from_storage;
    ti.covers.assign(n, 0);
    ti.covers_partial = !for_each_element(*t->latest, kMaxEnumerated, [&](const std::vector<int64_t>&, int64_t off) {
      if (off >= 0 && static_cast<size_t>(off) < n && ti.covers[static_cast<size_t>(off)] < UINT16_MAX)
        ++ti.covers[static_cast<size_t>(off)];
    });
    s.tensors.push_back(std::move(ti));
  }
  return s;
}

// Storage frees at the very end of a recording, with nothing after them, are the session's
// teardown (the GUI records until the session is destroyed), not the step's work: the index
// where they start (`last` when the range does not reach the end of the events).
size_t teardown_start(const std::vector<trace::Event>& events, size_t first, size_t last) {
  size_t teardown = last;
  if (last == events.size())
    while (teardown > first) {
      const auto* s = std::get_if<trace::StorageInfo>(&events[teardown - 1].payload);
      if (!s || !s->freed) break;
      --teardown;
    }
  return teardown;
}

}  // namespace

StorageModel build_storage_model(const std::vector<trace::Event>& events, size_t first, size_t last) {
  StorageModel model;
  last = std::min(last, events.size());
  first = std::min(first, last);
  std::unordered_map<uint64_t, TensorAcc> tensors;
  std::unordered_map<uint64_t, StorageAcc> storages;
  std::vector<uint64_t> step_storage_order;  // storages in order of first use in the step

  // Statement and call tracking (see Note [Which tensors the storage view shows]).
  int64_t stmt = 0;
  int depth = 0;
  const trace::TensorMeta* call_self = nullptr;
  const trace::TensorMeta* call_result = nullptr;
  const char* call_op = "";
  uint64_t stmt_result = 0;  // the current statement's result so far (0: none)
  auto end_statement = [&] {
    if (stmt_result) tensors[stmt_result].stmt_result = true;
    stmt_result = 0;
  };

  const size_t teardown = teardown_start(events, first, last);

  for (size_t i = 0; i < last; ++i) {
    const trace::Event& e = events[i];
    const bool in_step = i >= first;
    if (e.category == trace::Category::Lesson || std::holds_alternative<trace::ScriptLine>(e.payload)) {
      end_statement();
      ++stmt;
      depth = 0;
      continue;
    }
    // A Python name bound to a tensor (see Note [What a running program records]).
    // A Script event with a tensor is a "binding".
    if (e.category == trace::Category::Script && std::holds_alternative<trace::TensorMeta>(e.payload)) {
      if (const auto* m = std::get_if<trace::TensorMeta>(&e.payload); m && m->label && *m->label)
        add_name(tensors[m->tensor_id], m->label);
      continue;
    }
    if (e.category == trace::Category::Dispatch && e.phase != trace::Phase::Instant) {
      // Begin events carry the DispatchStep; End events carry nothing.
      if (e.phase == trace::Phase::Begin) {
        if (depth == 0) {
          call_self = call_result = nullptr;
          const auto* d = std::get_if<trace::DispatchStep>(&e.payload);
          call_op = d ? d->op : e.name;
        }
        ++depth;
      } else if (e.phase == trace::Phase::End && depth > 0) {
        if (--depth == 0) {
          // The statement's result is the last top-level call's (none for item() & co.).
          stmt_result = 0;
          if (call_result) {
            TensorAcc& r = tensors[call_result->tensor_id];
            if (in_step && call_self && call_self->storage_id != call_result->storage_id && !r.new_storage) {
              r.new_storage = true;
              r.made_by = call_op;
              r.from_tensor = call_self->tensor_id;
              r.from_storage = call_self->storage_id;
            }
            const bool in_place = call_self && call_self->tensor_id == call_result->tensor_id;
            if (!in_place) stmt_result = call_result->tensor_id;
          }
        }
      }
      continue;
    }
    if (const auto* s = std::get_if<trace::StorageInfo>(&e.payload)) {
      if (in_step && i < teardown) {
        StorageAcc& a = storages[s->storage_id];
        (s->freed ? a.freed_in_step : a.allocated_in_step) = true;
      }
      continue;
    }
    const auto* m = std::get_if<trace::TensorMeta>(&e.payload);
    if (!m || m->strides.size() != m->sizes.size()) continue;
    TensorAcc& t = tensors[m->tensor_id];
    t.latest = m;
    if (t.stmt_first < 0) t.stmt_first = stmt;
    t.stmt_last = stmt;
    StorageAcc& sa = storages[m->storage_id];
    sa.latest = m;
    if (!in_step) sa.before = m;
    if (in_step) {
      t.in_step = true;
      if (!sa.in_step_order) {
        sa.in_step_order = true;
        step_storage_order.push_back(m->storage_id);
      }
    }
    if (depth == 1) {
      const std::string_view label = m->label ? m->label : "";
      if (label == "self" && !call_self) call_self = m;
      if (label == "result") call_result = m;
    } else if (depth == 0) {
      // A tensor recorded outside any call (e.g. torch.tensor's result).
      stmt_result = m->tensor_id;
    }
  }
  end_statement();

  // Group the tensors by the storage their latest snapshot names.
  std::map<uint64_t, std::vector<std::pair<uint64_t, const TensorAcc*>>> by_storage;
  for (const auto& [id, t] : tensors) {
    if (!t.latest) continue;
    if (t.in_step) ++model.step_tensors;
    by_storage[t.latest->storage_id].emplace_back(id, &t);
  }
  for (uint64_t sid : step_storage_order) {
    auto it = by_storage.find(sid);
    if (it == by_storage.end()) continue;  // the step's tensors on it moved to another storage
    bool any_step = false;
    for (const auto& [id, t] : it->second) any_step |= t->in_step;
    if (!any_step) continue;
    model.storages.push_back(storage_item(sid, storages[sid], it->second));
  }
  return model;
}

}  // namespace ipt::views::storage
