// Value basics: construction, checked accessors, repr/str, hashing and equality, the dict,
// slices, and generic iteration. Container destructors defer deep releases so a million-deep
// nested list does not overflow the C++ stack.
#include "core/script/value.h"

#include <cmath>
#include <cstring>
#include <functional>

#include "core/script/builtins.h"
#include "core/script/format.h"
#include "core/script/object.h"

namespace ipt::script {

// ---- deferred destruction ("trashcan") -------------------------------------------------

namespace {
thread_local int t_destroy_depth = 0;
thread_local bool t_draining = false;

std::vector<Value>& pending() {
  static thread_local std::vector<Value> p;
  return p;
}

template <typename F>
void release(F&& clear_now, std::function<void(std::vector<Value>&)> move_out) {
  if (t_destroy_depth >= 48) {
    move_out(pending());
    return;
  }
  ++t_destroy_depth;
  clear_now();
  --t_destroy_depth;
  if (t_destroy_depth == 0 && !t_draining) {
    t_draining = true;
    auto& p = pending();
    while (!p.empty()) {
      Value v = std::move(p.back());
      p.pop_back();
    }
    t_draining = false;
  }
}

void release_items(std::vector<Value>& items) {
  if (items.empty()) return;
  release([&] { items.clear(); },
          [&](std::vector<Value>& p) {
            for (auto& v : items) p.push_back(std::move(v));
            items.clear();
          });
}
}  // namespace

List::~List() { release_items(items); }
Tuple::~Tuple() { release_items(items); }
Dict::~Dict() {
  if (entries_.empty()) return;
  release([&] { entries_.clear(); },
          [&](std::vector<Value>& p) {
            for (auto& kv : entries_) {
              p.push_back(std::move(kv.first));
              p.push_back(std::move(kv.second));
            }
            entries_.clear();
          });
}

// ---- Value -------------------------------------------------------------------------------

Value::Value(std::shared_ptr<List> l) : v_(std::in_place_index<5>, std::move(l)) {}
Value::Value(std::shared_ptr<const Tuple> t) : v_(std::in_place_index<6>, std::move(t)) {}
Value::Value(std::shared_ptr<Dict> d) : v_(std::in_place_index<7>, std::move(d)) {}
Value::Value(std::shared_ptr<const Slice> s) : v_(std::in_place_index<8>, std::move(s)) {}

Value Value::list(std::vector<Value> items) { return Value(std::make_shared<List>(std::move(items))); }
Value Value::tuple(std::vector<Value> items) {
  return Value(std::shared_ptr<const Tuple>(std::make_shared<Tuple>(std::move(items))));
}
Value Value::dict() { return Value(std::make_shared<Dict>()); }
Value Value::slice(Value start, Value stop, Value step) {
  auto s = std::make_shared<Slice>();
  s->start = std::move(start);
  s->stop = std::move(stop);
  s->step = std::move(step);
  return Value(std::shared_ptr<const Slice>(std::move(s)));
}

bool Value::as_bool() const {
  if (!is_bool()) raise("TypeError", "expected bool, got '" + type_name() + "'");
  return raw_bool();
}
int64_t Value::as_int() const {
  if (is_int()) return raw_int();
  if (is_bool()) return raw_bool() ? 1 : 0;
  raise("TypeError", "'" + type_name() + "' object cannot be interpreted as an integer");
}
double Value::as_float() const {
  if (is_float()) return raw_float();
  if (is_int()) return static_cast<double>(raw_int());
  if (is_bool()) return raw_bool() ? 1.0 : 0.0;
  raise("TypeError", "must be real number, not " + type_name());
}
const std::string& Value::as_str() const {
  if (!is_str()) raise("TypeError", "expected str, got '" + type_name() + "'");
  return *str_ptr();
}
List& Value::as_list() const {
  if (!is_list()) raise("TypeError", "expected list, got '" + type_name() + "'");
  return *list_ptr();
}
const std::vector<Value>& Value::as_tuple() const {
  if (!is_tuple()) raise("TypeError", "expected tuple, got '" + type_name() + "'");
  return tuple_ptr()->items;
}
Dict& Value::as_dict() const {
  if (!is_dict()) raise("TypeError", "expected dict, got '" + type_name() + "'");
  return *dict_ptr();
}
const Slice& Value::as_slice() const {
  if (!is_slice()) raise("TypeError", "expected slice, got '" + type_name() + "'");
  return *slice_ptr();
}
const ObjectPtr& Value::as_object() const {
  if (!is_object()) raise("TypeError", "expected an object, got '" + type_name() + "'");
  return object_ptr();
}

std::string Value::type_name() const {
  switch (type()) {
    case Type::None: return "NoneType";
    case Type::Bool: return "bool";
    case Type::Int: return "int";
    case Type::Float: return "float";
    case Type::Str: return "str";
    case Type::List: return "list";
    case Type::Tuple: return "tuple";
    case Type::Dict: return "dict";
    case Type::Slice: return "slice";
    case Type::Ellipsis: return "ellipsis";
    case Type::Object: return object_ptr()->type_name();
    case Type::Unbound: return "unbound";
  }
  return "object";
}

const void* Value::identity() const noexcept {
  switch (type()) {
    case Type::Str: return str_ptr().get();
    case Type::List: return list_ptr().get();
    case Type::Tuple: return tuple_ptr().get();
    case Type::Dict: return dict_ptr().get();
    case Type::Slice: return slice_ptr().get();
    case Type::Object: return object_ptr().get();
    default: return nullptr;
  }
}

namespace {

// Containers currently being printed (cycle detection: [[...]]).
thread_local std::vector<const void*> t_repr_active;

struct ReprGuard {
  bool cycle = false;
  const void* p;
  explicit ReprGuard(const void* ptr) : p(ptr) {
    for (auto* q : t_repr_active)
      if (q == ptr) { cycle = true; return; }
    if (t_repr_active.size() > 400)
      raise("RecursionError", "maximum recursion depth exceeded while getting the repr of an object");
    t_repr_active.push_back(ptr);
  }
  ~ReprGuard() {
    if (!cycle) t_repr_active.pop_back();
  }
};

void repr_into(const Value& v, std::string& out);

void seq_into(const std::vector<Value>& items, std::string& out) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    repr_into(items[i], out);
  }
}

