// Operators, comparisons, membership, subscripts and attribute access with CPython's
// semantics and messages (see ops.h / object.h).
#include "core/script/ops.h"

#include <cmath>
#include <cstring>

#include "core/script/builtins.h"
#include "core/script/format.h"

namespace ipt::script {

namespace {

constexpr size_t kMaxSequence = kMaxContainerSize;

[[noreturn]] void overflow() { raise("OverflowError", "integer overflow (snippets use 64-bit integers)"); }

[[noreturn]] void unsupported(BinaryOp op, const Value& a, const Value& b, bool inplace) {
  std::string sym = binary_op_symbol(op);
  if (inplace) sym = op == BinaryOp::Pow ? "**=" : sym + "=";
  raise("TypeError", "unsupported operand type(s) for " + sym + ": '" + a.type_name() + "' and '" + b.type_name() + "'");
}

int64_t ipow(int64_t base, int64_t exp) {
  int64_t result = 1;
  while (exp > 0) {
    if (exp & 1)
      if (__builtin_mul_overflow(result, base, &result)) overflow();
    exp >>= 1;
    if (exp > 0)
      if (__builtin_mul_overflow(base, base, &base)) overflow();
  }
  return result;
}

std::optional<Value> int_op(BinaryOp op, int64_t a, int64_t b) {
  int64_t r;
  switch (op) {
    case BinaryOp::Add: if (__builtin_add_overflow(a, b, &r)) overflow(); return Value(r);
    case BinaryOp::Sub: if (__builtin_sub_overflow(a, b, &r)) overflow(); return Value(r);
    case BinaryOp::Mul: if (__builtin_mul_overflow(a, b, &r)) overflow(); return Value(r);
    case BinaryOp::Div:
      if (b == 0) raise("ZeroDivisionError", "division by zero");
      return Value(static_cast<double>(a) / static_cast<double>(b));
    case BinaryOp::FloorDiv: {
      if (b == 0) raise("ZeroDivisionError", "integer division or modulo by zero");
      if (a == INT64_MIN && b == -1) overflow();
      int64_t q = a / b;
      if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
      return Value(q);
    }
    case BinaryOp::Mod: {
      if (b == 0) raise("ZeroDivisionError", "integer modulo by zero");
      if (b == -1) return Value(int64_t{0});
      int64_t m = a % b;
      if (m != 0 && ((m < 0) != (b < 0))) m += b;
      return Value(m);
    }
    case BinaryOp::Pow:
      if (b < 0) {
        if (a == 0) raise("ZeroDivisionError", "0.0 cannot be raised to a negative power");
        return Value(std::pow(static_cast<double>(a), static_cast<double>(b)));
      }
      return Value(ipow(a, b));
    case BinaryOp::LShift:
      if (b < 0) raise("ValueError", "negative shift count");
      if (a == 0) return Value(int64_t{0});
      if (b >= 63) overflow();
      r = static_cast<int64_t>(static_cast<uint64_t>(a) << b);
      if ((r >> b) != a) overflow();
      return Value(r);
    case BinaryOp::RShift:
      if (b < 0) raise("ValueError", "negative shift count");
      if (b >= 64) return Value(int64_t{a < 0 ? -1 : 0});
      return Value(a >> b);
    case BinaryOp::BitAnd: return Value(a & b);
    case BinaryOp::BitOr: return Value(a | b);
    case BinaryOp::BitXor: return Value(a ^ b);
    case BinaryOp::MatMul: return std::nullopt;
  }
  return std::nullopt;
}

std::optional<Value> float_op(BinaryOp op, double a, double b) {
  switch (op) {
    case BinaryOp::Add: return Value(a + b);
    case BinaryOp::Sub: return Value(a - b);
    case BinaryOp::Mul: return Value(a * b);
    case BinaryOp::Div:
      if (b == 0) raise("ZeroDivisionError", "float division by zero");
      return Value(a / b);
    case BinaryOp::FloorDiv: {
      if (b == 0) raise("ZeroDivisionError", "float floor division by zero");
      double mod = std::fmod(a, b);
      double div = (a - mod) / b;
      if (mod != 0) {
        if ((b < 0) != (mod < 0)) div -= 1.0;
      }
      double floordiv;
      if (div != 0) {
        floordiv = std::floor(div);
        if (div - floordiv > 0.5) floordiv += 1.0;
      } else {
        floordiv = std::copysign(0.0, a / b);
      }
      return Value(floordiv);
    }
    case BinaryOp::Mod: {
      if (b == 0) raise("ZeroDivisionError", "float modulo");
      double mod = std::fmod(a, b);
      if (mod != 0) {
        if ((b < 0) != (mod < 0)) mod += b;
      } else {
        mod = std::copysign(0.0, b);
      }
      return Value(mod);
    }
    case BinaryOp::Pow: {
      if (a == 0 && b < 0) raise("ZeroDivisionError", "0.0 cannot be raised to a negative power");
      if (a < 0 && std::isfinite(b) && b != std::floor(b))
        raise("ValueError", "negative number cannot be raised to a fractional power (complex results are not supported)");
      double r = std::pow(a, b);
      if (std::isinf(r) && std::isfinite(a) && std::isfinite(b)) raise("OverflowError", "(34, 'Numerical result out of range')");
      return Value(r);
    }
    default: return std::nullopt;
  }
}

std::vector<Value> repeat(const std::vector<Value>& items, int64_t n) {
  std::vector<Value> out;
  if (n <= 0 || items.empty()) return out;
  if (static_cast<uint64_t>(n) > kMaxSequence / items.size()) raise("MemoryError", "sequence too large");
  out.reserve(items.size() * n);
  for (int64_t i = 0; i < n; ++i) out.insert(out.end(), items.begin(), items.end());
  return out;
}

std::optional<int64_t> seq_count(const Value& v) {
  if (v.is_intlike()) return v.as_int();
  if (v.is_object()) return v.object_ptr()->index();
  return std::nullopt;
}

// Builtin (non-object) binary operation; nullopt if not applicable.
std::optional<Value> builtin_binary(BinaryOp op, const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) {
    if (a.is_float() || b.is_float()) return float_op(op, a.as_float(), b.as_float());
    if (a.is_bool() && b.is_bool() && (op == BinaryOp::BitAnd || op == BinaryOp::BitOr || op == BinaryOp::BitXor)) {
      bool x = a.raw_bool(), y = b.raw_bool();
      return Value(op == BinaryOp::BitAnd ? (x && y) : op == BinaryOp::BitOr ? (x || y) : (x != y));
    }
    return int_op(op, a.as_int(), b.as_int());
  }
  using T = Value::Type;
  T ta = a.type(), tb = b.type();
  switch (op) {
    case BinaryOp::Add:
      if (ta == T::Str) {
        if (tb != T::Str) raise("TypeError", "can only concatenate str (not \"" + b.type_name() + "\") to str");
        if (a.str_ptr()->size() + b.str_ptr()->size() > 4 * kMaxSequence) raise("MemoryError", "string too large");
        return Value(*a.str_ptr() + *b.str_ptr());
      }
      if (ta == T::List) {
        if (tb != T::List) raise("TypeError", "can only concatenate list (not \"" + b.type_name() + "\") to list");
        if (a.list_ptr()->items.size() + b.list_ptr()->items.size() > kMaxSequence) raise("MemoryError", "list too large");
        std::vector<Value> v = a.list_ptr()->items;
        const auto& w = b.list_ptr()->items;
        v.insert(v.end(), w.begin(), w.end());
        return Value::list(std::move(v));
      }
      if (ta == T::Tuple) {
        if (tb != T::Tuple) raise("TypeError", "can only concatenate tuple (not \"" + b.type_name() + "\") to tuple");
        if (a.tuple_ptr()->items.size() + b.tuple_ptr()->items.size() > kMaxSequence) raise("MemoryError", "tuple too large");
        std::vector<Value> v = a.tuple_ptr()->items;
        const auto& w = b.tuple_ptr()->items;
        v.insert(v.end(), w.begin(), w.end());
        return Value::tuple(std::move(v));
      }
      return std::nullopt;
    case BinaryOp::Mul: {
      const Value* seq = nullptr;
      const Value* cnt = nullptr;
      if (ta == T::Str || ta == T::List || ta == T::Tuple) { seq = &a; cnt = &b; }
      else if (tb == T::Str || tb == T::List || tb == T::Tuple) { seq = &b; cnt = &a; }
      if (!seq) return std::nullopt;
      auto n = seq_count(*cnt);
      if (!n) {
        if (cnt->is_object()) return std::nullopt;
        raise("TypeError", "can't multiply sequence by non-int of type '" + cnt->type_name() + "'");
      }
      if (seq->is_str()) {
        const std::string& s = *seq->str_ptr();
        if (*n <= 0 || s.empty()) return Value(std::string());
        if (static_cast<uint64_t>(*n) > (kMaxSequence * 4) / s.size()) raise("MemoryError", "string too large");
        std::string out;
        out.reserve(s.size() * *n);
        for (int64_t i = 0; i < *n; ++i) out += s;
        return Value(std::move(out));
      }
      if (seq->is_list()) return Value::list(repeat(seq->list_ptr()->items, *n));
      return Value::tuple(repeat(seq->tuple_ptr()->items, *n));
    }
    case BinaryOp::Mod:
      if (ta == T::Str) return Value(percent_format(*a.str_ptr(), b));
      return std::nullopt;
    case BinaryOp::BitOr:
      if (ta == T::Dict && tb == T::Dict) {
        auto d = std::make_shared<Dict>();
        for (const auto& kv : a.dict_ptr()->entries()) d->set(kv.first, kv.second);
        for (const auto& kv : b.dict_ptr()->entries()) d->set(kv.first, kv.second);
        return Value(d);
      }
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

Value binary_impl(BinaryOp op, const Value& a, const Value& b, bool inplace) {
  if (a.is_object()) {
    if (auto r = a.object_ptr()->binary_op(op, b, false)) return std::move(*r);
  }
  if (b.is_object()) {
    if (auto r = b.object_ptr()->binary_op(op, a, true)) return std::move(*r);
  }
  // builtin types (also "abc" * obj-with-index, "%s" % obj, and str + obj's message)
  if (auto r = builtin_binary(op, a, b)) return std::move(*r);
  unsupported(op, a, b, inplace);
}

bool double_lt(double x, double y) { return x < y; }

int compare_numbers(const Value& a, const Value& b, bool& unordered) {
  unordered = false;
  if (!a.is_float() && !b.is_float()) {
    int64_t x = a.as_int(), y = b.as_int();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  double x = a.as_float(), y = b.as_float();
  if (std::isnan(x) || std::isnan(y)) {
    unordered = true;
    return 0;
  }
  return double_lt(x, y) ? -1 : double_lt(y, x) ? 1 : 0;
}

bool ordering_result(CompareOp op, int c) {
  switch (op) {
    case CompareOp::Eq: return c == 0;
    case CompareOp::Ne: return c != 0;
    case CompareOp::Lt: return c < 0;
    case CompareOp::Le: return c <= 0;
    case CompareOp::Gt: return c > 0;
    case CompareOp::Ge: return c >= 0;
  }
  return false;
}

[[noreturn]] void not_supported(CompareOp op, const Value& a, const Value& b) {
  raise("TypeError", std::string("'") + compare_op_symbol(op) + "' not supported between instances of '" + a.type_name() +
                         "' and '" + b.type_name() + "'");
}

Value compare_sequences(CompareOp op, const std::vector<Value>& x, const std::vector<Value>& y) {
  size_t n = std::min(x.size(), y.size());
  for (size_t i = 0; i < n && i < x.size() && i < y.size(); ++i) {
    if (x[i].identity() && x[i].identity() == y[i].identity()) continue;
    if (!values_equal(x[i], y[i])) {
      if (op == CompareOp::Eq) return Value(false);
      if (op == CompareOp::Ne) return Value(true);
      Value xi = x[i], yi = y[i];
      return compare(op, xi, yi);
    }
  }
  int c = x.size() < y.size() ? -1 : x.size() > y.size() ? 1 : 0;
  return Value(ordering_result(op, c));
}

// Normalizes a sequence index; raises IndexError with the kind's message.
int64_t norm_index(const Value& idx, int64_t len, const char* what) {
  int64_t i = idx.is_intlike() ? idx.as_int() : *idx.object_ptr()->index();
  if (i < 0) i += len;
  if (i < 0 || i >= len) raise("IndexError", std::string(what) + " index out of range");
  return i;
}

bool is_index_value(const Value& v) {
  return v.is_intlike() || (v.is_object() && v.object_ptr()->index().has_value());
}

std::vector<Value> slice_items(const std::vector<Value>& items, const Slice& s) {
  auto r = resolve_slice(s, static_cast<int64_t>(items.size()));
  std::vector<Value> out;
  out.reserve(r.length);
  for (int64_t k = 0, i = r.start; k < r.length; ++k, i += r.step) out.push_back(items[i]);
  return out;
}

Value str_getitem(const std::string& s, const Value& idx) {
  bool ascii = is_ascii(s);
  if (is_index_value(idx)) {
    if (ascii) {
      int64_t i = norm_index(idx, static_cast<int64_t>(s.size()), "string");
      return Value(std::string(1, s[i]));
    }
    auto offs = utf8_offsets(s);
    int64_t i = norm_index(idx, static_cast<int64_t>(offs.size()) - 1, "string");
    return Value(s.substr(offs[i], offs[i + 1] - offs[i]));
  }
  if (idx.is_slice()) {
    std::string out;
    if (ascii) {
      auto r = resolve_slice(*idx.slice_ptr(), static_cast<int64_t>(s.size()));
      if (r.step == 1) return Value(s.substr(r.length > 0 ? r.start : 0, r.length));
      for (int64_t k = 0, i = r.start; k < r.length; ++k, i += r.step) out += s[i];
      return Value(std::move(out));
    }
    auto offs = utf8_offsets(s);
    auto r = resolve_slice(*idx.slice_ptr(), static_cast<int64_t>(offs.size()) - 1);
    for (int64_t k = 0, i = r.start; k < r.length; ++k, i += r.step) out += s.substr(offs[i], offs[i + 1] - offs[i]);
    return Value(std::move(out));
  }
  raise("TypeError", "string indices must be integers, not '" + idx.type_name() + "'");
}

}  // namespace

// ---- public operator API ------------------------------------------------------------------

Value binary_op(BinaryOp op, const Value& a, const Value& b) { return binary_impl(op, a, b, false); }

Value inplace_op(BinaryOp op, const Value& a, const Value& b) {
  if (a.is_object()) {
    if (auto r = a.object_ptr()->inplace_op(op, b)) return std::move(*r);
  } else if (a.is_list() && op == BinaryOp::Add) {
    if (b.is_object() || b.is_list() || b.is_tuple() || b.is_str() || b.is_dict()) {
      std::vector<Value> more = to_vector(b);
      auto& items = a.list_ptr()->items;
      if (items.size() + more.size() > kMaxSequence) raise("MemoryError", "list too large");
      items.insert(items.end(), more.begin(), more.end());
      return a;
    }
    raise("TypeError", "'" + b.type_name() + "' object is not iterable");
  } else if (a.is_list() && op == BinaryOp::Mul && seq_count(b)) {
    auto& items = a.list_ptr()->items;
    items = repeat(items, *seq_count(b));
    return a;
  }
  return binary_impl(op, a, b, true);
}

Value unary_op(UnaryOp op, const Value& a) {
  switch (a.type()) {
    case Value::Type::Bool:
    case Value::Type::Int: {
      int64_t x = a.as_int();
      switch (op) {
        case UnaryOp::Neg:
          if (x == INT64_MIN) overflow();
          return Value(-x);
        case UnaryOp::Pos: return Value(x);
        case UnaryOp::Invert: return Value(~x);
        case UnaryOp::Abs:
          if (x == INT64_MIN) overflow();
          return Value(x < 0 ? -x : x);
      }
      break;
    }
    case Value::Type::Float: {
      double x = a.raw_float();
      switch (op) {
        case UnaryOp::Neg: return Value(-x);
        case UnaryOp::Pos: return Value(x);
        case UnaryOp::Abs: return Value(std::fabs(x));
        case UnaryOp::Invert: break;
      }
      break;
    }
    case Value::Type::Object:
      if (auto r = a.object_ptr()->unary_op(op)) return std::move(*r);
      break;
    default: break;
  }
  if (op == UnaryOp::Abs) raise("TypeError", "bad operand type for abs(): '" + a.type_name() + "'");
  raise("TypeError", std::string("bad operand type for unary ") + unary_op_symbol(op) + ": '" + a.type_name() + "'");
}

Value compare(CompareOp op, const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) {
    bool unordered;
    int c = compare_numbers(a, b, unordered);
    if (unordered) return Value(op == CompareOp::Ne);
    return Value(ordering_result(op, c));
  }
  if (a.is_object() || b.is_object()) {
    if (a.is_object())
      if (auto r = a.object_ptr()->compare(op, b)) return std::move(*r);
    if (b.is_object())
      if (auto r = b.object_ptr()->compare(swapped(op), a)) return std::move(*r);
    if (op == CompareOp::Eq) return Value(is_identical(a, b));
    if (op == CompareOp::Ne) return Value(!is_identical(a, b));
    not_supported(op, a, b);
  }
  using T = Value::Type;
  T ta = a.type(), tb = b.type();
  if (ta == tb) {
    switch (ta) {
      case T::Str: {
        int c = a.str_ptr()->compare(*b.str_ptr());
        return Value(ordering_result(op, c < 0 ? -1 : c > 0 ? 1 : 0));
      }
      case T::List: return compare_sequences(op, a.list_ptr()->items, b.list_ptr()->items);
      case T::Tuple: return compare_sequences(op, a.tuple_ptr()->items, b.tuple_ptr()->items);
      default: break;
    }
  }
  if (op == CompareOp::Eq) return Value(values_equal(a, b));
  if (op == CompareOp::Ne) return Value(!values_equal(a, b));
  not_supported(op, a, b);
}

bool is_identical(const Value& a, const Value& b) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case Value::Type::None: case Value::Type::Ellipsis: case Value::Type::Unbound: return true;
    case Value::Type::Bool: return a.raw_bool() == b.raw_bool();
    case Value::Type::Int: return a.raw_int() == b.raw_int();
    case Value::Type::Float: {
      double x = a.raw_float(), y = b.raw_float();
      return std::memcmp(&x, &y, sizeof x) == 0;
    }
    case Value::Type::Str: return a.str_ptr() == b.str_ptr() || *a.str_ptr() == *b.str_ptr();
    default: return a.identity() == b.identity();
  }
}

