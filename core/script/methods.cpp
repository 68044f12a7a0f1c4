// Methods of builtin values: str, list, tuple, dict, int, float (see builtins.h).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "core/script/builtins.h"
#include "core/script/format.h"
#include "core/script/ops.h"

namespace ipt::script {

namespace {

using Method = Value (*)(const Value& self, CallArgs& a);
using Table = std::unordered_map<std::string, Method>;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Code point index of a byte offset.
int64_t cp_index(const std::string& s, size_t byte) {
  if (is_ascii(s)) return static_cast<int64_t>(byte);
  return utf8_length(std::string_view(s).substr(0, byte));
}

// Byte range [b, e) for optional start/end code point indices (slice semantics).
void byte_range(const std::string& s, const Value& start, const Value& end, size_t& b, size_t& e) {
  Slice sl{start, end, Value()};
  if (is_ascii(s)) {
    auto r = resolve_slice(sl, static_cast<int64_t>(s.size()));
    b = static_cast<size_t>(r.start);
    e = static_cast<size_t>(std::max(r.start, r.stop));
    return;
  }
  auto offs = utf8_offsets(s);
  auto r = resolve_slice(sl, static_cast<int64_t>(offs.size()) - 1);
  b = offs[r.start];
  e = offs[std::max(r.start, r.stop)];
}

const std::string& self_str(const Value& v) { return *v.str_ptr(); }

std::string arg_str(const Value& v, const char* fn, const char* what = "argument") {
  if (!v.is_str()) raise("TypeError", std::string(fn) + "() " + what + " must be str, not " + v.type_name());
  return v.as_str();
}

Value split_impl(const std::string& s, const Value& sepv, int64_t maxsplit, bool right) {
  std::vector<Value> out;
  if (sepv.is_none()) {
    // whitespace split
    std::vector<std::pair<size_t, size_t>> words;
    size_t i = 0, n = s.size();
    while (i < n) {
      while (i < n && is_space(s[i])) ++i;
      if (i >= n) break;
      size_t j = i;
      while (j < n && !is_space(s[j])) ++j;
      words.emplace_back(i, j);
      i = j;
    }
    if (maxsplit < 0 || static_cast<size_t>(maxsplit) >= words.size() || words.empty()) {
      for (auto& w : words) out.emplace_back(s.substr(w.first, w.second - w.first));
      return Value::list(std::move(out));
    }
    if (!right) {
      for (int64_t k = 0; k < maxsplit; ++k) out.emplace_back(s.substr(words[k].first, words[k].second - words[k].first));
      size_t rest = words[maxsplit].first;
      size_t end = n;
      while (end > rest && is_space(s[end - 1])) --end;
      out.emplace_back(s.substr(rest, end - rest));
    } else {
      size_t keep = words.size() - maxsplit;
      size_t start = 0;
      while (start < n && is_space(s[start])) ++start;
      out.emplace_back(s.substr(start, words[keep - 1].second - start));
      for (size_t k = keep; k < words.size(); ++k) out.emplace_back(s.substr(words[k].first, words[k].second - words[k].first));
    }
    return Value::list(std::move(out));
  }
  std::string sep = arg_str(sepv, right ? "rsplit" : "split");
  if (sep.empty()) raise("ValueError", "empty separator");
  std::vector<std::string> parts;
  if (!right) {
    size_t pos = 0;
    int64_t count = 0;
    while (maxsplit < 0 || count < maxsplit) {
      size_t f = s.find(sep, pos);
      if (f == std::string::npos) break;
      parts.push_back(s.substr(pos, f - pos));
      pos = f + sep.size();
      ++count;
    }
    parts.push_back(s.substr(pos));
  } else {
    size_t end = s.size();
    int64_t count = 0;
    std::vector<std::string> rev;
    while (maxsplit < 0 || count < maxsplit) {
      if (end < sep.size()) break;
      size_t f = s.rfind(sep, end - sep.size());
      if (f == std::string::npos) break;
      rev.push_back(s.substr(f + sep.size(), end - f - sep.size()));
      end = f;
      ++count;
    }
    rev.push_back(s.substr(0, end));
    parts.assign(rev.rbegin(), rev.rend());
  }
  for (auto& p : parts) out.emplace_back(std::move(p));
  return Value::list(std::move(out));
}

std::string strip_impl(const std::string& s, const Value& chars, bool left, bool right, const char* fn) {
  size_t b = 0, e = s.size();
  if (chars.is_none()) {
    if (left) while (b < e && is_space(s[b])) ++b;
    if (right) while (e > b && is_space(s[e - 1])) --e;
  } else {
    std::string cs = arg_str(chars, fn, "arg");
    if (left) while (b < e && cs.find(s[b]) != std::string::npos) ++b;
    if (right) while (e > b && cs.find(s[e - 1]) != std::string::npos) --e;
  }
  return s.substr(b, e - b);
}

bool affix_match(const std::string& s, const Value& affix, bool prefix, const char* fn) {
  auto one = [&](const Value& v) {
    if (!v.is_str())
      raise("TypeError", std::string(fn) + " first arg must be str or a tuple of str, not " + v.type_name());
    const std::string& a = v.as_str();
    if (a.size() > s.size()) return false;
    return prefix ? s.compare(0, a.size(), a) == 0 : s.compare(s.size() - a.size(), a.size(), a) == 0;
  };
  if (affix.is_tuple()) {
    for (const auto& v : affix.as_tuple())
      if (one(v)) return true;
    return false;
  }
  return one(affix);
}

std::string pad_to(const std::string& s, int64_t width, const Value& fillv, int align) {
  std::string fill = " ";
  if (!fillv.is_none()) {
    if (!fillv.is_str() || utf8_length(fillv.as_str()) != 1)
      raise("TypeError", "The fill character must be exactly one character long");
    fill = fillv.as_str();
  }
  int64_t len = utf8_length(s);
  if (width <= len) return s;
  if (static_cast<uint64_t>(width) > 4 * kMaxContainerSize) raise("MemoryError", "string too large");
  int64_t total = width - len;
  int64_t left = align < 0 ? 0 : align > 0 ? total : total / 2 + (total & width & 1);
  int64_t right = total - left;
  std::string out;
  for (int64_t i = 0; i < left; ++i) out += fill;
  out += s;
  for (int64_t i = 0; i < right; ++i) out += fill;
  return out;
}

template <typename F>
bool all_chars(const std::string& s, F pred) {
  if (s.empty()) return false;
  for (unsigned char c : s)
    if (!pred(c)) return false;
  return true;
}

const Table& str_methods() {
  static const Table t = {
      {"join", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(1, 1);
         std::string out;
         size_t i = 0;
         ValueIterator it(a[0]);
         Value v;
         while (it.next(v)) {
           if (!v.is_str())
             raise("TypeError", "sequence item " + std::to_string(i) + ": expected str instance, " + v.type_name() + " found");
           if (i++) out += self_str(self);
           out += v.as_str();
           if (out.size() > 4 * kMaxContainerSize) raise("MemoryError", "string too large");
         }
         return Value(std::move(out));
       }},
      {"split", [](const Value& self, CallArgs& a) -> Value {
         a.bind({Param("sep", Value()), Param("maxsplit", -1)});
         return split_impl(self_str(self), a["sep"], a.get_int("maxsplit"), false);
       }},
      {"rsplit", [](const Value& self, CallArgs& a) -> Value {
         a.bind({Param("sep", Value()), Param("maxsplit", -1)});
         return split_impl(self_str(self), a["sep"], a.get_int("maxsplit"), true);
       }},
      {"strip", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 1);
         return Value(strip_impl(self_str(self), a.size() ? a[0] : Value(), true, true, "strip"));
       }},
      {"lstrip", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 1);
         return Value(strip_impl(self_str(self), a.size() ? a[0] : Value(), true, false, "lstrip"));
       }},
      {"rstrip", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 1);
         return Value(strip_impl(self_str(self), a.size() ? a[0] : Value(), false, true, "rstrip"));
       }},
      {"upper", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         std::string s = self_str(self);
         for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
         return Value(std::move(s));
       }},
      {"lower", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         std::string s = self_str(self);
         for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
         return Value(std::move(s));
       }},
      {"swapcase", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         std::string s = self_str(self);
         for (auto& c : s) {
           unsigned char u = static_cast<unsigned char>(c);
           c = static_cast<char>(std::isupper(u) ? std::tolower(u) : std::toupper(u));
         }
         return Value(std::move(s));
       }},
      {"title", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         std::string s = self_str(self);
         bool prev_alpha = false;
         for (auto& c : s) {
           unsigned char u = static_cast<unsigned char>(c);
           c = static_cast<char>(prev_alpha ? std::tolower(u) : std::toupper(u));
           prev_alpha = std::isalpha(u) != 0;
         }
         return Value(std::move(s));
       }},
      {"capitalize", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         std::string s = self_str(self);
         for (size_t i = 0; i < s.size(); ++i) {
           unsigned char u = static_cast<unsigned char>(s[i]);
           s[i] = static_cast<char>(i == 0 ? std::toupper(u) : std::tolower(u));
         }
         return Value(std::move(s));
       }},
      {"startswith", [](const Value& self, CallArgs& a) -> Value {
         a.bind({"prefix", Param("start", Value()), Param("end", Value())});
         size_t b, e;
         byte_range(self_str(self), a["start"], a["end"], b, e);
         return Value(affix_match(self_str(self).substr(b, e - b), a["prefix"], true, "startswith"));
       }},
      {"endswith", [](const Value& self, CallArgs& a) -> Value {
         a.bind({"suffix", Param("start", Value()), Param("end", Value())});
         size_t b, e;
         byte_range(self_str(self), a["start"], a["end"], b, e);
         return Value(affix_match(self_str(self).substr(b, e - b), a["suffix"], false, "endswith"));
       }},
      {"replace", [](const Value& self, CallArgs& a) -> Value {
         a.bind({"old", "new", Param("count", -1)});
         std::string old = arg_str(a["old"], "replace", "argument 1"), nw = arg_str(a["new"], "replace", "argument 2");
         int64_t count = a.get_int("count");
         const std::string& s = self_str(self);
         std::string out;
         size_t pos = 0;
         int64_t done = 0;
         if (old.empty()) {
           for (size_t i = 0; i <= s.size(); ++i) {
             if (count >= 0 && done >= count) { out += s.substr(i); break; }
             out += nw;
             ++done;
             if (i < s.size()) out += s[i];
             if (out.size() > 4 * kMaxContainerSize) raise("MemoryError", "string too large");
           }
           return Value(std::move(out));
         }
         while (count < 0 || done < count) {
           size_t f = s.find(old, pos);
           if (f == std::string::npos) break;
           out += s.substr(pos, f - pos);
           out += nw;
           if (out.size() > 4 * kMaxContainerSize) raise("MemoryError", "string too large");
           pos = f + old.size();
           ++done;
         }
         out += s.substr(pos);
         return Value(std::move(out));
       }},
      {"find", [](const Value& self, CallArgs& a) -> Value {
         a.bind({"sub", Param("start", Value()), Param("end", Value())});
         const std::string& s = self_str(self);
         size_t b, e;
         byte_range(s, a["start"], a["end"], b, e);
         size_t f = s.substr(0, e).find(arg_str(a["sub"], "find"), b);
         return Value(f == std::string::npos ? int64_t{-1} : cp_index(s, f));
       }},
      {"rfind", [](const Value& self, CallArgs& a) -> Value {
         a.bind({"sub", Param("start", Value()), Param("end", Value())});
         const std::string& s = self_str(self);
         size_t b, e;
         byte_range(s, a["start"], a["end"], b, e);
         std::string sub = arg_str(a["sub"], "rfind");
         size_t f = s.substr(0, e).rfind(sub);
         if (f == std::string::npos || f < b) return Value(int64_t{-1});
         return Value(cp_index(s, f));
       }},
      {"index", [](const Value& self, CallArgs& a) -> Value {
         a.bind({"sub", Param("start", Value()), Param("end", Value())});
         const std::string& s = self_str(self);
         size_t b, e;
         byte_range(s, a["start"], a["end"], b, e);
         size_t f = s.substr(0, e).find(arg_str(a["sub"], "index"), b);
         if (f == std::string::npos) raise("ValueError", "substring not found");
         return Value(cp_index(s, f));
       }},
      {"count", [](const Value& self, CallArgs& a) -> Value {
         a.bind({"sub", Param("start", Value()), Param("end", Value())});
         const std::string& s = self_str(self);
         size_t b, e;
         byte_range(s, a["start"], a["end"], b, e);
         std::string hay = s.substr(b, e - b);
         std::string sub = arg_str(a["sub"], "count");
         if (sub.empty()) return Value(utf8_length(hay) + 1);
         int64_t n = 0;
         for (size_t p = hay.find(sub); p != std::string::npos; p = hay.find(sub, p + sub.size())) ++n;
         return Value(n);
       }},
      {"format", [](const Value& self, CallArgs& a) -> Value {
         return Value(str_format(self_str(self), a.positional(), a.keywords()));
       }},
      {"isdigit", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         return Value(all_chars(self_str(self), [](unsigned char c) { return std::isdigit(c) != 0; }));
       }},
      {"isnumeric", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         return Value(all_chars(self_str(self), [](unsigned char c) { return std::isdigit(c) != 0; }));
       }},
      {"isdecimal", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         return Value(all_chars(self_str(self), [](unsigned char c) { return std::isdigit(c) != 0; }));
       }},
      {"isalpha", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         return Value(all_chars(self_str(self), [](unsigned char c) { return std::isalpha(c) != 0 || c >= 0x80; }));
       }},
      {"isalnum", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         return Value(all_chars(self_str(self), [](unsigned char c) { return std::isalnum(c) != 0 || c >= 0x80; }));
       }},
      {"isspace", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         return Value(all_chars(self_str(self), [](unsigned char c) { return is_space(static_cast<char>(c)); }));
       }},
      {"isidentifier", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         const std::string& s = self_str(self);
         if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return Value(false);
         return Value(all_chars(s, [](unsigned char c) { return std::isalnum(c) != 0 || c == '_' || c >= 0x80; }));
       }},
      {"isupper", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         const std::string& s = self_str(self);
         bool any = false;
         for (unsigned char c : s) {
           if (std::islower(c)) return Value(false);
           if (std::isupper(c)) any = true;
         }
         return Value(any);
       }},
      {"islower", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         const std::string& s = self_str(self);
         bool any = false;
         for (unsigned char c : s) {
           if (std::isupper(c)) return Value(false);
           if (std::islower(c)) any = true;
         }
         return Value(any);
       }},
      {"center", [](const Value& self, CallArgs& a) -> Value {
         a.bind({"width", Param("fillchar", Value())});
         return Value(pad_to(self_str(self), a.get_int("width"), a["fillchar"], 0));
       }},
      {"ljust", [](const Value& self, CallArgs& a) -> Value {
         a.bind({"width", Param("fillchar", Value())});
         return Value(pad_to(self_str(self), a.get_int("width"), a["fillchar"], -1));
       }},
      {"rjust", [](const Value& self, CallArgs& a) -> Value {
         a.bind({"width", Param("fillchar", Value())});
         return Value(pad_to(self_str(self), a.get_int("width"), a["fillchar"], 1));
       }},
      {"zfill", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(1, 1);
         const std::string& s = self_str(self);
         int64_t width = to_index(a[0]);
         int64_t len = utf8_length(s);
         if (width <= len) return self;
         if (static_cast<uint64_t>(width) > 4 * kMaxContainerSize) raise("MemoryError", "string too large");
         std::string sign, body = s;
         if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
           sign = s.substr(0, 1);
           body = s.substr(1);
         }
         return Value(sign + std::string(width - len, '0') + body);
       }},
      {"splitlines", [](const Value& self, CallArgs& a) -> Value {
         a.bind({Param("keepends", false)});
         bool keep = a.get_bool("keepends");
         const std::string& s = self_str(self);
         std::vector<Value> out;
         size_t i = 0, start = 0;
         while (i < s.size()) {
           if (s[i] == '\n' || s[i] == '\r') {
             size_t eol = i;
             if (s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ++i;
             ++i;
             out.emplace_back(s.substr(start, (keep ? i : eol) - start));
             start = i;
           } else {
             ++i;
           }
         }
         if (start < s.size()) out.emplace_back(s.substr(start));
         return Value::list(std::move(out));
       }},
      {"partition", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(1, 1);
         const std::string& s = self_str(self);
         std::string sep = arg_str(a[0], "partition");
         if (sep.empty()) raise("ValueError", "empty separator");
         size_t f = s.find(sep);
         if (f == std::string::npos) return Value::tuple({Value(s), Value(""), Value("")});
         return Value::tuple({Value(s.substr(0, f)), Value(sep), Value(s.substr(f + sep.size()))});
       }},
      {"rpartition", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(1, 1);
         const std::string& s = self_str(self);
         std::string sep = arg_str(a[0], "rpartition");
         if (sep.empty()) raise("ValueError", "empty separator");
         size_t f = s.rfind(sep);
         if (f == std::string::npos) return Value::tuple({Value(""), Value(""), Value(s)});
         return Value::tuple({Value(s.substr(0, f)), Value(sep), Value(s.substr(f + sep.size()))});
       }},
      {"removeprefix", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(1, 1);
         const std::string& s = self_str(self);
         std::string p = arg_str(a[0], "removeprefix");
         if (s.compare(0, p.size(), p) == 0) return Value(s.substr(p.size()));
         return self;
       }},
      {"removesuffix", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(1, 1);
         const std::string& s = self_str(self);
         std::string p = arg_str(a[0], "removesuffix");
         if (!p.empty() && s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0)
           return Value(s.substr(0, s.size() - p.size()));
         return self;
       }},
  };
  return t;
}