void repr_into(const Value& v, std::string& out) {
  switch (v.type()) {
    case Value::Type::None: out += "None"; return;
    case Value::Type::Bool: out += v.raw_bool() ? "True" : "False"; return;
    case Value::Type::Int: out += int_str(v.raw_int()); return;
    case Value::Type::Float: out += float_repr(v.raw_float()); return;
    case Value::Type::Str: out += str_repr(*v.str_ptr()); return;
    case Value::Type::List: {
      ReprGuard g(v.identity());
      if (g.cycle) { out += "[...]"; return; }
      out += '[';
      seq_into(v.list_ptr()->items, out);
      out += ']';
      return;
    }
    case Value::Type::Tuple: {
      ReprGuard g(v.identity());
      const auto& items = v.tuple_ptr()->items;
      out += '(';
      seq_into(items, out);
      if (items.size() == 1) out += ',';
      out += ')';
      return;
    }
    case Value::Type::Dict: {
      ReprGuard g(v.identity());
      if (g.cycle) { out += "{...}"; return; }
      out += '{';
      bool first = true;
      for (const auto& kv : v.dict_ptr()->entries()) {
        if (!first) out += ", ";
        first = false;
        repr_into(kv.first, out);
        out += ": ";
        repr_into(kv.second, out);
      }
      out += '}';
      return;
    }
    case Value::Type::Slice: {
      const Slice& s = *v.slice_ptr();
      out += "slice(";
      repr_into(s.start, out);
      out += ", ";
      repr_into(s.stop, out);
      out += ", ";
      repr_into(s.step, out);
      out += ')';
      return;
    }
    case Value::Type::Ellipsis: out += "Ellipsis"; return;
    case Value::Type::Object: {
      ReprGuard g(v.identity());
      if (g.cycle) { out += "..."; return; }
      out += v.object_ptr()->repr();
      return;
    }
    case Value::Type::Unbound: out += "<unbound>"; return;
  }
}

}  // namespace

