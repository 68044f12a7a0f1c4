#pragma once
// Value: the dynamically typed value of the snippet language (a Python subset).
// A Value is small (24 bytes) and cheap to copy: scalars are stored inline, strings,
// containers and native objects are shared. Lists and dicts are mutable and shared by
// reference like Python's; tuples and strings are immutable.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace ipt::script {

class Object;
class Value;
struct List;
struct Tuple;
class Dict;
struct Slice;

using ObjectPtr = std::shared_ptr<Object>;

// Largest list/tuple a snippet may build (MemoryError beyond), so a typo like [0] * 10**10
// fails cleanly instead of exhausting memory. Strings may hold 4x this many bytes.
constexpr size_t kMaxContainerSize = size_t{1} << 24;
using Args = std::vector<Value>;
using Kwargs = std::vector<std::pair<std::string, Value>>;

class Value {
 public:
  // Order matches the variant alternatives below.
  enum class Type : uint8_t { None, Bool, Int, Float, Str, List, Tuple, Dict, Slice, Ellipsis, Object, Unbound };

  Value() noexcept = default;  // None
  Value(bool b) noexcept : v_(std::in_place_index<1>, b) {}
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Value(T i) noexcept : v_(std::in_place_index<2>, static_cast<int64_t>(i)) {}
  Value(double d) noexcept : v_(std::in_place_index<3>, d) {}
  Value(float d) noexcept : v_(std::in_place_index<3>, static_cast<double>(d)) {}
  Value(const char* s) : v_(std::in_place_index<4>, std::make_shared<const std::string>(s)) {}
  Value(std::string s) : v_(std::in_place_index<4>, std::make_shared<const std::string>(std::move(s))) {}
  Value(std::string_view s) : v_(std::in_place_index<4>, std::make_shared<const std::string>(s)) {}
  Value(std::shared_ptr<List> l);
  Value(std::shared_ptr<const Tuple> t);
  Value(std::shared_ptr<Dict> d);
  Value(std::shared_ptr<const Slice> s);
  // Any native object (std::shared_ptr<Derived> converts implicitly).
  template <typename T, std::enable_if_t<std::is_base_of_v<Object, T>, int> = 0>
  Value(std::shared_ptr<T> o) : v_(std::in_place_index<10>, ObjectPtr(std::move(o))) {}

  static Value none() { return Value(); }
  static Value ellipsis() { Value v; v.v_.emplace<9>(); return v; }
  static Value unbound() { Value v; v.v_.emplace<11>(); return v; }  // internal: unassigned variable
  static Value list(std::vector<Value> items = {});
  static Value tuple(std::vector<Value> items = {});
  static Value dict();
  static Value slice(Value start, Value stop, Value step);

  Type type() const noexcept { return static_cast<Type>(v_.index()); }
  bool is_none() const noexcept { return v_.index() == 0; }
  bool is_bool() const noexcept { return v_.index() == 1; }
  bool is_int() const noexcept { return v_.index() == 2; }            // int only (not bool)
  bool is_intlike() const noexcept { return v_.index() == 1 || v_.index() == 2; }  // int or bool
  bool is_float() const noexcept { return v_.index() == 3; }
  bool is_number() const noexcept { return v_.index() >= 1 && v_.index() <= 3; }  // bool, int, float
  bool is_str() const noexcept { return v_.index() == 4; }
  bool is_list() const noexcept { return v_.index() == 5; }
  bool is_tuple() const noexcept { return v_.index() == 6; }
  bool is_dict() const noexcept { return v_.index() == 7; }
  bool is_slice() const noexcept { return v_.index() == 8; }
  bool is_ellipsis() const noexcept { return v_.index() == 9; }
  bool is_object() const noexcept { return v_.index() == 10; }
  bool is_unbound() const noexcept { return v_.index() == 11; }

  // Accessors. The checked ones raise TypeError ("expected int, got 'str'") on a mismatch.
  bool as_bool() const;          // bool only
  int64_t as_int() const;        // int or bool
  double as_float() const;       // float, int or bool
  const std::string& as_str() const;
  List& as_list() const;
  const std::vector<Value>& as_tuple() const;  // the tuple's items
  Dict& as_dict() const;
  const Slice& as_slice() const;
  const ObjectPtr& as_object() const;
  // Unchecked fast accessors (caller checked the type).
  bool raw_bool() const noexcept { return *std::get_if<1>(&v_); }
  int64_t raw_int() const noexcept { return *std::get_if<2>(&v_); }
  double raw_float() const noexcept { return *std::get_if<3>(&v_); }
  const std::shared_ptr<const std::string>& str_ptr() const { return *std::get_if<4>(&v_); }
  const std::shared_ptr<List>& list_ptr() const { return *std::get_if<5>(&v_); }
  const std::shared_ptr<const Tuple>& tuple_ptr() const { return *std::get_if<6>(&v_); }
  const std::shared_ptr<Dict>& dict_ptr() const { return *std::get_if<7>(&v_); }
  const std::shared_ptr<const Slice>& slice_ptr() const { return *std::get_if<8>(&v_); }
  const ObjectPtr& object_ptr() const { return *std::get_if<10>(&v_); }

