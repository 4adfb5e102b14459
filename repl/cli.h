// The `pir` command line (tools.md §1). Every subcommand is a library call, so
// tests can run them in-process.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace pir::cli {

// Runs `pir ARGS...` with the given streams; returns the exit status (tools.md §1).
int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err);
int main(int argc, char** argv);

}  // namespace pir::cli