std::string Value::repr() const {
  std::string out;
  repr_into(*this, out);
  return out;
}

std::string Value::str() const {
  switch (type()) {
    case Type::Str: return *str_ptr();
    case Type::Object: {
      ReprGuard g(identity());
      if (g.cycle) return "...";
      return object_ptr()->str();
    }
    default: return repr();
  }
}

// ---- hashing and equality ------------------------------------------------------------------

namespace {
size_t mix(size_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h;
}
thread_local int t_eq_depth = 0;
struct DepthGuard {
  int& d;
  explicit DepthGuard(int& depth) : d(depth) {
    if (++d > 400) {
      --d;
      raise("RecursionError", "maximum recursion depth exceeded in comparison");
    }
  }
  ~DepthGuard() { --d; }
};
}  // namespace

size_t hash_value(const Value& v) {
  switch (v.type()) {
    case Value::Type::None: return 0x9e3779b97f4a7c15ULL;
    case Value::Type::Bool:
    case Value::Type::Int: return mix(static_cast<size_t>(v.as_int()));
    case Value::Type::Float: {
      double d = v.raw_float();
      if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.2e18) return mix(static_cast<size_t>(static_cast<int64_t>(d)));
      if (d == 0) return mix(0);
      uint64_t bits;
      std::memcpy(&bits, &d, sizeof bits);
      return mix(bits ^ 0x5555);
    }
    case Value::Type::Str: return std::hash<std::string>()(*v.str_ptr());
    case Value::Type::Tuple: {
      DepthGuard g(t_eq_depth);
      size_t h = 0x345678;
      for (const auto& x : v.tuple_ptr()->items) h = mix(h * 1000003 ^ hash_value(x));
      return h;
    }
    case Value::Type::Ellipsis: return 0x1234567;
    case Value::Type::Object: return mix(reinterpret_cast<size_t>(v.object_ptr().get()));
    default: raise("TypeError", "unhashable type: '" + v.type_name() + "'");
  }
}

bool values_equal(const Value& a, const Value& b) {
  using T = Value::Type;
  T ta = a.type(), tb = b.type();
  if (a.is_number() && b.is_number()) {
    if (a.is_float() || b.is_float()) {
      if (a.is_float() && b.is_float()) return a.raw_float() == b.raw_float();
      // exact int/float comparison
      double d = a.is_float() ? a.raw_float() : b.raw_float();
      int64_t i = a.is_float() ? b.as_int() : a.as_int();
      if (!std::isfinite(d) || d != std::floor(d)) return false;
      if (d < -9.3e18 || d > 9.3e18) return false;
      if (d >= 9223372036854775807.0 || d < -9223372036854775808.0) return false;
      return static_cast<int64_t>(d) == i;
    }
    return a.as_int() == b.as_int();
  }
  if (ta == T::Object || tb == T::Object) {
    if (ta == tb && a.object_ptr() == b.object_ptr()) return true;
    return truthy(compare(CompareOp::Eq, a, b));
  }
  if (ta != tb) return false;
  switch (ta) {
    case T::None: case T::Ellipsis: case T::Unbound: return true;
    case T::Str: return a.str_ptr() == b.str_ptr() || *a.str_ptr() == *b.str_ptr();
    case T::List: case T::Tuple: {
      if (a.identity() == b.identity()) return true;
      const auto& x = ta == T::List ? a.list_ptr()->items : a.tuple_ptr()->items;
      const auto& y = ta == T::List ? b.list_ptr()->items : b.tuple_ptr()->items;
      if (x.size() != y.size()) return false;
      DepthGuard g(t_eq_depth);
      for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
        if (x[i].identity() && x[i].identity() == y[i].identity()) continue;
        if (!values_equal(x[i], y[i])) return false;
      }
      return true;
    }
    case T::Dict: {
      const Dict& x = *a.dict_ptr();
      const Dict& y = *b.dict_ptr();
      if (&x == &y) return true;
      if (x.size() != y.size()) return false;
      DepthGuard g(t_eq_depth);
      auto entries = x.entries();  // copy: comparisons may run native code
      for (const auto& kv : entries) {
        const Value* other = y.find(kv.first);
        if (!other) return false;
        Value ov = *other;
        if (!values_equal(kv.second, ov)) return false;
      }
      return true;
    }
    case T::Slice: {
      const Slice& x = *a.slice_ptr();
      const Slice& y = *b.slice_ptr();
      return values_equal(x.start, y.start) && values_equal(x.stop, y.stop) && values_equal(x.step, y.step);
    }
    default: return false;
  }
}

