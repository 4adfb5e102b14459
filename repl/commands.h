// The subcommands of `pir` (tools.md §1) that repl/cli.cpp dispatches to, and
// the helpers they share. cli.cpp parses the command line into these option
// structs; each command returns the exit status (0 ok, 1 program wrong,
// 2 bad command line or unreadable file).
//
// run and disasm are in repl/run_command.cpp, repl in repl/repl_command.cpp;
// dot, the profile and the pass hooks in repl/later_commands.cpp.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "device/branch_executions.h"
#include "ir/diagnostics.h"
#include "api/pass_runner.h"
#include "ir/ir.h"

namespace pir::cli {

struct NamedPath {
  std::string name, path;  // `NAME=PATH` of --feed / --save
};

struct RunOptions {
  std::string file;                 // "-" for standard input
  std::vector<std::string> passes;  // --passes=a,b (already checked against availablePasses())
  bool trace = false;               // --trace
  bool fuse = true;                 // off with --no-fuse: no fused elementwise chains
  bool profile = false;             // --profile (`pir profile`: always)
  bool profileToOutput = false;     // `pir profile`: the profile on standard output, not standard error
  bool mapping = false;             // --mapping: the profile lists the tile mapping of every tensor
  std::optional<std::string> json;      // --json=OUT: the profile as JSON
  std::optional<std::string> timeline;  // --timeline=OUT: Chrome trace-event JSON
  bool verifyEach = false;          // --verify-each
  int threads = 0;                  // --threads=N; 0: the VM chooses
  uint64_t maxSteps = 0;            // --max-steps=N (vm::SessionOptions::maxSteps); 0: unlimited
  // --feed NAME=DATA.npy / --save NAME=OUT.npy, in command-line order (repl/feed_save.h).
  std::vector<NamedPath> feeds, saves;
  WarningPolicy warnings = WarningPolicy::Report;  // -Werror / -w
};

struct DisasmOptions {
  std::string file;
  std::vector<std::string> passes;
  bool fuse = true;  // --no-fuse
};

struct ReplOptions {
  std::optional<std::string> file;  // `pir repl FILE`: loaded first
  uint64_t maxSteps = 0;            // --max-steps=N
  WarningPolicy warnings = WarningPolicy::Report;  // -Werror / -w
  uint64_t previewSteps = 0;        // --preview-steps=N (0: PreviewBudget's default)
};

struct ImportOptions {
  std::string model;                  // MODEL.onnx
  std::optional<std::string> output;  // -o OUT.pir; default: MODEL with .pir for its extension
  std::map<std::string, std::vector<int64_t>> inputShapes;  // --input-shape NAME=D0,D1,...
};

struct DotOptions {
  std::string file;
  std::optional<std::string> graph;   // --graph=@g (name without '@')
  std::optional<std::string> output;  // -o OUT
};

int runCommand(const RunOptions& options, std::istream& in, std::ostream& out, std::ostream& err);
int disasmCommand(const DisasmOptions& options, std::istream& in, std::ostream& out, std::ostream& err);
int replCommand(const ReplOptions& options, std::istream& in, std::ostream& out, std::ostream& err);
int importCommand(const ImportOptions& options, std::ostream& out, std::ostream& err);
int dotCommand(const DotOptions& options, std::istream& in, std::ostream& out, std::ostream& err);

// The profile of `module` (after `passes`, on a copy) as text to `out`: `run
// --profile` and the REPL's `:profile`. `runs`: the runs the session made, or
// -1 when not counted; `branches`: the conditional branches the session ran.
// Throws CompileError (reported).
void reportProfile(const Module& module, DiagnosticEngine& diags, std::ostream& out, int64_t runs,
                   const std::vector<std::string>& passes = {},
                   const device::BranchExecutions* branches = nullptr,
                   const std::set<std::string>* mainNamesRead = nullptr);
// The profile after a run of `pir run --profile` or `pir profile`: the text to
// `text` when given (with the tile mapping under options.mapping), the JSON and
// the timeline to their files. Returns false when a file could not be written
// (reported to `err`). Throws CompileError (reported).
bool writeProfile(const Module& module, DiagnosticEngine& diags, std::ostream* text, int64_t runs,
                  const RunOptions& options, std::ostream& err, const device::BranchExecutions* branches,
                  const std::set<std::string>* mainNamesRead = nullptr);

// The passes (availablePasses, runPasses) are api/pass_runner.h's.

// ---- shared helpers (defined in repl/cli.cpp) ---------------------------------

// Adds FILE ("-": all of `in`, named "<stdin>") to `sources`. On failure writes
// "pir: error: cannot read FILE: REASON" to `err` and returns 0 (exit status 2).
uint32_t loadSource(const std::string& file, std::istream& in, SourceManager& sources, std::ostream& err);
// The directory relative load()/save paths of FILE resolve against ("." for "-").
std::string baseDirOf(const std::string& file);
// Writes `text` to `path` atomically (temporary file in the same directory, then
// rename). On failure writes "pir: error: cannot write PATH: REASON" and returns false.
bool writeFileAtomically(const std::string& path, const std::string& text, std::ostream& err);

}  // namespace pir::cli
