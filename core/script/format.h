#pragma once
// Text formatting exactly as CPython 3.11 prints: float repr (shortest round-trip with
// Python's switch to exponent notation), string repr quoting, the format() mini-language
// used by f-strings and str.format, and printf-style `%` formatting.

#include <cstdint>
#include <string>
#include <string_view>

#include "core/script/value.h"

namespace ipt::script {

std::string float_repr(double x);          // 1.0, 0.1, 1e-05, 1e+16, inf, nan
std::string int_str(int64_t x);
std::string str_repr(std::string_view s);  // 'abc', "it's", 'a\n'

// format(value, spec): the format-spec mini-language for int, float, bool, str, None and
// native objects (Object::format). Raises ValueError for a bad spec like Python.
std::string format_value(const Value& v, std::string_view spec);
// Formats a float with a spec's type char ('f', 'e', 'g', '%', or 0 for none).
std::string format_float(double x, std::string_view spec);
// "fmt % args" (printf-style).
std::string percent_format(std::string_view fmt, const Value& args);
// str.format(*args, **kwargs) with {}, {0}, {name}, {:spec}, {!r}.
std::string str_format(std::string_view fmt, const Args& args, const Kwargs& kwargs);

// UTF-8 helpers (strings are stored as UTF-8; len and indexing count code points).
bool is_ascii(std::string_view s);
int64_t utf8_length(std::string_view s);
std::string utf8_encode(uint32_t cp);
// Code point boundaries: offsets of each code point plus the end offset.
std::vector<size_t> utf8_offsets(std::string_view s);

}  // namespace ipt::script
