// Builtin functions, builtin types, the exception hierarchy and the small `math` module.
#include "core/script/builtins.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "core/script/format.h"
#include "core/script/ops.h"
#include "core/script/runtime.h"

namespace ipt::script {

// ---- range ------------------------------------------------------------------------------------

RangeObject::RangeObject(int64_t start, int64_t stop, int64_t step) : start_(start), stop_(stop), step_(step) {
  if (step == 0) raise("ValueError", "range() arg 3 must not be zero");
  __int128 n = 0;
  if (step > 0 && start < stop) n = ((__int128)stop - start - 1) / step + 1;
  if (step < 0 && start > stop) n = ((__int128)start - stop - 1) / (-(__int128)step) + 1;
  if (n > INT64_MAX) raise("OverflowError", "range too large");
  len_ = static_cast<int64_t>(n);
}

std::string RangeObject::repr() const {
  std::string r = "range(" + int_str(start_) + ", " + int_str(stop_);
  if (step_ != 1) r += ", " + int_str(step_);
  return r + ")";
}

Value RangeObject::getattr(const std::string& name) {
  if (name == "start") return Value(start_);
  if (name == "stop") return Value(stop_);
  if (name == "step") return Value(step_);
  return Object::getattr(name);
}

Value RangeObject::getitem(const Value& index) {
  if (index.is_slice()) {
    auto r = resolve_slice(index.as_slice(), len_);
    int64_t s = start_ + r.start * step_;
    int64_t st = r.step * step_;
    int64_t e = s + r.length * st;
    return Value(std::make_shared<RangeObject>(s, e, st));
  }
  if (!index.is_intlike() && !(index.is_object() && index.object_ptr()->index()))
    raise("TypeError", "range indices must be integers or slices, not " + index.type_name());
  int64_t i = to_index(index);
  if (i < 0) i += len_;
  if (i < 0 || i >= len_) raise("IndexError", "range object index out of range");
  return Value(start_ + i * step_);
}

std::optional<bool> RangeObject::contains(const Value& item) {
  if (!item.is_intlike()) {
    if (item.is_float()) {
      double d = item.raw_float();
      if (d != std::floor(d)) return false;
      return contains(Value(static_cast<int64_t>(d)));
    }
    return false;
  }
  int64_t v = item.as_int();
  if (step_ > 0 ? (v < start_ || v >= stop_) : (v > start_ || v <= stop_)) return false;
  return ((__int128)v - start_) % step_ == 0;
}

Value RangeObject::iter() {
  auto self = std::static_pointer_cast<RangeObject>(shared_from_this());
  auto cur = std::make_shared<int64_t>(0);
  return Value(std::make_shared<NativeIterator>("range_iterator", [self, cur]() -> std::optional<Value> {
    if (*cur >= self->len_) return std::nullopt;
    return Value(self->start_ + (*cur)++ * self->step_);
  }));
}

std::optional<Value> RangeObject::compare(CompareOp op, const Value& other) {
  auto o = other.as<RangeObject>();
  if (!o || (op != CompareOp::Eq && op != CompareOp::Ne)) return std::nullopt;
  bool eq = len_ == o->len_ && (len_ == 0 || (start_ == o->start_ && (len_ == 1 || step_ == o->step_)));
  return Value(op == CompareOp::Eq ? eq : !eq);
}

// ---- iterators and views ------------------------------------------------------------------------

std::optional<Value> NativeIterator::next() {
  if (done_) return std::nullopt;
  auto v = next_();
  if (!v) done_ = true;
  return v;
}

std::string DictView::type_name() const {
  switch (kind_) {
    case Kind::Keys: return "dict_keys";
    case Kind::Values: return "dict_values";
    case Kind::Items: return "dict_items";
  }
  return "dict_keys";
}

Value DictView::iter() {
  std::vector<Value> out;
  for (const auto& kv : dict_->entries()) {
    switch (kind_) {
      case Kind::Keys: out.push_back(kv.first); break;
      case Kind::Values: out.push_back(kv.second); break;
      case Kind::Items: out.push_back(Value::tuple({kv.first, kv.second})); break;
    }
  }
  return Value::list(std::move(out));
}

std::string DictView::repr() const {
  return type_name() + "(" + const_cast<DictView*>(this)->iter().repr() + ")";
}

std::optional<bool> DictView::contains(const Value& item) {
  if (kind_ == Kind::Keys) return dict_->contains(item);
  return ipt::script::contains(iter(), item);
}

// ---- sorting ---------------------------------------------------------------------------------------

void sort_values(std::vector<Value>& items, const Value& key, bool reverse) {
  std::vector<Value> keys;
  if (key.is_none()) {
    keys = items;
  } else {
    keys.reserve(items.size());
    for (const auto& v : items) keys.push_back(call(key, {v}));
  }
  std::vector<size_t> idx(items.size());
  std::iota(idx.begin(), idx.end(), 0);
  auto less = [&](size_t a, size_t b) {
    const Value& x = keys[a];
    const Value& y = keys[b];
    if (x.is_int() && y.is_int()) return reverse ? y.raw_int() < x.raw_int() : x.raw_int() < y.raw_int();
    return truthy(reverse ? compare(CompareOp::Lt, y, x) : compare(CompareOp::Lt, x, y));
  };
  std::stable_sort(idx.begin(), idx.end(), less);
  std::vector<Value> out;
  out.reserve(items.size());
  for (size_t i : idx) out.push_back(items[i]);
  items = std::move(out);
}

// ---- helpers -----------------------------------------------------------------------------------------

namespace {

std::string strip_ws(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

Value parse_int(const std::string& text, int64_t base) {
  auto fail = [&]() -> Value {
    raise("ValueError", "invalid literal for int() with base " + std::to_string(base) + ": " + str_repr(text));
  };
  if (base != 0 && (base < 2 || base > 36)) raise("ValueError", "int() base must be >= 2 and <= 36, or 0");
  std::string s = strip_ws(text);
  bool neg = false;
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  int b = static_cast<int>(base);
  auto has_prefix = [&](char p) {
    return i + 1 < s.size() && s[i] == '0' && std::tolower(static_cast<unsigned char>(s[i + 1])) == p;
  };
  if (b == 0) {
    if (has_prefix('x')) { b = 16; i += 2; }
    else if (has_prefix('o')) { b = 8; i += 2; }
    else if (has_prefix('b')) { b = 2; i += 2; }
    else {
      b = 10;
      if (i + 1 < s.size() && s[i] == '0' && s.find_first_not_of("0_", i) != std::string::npos) fail();
    }
  } else if ((b == 16 && has_prefix('x')) || (b == 8 && has_prefix('o')) || (b == 2 && has_prefix('b'))) {
    i += 2;
  }
  std::string digits;
  bool last_us = true;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c == '_') {
      if (last_us) fail();
      last_us = true;
      continue;
    }
    int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
            : std::isalpha(static_cast<unsigned char>(c)) ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                                                           : 99;
    if (d >= b) fail();
    digits += c;
    last_us = false;
  }
  if (digits.empty() || last_us) fail();
  uint64_t v = 0;
  auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v, b);
  if (r.ec != std::errc() || v > static_cast<uint64_t>(INT64_MAX) + (neg ? 1 : 0))
    raise("OverflowError", "int too large (snippets use 64-bit integers)");
  return Value(neg ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v));
}

