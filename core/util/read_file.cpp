#include "core/util/read_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "core/util/error.h"

namespace ipt {

std::string read_regular_file(const std::filesystem::path& path, uint64_t max_bytes, const char* what) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec) IPT_FAIL(ValueError, what, " '", path.string(), "': cannot open: ", ec.message());
  if (!std::filesystem::is_regular_file(status))
    IPT_FAIL(ValueError, what, " '", path.string(), "': not a regular file");
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) IPT_FAIL(ValueError, what, " '", path.string(), "': cannot read: ", ec.message());
  if (size > max_bytes)
    IPT_FAIL(ValueError, what, " '", path.string(), "' is ", size, " bytes, more than the limit of ", max_bytes,
             " bytes");
  std::ifstream in(path, std::ios::binary);
  if (!in) IPT_FAIL(ValueError, what, " '", path.string(), "': cannot open: ", std::strerror(errno));
  std::string text;
  text.reserve(static_cast<size_t>(size));
  // Reads at most the limit even if the file grows meanwhile.
  char buf[1 << 16];
  while (in && text.size() <= max_bytes) {
    in.read(buf, sizeof buf);
    text.append(buf, static_cast<size_t>(in.gcount()));
  }
  if (in.bad()) IPT_FAIL(ValueError, what, " '", path.string(), "': cannot read");
  if (text.size() > max_bytes)
    IPT_FAIL(ValueError, what, " '", path.string(), "' grew past the limit of ", max_bytes, " bytes");
  return text;
}

}  // namespace ipt