// ---- Dict ----------------------------------------------------------------------------------

std::ptrdiff_t Dict::index_of(const Value& key, size_t h) const {
  if (table_.empty()) {
    for (size_t i = 0; i < entries_.size(); ++i)
      if (hashes_[i] == h && values_equal(entries_[i].first, key)) return static_cast<std::ptrdiff_t>(i);
    return -1;
  }
  size_t mask = table_.size() - 1;
  for (size_t pos = h & mask;; pos = (pos + 1) & mask) {
    int32_t idx = table_[pos];
    if (idx < 0) return -1;
    if (hashes_[idx] == h && values_equal(entries_[idx].first, key)) return idx;
  }
}

void Dict::rebuild_index() {
  table_.clear();
  if (entries_.size() < 8) return;
  size_t cap = 16;
  while (cap < entries_.size() * 2) cap <<= 1;
  table_.assign(cap, -1);
  size_t mask = cap - 1;
  for (size_t i = 0; i < entries_.size(); ++i) {
    size_t pos = hashes_[i] & mask;
    while (table_[pos] >= 0) pos = (pos + 1) & mask;
    table_[pos] = static_cast<int32_t>(i);
  }
}

const Value* Dict::find(const Value& key) const {
  size_t h = hash_value(key);
  auto i = index_of(key, h);
  return i < 0 ? nullptr : &entries_[i].second;
}

void Dict::set(const Value& key, Value value) {
  size_t h = hash_value(key);
  auto i = index_of(key, h);
  if (i >= 0) {
    entries_[i].second = std::move(value);
    return;
  }
  entries_.emplace_back(key, std::move(value));
  hashes_.push_back(h);
  if (entries_.size() >= 8 && entries_.size() * 2 > table_.size()) {
    rebuild_index();
  } else if (!table_.empty()) {
    size_t mask = table_.size() - 1;
    size_t pos = h & mask;
    while (table_[pos] >= 0) pos = (pos + 1) & mask;
    table_[pos] = static_cast<int32_t>(entries_.size() - 1);
  }
}

bool Dict::erase(const Value& key) {
  size_t h = hash_value(key);
  auto i = index_of(key, h);
  if (i < 0) return false;
  entries_.erase(entries_.begin() + i);
  hashes_.erase(hashes_.begin() + i);
  rebuild_index();
  return true;
}

void Dict::clear() {
  auto old = std::move(entries_);
  entries_.clear();
  hashes_.clear();
  table_.clear();
}

// ---- slices and iteration -----------------------------------------------------------------

SliceIndices resolve_slice(const Slice& s, int64_t length) {
  int64_t step = s.step.is_none() ? 1 : to_index(s.step);
  if (step == 0) raise("ValueError", "slice step cannot be zero");
  if (step < -INT64_MAX) step = -INT64_MAX;
  int64_t lower = step < 0 ? -1 : 0;
  int64_t upper = step < 0 ? length - 1 : length;
  auto adjust = [&](const Value& v, int64_t dflt) {
    if (v.is_none()) return dflt;
    int64_t x = to_index(v);
    if (x < 0) {
      x += length;
      if (x < lower) x = lower;
    } else if (x > upper) {
      x = upper;
    }
    return x;
  };
  int64_t start = adjust(s.start, step < 0 ? upper : lower);
  int64_t stop = adjust(s.stop, step < 0 ? lower : upper);
  int64_t n = 0;
  if (step < 0) {
    if (stop < start) n = (start - stop - 1) / (-step) + 1;
  } else {
    if (start < stop) n = (stop - start - 1) / step + 1;
  }
  return {start, stop, step, n};
}

