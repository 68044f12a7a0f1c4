// Float repr, string repr, format-spec mini-language, %-formatting and str.format, all
// matching CPython 3.11 output.
#include "core/script/format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/script/object.h"

namespace ipt::script {

namespace {

// Shortest round-trip digits of |x| (x finite, nonzero allowed zero): digits and the
// decimal point position (value = 0.d1d2... * 10^decpt).
void shortest_digits(double x, std::string& digits, int& decpt) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), std::fabs(x), std::chars_format::scientific);
  std::string_view s(buf, res.ptr - buf);
  size_t e = s.find('e');
  digits.clear();
  for (size_t i = 0; i < e; ++i)
    if (s[i] != '.') digits += s[i];
  int exp = std::atoi(std::string(s.substr(e + 1)).c_str());
  decpt = exp + 1;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
}

// Digits of |x| rounded to `prec` significant digits (prec >= 1), trailing zeros kept.
void rounded_digits(double x, int prec, std::string& digits, int& decpt) {
  std::vector<char> buf(prec + 32);
  int n = std::snprintf(buf.data(), buf.size(), "%.*e", prec - 1, std::fabs(x));
  std::string_view s(buf.data(), n);
  size_t e = s.find('e');
  digits.clear();
  for (size_t i = 0; i < e; ++i)
    if (s[i] != '.') digits += s[i];
  decpt = std::atoi(std::string(s.substr(e + 1)).c_str()) + 1;
}

std::string exp_suffix(int exp, bool upper) {
  std::string r(1, upper ? 'E' : 'e');
  r += exp < 0 ? '-' : '+';
  int a = exp < 0 ? -exp : exp;
  if (a < 10) r += '0';
  r += std::to_string(a);
  return r;
}

// Lays out digits/decpt either in fixed or exponent notation.
std::string layout(const std::string& digits, int decpt, bool use_exp, bool add_dot_0, bool keep_point,
                   bool upper) {
  std::string out;
  if (use_exp) {
    out += digits[0];
    if (digits.size() > 1 || keep_point) {
      out += '.';
      out += digits.substr(1);
    }
    out += exp_suffix(decpt - 1, upper);
    return out;
  }
  int n = static_cast<int>(digits.size());
  if (decpt <= 0) {
    out = "0.";
    out.append(-decpt, '0');
    out += digits;
  } else if (decpt >= n) {
    out = digits;
    out.append(decpt - n, '0');
    if (add_dot_0) out += ".0";
    else if (keep_point) out += '.';
  } else {
    out = digits.substr(0, decpt);
    out += '.';
    out += digits.substr(decpt);
  }
  return out;
}

std::string nonfinite(double x, bool upper) {
  std::string s = std::isnan(x) ? "nan" : "inf";
  if (upper) for (auto& c : s) c = static_cast<char>(std::toupper(c));
  return s;
}

// |x| formatted per type (no sign).
std::string float_body(double x, char type, int precision, bool alt) {
  bool upper = type == 'E' || type == 'F' || type == 'G';
  if (!std::isfinite(x)) return nonfinite(x, upper) + (type == '%' ? "%" : "");
  double ax = std::fabs(x);
  switch (type) {
    case 'f': case 'F': case '%': {
      if (type == '%') ax *= 100;
      int p = precision < 0 ? 6 : precision;
      std::vector<char> buf(p + 400);
      int n = std::snprintf(buf.data(), buf.size(), alt ? "%#.*f" : "%.*f", p, ax);
      std::string s(buf.data(), n);
      if (type == '%') s += '%';
      return s;
    }
    case 'e': case 'E': {
      int p = precision < 0 ? 6 : precision;
      std::vector<char> buf(p + 64);
      int n = std::snprintf(buf.data(), buf.size(), alt ? "%#.*e" : "%.*e", p, ax);
      std::string s(buf.data(), n);
      if (upper) for (auto& c : s) if (c == 'e') c = 'E';
      return s;
    }
    case 'g': case 'G': case 'n': case 0: {
      // type 0 with a precision: like 'g' but at least one digit after the point.
      int p = precision < 0 ? 6 : precision;
      if (p == 0) p = 1;
      std::string digits;
      int decpt;
      if (ax == 0) { digits = alt ? std::string(p, '0') : "0"; decpt = 1; }
      else rounded_digits(ax, p, digits, decpt);
      bool add_dot_0 = type == 0;
      if (!alt)
        while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
      bool use_exp = decpt <= -4 || decpt > (add_dot_0 ? p - 1 : p);
      return layout(digits, decpt, use_exp, add_dot_0, alt, upper);
    }
    default:
      return {};
  }
}

