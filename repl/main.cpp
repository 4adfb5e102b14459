#include "repl/allocator.h"
#include "repl/cli.h"

int main(int argc, char** argv) {
  pir::configureAllocator();
  return pir::cli::main(argc, argv);
}
