// See Note [Streams, vector clocks and races] in hazard_check.h.
#include "backends/sim/hazard_check.h"

#include <cstdint>

namespace ipt::sim {

namespace {

std::string describe(const char* what, int stream, const std::string& kernel, bool write, const std::string& args) {
  return std::string(what) + " by stream " + std::to_string(stream) + " during kernel:\n" + kernel + "\n" +
         (write ? "writing to argument(s) " : "reading from argument(s) ") + args + "\n";
}

}  // namespace

std::string HazardCheck::check(int stream, uint64_t item, const VectorClock& vc, const std::string& kernel,
                               const std::vector<Access>& accesses) {
  auto unordered = [&](const Use& u) { return u.stream != stream && !happens_before(u.stream, u.item, vc); };
  for (const Access& a : accesses) {
    if (!a.ptr) continue;
    auto it = memory_.find(a.ptr);
    if (it == memory_.end()) continue;
    const Memory& m = it->second;
    const Use* earlier = nullptr;
    bool earlier_write = false;
    if (m.written && unordered(m.last_write)) earlier = &m.last_write, earlier_write = true;
    if (!earlier && a.write)
      for (const Use& r : m.reads)
        if (unordered(r)) {
          earlier = &r;
          break;
        }
    if (!earlier) continue;
    return "CSAN detected a possible data race on tensor with data pointer " +
           std::to_string(a.addr ? a.addr : reinterpret_cast<uintptr_t>(a.ptr)) + "\n" +
           describe("Access", stream, kernel, a.write, a.arg) + "\n" +
           describe("Previous access", earlier->stream, earlier->kernel, earlier_write, earlier->args);
  }
  for (const Access& a : accesses) {
    if (!a.ptr) continue;
    Memory& m = memory_[a.ptr];
    Use u{stream, item, kernel, a.arg};
    if (a.write) {
      m.written = true;
      m.last_write = std::move(u);
      m.reads.clear();
      continue;
    }
    bool replaced = false;
    for (Use& r : m.reads)
      if (r.stream == stream) r = u, replaced = true;
    if (!replaced) m.reads.push_back(std::move(u));
  }
  return "";
}

}  // namespace ipt::sim
