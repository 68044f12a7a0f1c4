#pragma once
// Errors raised by the runtime. Each carries the Python exception kind that PyTorch
// would raise for the same mistake (RuntimeError, IndexError, TypeError, ValueError, ...),
// so the snippet interpreter can re-raise it as that kind. See Note [Errors read like PyTorch's].
//
// Note [Errors read like PyTorch's]
// The message text follows PyTorch 2.15's gist (checked against it in tests/reference), but
// never carries PyTorch's C++ source locations.

#include <sstream>
#include <stdexcept>
#include <string>

namespace ipt {

enum class ErrorKind {
  RuntimeError,
  IndexError,
  TypeError,
  ValueError,
  NotImplementedError,
  KeyboardInterrupt,
  RecursionError
};

const char* error_kind_name(ErrorKind k);

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& msg) : std::runtime_error(msg), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

namespace detail {
template <typename... Args>
std::string cat(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}
}  // namespace detail

}  // namespace ipt

// IPT_CHECK(cond, kind, msg...) throws ipt::Error(kind, msg) when cond is false.
#define IPT_CHECK(cond, kind, ...)                                                            \
  do {                                                                                        \
    if (!(cond)) throw ::ipt::Error(::ipt::ErrorKind::kind, ::ipt::detail::cat(__VA_ARGS__)); \
  } while (0)
#define IPT_FAIL(kind, ...) throw ::ipt::Error(::ipt::ErrorKind::kind, ::ipt::detail::cat(__VA_ARGS__))
