#include "core/util/warning.h"

#include <atomic>
#include <cstdio>

namespace ipt {

namespace {
std::atomic<WarningHandler> g_handler{nullptr};
}  // namespace

WarningHandler set_warning_handler(WarningHandler handler) { return g_handler.exchange(handler); }

void warn(const std::string& message, const char* where, WarningKind kind) {
  const std::string full = message + " (Triggered internally at " + where + ".)";
  if (WarningHandler handler = g_handler.load()) {
    handler(full, kind);
    return;
  }
  std::fprintf(stderr, "%s: %s\n", kind == WarningKind::DeprecationWarning ? "DeprecationWarning" : "Warning",
               full.c_str());
}

}  // namespace ipt
