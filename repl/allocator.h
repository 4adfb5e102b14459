// Allocator tuning for executables that link mimalloc (CMake target pir_malloc).
// Building a large IR makes millions of small allocations; on 2 MiB pages the
// kernel takes ~1/500th of the page faults, which roughly halves the system time
// of parse + verify (bench/parse_bench.cpp). Without mimalloc this does nothing.
//
// Out of memory: mimalloc built as C (as distributions ship it) aborts in its
// `operator new` (exit 134, no message); repl/main.cpp replaces operator new so
// that failures throw std::bad_alloc, and the new_handler below makes any other
// allocator path throw too. Sessions report it at the command, the CLI as
// "out of memory" with exit 1.
#pragma once
#include <new>
#ifdef PIR_HAVE_MIMALLOC
#include <mimalloc.h>
#endif

namespace pir {
inline void configureAllocator() {
  std::set_new_handler([] { throw std::bad_alloc(); });
#ifdef PIR_HAVE_MIMALLOC
  mi_option_set_enabled(mi_option_large_os_pages, true);
#endif
}
}  // namespace pir