std::vector<Value>& list_items(const Value& self) { return self.list_ptr()->items; }

const Table& list_methods() {
  static const Table t = {
      {"append", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(1, 1);
         auto& items = list_items(self);
         if (items.size() >= kMaxContainerSize) raise("MemoryError", "list too large");
         items.push_back(a[0]);
         return Value();
       }},
      {"extend", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(1, 1);
         std::vector<Value> more = to_vector(a[0]);
         auto& items = list_items(self);
         if (items.size() + more.size() > kMaxContainerSize) raise("MemoryError", "list too large");
         items.insert(items.end(), more.begin(), more.end());
         return Value();
       }},
      {"insert", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(2, 2);
         auto& items = list_items(self);
         int64_t n = static_cast<int64_t>(items.size());
         int64_t i = to_index(a[0]);
         if (i < 0) i = std::max<int64_t>(0, i + n);
         if (i > n) i = n;
         items.insert(items.begin() + i, a[1]);
         return Value();
       }},
      {"pop", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 1);
         auto& items = list_items(self);
         if (items.empty()) raise("IndexError", "pop from empty list");
         int64_t n = static_cast<int64_t>(items.size());
         int64_t i = a.size() ? to_index(a[0]) : -1;
         if (i < 0) i += n;
         if (i < 0 || i >= n) raise("IndexError", "pop index out of range");
         Value v = std::move(items[i]);
         items.erase(items.begin() + i);
         return v;
       }},
      {"remove", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(1, 1);
         auto& items = list_items(self);
         for (size_t i = 0; i < items.size(); ++i) {
           Value x = items[i];
           if (is_identical(x, a[0]) || values_equal(x, a[0])) {
             if (i < items.size()) items.erase(items.begin() + i);
             return Value();
           }
         }
         raise("ValueError", "list.remove(x): x not in list");
       }},
      {"index", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(1, 3);
         auto& items = list_items(self);
         Slice sl{a.size() > 1 ? a[1] : Value(), a.size() > 2 ? a[2] : Value(), Value()};
         auto r = resolve_slice(sl, static_cast<int64_t>(items.size()));
         for (int64_t i = r.start; i < r.stop && i < static_cast<int64_t>(items.size()); ++i) {
           Value x = items[i];
           if (is_identical(x, a[0]) || values_equal(x, a[0])) return Value(i);
         }
         raise("ValueError", a[0].repr() + " is not in list");
       }},
      {"count", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(1, 1);
         std::vector<Value> items = list_items(self);
         int64_t n = 0;
         for (const auto& x : items)
           if (is_identical(x, a[0]) || values_equal(x, a[0])) ++n;
         return Value(n);
       }},
      {"reverse", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         auto& items = list_items(self);
         std::reverse(items.begin(), items.end());
         return Value();
       }},
      {"sort", [](const Value& self, CallArgs& a) -> Value {
         if (a.size()) raise("TypeError", "sort() takes no positional arguments");
         a.bind({"*", Param("key", Value()), Param("reverse", false)});
         std::vector<Value> items = list_items(self);
         sort_values(items, a["key"], truthy(a["reverse"]));
         list_items(self) = std::move(items);
         return Value();
       }},
      {"copy", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         return Value::list(list_items(self));
       }},
      {"clear", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         auto old = std::move(list_items(self));
         list_items(self).clear();
         return Value();
       }},
  };
  return t;
}

