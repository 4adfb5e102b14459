// The subcommands of `pir` (tools.md §1) that repl/cli.cpp dispatches to, and
// the helpers they share. cli.cpp parses the command line into these option
// structs; each command returns the exit status (0 ok, 1 program wrong,
// 2 bad command line or unreadable file).
//
// run and disasm are in repl/run_command.cpp, repl in repl/repl_command.cpp,
// dot in repl/dot_command.cpp, import in repl/import_command.cpp. Every
// command is thin over the public API (pir/pir.h, pir/tool.h, pir/onnx.h).
#pragma once
#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "pir/pir.h"

namespace pir::cli {

struct NamedPath {
  std::string name, path;  // `NAME=PATH` of --feed / --save
};

struct RunOptions {
  std::string file;                 // "-" for standard input
  std::vector<std::string> passes;  // --passes=a,b (already checked: api::Context::parsePipeline)
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
  api::Warnings warnings = api::Warnings::Report;  // -Werror / -w
};

struct DisasmOptions {
  std::string file;
  std::vector<std::string> passes;
  bool fuse = true;  // --no-fuse
};

struct ReplOptions {
  std::optional<std::string> file;  // `pir repl FILE`: loaded first
  uint64_t maxSteps = 0;            // --max-steps=N
  api::Warnings warnings = api::Warnings::Report;  // -Werror / -w
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

// ---- shared helpers (defined in repl/cli.cpp) ---------------------------------

// A program's text and the name its diagnostics give it.
struct SourceText {
  std::string name;  // FILE, or "<stdin>" for "-"
  std::string text;
};
// Reads FILE ("-": all of `in`). On failure writes "pir: error: cannot read
// FILE: REASON" to `err` and returns nullopt (exit status 2).
std::optional<SourceText> readSource(const std::string& file, std::istream& in, std::ostream& err);
// Parses and verifies FILE (readSource) into a module of `context`, writing
// its warnings, or its diagnostics, to `err`. On failure nullopt, with `status`
// the exit status: 2 when FILE cannot be read, 1 when the program is wrong.
std::optional<api::Module> parseProgram(const std::string& file, std::istream& in, api::Context& context,
                                        std::ostream& err, int& status);
// The directory relative load()/save paths of FILE resolve against ("." for "-").
std::string baseDirOf(const std::string& file);
// Writes `text` to `path` atomically (temporary file in the same directory, then
// rename). On failure writes "pir: error: cannot write PATH: REASON" and returns false.
bool writeFileAtomically(const std::string& path, const std::string& text, std::ostream& err);

}  // namespace pir::cli
