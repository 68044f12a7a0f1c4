#include "core/util/error.h"

namespace ipt {

const char* error_kind_name(ErrorKind k) {
  switch (k) {
    case ErrorKind::RuntimeError: return "RuntimeError";
    case ErrorKind::IndexError: return "IndexError";
    case ErrorKind::TypeError: return "TypeError";
    case ErrorKind::ValueError: return "ValueError";
    case ErrorKind::NotImplementedError: return "NotImplementedError";
    case ErrorKind::KeyboardInterrupt: return "KeyboardInterrupt";
    case ErrorKind::RecursionError: return "RecursionError";
  }
  return "RuntimeError";
}

}  // namespace ipt