double parse_float(const std::string& text) {
  std::string s = strip_ws(text);
  std::string low;
  for (char c : s) low += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string body = low;
  bool neg = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    neg = body[0] == '-';
    body = body.substr(1);
  }
  if (body == "inf" || body == "infinity") return neg ? -INFINITY : INFINITY;
  if (body == "nan") return NAN;
  std::string clean;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '_') {
      if (i == 0 || i + 1 >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i - 1])) ||
          !std::isdigit(static_cast<unsigned char>(s[i + 1])))
        raise("ValueError", "could not convert string to float: " + str_repr(text));
      continue;
    }
    clean += s[i];
  }
  const char* b = clean.data();
  const char* e = b + clean.size();
  if (b < e && *b == '+') ++b;
  double d = 0;
  auto r = std::from_chars(b, e, d);
  if (clean.empty() || r.ptr != e || (r.ec != std::errc() && r.ec != std::errc::result_out_of_range))
    raise("ValueError", "could not convert string to float: " + str_repr(text));
  if (r.ec == std::errc::result_out_of_range) d = std::strtod(clean.c_str(), nullptr);
  return d;
}

int64_t float_to_int(double d) {
  if (std::isnan(d)) raise("ValueError", "cannot convert float NaN to integer");
  if (std::isinf(d)) raise("OverflowError", "cannot convert float infinity to integer");
  double t = std::trunc(d);
  if (t >= 9223372036854775808.0 || t < -9223372036854775808.0)
    raise("OverflowError", "int too large (snippets use 64-bit integers)");
  return static_cast<int64_t>(t);
}

double to_number(const Value& v, const char* fn = nullptr) {
  if (v.is_number()) return v.as_float();
  if (v.is_object())
    if (auto d = v.object_ptr()->to_float()) return *d;
  raise("TypeError", "must be real number, not " + v.type_name());
}

Value int_ctor(CallArgs& a) {
  a.bind({Param("x", Value::unbound()), Param("base", Value())});
  const Value& x = a["x"];
  if (x.is_unbound()) {
    if (a.provided("base")) raise("TypeError", "int() missing string argument");
    return Value(int64_t{0});
  }
  if (!a["base"].is_none()) {
    if (!x.is_str()) raise("TypeError", "int() can't convert non-string with explicit base");
    return parse_int(x.as_str(), a.get_int("base"));
  }
  switch (x.type()) {
    case Value::Type::Int: return x;
    case Value::Type::Bool: return Value(x.as_int());
    case Value::Type::Float: return Value(float_to_int(x.raw_float()));
    case Value::Type::Str: return parse_int(x.as_str(), 10);
    case Value::Type::Object: {
      if (auto i = x.object_ptr()->to_int()) return Value(*i);
      if (auto i = x.object_ptr()->index()) return Value(*i);
      break;
    }
    default: break;
  }
  raise("TypeError", "int() argument must be a string, a bytes-like object or a real number, not '" + x.type_name() + "'");
}

Value float_ctor(CallArgs& a) {
  a.expect_positional(0, 1);
  if (a.size() == 0) return Value(0.0);
  const Value& x = a[0];
  if (x.is_number()) return Value(x.as_float());
  if (x.is_str()) return Value(parse_float(x.as_str()));
  if (x.is_object()) {
    if (auto d = x.object_ptr()->to_float()) return Value(*d);
    if (auto i = x.object_ptr()->index()) return Value(static_cast<double>(*i));
  }
  raise("TypeError", "float() argument must be a string or a real number, not '" + x.type_name() + "'");
}