const Table& tuple_methods() {
  static const Table t = {
      {"index", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(1, 1);
         const auto& items = self.tuple_ptr()->items;
         for (size_t i = 0; i < items.size(); ++i)
           if (is_identical(items[i], a[0]) || values_equal(items[i], a[0])) return Value(static_cast<int64_t>(i));
         raise("ValueError", "tuple.index(x): x not in tuple");
       }},
      {"count", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(1, 1);
         int64_t n = 0;
         for (const auto& x : self.tuple_ptr()->items)
           if (is_identical(x, a[0]) || values_equal(x, a[0])) ++n;
         return Value(n);
       }},
  };
  return t;
}

Dict& dict_of(const Value& self) { return *self.dict_ptr(); }

void update_dict(Dict& d, const Value& other) {
  if (other.is_dict()) {
    auto entries = other.dict_ptr()->entries();
    for (const auto& kv : entries) d.set(kv.first, kv.second);
    return;
  }
  ValueIterator it(other);
  Value item;
  size_t i = 0;
  while (it.next(item)) {
    std::vector<Value> pair = to_vector(item);
    if (pair.size() != 2)
      raise("ValueError", "dictionary update sequence element #" + std::to_string(i) + " has length " +
                              std::to_string(pair.size()) + "; 2 is required");
    d.set(pair[0], pair[1]);
    ++i;
  }
}

