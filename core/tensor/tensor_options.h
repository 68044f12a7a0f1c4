#pragma once
// The small enums that factory and copy operators take (PyTorch's Layout, MemoryFormat).

#include <cstdint>

namespace ipt {

enum class Layout : uint8_t { Strided };
enum class MemoryFormat : uint8_t { Contiguous, Preserve };

}  // namespace ipt