bool truthy(const Value& v) {
  switch (v.type()) {
    case Value::Type::None: return false;
    case Value::Type::Bool: return v.raw_bool();
    case Value::Type::Int: return v.raw_int() != 0;
    case Value::Type::Float: return v.raw_float() != 0;
    case Value::Type::Str: return !v.str_ptr()->empty();
    case Value::Type::List: return !v.list_ptr()->items.empty();
    case Value::Type::Tuple: return !v.tuple_ptr()->items.empty();
    case Value::Type::Dict: return !v.dict_ptr()->empty();
    case Value::Type::Object: return v.object_ptr()->truthy();
    default: return true;
  }
}

int64_t length(const Value& v) {
  switch (v.type()) {
    case Value::Type::Str: return utf8_length(*v.str_ptr());
    case Value::Type::List: return static_cast<int64_t>(v.list_ptr()->items.size());
    case Value::Type::Tuple: return static_cast<int64_t>(v.tuple_ptr()->items.size());
    case Value::Type::Dict: return static_cast<int64_t>(v.dict_ptr()->size());
    case Value::Type::Object:
      if (auto n = v.object_ptr()->len()) return *n;
      break;
    default: break;
  }
  raise("TypeError", "object of type '" + v.type_name() + "' has no len()");
}

bool contains(const Value& container, const Value& item) {
  switch (container.type()) {
    case Value::Type::Str:
      if (!item.is_str())
        raise("TypeError", "'in <string>' requires string as left operand, not " + item.type_name());
      return container.str_ptr()->find(*item.str_ptr()) != std::string::npos;
    case Value::Type::List: {
      const auto& items = container.list_ptr()->items;
      for (size_t i = 0; i < items.size(); ++i) {
        Value x = items[i];
        if (is_identical(x, item) || values_equal(x, item)) return true;
      }
      return false;
    }
    case Value::Type::Tuple:
      for (const auto& x : container.tuple_ptr()->items)
        if (is_identical(x, item) || values_equal(x, item)) return true;
      return false;
    case Value::Type::Dict: return container.dict_ptr()->contains(item);
    case Value::Type::Object: {
      if (auto r = container.object_ptr()->contains(item)) return *r;
      ValueIterator it(container);
      Value x;
      while (it.next(x))
        if (is_identical(x, item) || values_equal(x, item)) return true;
      return false;
    }
    default:
      raise("TypeError", "argument of type '" + container.type_name() + "' is not iterable");
  }
}

