#include "core/util/write_file.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util/error.h"

namespace ipt {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const char* what, const char* why, int err) {
  if (err == 0) IPT_FAIL(RuntimeError, "cannot write ", what, " '", path.string(), "': ", why);
  IPT_FAIL(RuntimeError, "cannot write ", what, " '", path.string(), "': ", why, ": ", std::strerror(err));
}

// Writes all of `text` to fd; false with errno set when it cannot.
bool write_all(int fd, std::string_view text) {
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

void write_file(const std::filesystem::path& path, std::string_view text, const char* what) {
  // See Note [Replacing a file, or writing through to one].
  std::filesystem::path target = path;
  std::error_code ec;
  if (std::filesystem::is_symlink(std::filesystem::symlink_status(path, ec))) {
    target = std::filesystem::weakly_canonical(path, ec);
    if (ec) fail(path, what, "cannot follow the link", ec.value());
  }
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) fail(path, what, "it is a directory", 0);
    if (!S_ISREG(st.st_mode)) {
      const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NONBLOCK);
      if (fd < 0) fail(path, what, "cannot open it", errno);
      ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
      const bool ok = write_all(fd, text);
      const int err = errno;
      ::close(fd);
      if (!ok) fail(path, what, "write failed", err);
      return;
    }
  }
  static std::atomic<uint64_t> counter{0};
  std::filesystem::path tmp = target;
  tmp += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) fail(path, what, "cannot create a temporary file next to it", errno);
  auto give_up = [&](const char* why, int err) {
    ::unlink(tmp.c_str());
    fail(path, what, why, err);
  };
  if (!write_all(fd, text)) {
    const int err = errno;
    ::close(fd);
    give_up("write failed", err);
  }
  if (::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    give_up("flush failed", err);
  }
  if (::close(fd) != 0) give_up("close failed", errno);
  if (::rename(tmp.c_str(), target.c_str()) != 0) give_up("rename failed", errno);
}

}  // namespace ipt