const Table& dict_methods() {
  static const Table t = {
      {"keys", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         return Value(std::make_shared<DictView>(self.dict_ptr(), DictView::Kind::Keys));
       }},
      {"values", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         return Value(std::make_shared<DictView>(self.dict_ptr(), DictView::Kind::Values));
       }},
      {"items", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         return Value(std::make_shared<DictView>(self.dict_ptr(), DictView::Kind::Items));
       }},
      {"get", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(1, 2);
         const Value* v = dict_of(self).find(a[0]);
         if (v) return *v;
         return a.size() > 1 ? a[1] : Value();
       }},
      {"pop", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(1, 2);
         const Value* v = dict_of(self).find(a[0]);
         if (!v) {
           if (a.size() > 1) return a[1];
           raise("KeyError", std::vector<Value>{a[0]});
         }
         Value out = *v;
         dict_of(self).erase(a[0]);
         return out;
       }},
      {"popitem", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         Dict& d = dict_of(self);
         if (d.empty()) raise("KeyError", "popitem(): dictionary is empty");
         auto kv = d.entries().back();
         d.erase(kv.first);
         return Value::tuple({kv.first, kv.second});
       }},
      {"setdefault", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(1, 2);
         const Value* v = dict_of(self).find(a[0]);
         if (v) return *v;
         Value dflt = a.size() > 1 ? a[1] : Value();
         dict_of(self).set(a[0], dflt);
         return dflt;
       }},
      {"update", [](const Value& self, CallArgs& a) -> Value {
         if (a.size() > 1) raise("TypeError", "update expected at most 1 argument, got " + std::to_string(a.size()));
         if (a.size()) update_dict(dict_of(self), a[0]);
         for (const auto& kv : a.keywords()) dict_of(self).set(Value(kv.first), kv.second);
         return Value();
       }},
      {"copy", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         auto d = std::make_shared<Dict>();
         for (const auto& kv : dict_of(self).entries()) d->set(kv.first, kv.second);
         return Value(d);
       }},
      {"clear", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         dict_of(self).clear();
         return Value();
       }},
  };
  return t;
}

