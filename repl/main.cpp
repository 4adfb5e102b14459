#include "repl/cli.h"

int main(int argc, char** argv) { return pir::cli::main(argc, argv); }
