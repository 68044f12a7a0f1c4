#pragma once
// Reading a user-named file whole, safely: only regular files (never /dev/zero, a FIFO or a
// directory), and only up to a size limit, with errors that name the file.

#include <cstdint>
#include <filesystem>
#include <string>

namespace ipt {

// The contents of `path`. ValueError "<what> '<path>': not a regular file", "... is N bytes,
// more than the limit of M bytes", or "cannot open: <reason>".
std::string read_regular_file(const std::filesystem::path& path, uint64_t max_bytes, const char* what);

}  // namespace ipt
