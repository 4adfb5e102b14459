#include "ir/interrupt.h"

#include "ir/context.h"

namespace pir {

namespace detail {
std::atomic<uint64_t> interruptSignals{0};
}  // namespace detail

void requestInterrupt() { currentContext().interrupt(); }
bool interruptRequested() { return currentContext().interruptRequested(); }
void clearInterrupt() { currentContext().clearInterrupt(); }

}  // namespace pir
