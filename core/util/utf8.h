#pragma once
// UTF-8 validation (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF).

#include <cstddef>
#include <optional>
#include <string_view>

namespace ipt {

// The byte offset of the first byte that does not begin or continue a valid UTF-8 sequence.
inline std::optional<size_t> first_invalid_utf8(std::string_view s) {
  size_t i = 0;
  const size_t n = s.size();
  auto cont = [&](size_t k) { return k < n && (static_cast<unsigned char>(s[k]) & 0xC0) == 0x80; };
  while (i < n) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;  // overlong
      if (c == 0xED) hi = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;  // overlong
      if (c == 0xF4) hi = 0x8F;  // past U+10FFFF
    } else {
      return i;
    }
    const unsigned char second = i + 1 < n ? static_cast<unsigned char>(s[i + 1]) : 0;
    if (i + 1 >= n || second < lo || second > hi) return i;
    for (size_t k = 2; k < len; ++k)
      if (!cont(i + k)) return i;
    i += len;
  }
  return std::nullopt;
}

// Where a text stops being UTF-8, for messages: the byte, its offset and its 1-based line.
struct InvalidUtf8 {
  size_t offset;
  int line;
  unsigned char byte;
};
inline std::optional<InvalidUtf8> find_invalid_utf8(std::string_view s) {
  const std::optional<size_t> at = first_invalid_utf8(s);
  if (!at) return std::nullopt;
  int line = 1;
  for (size_t i = 0; i < *at; ++i) line += s[i] == '\n';
  return InvalidUtf8{*at, line, static_cast<unsigned char>(s[*at])};
}

}  // namespace ipt