Value call(const Value& callable, Args args, Kwargs kwargs) {
  if (!callable.is_object()) raise("TypeError", "'" + callable.type_name() + "' object is not callable");
  return callable.object_ptr()->call(std::move(args), std::move(kwargs));
}

int64_t to_index(const Value& v) {
  if (v.is_intlike()) return v.as_int();
  if (v.is_object())
    if (auto i = v.object_ptr()->index()) return *i;
  raise("TypeError", "'" + v.type_name() + "' object cannot be interpreted as an integer");
}

// ---- attributes -------------------------------------------------------------------------------

Value get_attr(const Value& obj, const std::string& name) {
  if (obj.is_object()) return obj.object_ptr()->getattr(name);
  if (has_builtin_method(obj, name)) return Value(std::make_shared<BoundBuiltinMethod>(obj, name));
  if (obj.is_float() && (name == "real")) return obj;
  if (obj.is_float() && (name == "imag")) return Value(0.0);
  if (obj.is_intlike() && (name == "real" || name == "numerator")) return Value(obj.as_int());
  if (obj.is_intlike() && name == "imag") return Value(int64_t{0});
  if (obj.is_intlike() && name == "denominator") return Value(int64_t{1});
  if (obj.is_slice()) {
    const Slice& s = *obj.slice_ptr();
    if (name == "start") return s.start;
    if (name == "stop") return s.stop;
    if (name == "step") return s.step;
  }
  raise("AttributeError", "'" + obj.type_name() + "' object has no attribute '" + name + "'");
}

