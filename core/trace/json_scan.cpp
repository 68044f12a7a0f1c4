// See Note [Reading a trace in pieces] in json_scan.h.
#include "core/trace/json_scan.h"

#include <array>
#include <cstring>

#include "core/util/error.h"

namespace ipt::trace {

namespace {
bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
bool is_scalar_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '+' || c == '.';
}
// JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_number(std::string_view t) {
  size_t i = 0;
  auto digits = [&] {
    const size_t from = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    return i > from;
  };
  if (i < t.size() && t[i] == '-') ++i;
  if (i < t.size() && t[i] == '0') ++i;
  else if (!digits()) return false;
  if (i < t.size() && t[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == t.size();
}
// The bytes skip_container stops at: '"', '[', ']', '{', '}'.
constexpr auto kStructural = [] {
  std::array<bool, 256> t{};
  for (unsigned char c : {'"', '[', ']', '{', '}'}) t[c] = true;
  return t;
}();
// Whether more text could make `t` a JSON scalar ("fals", "-", "1.", "2e+").
bool could_continue(std::string_view t) {
  for (std::string_view lit : {"true", "false", "null"})
    if (lit.substr(0, t.size()) == t) return true;
  if (t.empty() || !(t[0] == '-' || (t[0] >= '0' && t[0] <= '9'))) return false;
  for (char c : t)
    if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E')) return false;
  return true;
}
std::string shown(char c) {
  if (static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f) return std::string("'") + c + "'";
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", static_cast<unsigned char>(c));
  return std::string("byte ") + buf;
}
}  // namespace

const char* json_type_name(simdjson::dom::element_type t) {
  using T = simdjson::dom::element_type;
  switch (t) {
    case T::ARRAY: return "an array";
    case T::OBJECT: return "an object";
    case T::INT64:
    case T::UINT64: return "an integer";
    case T::DOUBLE: return "a floating-point number";
    case T::STRING: return "a string";
    case T::BOOL: return "a boolean";
    case T::NULL_VALUE: return "null";
  }
  return "a value";
}

JsonScan::JsonScan(std::string_view text, std::function<void(size_t, size_t)> release)
    : t_(text), release_(std::move(release)) {
  // simdjson refuses what the careful walk refuses: a batch's "[" plus kMaxDepth - 1 levels.
  if (parser_.allocate(kBatchBytes, kMaxDepth) != simdjson::SUCCESS)
    IPT_FAIL(RuntimeError, "out of memory for the JSON parser");
}

void JsonScan::fail(size_t at, const std::string& what) const {
  if (at >= t_.size())
    IPT_FAIL(ValueError, "the trace file is truncated: the JSON ends unexpectedly at byte ", t_.size(), " (", what,
             ")");
  IPT_FAIL(ValueError, "the trace file is not valid JSON: at byte ", at, ": ", what);
}

void JsonScan::ws() {
  while (p_ < t_.size() && is_space(t_[p_])) ++p_;
}

bool JsonScan::at_end() {
  ws();
  return p_ >= t_.size();
}

char JsonScan::peek() {
  ws();
  return p_ < t_.size() ? t_[p_] : '\0';
}

void JsonScan::expect(char c, const char* context) {
  const char got = peek();
  if (p_ >= t_.size()) fail(p_, std::string("expected '") + c + "' " + context);
  if (got != c) fail(p_, std::string("expected '") + c + "' " + context + ", found " + shown(got));
  ++p_;
}

std::string_view JsonScan::raw_string(const char* context) {
  expect('"', context);
  const size_t begin = p_;
  while (true) {
    const void* q = std::memchr(t_.data() + p_, '"', t_.size() - p_);
    if (!q) fail(t_.size(), std::string("an unterminated string ") + context);
    size_t end = static_cast<const char*>(q) - t_.data();
    size_t backslashes = 0;
    while (end - backslashes > begin && t_[end - backslashes - 1] == '\\') ++backslashes;
    p_ = end + 1;
    if (backslashes % 2 == 0) return t_.substr(begin, end - begin);
  }
}

size_t JsonScan::skip_value(const char* context, int depth) {
  const char c = peek();
  const size_t begin = p_;
  if (c == '"') {
    raw_string(context);
  } else if (c == '[' || c == '{') {
    skip_container(context, depth);
  } else {
    while (p_ < t_.size() && is_scalar_char(t_[p_])) ++p_;
    if (p_ == t_.size() && could_continue(t_.substr(begin)))  // "1." or "fals" at the end: truncated
      fail(p_, std::string("a value cut short ") + context);
    if (p_ == begin)
      fail(p_, std::string("expected a value ") + context + (p_ < t_.size() ? ", found " + shown(c) : ""));
    const std::string_view token = t_.substr(begin, p_ - begin);
    if (!(token == "true" || token == "false" || token == "null" || is_number(token)))
      fail(begin, "'" + std::string(token.substr(0, 40)) + "' is not a JSON value " + context);
  }
  return begin;
}

// The fast path over a whole array or object: only strings and brackets are looked at (every
// bracket closed by its own kind, strings closed, nesting bounded); what is inside is checked
// by simdjson when it is parsed, or not at all when no reader needs it.
void JsonScan::skip_container(const char* context, int depth) {
  uint64_t kinds = 0;  // bit d: the container at depth d is an object
  int d = 0;
  const char* const data = t_.data();
  const size_t n = t_.size();
  size_t i = p_;
  size_t read_from = p_;  // pages before i that may be released
  while (true) {
    // The next byte that matters.
    while (i < n && !kStructural[static_cast<unsigned char>(data[i])]) ++i;
    if (release_ && i - read_from >= kReleaseBytes) {  // a large skip keeps only its last pages
      release_(read_from, i);
      read_from = i;
    }
    if (i >= n) fail(n, std::string("an unclosed ") + ((kinds >> (d - 1)) & 1 ? "object " : "array ") + context);
    const char ch = data[i];
    if (ch == '"') {  // to the closing quote, stepping over escapes
      ++i;
      while (i < n && data[i] != '"') i += data[i] == '\\' ? 2 : 1;
      if (i >= n) fail(n, std::string("an unterminated string ") + context);
      ++i;
      continue;
    }
    if (ch == '[' || ch == '{') {
      if (depth + d >= kMaxDepth)
        fail(i, "values nested deeper than " + std::to_string(kMaxDepth) + " levels " + context);
      kinds = ch == '{' ? kinds | (uint64_t(1) << d) : kinds & ~(uint64_t(1) << d);
      ++d;
      ++i;
      continue;
    }
    const bool object = (kinds >> (d - 1)) & 1;
    if ((ch == '}') != object)
      fail(i, std::string("'") + ch + "' closes " + (object ? "an object " : "an array ") + context);
    ++i;
    if (--d == 0) break;
  }
  p_ = i;
}

void JsonScan::object(const char* context, const std::function<void(std::string_view, size_t)>& fn) {
  expect('{', context);
  if (peek() == '}') {
    ++p_;
    return;
  }
  while (true) {
    std::string_view key = raw_string(context);
    expect(':', "after a key");
    ws();
    fn(key, p_);
    const char next = peek();
    if (next == ',') {
      ++p_;
      continue;
    }
    if (next == '}') {
      ++p_;
      return;
    }
    fail(p_, std::string("expected ',' or '}' ") + context + (p_ < t_.size() ? ", found " + shown(next) : ""));
  }
}

// Note [Batches of whole lines]
// A newline never occurs inside a JSON string, and the writer puts each element of a big
// array on its own line, so the text up to the last ",\n" of a window is, in a file as
// written, a run of whole elements: wrapped in "[" "]" it is one array simdjson can parse and
// check in one go, with no walk of ours over it first. simdjson accepts it only if it is
// exactly that (its brackets balanced, so nothing of what follows the array is in it; every
// value valid; nesting within kMaxDepth); anything else (the array's last window, a file laid
// out differently, a mistake) goes the careful way, element by element, which says where.
bool JsonScan::line_batch(size_t& index, const std::function<void(simdjson::dom::element, size_t, size_t)>& fn) {
  ws();
  const size_t begin = p_;
  const size_t window_end = std::min(t_.size(), begin + kBatchBytes);
  size_t cut = window_end;
  while (true) {  // the last ",\n" in the window
    const void* nl = cut > begin ? memrchr(t_.data() + begin, '\n', cut - begin) : nullptr;
    if (!nl) return false;
    cut = static_cast<size_t>(static_cast<const char*>(nl) - t_.data());
    if (cut > begin + 1 && t_[cut - 1] == ',') break;
  }
  const size_t n = cut - 1 - begin;  // the elements, without their last comma
  buf_.resize(n + 2 + simdjson::SIMDJSON_PADDING);
  buf_[0] = '[';
  std::memcpy(buf_.data() + 1, t_.data() + begin, n);
  buf_[n + 1] = ']';
  auto r = parser_.parse(buf_.data(), n + 2, false);
  if (r.error()) return false;
  const simdjson::dom::array items = r.value_unsafe().get_array().value_unsafe();
  for (simdjson::dom::element e : items) fn(e, index++, begin);
  if (release_) release_(begin, cut);
  p_ = cut + 1;
  return true;
}

void JsonScan::array_batches(const char* context,
                             const std::function<void(simdjson::dom::element, size_t, size_t)>& fn) {
  expect('[', context);
  if (peek() == ']') {
    ++p_;
    return;
  }
  size_t index = 0;
  elements_.clear();
  while (true) {
    if (elements_.empty() && line_batch(index, fn)) continue;
    const size_t begin = skip_value(context, 1);
    if (p_ - begin > kMaxElementBytes)
      fail(begin, std::string("an element ") + context + " larger than " + std::to_string(kMaxElementBytes) + " bytes");
    elements_.emplace_back(begin, p_);
    const char next = peek();
    const bool last = next != ',';
    if (last && next != ']')
      fail(p_, std::string("expected ',' or ']' ") + context + (p_ < t_.size() ? ", found " + shown(next) : ""));
    ++p_;
    ++index;
    if (last || p_ - elements_.front().first >= kBatchBytes) {
      const size_t first = index - elements_.size();
      const simdjson::dom::element batch = parse_batch(context, first);
      size_t k = 0;
      const simdjson::dom::array items = batch.get_array().value_unsafe();
      for (simdjson::dom::element e : items) {
        fn(e, first + k, elements_[k].first);
        ++k;
      }
      if (release_) release_(elements_.front().first, elements_.back().second);
      elements_.clear();
    }
    if (last) return;
  }
}

simdjson::dom::element JsonScan::parse_batch(const char* context, size_t first_index) {
  const size_t begin = elements_.front().first, end = elements_.back().second;
  const size_t n = end - begin;
  buf_.resize(n + 2 + simdjson::SIMDJSON_PADDING);
  buf_[0] = '[';
  std::memcpy(buf_.data() + 1, t_.data() + begin, n);
  buf_[n + 1] = ']';
  auto r = parser_.parse(buf_.data(), n + 2, false);
  if (!r.error()) return r.value_unsafe();
  // Find the element simdjson refused, to say where.
  for (size_t k = 0; k < elements_.size(); ++k) {
    const auto [b, e] = elements_[k];
    std::memcpy(buf_.data(), t_.data() + b, e - b);
    auto one = parser_.parse(buf_.data(), e - b, false);
    if (one.error())
      fail(b, std::string("element ") + std::to_string(first_index + k) + " " + context + ": " +
                  simdjson::error_message(one.error()));
  }
  fail(begin, std::string(context) + ": " + simdjson::error_message(r.error()));
}

simdjson::dom::element JsonScan::parse_value(const char* context) {
  const size_t begin = skip_value(context);
  const size_t n = p_ - begin;
  buf_.resize(n + simdjson::SIMDJSON_PADDING);
  std::memcpy(buf_.data(), t_.data() + begin, n);
  auto r = parser_.parse(buf_.data(), n, false);
  if (r.error()) fail(begin, std::string(context) + ": " + simdjson::error_message(r.error()));
  return r.value_unsafe();
}

}  // namespace ipt::trace
