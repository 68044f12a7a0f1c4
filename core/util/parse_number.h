#pragma once
// A whole string as one number, or nothing: "12" -> 12, "12x", "" and " 12" -> nullopt.

#include <charconv>
#include <optional>
#include <string_view>
#include <system_error>

namespace ipt {

template <typename T>
std::optional<T> parse_number(std::string_view s) {
  T v{};
  if (s.empty()) return std::nullopt;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace ipt
