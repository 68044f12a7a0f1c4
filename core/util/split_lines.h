#pragma once
// split_lines: the lines of a text as views into it, without their '\n' (a last line without
// one counts; a final '\n' adds none).
#include <string_view>
#include <vector>

namespace ipt {

std::vector<std::string_view> split_lines(std::string_view text);

}  // namespace ipt
