#include "ir/interrupt.h"

namespace pir::detail {
std::atomic<bool> interruptFlag{false};
}  // namespace pir::detail