ValueIterator::ValueIterator(const Value& v) {
  switch (v.type()) {
    case Value::Type::List:
      kind_ = Kind::List;
      holder_ = v;
      return;
    case Value::Type::Tuple:
      kind_ = Kind::List;
      holder_ = v;
      return;
    case Value::Type::Str: {
      kind_ = Kind::Vector;
      const std::string& s = *v.str_ptr();
      if (is_ascii(s)) {
        vec_.reserve(s.size());
        for (char c : s) vec_.emplace_back(std::string(1, c));
      } else {
        auto offs = utf8_offsets(s);
        for (size_t i = 0; i + 1 < offs.size(); ++i) vec_.emplace_back(s.substr(offs[i], offs[i + 1] - offs[i]));
      }
      return;
    }
    case Value::Type::Dict:
      kind_ = Kind::Vector;
      for (const auto& kv : v.dict_ptr()->entries()) vec_.push_back(kv.first);
      return;
    case Value::Type::Object: {
      if (auto r = std::dynamic_pointer_cast<RangeObject>(v.object_ptr())) {
        kind_ = Kind::Range;
        cur_ = r->start();
        stop_ = r->stop();
        step_ = r->step();
        return;
      }
      Value it = v.object_ptr()->iter();
      if (it.is_list() || it.is_tuple()) {
        kind_ = Kind::List;
        holder_ = it;
        return;
      }
      if (it.is_object()) {
        kind_ = Kind::Object;
        obj_ = it.object_ptr();
        return;
      }
      *this = ValueIterator(it);
      return;
    }
    default:
      raise("TypeError", "'" + v.type_name() + "' object is not iterable");
  }
}

namespace detail {
thread_local IterationWatch t_iteration_watch;
}

bool ValueIterator::next(Value& out) {
  detail::iteration_tick();
  switch (kind_) {
    case Kind::List: {
      const auto& items = holder_.is_list() ? holder_.list_ptr()->items : holder_.tuple_ptr()->items;
      if (pos_ >= items.size()) return false;
      out = items[pos_++];
      return true;
    }
    case Kind::Vector:
      if (pos_ >= vec_.size()) return false;
      out = vec_[pos_++];
      return true;
    case Kind::Str:
      return false;
    case Kind::Range:
      if (step_ > 0 ? cur_ >= stop_ : cur_ <= stop_) return false;
      out = Value(cur_);
      if (__builtin_add_overflow(cur_, step_, &cur_)) cur_ = stop_;
      return true;
    case Kind::Object: {
      auto r = obj_->next();
      if (!r) return false;
      out = std::move(*r);
      return true;
    }
  }
  return false;
}

std::vector<Value> to_vector(const Value& iterable) {
  if (iterable.is_list()) return iterable.list_ptr()->items;
  if (iterable.is_tuple()) return iterable.tuple_ptr()->items;
  std::vector<Value> out;
  ValueIterator it(iterable);
  Value v;
  while (it.next(v)) {
    out.push_back(std::move(v));
    if (out.size() > kMaxContainerSize) raise("MemoryError", "iterable too large");
  }
  return out;
}

std::vector<int64_t> to_int_vector(const Value& v) {
  std::vector<int64_t> out;
  if (v.is_intlike()) {
    out.push_back(v.as_int());
    return out;
  }
  if (v.is_object() && v.object_ptr()->index()) {
    out.push_back(*v.object_ptr()->index());
    return out;
  }
  if (!(v.is_list() || v.is_tuple() || v.is_object()))
    raise("TypeError", "expected a sequence of integers, got '" + v.type_name() + "'");
  for (const auto& x : to_vector(v)) out.push_back(to_index(x));
  return out;
}

}  // namespace ipt::script