Value round_impl(CallArgs& a) {
  a.bind({"number", Param("ndigits", Value())});
  const Value& x = a["number"];
  const Value& nd = a["ndigits"];
  if (x.is_intlike()) {
    int64_t v = x.as_int();
    if (nd.is_none()) return Value(v);
    int64_t n = to_index(nd);
    if (n >= 0) return Value(v);
    if (n < -18) return Value(int64_t{0});
    int64_t p = 1;
    for (int64_t i = 0; i < -n; ++i) p *= 10;
    int64_t r = ((v % p) + p) % p;
    int64_t base = v - r;
    int64_t half = p / 2;
    if (r > half || (r == half && ((base / p) % 2 != 0))) base += p;
    return Value(base);
  }
  if (x.is_float()) {
    double d = x.raw_float();
    if (nd.is_none()) {
      if (std::isnan(d)) raise("ValueError", "cannot convert float NaN to integer");
      if (std::isinf(d)) raise("OverflowError", "cannot convert float infinity to integer");
      return Value(float_to_int(std::nearbyint(d)));
    }
    int64_t n = to_index(nd);
    if (!std::isfinite(d) || d == 0) return Value(d);
    if (n > 323) return Value(d);
    if (n >= 0) {
      std::vector<char> buf(static_cast<size_t>(n) + 400);
      std::snprintf(buf.data(), buf.size(), "%.*f", static_cast<int>(n), d);
      return Value(std::strtod(buf.data(), nullptr));
    }
    if (n < -308) return Value(std::copysign(0.0, d));
    double p = std::pow(10.0, static_cast<double>(-n));
    double y = std::nearbyint(d / p) * p;
    if (std::isinf(y)) raise("OverflowError", "rounded value too large to represent");
    return Value(y);
  }
  if (x.is_object()) {
    Args args;
    Kwargs kw;
    if (!nd.is_none()) args.push_back(nd);
    if (auto r = x.object_ptr()->call_method("__round__", args, kw)) return *r;
  }
  raise("TypeError", "type " + x.type_name() + " doesn't define __round__ method");
}

// min()/max()
Value minmax(CallArgs& a, bool is_max) {
  const char* name = is_max ? "max" : "min";
  Value key, dflt = Value::unbound();
  for (const auto& kv : a.keywords()) {
    if (kv.first == "key") key = kv.second;
    else if (kv.first == "default") dflt = kv.second;
    else raise("TypeError", std::string(name) + "() got an unexpected keyword argument '" + kv.first + "'");
  }
  std::vector<Value> items;
  if (a.size() == 0) raise("TypeError", std::string(name) + " expected at least 1 argument, got 0");
  if (a.size() == 1) {
    items = to_vector(a[0]);
  } else {
    if (!dflt.is_unbound())
      raise("TypeError", std::string("Cannot specify a default for ") + name + "() with multiple positional arguments");
    items = a.positional();
  }
  if (items.empty()) {
    if (!dflt.is_unbound()) return dflt;
    raise("ValueError", std::string(name) + "() arg is an empty sequence");
  }
  Value best = items[0];
  Value best_key = key.is_none() ? best : call(key, {best});
  for (size_t i = 1; i < items.size(); ++i) {
    Value k = key.is_none() ? items[i] : call(key, {items[i]});
    bool better = truthy(compare(is_max ? CompareOp::Gt : CompareOp::Lt, k, best_key));
    if (better) {
      best = items[i];
      best_key = k;
    }
  }
  return best;
}

Value sum_impl(CallArgs& a) {
  a.bind({"iterable", Param("start", int64_t{0})});
  Value acc = a["start"];
  if (acc.is_str()) raise("TypeError", "sum() can't sum strings [use ''.join(seq) instead]");
  ValueIterator it(a["iterable"]);
  Value v;
  while (it.next(v)) {
    if (acc.is_int() && v.is_int()) {
      int64_t r;
      if (!__builtin_add_overflow(acc.raw_int(), v.raw_int(), &r)) {
        acc = Value(r);
        continue;
      }
    } else if (acc.is_float() && v.is_float()) {
      acc = Value(acc.raw_float() + v.raw_float());
      continue;
    }
    acc = binary_op(BinaryOp::Add, acc, v);
  }
  return acc;
}

bool isinstance_impl(Runtime& rt, const Value& obj, const Value& cls) {
  if (cls.is_tuple()) {
    for (const auto& c : cls.as_tuple())
      if (isinstance_impl(rt, obj, c)) return true;
    return false;
  }
  if (cls.is_object()) {
    if (auto t = cls.as<TypeObject>()) return obj.type_name() == t->name();
    if (auto r = cls.object_ptr()->instancecheck(obj)) return *r;
  }
  raise("TypeError", "isinstance() arg 2 must be a type, a tuple of types, or a union");
}

std::string int_base_str(int64_t v, int base, const char* prefix) {
  bool neg = v < 0;
  uint64_t m = neg ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  std::string digits;
  if (m == 0) digits = "0";
  while (m) {
    int d = static_cast<int>(m % base);
    digits.insert(digits.begin(), static_cast<char>(d < 10 ? '0' + d : 'a' + d - 10));
    m /= base;
  }
  return (neg ? "-" : "") + std::string(prefix) + digits;
}

