// Allocator tuning for executables that link mimalloc (CMake target pir_malloc).
// Building a large IR makes millions of small allocations; on 2 MiB pages the
// kernel takes ~1/500th of the page faults, which roughly halves the system time
// of parse + verify (bench/parse_bench.cpp). Without mimalloc this does nothing.
#pragma once
#ifdef PIR_HAVE_MIMALLOC
#include <mimalloc.h>
#endif

namespace pir {
inline void configureAllocator() {
#ifdef PIR_HAVE_MIMALLOC
  mi_option_set_enabled(mi_option_large_os_pages, true);
#endif
}
}  // namespace pir