struct Spec {
  std::string fill = " ";
  char align = 0;
  char sign = 0;
  bool alt = false;
  bool zero = false;
  int width = -1;
  char grouping = 0;
  int precision = -1;
  char type = 0;
};

[[noreturn]] void bad_spec(std::string_view spec, const std::string& tname) {
  raise("ValueError", "Invalid format specifier '" + std::string(spec) + "' for object of type '" + tname + "'");
}

Spec parse_spec(std::string_view spec, const std::string& tname) {
  Spec s;
  size_t i = 0, n = spec.size();
  auto is_align = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  // fill may be a multibyte UTF-8 char
  size_t first_len = 1;
  if (n > 0 && (static_cast<unsigned char>(spec[0]) & 0x80)) {
    unsigned char c = spec[0];
    first_len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    if (first_len > n) first_len = n;
  }
  if (n > first_len && is_align(spec[first_len])) {
    s.fill = std::string(spec.substr(0, first_len));
    s.align = spec[first_len];
    i = first_len + 1;
  } else if (n > 0 && is_align(spec[0])) {
    s.align = spec[0];
    i = 1;
  }
  if (i < n && (spec[i] == '+' || spec[i] == '-' || spec[i] == ' ')) s.sign = spec[i++];
  if (i < n && spec[i] == 'z') {
    if (tname == "int" || tname == "bool")
      raise("ValueError", "Negative zero coercion (z) not allowed in integer format specifier");
    ++i;
  }
  if (i < n && spec[i] == '#') { s.alt = true; ++i; }
  if (i < n && spec[i] == '0') {
    s.zero = true;
    ++i;
  }
  size_t ws = i;
  while (i < n && std::isdigit(static_cast<unsigned char>(spec[i]))) ++i;
  if (i > ws) {
    if (i - ws > 6) raise("ValueError", "Too many decimal digits in format string");
    s.width = std::atoi(std::string(spec.substr(ws, i - ws)).c_str());
  }
  if (i < n && (spec[i] == ',' || spec[i] == '_')) s.grouping = spec[i++];
  if (i < n && spec[i] == '.') {
    ++i;
    size_t ps = i;
    while (i < n && std::isdigit(static_cast<unsigned char>(spec[i]))) ++i;
    if (i == ps) raise("ValueError", "Format specifier missing precision");
    if (i - ps > 6) raise("ValueError", "Too many decimal digits in format string");
    s.precision = std::atoi(std::string(spec.substr(ps, i - ps)).c_str());
  }
  if (i < n) {
    s.type = spec[i++];
  }
  if (i < n) bad_spec(spec, tname);
  if (s.zero && !s.align) {
    s.fill = "0";
    s.align = '=';
  }
  return s;
}

int64_t display_width(std::string_view s) { return utf8_length(s); }

std::string pad(const std::string& body, const Spec& s, char default_align, size_t sign_len = 0) {
  int64_t w = display_width(body);
  if (s.width <= w) return body;
  int64_t padn = s.width - w;
  char align = s.align ? s.align : default_align;
  std::string fillstr;
  auto fill = [&](int64_t k) {
    std::string r;
    for (int64_t j = 0; j < k; ++j) r += s.fill;
    return r;
  };
  switch (align) {
    case '<': return body + fill(padn);
    case '^': return fill(padn / 2) + body + fill(padn - padn / 2);
    case '=': return body.substr(0, sign_len) + fill(padn) + body.substr(sign_len);
    default: return fill(padn) + body;
  }
}

std::string group_digits(const std::string& intpart, char sep, int every = 3) {
  std::string out;
  int n = static_cast<int>(intpart.size());
  for (int i = 0; i < n; ++i) {
    out += intpart[i];
    int rem = n - 1 - i;
    if (rem > 0 && rem % every == 0) out += sep;
  }
  return out;
}