Value make_iter(std::string name, std::function<std::optional<Value>()> fn) {
  return Value(std::make_shared<NativeIterator>(std::move(name), std::move(fn)));
}

std::shared_ptr<Module> make_math_module() {
  auto m = std::make_shared<Module>("math");
  m->set("pi", Value(M_PI)).set("e", Value(M_E)).set("tau", Value(2 * M_PI)).set("inf", Value(INFINITY)).set("nan", Value(NAN));
  auto unary = [&](const char* name, double (*f)(double), bool domain_check) {
    std::string n = name;
    m->def(name, [f, n, domain_check](CallArgs& a) -> Value {
      a.expect_positional(1, 1);
      double x = to_number(a[0]);
      double r = f(x);
      if (domain_check && std::isnan(r) && !std::isnan(x)) raise("ValueError", "math domain error");
      if (std::isinf(r) && std::isfinite(x)) {
        if (n == "exp" || n == "cosh" || n == "sinh" || n == "expm1") raise("OverflowError", "math range error");
        raise("ValueError", "math domain error");
      }
      return Value(r);
    });
  };
  unary("sqrt", [](double x) { return std::sqrt(x); }, true);
  unary("exp", [](double x) { return std::exp(x); }, false);
  unary("expm1", [](double x) { return std::expm1(x); }, false);
  unary("log2", [](double x) { return std::log2(x); }, true);
  unary("log10", [](double x) { return std::log10(x); }, true);
  unary("log1p", [](double x) { return std::log1p(x); }, true);
  unary("sin", [](double x) { return std::sin(x); }, true);
  unary("cos", [](double x) { return std::cos(x); }, true);
  unary("tan", [](double x) { return std::tan(x); }, true);
  unary("asin", [](double x) { return std::asin(x); }, true);
  unary("acos", [](double x) { return std::acos(x); }, true);
  unary("atan", [](double x) { return std::atan(x); }, true);
  unary("sinh", [](double x) { return std::sinh(x); }, false);
  unary("cosh", [](double x) { return std::cosh(x); }, false);
  unary("tanh", [](double x) { return std::tanh(x); }, false);
  unary("erf", [](double x) { return std::erf(x); }, false);
  unary("erfc", [](double x) { return std::erfc(x); }, false);
  unary("fabs", [](double x) { return std::fabs(x); }, false);
  unary("degrees", [](double x) { return x * 180.0 / M_PI; }, false);
  unary("radians", [](double x) { return x * M_PI / 180.0; }, false);
  unary("gamma", [](double x) { return std::tgamma(x); }, true);
  unary("lgamma", [](double x) { return std::lgamma(x); }, true);
  m->def("log", [](CallArgs& a) -> Value {
    a.expect_positional(1, 2);
    double x = a[0].is_intlike() ? static_cast<double>(a[0].as_int()) : to_number(a[0]);
    if (x <= 0) raise("ValueError", "math domain error");
    double r = std::log(x);
    if (a.size() > 1) {
      double b = to_number(a[1]);
      if (b <= 0) raise("ValueError", "math domain error");
      double lb = std::log(b);
      if (lb == 0) raise("ZeroDivisionError", "float division by zero");
      r /= lb;
    }
    return Value(r);
  });
  m->def("pow", [](CallArgs& a) -> Value {
    a.expect_positional(2, 2);
    double x = to_number(a[0]), y = to_number(a[1]);
    if (x == 0 && y < 0) raise("ValueError", "math domain error");
    double r = std::pow(x, y);
    if (std::isnan(r) && !std::isnan(x) && !std::isnan(y)) raise("ValueError", "math domain error");
    if (std::isinf(r) && std::isfinite(x) && std::isfinite(y)) raise("OverflowError", "math range error");
    return Value(r);
  });
  m->def("atan2", [](CallArgs& a) -> Value {
    a.expect_positional(2, 2);
    return Value(std::atan2(to_number(a[0]), to_number(a[1])));
  });
  m->def("hypot", [](CallArgs& a) -> Value {
    double s = 0;
    for (const auto& v : a.positional()) s = std::hypot(s, to_number(v));
    return Value(s);
  });
  m->def("copysign", [](CallArgs& a) -> Value {
    a.expect_positional(2, 2);
    return Value(std::copysign(to_number(a[0]), to_number(a[1])));
  });
  auto rounding = [&](const char* name, double (*f)(double)) {
    m->def(name, [f](CallArgs& a) -> Value {
      a.expect_positional(1, 1);
      if (a[0].is_intlike()) return Value(a[0].as_int());
      return Value(float_to_int(f(to_number(a[0]))));
    });
  };
  rounding("floor", [](double x) { return std::floor(x); });
  rounding("ceil", [](double x) { return std::ceil(x); });
  rounding("trunc", [](double x) { return std::trunc(x); });
  m->def("isnan", [](CallArgs& a) -> Value { a.expect_positional(1, 1); return Value(std::isnan(to_number(a[0]))); });
  m->def("isinf", [](CallArgs& a) -> Value { a.expect_positional(1, 1); return Value(std::isinf(to_number(a[0]))); });
  m->def("isfinite", [](CallArgs& a) -> Value { a.expect_positional(1, 1); return Value(std::isfinite(to_number(a[0]))); });
  m->def("isclose", [](CallArgs& a) -> Value {
    a.bind({"a", "b", "*", Param("rel_tol", 1e-9), Param("abs_tol", 0.0)});
    double x = to_number(a["a"]), y = to_number(a["b"]);
    double rt = a.get_float("rel_tol"), at = a.get_float("abs_tol");
    if (rt < 0 || at < 0) raise("ValueError", "tolerances must be non-negative");
    if (x == y) return Value(true);
    if (std::isinf(x) || std::isinf(y)) return Value(false);
    double diff = std::fabs(x - y);
    return Value(diff <= std::fabs(rt * y) || diff <= std::fabs(rt * x) || diff <= at);
  });
  m->def("factorial", [](CallArgs& a) -> Value {
    a.expect_positional(1, 1);
    if (!a[0].is_intlike()) raise("TypeError", "'" + a[0].type_name() + "' object cannot be interpreted as an integer");
    int64_t n = a[0].as_int();
    if (n < 0) raise("ValueError", "factorial() not defined for negative values");
    int64_t r = 1;
    for (int64_t i = 2; i <= n; ++i)
      if (__builtin_mul_overflow(r, i, &r)) raise("OverflowError", "integer overflow (snippets use 64-bit integers)");
    return Value(r);
  });
  m->def("gcd", [](CallArgs& a) -> Value {
    int64_t g = 0;
    for (const auto& v : a.positional()) g = std::gcd(g, to_index(v));
    return Value(g < 0 ? -g : g);
  });
  m->def("prod", [](CallArgs& a) -> Value {
    a.bind({"iterable", "*", Param("start", int64_t{1})});
    Value acc = a["start"];
    ValueIterator it(a["iterable"]);
    Value v;
    while (it.next(v)) acc = binary_op(BinaryOp::Mul, acc, v);
    return acc;
  });
  m->def("fsum", [](CallArgs& a) -> Value {
    a.expect_positional(1, 1);
    // Neumaier compensated sum (close to Python's exact fsum for ordinary inputs)
    double s = 0, c = 0;
    ValueIterator it(a[0]);
    Value v;
    while (it.next(v)) {
      double x = to_number(v);
      double t = s + x;
      if (std::fabs(s) >= std::fabs(x)) c += (s - t) + x;
      else c += (x - t) + s;
      s = t;
    }
    return Value(s + c);
  });
  return m;
}

}  // namespace