void set_attr(const Value& obj, const std::string& name, const Value& value) {
  if (obj.is_object()) {
    obj.object_ptr()->setattr(name, value);
    return;
  }
  if (has_builtin_method(obj, name))
    raise("AttributeError", "'" + obj.type_name() + "' object attribute '" + name + "' is read-only");
  raise("AttributeError", "'" + obj.type_name() + "' object has no attribute '" + name + "'");
}

// ---- subscripts -------------------------------------------------------------------------------

Value get_item(const Value& obj, const Value& idx) {
  switch (obj.type()) {
    case Value::Type::List:
    case Value::Type::Tuple: {
      bool is_list = obj.is_list();
      const auto& items = is_list ? obj.list_ptr()->items : obj.tuple_ptr()->items;
      const char* what = is_list ? "list" : "tuple";
      if (is_index_value(idx)) return items[norm_index(idx, static_cast<int64_t>(items.size()), what)];
      if (idx.is_slice()) {
        auto v = slice_items(items, *idx.slice_ptr());
        return is_list ? Value::list(std::move(v)) : Value::tuple(std::move(v));
      }
      raise("TypeError", std::string(what) + " indices must be integers or slices, not " + idx.type_name());
    }
    case Value::Type::Str: return str_getitem(*obj.str_ptr(), idx);
    case Value::Type::Dict: {
      const Value* v = obj.dict_ptr()->find(idx);
      if (!v) raise("KeyError", std::vector<Value>{idx});
      return *v;
    }
    case Value::Type::Object: return obj.object_ptr()->getitem(idx);
    default:
      raise("TypeError", "'" + obj.type_name() + "' object is not subscriptable");
  }
}