// Applies grouping to the integer digits at the front of a number body.
std::string apply_grouping(const std::string& body, char sep, int every = 3) {
  if (!sep) return body;
  size_t k = 0;
  while (k < body.size() && std::isxdigit(static_cast<unsigned char>(body[k]))) ++k;
  if (k == 0) return body;
  return group_digits(body.substr(0, k), sep, every) + body.substr(k);
}

std::string sign_prefix(bool negative, char sign) {
  if (negative) return "-";
  if (sign == '+') return "+";
  if (sign == ' ') return " ";
  return "";
}

std::string format_int_spec(int64_t v, std::string_view spec_text, const Spec& s, const std::string& tname) {
  if (s.precision >= 0) raise("ValueError", "Precision not allowed in integer format specifier");
  bool neg = v < 0;
  uint64_t mag = neg ? (0 - static_cast<uint64_t>(v)) : static_cast<uint64_t>(v);
  std::string digits, prefix;
  int every = 3;
  switch (s.type) {
    case 0: case 'd': case 'n': digits = std::to_string(mag); break;
    case 'b': {
      if (mag == 0) digits = "0";
      while (mag) { digits.insert(digits.begin(), char('0' + (mag & 1))); mag >>= 1; }
      if (s.alt) prefix = "0b";
      every = 4;
      break;
    }
    case 'o': {
      char buf[32]; std::snprintf(buf, sizeof buf, "%llo", static_cast<unsigned long long>(mag)); digits = buf;
      if (s.alt) prefix = "0o";
      every = 4;
      break;
    }
    case 'x': case 'X': {
      char buf[32];
      std::snprintf(buf, sizeof buf, s.type == 'x' ? "%llx" : "%llX", static_cast<unsigned long long>(mag));
      digits = buf;
      if (s.alt) prefix = s.type == 'x' ? "0x" : "0X";
      every = 4;
      break;
    }
    case 'c': {
      if (s.sign) raise("ValueError", "Sign not allowed with integer format specifier 'c'");
      if (v < 0 || v > 0x10FFFF) raise("OverflowError", "%c arg not in range(0x110000)");
      return pad(utf8_encode(static_cast<uint32_t>(v)), s, '<');
    }
    default:
      raise("ValueError", std::string("Unknown format code '") + s.type + "' for object of type '" + tname + "'");
  }
  if (s.grouping) digits = group_digits(digits, s.grouping, every);
  std::string sp = sign_prefix(neg, s.sign) + prefix;
  std::string body = sp + digits;
  if (s.align == '=' && s.fill == "0" && s.grouping && s.width > static_cast<int>(body.size())) {
    // zero padding participates in grouping: 0,001,234
    int need = s.width - static_cast<int>(sp.size());
    std::string raw = digits;
    raw.erase(std::remove(raw.begin(), raw.end(), s.grouping), raw.end());
    std::string g = group_digits(raw, s.grouping, every);
    while (static_cast<int>(g.size()) < need) {
      raw.insert(raw.begin(), '0');
      g = group_digits(raw, s.grouping, every);
    }
    return sp + g;
  }
  return pad(body, s, '>', sp.size());
}

std::string format_float_spec(double x, const Spec& s, const std::string& tname) {
  switch (s.type) {
    case 0: case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'n': case '%': break;
    default:
      raise("ValueError", std::string("Unknown format code '") + s.type + "' for object of type '" + tname + "'");
  }
  std::string body;
  if (s.type == 0 && s.precision < 0) {
    body = float_repr(std::fabs(x));
    if (std::isnan(x)) body = "nan";
  } else {
    body = float_body(x, s.type, s.precision, s.alt);
  }
  bool neg = std::signbit(x) && !std::isnan(x);
  if (s.grouping && std::isfinite(x)) body = apply_grouping(body, s.grouping);
  std::string sp = sign_prefix(neg, s.sign);
  std::string full = sp + body;
  if (s.align == '=' && s.fill == "0" && s.grouping && std::isfinite(x) &&
      s.width > static_cast<int>(full.size())) {
    size_t k = 0;
    std::string raw;
    while (k < body.size() && (std::isdigit(static_cast<unsigned char>(body[k])) || body[k] == s.grouping)) {
      if (body[k] != s.grouping) raw += body[k];
      ++k;
    }
    std::string rest = body.substr(k);
    int need = s.width - static_cast<int>(sp.size() + rest.size());
    std::string g = group_digits(raw, s.grouping);
    while (static_cast<int>(g.size()) < need) {
      raw.insert(raw.begin(), '0');
      g = group_digits(raw, s.grouping);
    }
    return sp + g + rest;
  }
  return pad(full, s, '>', sp.size());
}