// ---- installation ------------------------------------------------------------------------------------

void install_builtins(Runtime& rt) {
  Runtime* R = &rt;
  auto fn = [&](const std::string& name, NativeFn f) { rt.set_builtin(name, Value(make_native_function(name, std::move(f)))); };
  auto type = [&](const std::string& name, NativeFn ctor, std::function<bool(const Value&)> check) {
    Value t(std::make_shared<BuiltinType>(name, std::move(ctor), std::move(check)));
    rt.type_objects[name] = t;
    rt.set_builtin(name, t);
  };

  // exception hierarchy (CPython's, abridged)
  const std::pair<const char*, const char*> hierarchy[] = {
      {"BaseException", ""},
      {"KeyboardInterrupt", "BaseException"},
      {"SystemExit", "BaseException"},
      {"Exception", "BaseException"},
      {"ArithmeticError", "Exception"},
      {"ZeroDivisionError", "ArithmeticError"},
      {"OverflowError", "ArithmeticError"},
      {"FloatingPointError", "ArithmeticError"},
      {"AssertionError", "Exception"},
      {"AttributeError", "Exception"},
      {"ImportError", "Exception"},
      {"ModuleNotFoundError", "ImportError"},
      {"LookupError", "Exception"},
      {"IndexError", "LookupError"},
      {"KeyError", "LookupError"},
      {"MemoryError", "Exception"},
      {"NameError", "Exception"},
      {"UnboundLocalError", "NameError"},
      {"RuntimeError", "Exception"},
      {"NotImplementedError", "RuntimeError"},
      {"RecursionError", "RuntimeError"},
      {"StopIteration", "Exception"},
      {"SyntaxError", "Exception"},
      {"IndentationError", "SyntaxError"},
      {"TypeError", "Exception"},
      {"ValueError", "Exception"},
      {"OSError", "Exception"},
      {"TimeoutError", "OSError"},
      {"Warning", "Exception"},
      {"UserWarning", "Warning"},
      {"DeprecationWarning", "Warning"},
  };
  for (const auto& [name, parent] : hierarchy) rt.register_exception(name, parent);

  // ---- types ----
  type("int", int_ctor, [](const Value& v) { return v.is_intlike(); });
  type("float", float_ctor, [](const Value& v) { return v.is_float(); });
  type("bool", [](CallArgs& a) -> Value {
    a.expect_positional(0, 1);
    return Value(a.size() ? truthy(a[0]) : false);
  }, [](const Value& v) { return v.is_bool(); });
  type("str", [](CallArgs& a) -> Value {
    a.expect_positional(0, 1);
    return Value(a.size() ? a[0].str() : std::string());
  }, [](const Value& v) { return v.is_str(); });
  type("list", [](CallArgs& a) -> Value {
    a.expect_positional(0, 1);
    return Value::list(a.size() ? to_vector(a[0]) : std::vector<Value>{});
  }, [](const Value& v) { return v.is_list(); });
  type("tuple", [](CallArgs& a) -> Value {
    a.expect_positional(0, 1);
    if (a.size() && a[0].is_tuple()) return a[0];
    return Value::tuple(a.size() ? to_vector(a[0]) : std::vector<Value>{});
  }, [](const Value& v) { return v.is_tuple(); });
  type("dict", [](CallArgs& a) -> Value {
    if (a.size() > 1) raise("TypeError", "dict expected at most 1 argument, got " + std::to_string(a.size()));
    Value d = Value::dict();
    if (a.size()) {
      Args args{a[0]};
      Kwargs none;
      call_builtin_method(d, "update", args, none);
    }
    for (const auto& kv : a.keywords()) d.dict_ptr()->set(Value(kv.first), kv.second);
    return d;
  }, [](const Value& v) { return v.is_dict(); });
  type("range", [](CallArgs& a) -> Value {
    a.expect_positional(1, 3);
    int64_t start = 0, stop, step = 1;
    if (a.size() == 1) {
      stop = to_index(a[0]);
    } else {
      start = to_index(a[0]);
      stop = to_index(a[1]);
      if (a.size() == 3) step = to_index(a[2]);
    }
    return Value(std::make_shared<RangeObject>(start, stop, step));
  }, [](const Value& v) { return static_cast<bool>(v.as<RangeObject>()); });
  type("slice", [](CallArgs& a) -> Value {
    a.expect_positional(1, 3);
    if (a.size() == 1) return Value::slice(Value(), a[0], Value());
    return Value::slice(a[0], a[1], a.size() > 2 ? a[2] : Value());
  }, [](const Value& v) { return v.is_slice(); });
  type("object", [](CallArgs& a) -> Value {
    a.expect_positional(0, 0);
    return Value(std::make_shared<Object>());
  }, [](const Value&) { return true; });
  type("type", [R](CallArgs& a) -> Value {
    if (a.size() == 3) raise("TypeError", "type() with 3 arguments is not supported in snippets");
    a.expect_positional(1, 1);
    return R->type_of(a[0]);
  }, [](const Value& v) {
    return static_cast<bool>(v.as<BuiltinType>()) || static_cast<bool>(v.as<ExceptionType>()) ||
           static_cast<bool>(v.as<TypeObject>());
  });
  for (const char* n : {"function", "builtin_function_or_method", "module"})
    rt.type_objects[n] = Value(std::make_shared<TypeObject>(n));

  // ---- functions ----
  fn("print", [R](CallArgs& a) -> Value {
    std::string sep = " ", end = "\n";
    for (const auto& kv : a.keywords()) {
      if (kv.first == "sep") {
        if (!kv.second.is_none()) {
          if (!kv.second.is_str()) raise("TypeError", "sep must be None or a string, not " + kv.second.type_name());
          sep = kv.second.as_str();
        }
      } else if (kv.first == "end") {
        if (!kv.second.is_none()) {
          if (!kv.second.is_str()) raise("TypeError", "end must be None or a string, not " + kv.second.type_name());
          end = kv.second.as_str();
        }
      } else if (kv.first == "file" || kv.first == "flush") {
        // accepted and ignored: output always goes to the interpreter's sink
      } else {
        raise("TypeError", "print() got an unexpected keyword argument '" + kv.first + "'");
      }
    }
    std::string out;
    for (size_t i = 0; i < a.size(); ++i) {
      if (i) out += sep;
      out += a[i].str();
    }
    out += end;
    R->write(out);
    return Value();
  });
  fn("len", [](CallArgs& a) -> Value {
    a.expect_positional(1, 1);
    return Value(length(a[0]));
  });
  fn("repr", [](CallArgs& a) -> Value {
    a.expect_positional(1, 1);
    return Value(a[0].repr());
  });
  fn("ascii", [](CallArgs& a) -> Value {
    a.expect_positional(1, 1);
    std::string r = a[0].repr(), out;
    for (size_t i = 0; i < r.size(); ++i) {
      unsigned char c = r[i];
      if (c < 0x80) { out += static_cast<char>(c); continue; }
      size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
      uint32_t cp = c & (0xFF >> (len + 1));
      for (size_t k = 1; k < len && i + k < r.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(r[i + k]) & 0x3F);
      i += len - 1;
      char buf[16];
      if (cp < 0x100) std::snprintf(buf, sizeof buf, "\\x%02x", cp);
      else if (cp < 0x10000) std::snprintf(buf, sizeof buf, "\\u%04x", cp);
      else std::snprintf(buf, sizeof buf, "\\U%08x", cp);
      out += buf;
    }
    return Value(out);
  });
  fn("abs", [](CallArgs& a) -> Value {
    a.expect_positional(1, 1);
    return unary_op(UnaryOp::Abs, a[0]);
  });
  fn("min", [](CallArgs& a) -> Value { return minmax(a, false); });
  fn("max", [](CallArgs& a) -> Value { return minmax(a, true); });
  fn("sum", sum_impl);
  fn("round", round_impl);
  fn("divmod", [](CallArgs& a) -> Value {
    a.expect_positional(2, 2);
    return Value::tuple({binary_op(BinaryOp::FloorDiv, a[0], a[1]), binary_op(BinaryOp::Mod, a[0], a[1])});
  });
  fn("pow", [](CallArgs& a) -> Value {
    a.bind({"base", "exp", Param("mod", Value())});
    if (a["mod"].is_none()) return binary_op(BinaryOp::Pow, a["base"], a["exp"]);
    if (!a["base"].is_intlike() || !a["exp"].is_intlike() || !a["mod"].is_intlike())
      raise("TypeError", "pow() 3rd argument not allowed unless all arguments are integers");
    int64_t b = a["base"].as_int(), e = a["exp"].as_int(), m = a["mod"].as_int();
    if (m == 0) raise("ValueError", "pow() 3rd argument cannot be 0");
    if (e < 0) raise("ValueError", "pow() negative exponent with modulus is not supported in snippets");
    __int128 r = 1, x = ((b % m) + m) % m;
    while (e > 0) {
      if (e & 1) r = (r * x) % m;
      x = (x * x) % m;
      e >>= 1;
    }
    int64_t res = static_cast<int64_t>(r);
    if (res != 0 && ((res < 0) != (m < 0))) res += m;
    return Value(res);
  });
  fn("enumerate", [](CallArgs& a) -> Value {
    a.bind({"iterable", Param("start", int64_t{0})});
    auto it = std::make_shared<ValueIterator>(a["iterable"]);
    auto i = std::make_shared<int64_t>(a.get_int("start"));
    return make_iter("enumerate", [it, i]() -> std::optional<Value> {
      Value v;
      if (!it->next(v)) return std::nullopt;
      return Value::tuple({Value((*i)++), v});
    });
  });
  fn("zip", [](CallArgs& a) -> Value {
    bool strict = false;
    for (const auto& kv : a.keywords()) {
      if (kv.first == "strict") strict = truthy(kv.second);
      else raise("TypeError", "zip() got an unexpected keyword argument '" + kv.first + "'");
    }
    auto its = std::make_shared<std::vector<ValueIterator>>();
    for (size_t k = 0; k < a.size(); ++k) its->emplace_back(a[k]);
    return make_iter("zip", [its, strict]() -> std::optional<Value> {
      if (its->empty()) return std::nullopt;
      std::vector<Value> row;
      for (size_t k = 0; k < its->size(); ++k) {
        Value v;
        if (!(*its)[k].next(v)) {
          if (strict && (k > 0 || [&] { Value w; for (size_t j = 1; j < its->size(); ++j) if ((*its)[j].next(w)) return true; return false; }()))
            raise("ValueError", "zip() argument " + std::to_string(k + 1) + " is shorter than argument" +
                                    (k > 1 ? "s 1-" + std::to_string(k) : " 1"));
          return std::nullopt;
        }
        row.push_back(std::move(v));
      }
      return Value::tuple(std::move(row));
    });
  });
  fn("map", [](CallArgs& a) -> Value {
    if (a.size() < 2) raise("TypeError", "map() must have at least two arguments.");
    Value f = a[0];
    auto its = std::make_shared<std::vector<ValueIterator>>();
    for (size_t k = 1; k < a.size(); ++k) its->emplace_back(a[k]);
    return make_iter("map", [its, f]() -> std::optional<Value> {
      Args row;
      for (auto& it : *its) {
        Value v;
        if (!it.next(v)) return std::nullopt;
        row.push_back(std::move(v));
      }
      return call(f, std::move(row));
    });
  });
  fn("filter", [](CallArgs& a) -> Value {
    a.expect_positional(2, 2);
    Value f = a[0];
    auto it = std::make_shared<ValueIterator>(a[1]);
    return make_iter("filter", [it, f]() -> std::optional<Value> {
      Value v;
      while (it->next(v)) {
        bool keep = f.is_none() ? truthy(v) : truthy(call(f, {v}));
        if (keep) return v;
      }
      return std::nullopt;
    });
  });
  fn("reversed", [](CallArgs& a) -> Value {
    a.expect_positional(1, 1);
    const Value& s = a[0];
    if (!(s.is_list() || s.is_tuple() || s.is_str() || s.is_object()))
      raise("TypeError", "'" + s.type_name() + "' object is not reversible");
    if (s.is_object() && !s.object_ptr()->len() && !s.as<RangeObject>())
      raise("TypeError", "'" + s.type_name() + "' object is not reversible");
    auto items = std::make_shared<std::vector<Value>>(to_vector(s));
    auto i = std::make_shared<size_t>(items->size());
    return make_iter("reversed", [items, i]() -> std::optional<Value> {
      if (*i == 0) return std::nullopt;
      return (*items)[--*i];
    });
  });
  fn("sorted", [](CallArgs& a) -> Value {
    if (a.size() != 1) raise("TypeError", "sorted expected 1 argument, got " + std::to_string(a.size()));
    Value it = a[0];
    Kwargs kw = a.keywords();
    CallArgs b("sorted", {it}, kw);
    b.bind({"iterable", "*", Param("key", Value()), Param("reverse", false)});
    std::vector<Value> items = to_vector(it);
    sort_values(items, b["key"], truthy(b["reverse"]));
    return Value::list(std::move(items));
  });
  fn("any", [](CallArgs& a) -> Value {
    a.expect_positional(1, 1);
    ValueIterator it(a[0]);
    Value v;
    while (it.next(v))
      if (truthy(v)) return Value(true);
    return Value(false);
  });
  fn("all", [](CallArgs& a) -> Value {
    a.expect_positional(1, 1);
    ValueIterator it(a[0]);
    Value v;
    while (it.next(v))
      if (!truthy(v)) return Value(false);
    return Value(true);
  });
  fn("iter", [](CallArgs& a) -> Value {
    a.expect_positional(1, 1);
    if (a[0].is_object()) {
      Value it = a[0].object_ptr()->iter();
      if (it.is_object()) return it;
    }
    auto it = std::make_shared<ValueIterator>(a[0]);
    std::string name = a[0].type_name() + "_iterator";
    return make_iter(name, [it]() -> std::optional<Value> {
      Value v;
      if (!it->next(v)) return std::nullopt;
      return v;
    });
  });
  fn("next", [](CallArgs& a) -> Value {
    a.expect_positional(1, 2);
    if (!a[0].is_object()) raise("TypeError", "'" + a[0].type_name() + "' object is not an iterator");
    auto v = a[0].object_ptr()->next();
    if (v) return *v;
    if (a.size() > 1) return a[1];
    raise("StopIteration", std::string());
  });
  fn("isinstance", [R](CallArgs& a) -> Value {
    a.expect_positional(2, 2);
    return Value(isinstance_impl(*R, a[0], a[1]));
  });
  fn("callable", [](CallArgs& a) -> Value {
    a.expect_positional(1, 1);
    return Value(a[0].is_object() && a[0].object_ptr()->is_callable());
  });
  fn("hasattr", [](CallArgs& a) -> Value {
    a.expect_positional(2, 2);
    if (!a[1].is_str()) raise("TypeError", "hasattr(): attribute name must be string");
    try {
      get_attr(a[0], a[1].as_str());
      return Value(true);
    } catch (const ScriptError& e) {
      if (e.kind() == "AttributeError") return Value(false);
      throw;
    }
  });
  fn("getattr", [](CallArgs& a) -> Value {
    a.expect_positional(2, 3);
    if (!a[1].is_str()) raise("TypeError", "attribute name must be string, not '" + a[1].type_name() + "'");
    try {
      return get_attr(a[0], a[1].as_str());
    } catch (const ScriptError& e) {
      if (e.kind() == "AttributeError" && a.size() > 2) return a[2];
      throw;
    }
  });
  fn("setattr", [](CallArgs& a) -> Value {
    a.expect_positional(3, 3);
    if (!a[1].is_str()) raise("TypeError", "attribute name must be string, not '" + a[1].type_name() + "'");
    set_attr(a[0], a[1].as_str(), a[2]);
    return Value();
  });
  fn("dir", [R](CallArgs& a) -> Value {
    a.expect_positional(0, 1);
    std::vector<std::string> names;
    if (a.size() == 0) {
      for (size_t i = 0; i < R->globals.size(); ++i)
        if (!R->globals[i].is_unbound()) names.push_back(R->symbols.name(static_cast<int>(i)));
    } else if (a[0].is_object()) {
      names = a[0].object_ptr()->dir();
    } else {
      names = builtin_method_names(a[0]);
    }
    std::sort(names.begin(), names.end());
    std::vector<Value> out;
    for (auto& n : names) out.emplace_back(n);
    return Value::list(std::move(out));
  });
  fn("chr", [](CallArgs& a) -> Value {
    a.expect_positional(1, 1);
    int64_t i = to_index(a[0]);
    if (i < 0 || i > 0x10FFFF) raise("ValueError", "chr() arg not in range(0x110000)");
    return Value(utf8_encode(static_cast<uint32_t>(i)));
  });
  fn("ord", [](CallArgs& a) -> Value {
    a.expect_positional(1, 1);
    if (!a[0].is_str()) raise("TypeError", "ord() expected string of length 1, but " + a[0].type_name() + " found");
    const std::string& s = a[0].as_str();
    int64_t n = utf8_length(s);
    if (n != 1)
      raise("TypeError", "ord() expected a character, but string of length " + std::to_string(n) + " found");
    unsigned char c = s[0];
    if (c < 0x80) return Value(static_cast<int64_t>(c));
    size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    uint32_t cp = c & (0xFF >> (len + 1));
    for (size_t k = 1; k < len && k < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[k]) & 0x3F);
    return Value(static_cast<int64_t>(cp));
  });
  fn("hex", [](CallArgs& a) -> Value { a.expect_positional(1, 1); return Value(int_base_str(to_index(a[0]), 16, "0x")); });
  fn("oct", [](CallArgs& a) -> Value { a.expect_positional(1, 1); return Value(int_base_str(to_index(a[0]), 8, "0o")); });
  fn("bin", [](CallArgs& a) -> Value { a.expect_positional(1, 1); return Value(int_base_str(to_index(a[0]), 2, "0b")); });
  fn("format", [](CallArgs& a) -> Value {
    a.bind({"value", Param("format_spec", "")});
    return Value(format_value(a["value"], a.get_str("format_spec")));
  });
  fn("hash", [](CallArgs& a) -> Value {
    a.expect_positional(1, 1);
    return Value(static_cast<int64_t>(hash_value(a[0]) >> 1));
  });
  fn("id", [](CallArgs& a) -> Value {
    a.expect_positional(1, 1);
    const void* p = a[0].identity();
    if (p) return Value(static_cast<int64_t>(reinterpret_cast<uintptr_t>(p)));
    return Value(static_cast<int64_t>(hash_value(a[0]) >> 1));
  });

  rt.factories["math"] = [] { return Value(make_math_module()); };
}

}  // namespace ipt::script