void set_item(const Value& obj, const Value& idx, const Value& value) {
  switch (obj.type()) {
    case Value::Type::List: {
      auto& items = obj.list_ptr()->items;
      if (is_index_value(idx)) {
        items[norm_index(idx, static_cast<int64_t>(items.size()), "list assignment")] = value;
        return;
      }
      if (idx.is_slice()) {
        std::vector<Value> src;
        if (value.is_list() || value.is_tuple() || value.is_str() || value.is_dict() || value.is_object())
          src = to_vector(value);
        else
          raise("TypeError", "can only assign an iterable");
        auto r = resolve_slice(*idx.slice_ptr(), static_cast<int64_t>(items.size()));
        if (r.step == 1) {
          int64_t start = r.start, stop = std::max(r.start, r.stop);
          if (items.size() - (stop - start) + src.size() > kMaxSequence) raise("MemoryError", "list too large");
          items.erase(items.begin() + start, items.begin() + stop);
          items.insert(items.begin() + start, src.begin(), src.end());
          return;
        }
        if (static_cast<int64_t>(src.size()) != r.length)
          raise("ValueError", "attempt to assign sequence of size " + std::to_string(src.size()) +
                                  " to extended slice of size " + std::to_string(r.length));
        for (int64_t k = 0, i = r.start; k < r.length; ++k, i += r.step) items[i] = src[k];
        return;
      }
      raise("TypeError", "list indices must be integers or slices, not " + idx.type_name());
    }
    case Value::Type::Dict: obj.dict_ptr()->set(idx, value); return;
    case Value::Type::Object: obj.object_ptr()->setitem(idx, value); return;
    default:
      raise("TypeError", "'" + obj.type_name() + "' object does not support item assignment");
  }
}