std::string format_str_spec(const std::string& v, const Spec& s, const std::string& tname) {
  if (s.type != 0 && s.type != 's')
    raise("ValueError", std::string("Unknown format code '") + s.type + "' for object of type '" + tname + "'");
  if (s.sign) raise("ValueError", "Sign not allowed in string format specifier");
  if (s.alt) raise("ValueError", "Alternate form (#) not allowed in string format specifier");
  if (s.align == '=') raise("ValueError", "'=' alignment not allowed in string format specifier");
  if (s.grouping) raise("ValueError", std::string("Cannot specify '") + s.grouping + "' with 's'.");
  std::string body = v;
  if (s.precision >= 0 && utf8_length(body) > s.precision) {
    if (is_ascii(body)) body.resize(s.precision);
    else body = body.substr(0, utf8_offsets(body)[s.precision]);
  }
  return pad(body, s, '<');
}

}  // namespace

std::string float_repr(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  std::string digits;
  int decpt;
  if (x == 0) {
    return std::signbit(x) ? "-0.0" : "0.0";
  }
  shortest_digits(x, digits, decpt);
  bool use_exp = decpt <= -4 || decpt > 16;
  std::string body = layout(digits, decpt, use_exp, true, false, false);
  return x < 0 ? "-" + body : body;
}

std::string int_str(int64_t x) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

bool is_ascii(std::string_view s) {
  for (unsigned char c : s)
    if (c & 0x80) return false;
  return true;
}

