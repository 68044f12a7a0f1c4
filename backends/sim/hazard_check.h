#pragma once
// The simulated GPU's data-race check, in the spirit of PyTorch's CUDA sanitizer
// (torch.cuda._sanitizer).
//
// Note [Streams, vector clocks and races]
// Each stream's n-th item (a kernel, a copy, an event record or wait) is ordered after
// everything the stream has waited for: the Gpu keeps, per stream, a vector clock ("after
// the first k items of stream m") that grows with every event waited for (an event carries
// the clock of its stream when recorded), with the legacy default stream's implicit waits,
// and with what the host has waited for (work enqueued after a synchronize is ordered after
// what it waited for). Two accesses to the same memory on different streams, at least one a
// write, neither ordered before the other, are a possible data race; that includes a block
// the caching allocator handed out again while another stream still used it without
// record_stream. Memory is identified by its storage's data pointer, as the sanitizer does.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace ipt::sim {

using VectorClock = std::vector<uint64_t>;  // [stream] -> items of that stream ordered before

// Whether the `item`-th item (1-based) of stream `s` is ordered before work whose clock is vc.
inline bool happens_before(int s, uint64_t item, const VectorClock& vc) {
  return static_cast<size_t>(s) < vc.size() && vc[static_cast<size_t>(s)] >= item;
}

// One operand of a kernel: its storage's data pointer and whether the kernel writes it.
struct Access {
  const void* ptr = nullptr;
  uint64_t addr = 0;  // as Tensor.data_ptr() shows it (the report's "data pointer")
  bool write = false;
  const char* arg = "";  // "self", "other", "out", ...
};

class HazardCheck {
 public:
  // The accesses of `kernel`, the `item`-th item of `stream`, ordered after `vc`. Returns the
  // report of the first race found (and records nothing), or "" (and records the accesses).
  std::string check(int stream, uint64_t item, const VectorClock& vc, const std::string& kernel,
                    const std::vector<Access>& accesses);
  void clear() { memory_.clear(); }

 private:
  struct Use {
    int stream = 0;
    uint64_t item = 0;
    std::string kernel;
    std::string args;
  };
  struct Memory {
    bool written = false;
    Use last_write;
    std::vector<Use> reads;  // since the last write, one per stream
  };
  std::unordered_map<const void*, Memory> memory_;
};

}  // namespace ipt::sim
