// The VM's view of the process's host-memory budget (ir/host_memory.h): the
// budget lives below the front end, which charges its parse to it too.
#pragma once
#include "ir/host_memory.h"

namespace pir::vm {
using pir::applyHostMemoryEnvironment;
using pir::chargeHostMemory;
using pir::defaultHostMemoryLimit;
using pir::hostMemoryInUse;
using pir::hostMemoryLimit;
using pir::HostMemoryExhausted;
using pir::outOfMemoryText;
using pir::parseByteSize;
using pir::releaseHostMemory;
using pir::setHostMemoryLimit;
}  // namespace pir::vm