int64_t utf8_length(std::string_view s) {
  int64_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

std::vector<size_t> utf8_offsets(std::string_view s) {
  std::vector<size_t> out;
  for (size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) out.push_back(i);
  out.push_back(s.size());
  return out;
}

std::string utf8_encode(uint32_t cp) {
  std::string out;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return out;
}

std::string str_repr(std::string_view s) {
  bool has_single = s.find('\'') != std::string_view::npos;
  bool has_double = s.find('"') != std::string_view::npos;
  char q = (has_single && !has_double) ? '"' : '\'';
  std::string out(1, q);
  static const char* hex = "0123456789abcdef";
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = s[i];
    if (c == q || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else if (c >= 0x80) {
      // Decode one code point; C1 controls and U+00A0/U+00AD print escaped like Python.
      uint32_t cp = 0;
      size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
      if (len == 1 || i + len > s.size()) {
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 15];
        continue;
      }
      cp = c & (0xFF >> (len + 1));
      for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
      if (cp < 0xA1 || cp == 0xAD) {
        out += "\\x";
        out += hex[(cp >> 4) & 15];
        out += hex[cp & 15];
      } else {
        out.append(s.substr(i, len));
      }
      i += len - 1;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += q;
  return out;
}

std::string format_float(double x, std::string_view spec) {
  return format_float_spec(x, parse_spec(spec, "float"), "float");
}

std::string format_value(const Value& v, std::string_view spec) {
  switch (v.type()) {
    case Value::Type::Bool:
      if (spec.empty()) return v.str();
      [[fallthrough]];
    case Value::Type::Int: {
      Spec s = parse_spec(spec, "int");
      switch (s.type) {
        case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case '%':
          return format_float_spec(static_cast<double>(v.as_int()), s, "int");
        default:
          return format_int_spec(v.as_int(), spec, s, "int");
      }
    }
    case Value::Type::Float:
      return format_float_spec(v.raw_float(), parse_spec(spec, "float"), "float");
    case Value::Type::Str:
      return format_str_spec(v.as_str(), parse_spec(spec, "str"), "str");
    case Value::Type::Object:
      return v.as_object()->format(spec);
    default:
      if (spec.empty()) return v.str();
      raise("TypeError", "unsupported format string passed to " + v.type_name() + ".__format__");
  }
}

// ---- printf-style % -------------------------------------------------------------------

std::string percent_format(std::string_view fmt, const Value& args) {
  std::vector<Value> items;
  const Dict* mapping = nullptr;
  if (args.is_tuple()) items = args.as_tuple();
  else {
    items.push_back(args);
    if (args.is_dict()) mapping = &args.as_dict();
  }
  size_t argi = 0;
  bool used_mapping = false;
  auto next_arg = [&]() -> Value {
    if (argi >= items.size()) raise("TypeError", "not enough arguments for format string");
    return items[argi++];
  };
  std::string out;
  size_t i = 0, n = fmt.size();
  while (i < n) {
    char c = fmt[i];
    if (c != '%') { out += c; ++i; continue; }
    ++i;
    if (i >= n) raise("ValueError", "incomplete format");
    Value arg;
    bool have_arg = false;
    if (fmt[i] == '(') {
      if (!mapping) raise("TypeError", "format requires a mapping");
      size_t close = fmt.find(')', i);
      if (close == std::string_view::npos) raise("ValueError", "incomplete format key");
      Value key(std::string(fmt.substr(i + 1, close - i - 1)));
      const Value* found = mapping->find(key);
      if (!found) raise("KeyError", std::vector<Value>{key});
      arg = *found;
      have_arg = true;
      used_mapping = true;
      i = close + 1;
    }
    Spec s;
    bool left = false;
    while (i < n && std::strchr("-+ #0", fmt[i])) {
      switch (fmt[i]) {
        case '-': left = true; break;
        case '+': s.sign = '+'; break;
        case ' ': if (s.sign != '+') s.sign = ' '; break;
        case '#': s.alt = true; break;
        case '0': s.zero = true; break;
      }
      ++i;
    }
    if (i < n && fmt[i] == '*') {
      int64_t w = next_arg().as_int();
      if (w > 1000000 || w < -1000000) raise("ValueError", "width too big");
      s.width = static_cast<int>(w);
      if (s.width < 0) { left = true; s.width = -s.width; }
      ++i;
    } else {
      int w = -1;
      while (i < n && std::isdigit(static_cast<unsigned char>(fmt[i]))) {
        w = (w < 0 ? 0 : w) * 10 + (fmt[i] - '0');
        if (w > 1000000) raise("ValueError", "width too big");
        ++i;
      }
      s.width = w;
    }
    if (i < n && fmt[i] == '.') {
      ++i;
      if (i < n && fmt[i] == '*') {
        int64_t p = next_arg().as_int();
        if (p > 1000000) raise("ValueError", "precision too big");
        s.precision = static_cast<int>(std::max<int64_t>(p, 0));
        ++i;
      } else {
        int p = 0;
        while (i < n && std::isdigit(static_cast<unsigned char>(fmt[i]))) {
          p = p * 10 + (fmt[i] - '0');
          if (p > 1000000) raise("ValueError", "precision too big");
          ++i;
        }
        s.precision = p;
      }
    }
    while (i < n && (fmt[i] == 'h' || fmt[i] == 'l' || fmt[i] == 'L')) ++i;
    if (i >= n) raise("ValueError", "incomplete format");
    char type = fmt[i++];
    if (type == '%') { out += '%'; continue; }
    if (!have_arg) arg = next_arg();
    std::string body;
    bool numeric = false;
    bool neg = false;
    switch (type) {
      case 's': body = arg.str(); if (s.precision >= 0 && utf8_length(body) > s.precision) body = body.substr(0, utf8_offsets(body)[s.precision]); break;
      case 'r': case 'a': body = arg.repr(); if (s.precision >= 0 && utf8_length(body) > s.precision) body = body.substr(0, utf8_offsets(body)[s.precision]); break;
      case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': {
        int64_t iv;
        if (arg.is_intlike()) iv = arg.as_int();
        else if (arg.is_float()) {
          double d = arg.raw_float();
          if (type != 'd' && type != 'i' && type != 'u')
            raise("TypeError", std::string("%") + type + " format: an integer is required, not float");
          if (std::isnan(d)) raise("ValueError", "cannot convert float NaN to integer");
          if (!std::isfinite(d) || std::fabs(d) >= 9.2e18) raise("OverflowError", "cannot convert float infinity to integer");
          iv = static_cast<int64_t>(d);
        } else if (arg.is_object() && arg.as_object()->to_int()) {
          iv = *arg.as_object()->to_int();
        } else {
          raise("TypeError", std::string("%") + type + " format: " +
                                 (type == 'd' || type == 'i' || type == 'u' ? "a real number" : "an integer") +
                                 " is required, not " + arg.type_name());
        }
        neg = iv < 0;
        uint64_t mag = neg ? 0 - static_cast<uint64_t>(iv) : static_cast<uint64_t>(iv);
        char buf[40];
        if (type == 'o') std::snprintf(buf, sizeof buf, "%llo", static_cast<unsigned long long>(mag));
        else if (type == 'x') std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(mag));
        else if (type == 'X') std::snprintf(buf, sizeof buf, "%llX", static_cast<unsigned long long>(mag));
        else std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(mag));
        body = buf;
        if (s.precision >= 0 && static_cast<int>(body.size()) < s.precision)
          body.insert(0, s.precision - body.size(), '0');
        if (s.alt && type == 'o') body = "0o" + body;
        if (s.alt && type == 'x') body = "0x" + body;
        if (s.alt && type == 'X') body = "0X" + body;
        numeric = true;
        break;
      }
      case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': {
        double d;
        if (arg.is_number()) d = arg.as_float();
        else if (arg.is_object() && arg.as_object()->to_float()) d = *arg.as_object()->to_float();
        else raise("TypeError", std::string("must be real number, not ") + arg.type_name());
        neg = std::signbit(d) && !std::isnan(d);
        body = float_body(d, type, s.precision < 0 ? 6 : s.precision, s.alt);
        if ((type == 'g' || type == 'G') && !s.alt) {
          // C's %g (no forced ".0")
          char buf[512];
          std::snprintf(buf, sizeof buf, type == 'g' ? "%.*g" : "%.*G", s.precision < 0 ? 6 : std::min(s.precision, 300), std::fabs(d));
          body = std::isfinite(d) ? std::string(buf) : nonfinite(d, type == 'G');
        }
        numeric = true;
        break;
      }
      case 'c': {
        if (arg.is_str() && utf8_length(arg.as_str()) == 1) body = arg.as_str();
        else if (arg.is_intlike()) {
          int64_t cp = arg.as_int();
          if (cp < 0 || cp > 0x10FFFF) raise("OverflowError", "%c arg not in range(0x110000)");
          body = utf8_encode(static_cast<uint32_t>(cp));
        } else raise("TypeError", "%c requires int or char");
        break;
      }
      default: {
        char buf[128];
        std::snprintf(buf, sizeof buf, "unsupported format character '%c' (0x%x) at index %zu", type,
                      static_cast<unsigned>(static_cast<unsigned char>(type)), i - 1);
        raise("ValueError", buf);
      }
    }
    std::string sp = numeric ? sign_prefix(neg, s.sign) : "";
    std::string full = sp + body;
    int64_t w = utf8_length(full);
    if (s.width > w) {
      if (left) full += std::string(s.width - w, ' ');
      else if (s.zero && numeric) full = sp + std::string(s.width - w, '0') + body;
      else full = std::string(s.width - w, ' ') + full;
    }
    out += full;
  }
  if (argi < items.size() && !used_mapping && !mapping)
    raise("TypeError", "not all arguments converted during string formatting");
  return out;
}