  // The native object as T, or nullptr if this is not an object of that class.
  template <typename T>
  std::shared_ptr<T> as() const {
    if (!is_object()) return nullptr;
    return std::dynamic_pointer_cast<T>(object_ptr());
  }

  // Python's type(x).__name__: "int", "list", "NoneType", or the object's type_name().
  std::string type_name() const;
  std::string repr() const;  // Python repr()
  std::string str() const;   // Python str()

  // Identity of the payload (pointer for shared kinds), used by `is`.
  const void* identity() const noexcept;

 private:
  struct NoneT {};
  struct EllipsisT {};
  struct UnboundT {};
  std::variant<NoneT, bool, int64_t, double, std::shared_ptr<const std::string>, std::shared_ptr<List>,
               std::shared_ptr<const Tuple>, std::shared_ptr<Dict>, std::shared_ptr<const Slice>, EllipsisT,
               ObjectPtr, UnboundT>
      v_;
};

// A Python list. Shared and mutable.
struct List {
  std::vector<Value> items;
  List() = default;
  explicit List(std::vector<Value> v) : items(std::move(v)) {}
  ~List();
};

// A Python tuple. Immutable once built.
struct Tuple {
  std::vector<Value> items;
  Tuple() = default;
  explicit Tuple(std::vector<Value> v) : items(std::move(v)) {}
  ~Tuple();
};

// slice(start, stop, step); each part is None or (usually) an int.
struct Slice {
  Value start, stop, step;
};

// A Python dict: insertion ordered; keys must be hashable (None, bool, int, float, str,
// tuples of those, native objects by identity).
class Dict {
 public:
  Dict() = default;
  ~Dict();
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  const Value* find(const Value& key) const;  // nullptr if absent
  bool contains(const Value& key) const { return find(key) != nullptr; }
  void set(const Value& key, Value value);
  bool erase(const Value& key);
  void clear();
  const std::vector<std::pair<Value, Value>>& entries() const { return entries_; }

 private:
  std::ptrdiff_t index_of(const Value& key, size_t hash) const;
  void rebuild_index();
  std::vector<std::pair<Value, Value>> entries_;
  std::vector<size_t> hashes_;
  std::vector<int32_t> table_;  // open addressing: index into entries_, -1 empty
};

// Python hash() for hashable values; raises TypeError "unhashable type: 'list'".
size_t hash_value(const Value& v);
// Python `==` for dict keys and container membership (identity first, then equality).
bool values_equal(const Value& a, const Value& b);

// Resolved slice indices for a sequence of the given length (Python's slice.indices()).
struct SliceIndices {
  int64_t start, stop, step, length;
};
SliceIndices resolve_slice(const Slice& s, int64_t length);

// Materializes any iterable (list, tuple, str, dict keys, range, native iterables).
std::vector<Value> to_vector(const Value& iterable);
// Ints from an int or a sequence of ints (shapes): 3 -> {3}; (2, 3) -> {2, 3}.
std::vector<int64_t> to_int_vector(const Value& v);

namespace detail {
// Long loops that run no statements (sum(range(10**12)), list(big_iterable)) report their
// progress here every 256 items, so the interpreter's step limit and stop requests reach
// them too. Set per thread by the running interpreter.
struct IterationWatch {
  void (*tick)(void* ctx) = nullptr;
  void* ctx = nullptr;
  uint32_t count = 0;
};
extern thread_local IterationWatch t_iteration_watch;
inline void iteration_tick() {
  auto& w = t_iteration_watch;
  if (w.tick && (++w.count & 255u) == 0) w.tick(w.ctx);
}
}  // namespace detail

// Iterates any iterable value one item at a time. Lists are read by index (so appends
// during iteration are seen, as in Python); native objects use Object::iter()/next().
class ValueIterator {
 public:
  explicit ValueIterator(const Value& iterable);  // TypeError "'int' object is not iterable"
  bool next(Value& out);

 private:
  enum class Kind { List, Vector, Str, Range, Object };
  Kind kind_;
  Value holder_;
  std::vector<Value> vec_;
  size_t pos_ = 0;
  int64_t cur_ = 0, stop_ = 0, step_ = 1;
  ObjectPtr obj_;
};

}  // namespace ipt::script