const Table& int_methods() {
  static const Table t = {
      {"bit_length", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         int64_t v = self.as_int();
         uint64_t m = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
         int64_t n = 0;
         while (m) { ++n; m >>= 1; }
         return Value(n);
       }},
      {"is_integer", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         return Value(true);
       }},
  };
  return t;
}

const Table& float_methods() {
  static const Table t = {
      {"is_integer", [](const Value& self, CallArgs& a) -> Value {
         a.expect_positional(0, 0);
         double d = self.raw_float();
         return Value(std::isfinite(d) && d == std::floor(d));
       }},
  };
  return t;
}

const Table* table_for(const Value& v) {
  switch (v.type()) {
    case Value::Type::Str: return &str_methods();
    case Value::Type::List: return &list_methods();
    case Value::Type::Tuple: return &tuple_methods();
    case Value::Type::Dict: return &dict_methods();
    case Value::Type::Int: case Value::Type::Bool: return &int_methods();
    case Value::Type::Float: return &float_methods();
    default: return nullptr;
  }
}

const char* type_prefix(const Value& v) {
  switch (v.type()) {
    case Value::Type::Str: return "str";
    case Value::Type::List: return "list";
    case Value::Type::Tuple: return "tuple";
    case Value::Type::Dict: return "dict";
    case Value::Type::Int: return "int";
    case Value::Type::Bool: return "bool";
    case Value::Type::Float: return "float";
    default: return "object";
  }
}

}  // namespace

bool has_builtin_method(const Value& self, const std::string& name) {
  const Table* t = table_for(self);
  return t && t->count(name);
}

Value call_builtin_method(const Value& self, const std::string& name, Args& args, Kwargs& kwargs) {
  const Table* t = table_for(self);
  if (!t) raise("AttributeError", "'" + self.type_name() + "' object has no attribute '" + name + "'");
  auto it = t->find(name);
  if (it == t->end()) raise("AttributeError", "'" + self.type_name() + "' object has no attribute '" + name + "'");
  CallArgs a(std::string(type_prefix(self)) + "." + name, std::move(args), std::move(kwargs));
  return it->second(self, a);
}

std::vector<std::string> builtin_method_names(const Value& self) {
  std::vector<std::string> out;
  if (const Table* t = table_for(self))
    for (const auto& kv : *t) out.push_back(kv.first);
  std::sort(out.begin(), out.end());
  return out;
}

std::string BoundBuiltinMethod::repr() const {
  char buf[64];
  std::snprintf(buf, sizeof buf, " object at %p>", static_cast<const void*>(self_.identity()));
  return "<built-in method " + name_ + " of " + self_.type_name() + buf;
}

}  // namespace ipt::script
