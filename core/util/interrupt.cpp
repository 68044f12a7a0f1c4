#include "core/util/interrupt.h"

#include "core/util/error.h"

namespace ipt {

namespace detail {
std::atomic<bool> g_interrupt_requested{false};
}

void throw_interrupt() {
  if (take_interrupt()) IPT_FAIL(KeyboardInterrupt, "");
}

}  // namespace ipt
