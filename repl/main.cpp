#include <cstdlib>
#include <new>

#include "repl/allocator.h"
#include "repl/cli.h"
#include "pir/tool.h"

#ifdef PIR_HAVE_MIMALLOC
// mimalloc's own operator new aborts when memory runs out (built as C, it cannot
// throw; exit 134, no message). These replacements allocate with malloc — mimalloc
// all the same — and throw std::bad_alloc, which sessions report at the command
// and the CLI as "out of memory" (exit 1). Defined in the executable, they take
// precedence over the shared library's.
void* operator new(std::size_t n) {
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return ::operator new(n); }
void* operator new(std::size_t n, std::align_val_t a) {
  const std::size_t align = static_cast<std::size_t>(a);
  if (void* p = std::aligned_alloc(align, (n + align - 1) / align * align + (n == 0 ? align : 0))) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) { return ::operator new(n, a); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
#endif

int main(int argc, char** argv) {
  pir::configureAllocator();
  // Under mpirun: MPI up, every rank but 0 silent (pir/tool.h).
  if (!pir::api::initProcessGroup(argc, argv)) return 1;
  return pir::api::finishProcessGroup(pir::cli::main(argc, argv));
}