void del_item(const Value& obj, const Value& idx) {
  switch (obj.type()) {
    case Value::Type::List: {
      auto& items = obj.list_ptr()->items;
      if (is_index_value(idx)) {
        items.erase(items.begin() + norm_index(idx, static_cast<int64_t>(items.size()), "list assignment"));
        return;
      }
      if (idx.is_slice()) {
        auto r = resolve_slice(*idx.slice_ptr(), static_cast<int64_t>(items.size()));
        std::vector<bool> drop(items.size(), false);
        for (int64_t k = 0, i = r.start; k < r.length; ++k, i += r.step) drop[i] = true;
        std::vector<Value> keep;
        for (size_t i = 0; i < items.size(); ++i)
          if (!drop[i]) keep.push_back(items[i]);
        items = std::move(keep);
        return;
      }
      raise("TypeError", "list indices must be integers or slices, not " + idx.type_name());
    }
    case Value::Type::Dict:
      if (!obj.dict_ptr()->erase(idx)) raise("KeyError", std::vector<Value>{idx});
      return;
    case Value::Type::Object: obj.object_ptr()->delitem(idx); return;
    default:
      if (obj.is_tuple() || obj.is_str())
        raise("TypeError", "'" + obj.type_name() + "' object doesn't support item deletion");
      raise("TypeError", "'" + obj.type_name() + "' object does not support item deletion");
  }
}

}  // namespace ipt::script
