#pragma once
// Device: where a tensor's storage lives ("cpu", "cuda:0", "meta").

#include <string>
#include <string_view>

#include "core/dispatch/dispatch_key.h"

namespace ipt {

enum class DeviceType : uint8_t { CPU, CUDA, Meta };

struct Device {
  DeviceType type = DeviceType::CPU;
  int index = -1;  // -1: the current device of that type

  constexpr Device() = default;
  constexpr Device(DeviceType t, int i = -1) : type(t), index(i) {}
  bool operator==(const Device& o) const { return type == o.type && index == o.index; }

  // "cpu", "cuda:0", "meta"
  std::string str() const;
  // Parses "cpu", "cuda", "cuda:1", "meta"; throws a RuntimeError naming the string otherwise.
  static Device parse(std::string_view s);
};

BackendComponent backend_of(DeviceType t);

}  // namespace ipt