// ---- str.format -------------------------------------------------------------------------

std::string str_format(std::string_view fmt, const Args& args, const Kwargs& kwargs) {
  std::string out;
  size_t i = 0, n = fmt.size();
  int auto_index = 0;
  bool used_auto = false, used_manual = false;
  auto lookup = [&](std::string_view field) -> Value {
    // field: "", "0", "name", optionally followed by .attr / [key]
    size_t k = 0;
    while (k < field.size() && field[k] != '.' && field[k] != '[') ++k;
    std::string_view head = field.substr(0, k);
    Value v;
    if (head.empty()) {
      if (used_manual) raise("ValueError", "cannot switch from manual field specification to automatic field numbering");
      used_auto = true;
      if (auto_index >= static_cast<int>(args.size()))
        raise("IndexError", "Replacement index " + std::to_string(auto_index) + " out of range for positional args tuple");
      v = args[auto_index++];
    } else if (std::isdigit(static_cast<unsigned char>(head[0]))) {
      if (used_auto) raise("ValueError", "cannot switch from automatic field numbering to manual field specification");
      used_manual = true;
      int idx = std::atoi(std::string(head).c_str());
      if (idx >= static_cast<int>(args.size()))
        raise("IndexError", "Replacement index " + std::to_string(idx) + " out of range for positional args tuple");
      v = args[idx];
    } else {
      bool found = false;
      for (auto& kv : kwargs)
        if (kv.first == head) { v = kv.second; found = true; break; }
      if (!found) raise("KeyError", std::vector<Value>{Value(std::string(head))});
    }
    while (k < field.size()) {
      if (field[k] == '.') {
        size_t e = k + 1;
        while (e < field.size() && field[e] != '.' && field[e] != '[') ++e;
        v = get_attr(v, std::string(field.substr(k + 1, e - k - 1)));
        k = e;
      } else {
        size_t e = field.find(']', k);
        if (e == std::string_view::npos) raise("ValueError", "Missing ']' in format string");
        std::string key(field.substr(k + 1, e - k - 1));
        bool numeric = !key.empty() && std::all_of(key.begin(), key.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
        v = get_item(v, numeric ? Value(static_cast<int64_t>(std::stoll(key))) : Value(key));
        k = e + 1;
      }
    }
    return v;
  };
  while (i < n) {
    char c = fmt[i];
    if (c == '{') {
      if (i + 1 < n && fmt[i + 1] == '{') { out += '{'; i += 2; continue; }
      // find matching '}' (allow one level of nesting in the spec)
      size_t j = i + 1;
      int depth = 1;
      while (j < n && depth > 0) {
        if (fmt[j] == '{') ++depth;
        else if (fmt[j] == '}') --depth;
        if (depth > 0) ++j;
      }
      if (j >= n) raise("ValueError", "expected '}' before end of string");
      std::string_view inner = fmt.substr(i + 1, j - i - 1);
      size_t colon = std::string_view::npos, bang = std::string_view::npos;
      int br = 0;
      for (size_t k = 0; k < inner.size(); ++k) {
        if (inner[k] == '[') ++br;
        else if (inner[k] == ']') --br;
        else if (br == 0 && inner[k] == '!' && bang == std::string_view::npos && colon == std::string_view::npos) bang = k;
        else if (br == 0 && inner[k] == ':') { colon = k; break; }
      }
      size_t field_end = std::min(bang, colon);
      std::string_view field = inner.substr(0, std::min(field_end, inner.size()));
      char conv = 0;
      if (bang != std::string_view::npos) {
        if (bang + 1 >= inner.size() || (colon != std::string_view::npos && colon != bang + 2))
          raise("ValueError", "expected ':' after conversion specifier");
        conv = inner[bang + 1];
      }
      std::string spec = colon == std::string_view::npos ? "" : std::string(inner.substr(colon + 1));
      if (spec.find('{') != std::string::npos) spec = str_format(spec, args, kwargs);
      Value v = lookup(field);
      if (conv == 'r' || conv == 'a') v = Value(v.repr());
      else if (conv == 's') v = Value(v.str());
      else if (conv != 0) raise("ValueError", std::string("Unknown conversion specifier ") + conv);
      out += format_value(v, spec);
      i = j + 1;
    } else if (c == '}') {
      if (i + 1 < n && fmt[i + 1] == '}') { out += '}'; i += 2; continue; }
      raise("ValueError", "Single '}' encountered in format string");
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

}  // namespace ipt::script
