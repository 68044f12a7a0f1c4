#include "core/util/write_file.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>
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

// Note [A temporary file and a terminating signal]
// While the temporary file exists, SIGINT, SIGTERM and SIGHUP remove it before they end the
// process (a killed write would otherwise leave out.json.tmp-PID-N behind, as large as the
// trace). One temporary file exists at a time (writes take a lock); the handler only calls
// unlink, sigaction and raise, which are async-signal-safe. SIGKILL cannot be caught.
std::mutex g_tmp_mutex;
char g_tmp_path[4096];
volatile sig_atomic_t g_tmp_live = 0;
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction g_prev[3];

void remove_tmp_and_reraise(int sig) {
  if (g_tmp_live) ::unlink(g_tmp_path);
  g_tmp_live = 0;
  for (size_t i = 0; i < 3; ++i)
    if (kCleanupSignals[i] == sig) ::sigaction(sig, &g_prev[i], nullptr);
  ::raise(sig);
}

// Holds the lock and the handlers while the temporary file may exist.
class TmpFileGuard {
 public:
  explicit TmpFileGuard(const std::filesystem::path& tmp) : lock_(g_tmp_mutex) {
    const std::string& p = tmp.native();
    armed_ = p.size() < sizeof g_tmp_path;
    if (!armed_) return;  // too long to keep: the file is still removed on any error
    std::memcpy(g_tmp_path, p.c_str(), p.size() + 1);
    g_tmp_live = 1;
    struct sigaction sa {};
    sa.sa_handler = remove_tmp_and_reraise;
    sigemptyset(&sa.sa_mask);
    // Only where the signal would end the process: an ignored or handled one stays as it is.
    for (size_t i = 0; i < 3; ++i) {
      ::sigaction(kCleanupSignals[i], nullptr, &g_prev[i]);
      installed_[i] = !(g_prev[i].sa_flags & SA_SIGINFO) && g_prev[i].sa_handler == SIG_DFL;
      if (installed_[i]) ::sigaction(kCleanupSignals[i], &sa, nullptr);
    }
  }
  ~TmpFileGuard() {
    if (!armed_) return;
    for (size_t i = 0; i < 3; ++i)
      if (installed_[i]) ::sigaction(kCleanupSignals[i], &g_prev[i], nullptr);
    g_tmp_live = 0;
  }
  TmpFileGuard(const TmpFileGuard&) = delete;
  TmpFileGuard& operator=(const TmpFileGuard&) = delete;

 private:
  std::lock_guard<std::mutex> lock_;
  bool armed_ = false;
  bool installed_[3] = {false, false, false};
};

}  // namespace

void write_file(const std::filesystem::path& path, std::string_view text, const char* what) {
  write_file(
      path, [&](const TextSink& put) { put(text); }, what);
}

void write_file(const std::filesystem::path& path, const std::function<void(const TextSink&)>& produce,
                const char* what) {
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
      try {
        produce([&](std::string_view piece) {
          if (!write_all(fd, piece)) fail(path, what, "write failed", errno);
        });
      } catch (...) {
        ::close(fd);
        throw;
      }
      ::close(fd);
      return;
    }
  }
  static std::atomic<uint64_t> counter{0};
  std::filesystem::path tmp = target;
  tmp += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
  TmpFileGuard guard(tmp);  // Note [A temporary file and a terminating signal]
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) fail(path, what, "cannot create a temporary file next to it", errno);
  auto give_up = [&](const char* why, int err) {
    ::unlink(tmp.c_str());
    fail(path, what, why, err);
  };
  try {
    produce([&](std::string_view piece) {
      if (!write_all(fd, piece)) fail(path, what, "write failed", errno);
    });
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
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
