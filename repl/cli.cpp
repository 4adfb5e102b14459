// The `pir` command line (tools.md §1): argument parsing, usage text, and the
// `check` and `opt` commands. The other commands live behind repl/commands.h.
#include "repl/cli.h"

#include <signal.h>
#include <unistd.h>

#include <sys/stat.h>

#include <cctype>
#include <climits>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <span>
#include <map>
#include <sstream>
#include <string_view>

#include "pir/onnx.h"
#include "pir/pir.h"
#include "pir/tool.h"
#include "repl/commands.h"
#include "repl/feed_save.h"

namespace pir::cli {
namespace {

extern "C" void onRunSigint(int) { api::requestInterrupt(); }

// `pir run` under Ctrl-C: the run stops at the op being executed (or the
// statement being read) with the usual located error, "interrupted"
// (api::requestInterrupt); then the process ends by SIGINT, as a shell expects of an
// interrupted command. SA_RESETHAND: a second Ctrl-C kills at once (a single
// long kernel does not poll). A SIGINT ignored by the parent stays ignored.
class RunInterruptScope {
 public:
  RunInterruptScope() : signalsBefore_(api::interruptSignalCount()) {
    struct sigaction action {};
    action.sa_handler = onRunSigint;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND | SA_RESTART;
    installed_ = sigaction(SIGINT, &action, &previous_) == 0;
    if (installed_ && previous_.sa_handler == SIG_IGN) {
      sigaction(SIGINT, &previous_, nullptr);
      installed_ = false;
    }
  }
  ~RunInterruptScope() {
    if (!installed_) return;
    sigaction(SIGINT, &previous_, nullptr);
    if (api::interruptSignalCount() != signalsBefore_) {
      std::fflush(nullptr);
      ::raise(SIGINT);
    }
  }
  RunInterruptScope(const RunInterruptScope&) = delete;
  RunInterruptScope& operator=(const RunInterruptScope&) = delete;

 private:
  uint64_t signalsBefore_;  // the interrupt signals before this scope: a new one ends the process
  struct sigaction previous_ {};
  bool installed_ = false;
};

constexpr int kOk = 0;
constexpr int kProgramError = 1;
constexpr int kUsageError = 2;
// --threads: replica threads are real threads; beyond this a run would only thrash.
constexpr int kMaxThreads = 4096;

// Unlike the other commands, check goes on after an error to report every
// independent error of the file, up to a cap (api::Module::check).
int checkCommand(const std::string& file, api::Warnings warnings, std::istream& in, std::ostream& err,
                 bool processExitsAfter) {
  std::optional<SourceText> source = readSource(file, in, err);
  if (!source) return kUsageError;
  api::Context context({.warnings = warnings});
  api::Result<std::string> checked =
      api::Module::check(context, std::move(source->text), source->name, baseDirOf(file), processExitsAfter);
  err << (checked ? *checked : checked.error());
  return checked ? kOk : kProgramError;
}

struct OptOptions {
  std::string file;
  std::vector<std::string> passes;
  bool printAfterEach = false;
  bool verifyEach = false;
  std::optional<std::string> output;
  api::Warnings warnings = api::Warnings::Report;
};

int optCommand(const OptOptions& o, std::istream& in, std::ostream& out, std::ostream& err) {
  api::Context context({.warnings = o.warnings});
  int status = 0;
  std::optional<api::Module> module = parseProgram(o.file, in, context, err, status);
  if (!module) return status;
  // --print-after-each: the IR after every pass ("# -- after PASS --" is a
  // comment, so each section is itself a valid program), then the result. The
  // file's own commands read main values: passes keep them.
  if (!o.passes.empty())
    if (api::Status s = module->runPasses(o.passes, o.verifyEach, o.printAfterEach ? &out : nullptr); !s) {
      err << s.error();
      return kProgramError;
    }
  std::string text = module->print();
  if (o.output) return writeFileAtomically(*o.output, text, err) ? kOk : kUsageError;
  out << text;
  out.flush();
  return kOk;
}

// ---- the command table ---------------------------------------------------------
// Every command of `pir` is one row of kCommands: its usage line, `pir --help`
// entry and `pir help CMD` text are generated from the row and its options, and
// its handler receives the parsed command line.

struct Streams {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
  // The process ends when the command returns (cli::main, not cli::run): what
  // the command built may be left to the exit instead of being freed.
  bool processExitsAfter = false;
};

// The command line as read: the positional argument and every option of any
// command (each handler reads those of its own row; the others keep their defaults).
struct CommandLine {
  std::optional<std::string> positional;  // FILE, or help's topic
  std::vector<std::string> passes;
  bool trace = false, fuse = true, profile = false, verifyEach = false, printAfterEach = false, mapping = false,
       markdown = false;
  int threads = 0;
  uint64_t maxSteps = 0;
  std::optional<uint64_t> maxMemory;
  std::vector<NamedPath> feeds, saves;
  std::optional<std::string> json, timeline, graph, output;
  api::Warnings warnings = api::Warnings::Report;
  uint64_t previewSteps = 0;                            // repl --preview-steps
  std::map<std::string, std::vector<int64_t>> inputShapes;  // import --input-shape
};

// One option: a switch `--name`, or `--name=VALUE` / `--name VALUE` (`-o VALUE`).
// `apply` stores it; it returns false, with `problem` set, when the value is bad.
struct OptionSpec {
  std::string_view name;
  std::string_view value;  // the value's placeholder; empty for a switch
  bool repeatable;
  std::string_view help;  // a line break continues the text under the first line
  bool (*apply)(CommandLine&, const std::string& value, std::string& problem);
};

bool parsePositive(const std::string& text, unsigned long long max, unsigned long long& n) {
  char* end = nullptr;
  errno = 0;
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  n = std::strtoull(text.c_str(), &end, 10);
  return *end == '\0' && errno == 0 && n >= 1 && n <= max;
}

// A file the run will read: it is opened now, so a missing one is a command-line
// error (exit 2) before anything runs.
bool readableFile(const std::string& path, std::string& problem) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    problem = "cannot read " + path + ": " + std::strerror(errno);
    return false;
  }
  std::fclose(f);
  return true;
}

// A file the run will write: its folder must exist and be writable, and the path
// must not be a folder, so a mistyped path fails before the run, not after it.
bool writableTarget(const std::string& path, std::string& problem) {
  const std::string dir = baseDirOf(path);
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
    problem = "cannot write " + path + ": " + std::strerror(EISDIR);
    return false;
  }
  if (::access(dir.c_str(), W_OK) != 0) {
    problem = "cannot write into " + dir + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool applyNamedPath(std::vector<NamedPath>& list, const std::string& value, bool (*check)(const std::string&, std::string&),
                    std::string& problem) {
  NamedPath named;
  if (!parseNamedPath(value, named, problem) || !check(named.path, problem)) return false;
  list.push_back(std::move(named));
  return true;
}

// Each option is defined once; the rows of kCommands point at the ones they take.
constexpr OptionSpec kPasses{"--passes", "LIST", false,
                             "comma-separated pass pipeline, run in order (listed below)",
                             [](CommandLine& c, const std::string& v, std::string& problem) {
                               api::Result<std::vector<std::string>> pipeline = api::Context().parsePipeline(v);
                               if (!pipeline) problem = pipeline.message();
                               else c.passes = std::move(*pipeline);
                               return pipeline.ok();
                             }};
constexpr OptionSpec kTrace{"--trace", "", false, "trace every executed op to standard error: its value and time",
                            [](CommandLine& c, const std::string&, std::string&) { return c.trace = true; }};
constexpr OptionSpec kNoFuse{"--no-fuse", "", false, "one instruction per op (no fused chains or sliced groups)",
                             [](CommandLine& c, const std::string&, std::string&) {
                               c.fuse = false;
                               return true;
                             }};
constexpr OptionSpec kProfile{"--profile", "", false,
                              "report memory and cycle estimates to standard error after the run",
                              [](CommandLine& c, const std::string&, std::string&) { return c.profile = true; }};
constexpr OptionSpec kJson{"--json", "OUT", false, "also write the profile as JSON to OUT (docs/profile-schema.md)",
                           [](CommandLine& c, const std::string& v, std::string& problem) {
                             c.json = v;
                             return writableTarget(v, problem);
                           }};
constexpr OptionSpec kTimeline{"--timeline", "OUT", false,
                               "write the profile's phases as a Chrome trace (Perfetto, chrome://tracing)",
                               [](CommandLine& c, const std::string& v, std::string& problem) {
                                 c.timeline = v;
                                 return writableTarget(v, problem);
                               }};
constexpr OptionSpec kMapping{"--mapping", "", false, "also list the tile mapping of every tensor",
                              [](CommandLine& c, const std::string&, std::string&) { return c.mapping = true; }};
constexpr OptionSpec kThreads{"--threads", "N", false, "run replicas on N threads",
                              [](CommandLine& c, const std::string& v, std::string& problem) {
                                unsigned long long n = 0;
                                if (!parsePositive(v, kMaxThreads, n)) {
                                  problem = "needs an integer from 1 to " + std::to_string(kMaxThreads) + ", got '" + v + "'";
                                  return false;
                                }
                                c.threads = static_cast<int>(n);
                                return true;
                              }};
constexpr OptionSpec kVerifyEach{"--verify-each", "", false, "verify the IR after every pass",
                                 [](CommandLine& c, const std::string&, std::string&) { return c.verifyEach = true; }};
constexpr OptionSpec kPrintAfterEach{
    "--print-after-each", "", false, "print the IR after every pass (to standard output)",
    [](CommandLine& c, const std::string&, std::string&) { return c.printAfterEach = true; }};
constexpr OptionSpec kMaxMemory{"--max-memory", "BYTES", false,
                                "host memory budget for tensors (K/M/G/T suffixes; default 3/4 of RAM;\n"
                                "also PIR_MAX_MEMORY)",
                                [](CommandLine& c, const std::string& v, std::string& problem) {
                                  c.maxMemory = api::parseByteSize(v);
                                  if (!c.maxMemory)
                                    problem = "needs a positive byte count (optionally with K, M, G or T), got '" + v + "'";
                                  return c.maxMemory.has_value();
                                }};
constexpr OptionSpec kMaxSteps{"--max-steps", "N", false,
                               "work budget of all runs together, per replica: an instruction is one step\n"
                               "plus one per 64 elements it touches (a matmul: per multiply-add); the run\n"
                               "that would exceed it fails at that op (default: unlimited)",
                               [](CommandLine& c, const std::string& v, std::string& problem) {
                                 unsigned long long n = 0;
                                 if (!parsePositive(v, ULLONG_MAX, n)) {
                                   problem = "needs a positive integer, got '" + v + "'";
                                   return false;
                                 }
                                 c.maxSteps = n;
                                 return true;
                               }};
constexpr OptionSpec kFeed{"--feed", "NAME=DATA.npy", true,
                           "feed h2d stream $NAME from DATA.npy before the file's first run\n"
                           "(or the default run)",
                           [](CommandLine& c, const std::string& v, std::string& problem) {
                             return applyNamedPath(c.feeds, v, readableFile, problem);
                           }};
constexpr OptionSpec kSave{"--save", "NAME=OUT.npy", true, "after the last run, save $NAME (or %NAME) to OUT.npy",
                           [](CommandLine& c, const std::string& v, std::string& problem) {
                             return applyNamedPath(c.saves, v, writableTarget, problem);
                           }};
constexpr OptionSpec kOutput{"-o", "OUT", false, "write the result to OUT (atomically) instead of standard output",
                             [](CommandLine& c, const std::string& v, std::string&) {
                               c.output = v;
                               return true;
                             }};
constexpr OptionSpec kGraph{"--graph", "@g", false, "only graph @g",
                            [](CommandLine& c, const std::string& v, std::string&) {
                              c.graph = v.starts_with("@") ? v.substr(1) : v;
                              return true;
                            }};
constexpr OptionSpec kWerror{"-Werror", "", false, "warnings are errors (exit status 1)",
                             [](CommandLine& c, const std::string&, std::string&) {
                               c.warnings = api::Warnings::Error;
                               return true;
                             }};
constexpr OptionSpec kNoWarnings{"-w", "", false, "warnings are not shown",
                                 [](CommandLine& c, const std::string&, std::string&) {
                                   c.warnings = api::Warnings::Ignore;
                                   return true;
                                 }};
constexpr OptionSpec kPreviewSteps{"--preview-steps", "N", false,
                                  "the step budget of each echo preview (default 16777216); a preview that\n"
                                  "would exceed it is skipped and the echo says so",
                                  [](CommandLine& c, const std::string& v, std::string& problem) {
                                    unsigned long long n = 0;
                                    if (!parsePositive(v, ULLONG_MAX, n)) {
                                      problem = "needs a positive integer, got '" + v + "'";
                                      return false;
                                    }
                                    c.previewSteps = n;
                                    return true;
                                  }};
constexpr OptionSpec kModelOutput{"-o", "OUT.pir", false, "where to write the program",
                                  [](CommandLine& c, const std::string& v, std::string&) {
                                    c.output = v;
                                    return true;
                                  }};
constexpr OptionSpec kInputShape{"--input-shape", "NAME=D0,D1,...", true,
                                 "fix the dims of graph input NAME (its ONNX name)",
                                 [](CommandLine& c, const std::string& v, std::string& problem) {
                                   std::string inputName;
                                   std::vector<int64_t> dims;
                                   if (!onnx_import::parseInputShape(v, inputName, dims, problem)) return false;
                                   c.inputShapes[inputName] = dims;
                                   return true;
                                 }};
constexpr OptionSpec kMarkdown{"--markdown", "", false, "with `ops` or `keywords`: the Markdown of the docs",
                               [](CommandLine& c, const std::string&, std::string&) { return c.markdown = true; }};

struct CommandSpec;
using Handler = int (*)(const CommandSpec&, const CommandLine&, Streams&);

struct CommandSpec {
  std::string_view name;
  std::string_view positional;  // "FILE" (required), or bracketed when optional: "[FILE]"
  std::string_view summary;     // one line, for `pir --help`
  std::string_view description;  // `pir help CMD`, before the options (may be empty)
  std::span<const OptionSpec* const> options;
  Handler handler;
};

int replHandler(const CommandSpec&, const CommandLine&, Streams&);
int runHandler(const CommandSpec&, const CommandLine&, Streams&);
int checkHandler(const CommandSpec&, const CommandLine&, Streams&);
int optHandler(const CommandSpec&, const CommandLine&, Streams&);
int dotHandler(const CommandSpec&, const CommandLine&, Streams&);
int profileHandler(const CommandSpec&, const CommandLine&, Streams&);
int disasmHandler(const CommandSpec&, const CommandLine&, Streams&);
int helpHandler(const CommandSpec&, const CommandLine&, Streams&);
int importHandler(const CommandSpec&, const CommandLine&, Streams&);

constexpr const OptionSpec* kReplOptions[] = {&kMaxMemory, &kMaxSteps, &kPreviewSteps, &kWerror, &kNoWarnings};
constexpr const OptionSpec* kImportOptions[] = {&kModelOutput, &kInputShape, &kMaxMemory};
constexpr const OptionSpec* kCheckOptions[] = {&kMaxMemory, &kWerror, &kNoWarnings};
constexpr const OptionSpec* kRunOptions[] = {&kPasses,     &kTrace,    &kNoFuse,    &kProfile,   &kJson,
                                             &kTimeline,   &kThreads,  &kVerifyEach, &kMaxMemory, &kMaxSteps,
                                             &kFeed,       &kSave,     &kWerror,    &kNoWarnings};
constexpr const OptionSpec* kOptOptions[] = {&kPasses, &kPrintAfterEach, &kVerifyEach, &kOutput, &kMaxMemory, &kWerror, &kNoWarnings};
constexpr const OptionSpec* kDotOptions[] = {&kGraph, &kOutput, &kMaxMemory};
constexpr const OptionSpec* kProfileOptions[] = {&kPasses, &kJson,      &kTimeline, &kMapping,
                                                 &kMaxMemory, &kMaxSteps, &kFeed,     &kSave,
                                                 &kWerror,    &kNoWarnings};
constexpr const OptionSpec* kDisasmOptions[] = {&kPasses, &kNoFuse, &kMaxMemory};
constexpr const OptionSpec* kHelpOptions[] = {&kMarkdown};

constexpr CommandSpec kCommands[] = {
    {"repl", "[FILE]", "the interactive REPL (also `pir` with no arguments)",
     "Reads statements and meta-commands (:help) one at a time; with FILE, loads it first.\n"
     "When standard input is not a terminal there is no prompt; the exit status is 1\n"
     "if any input failed.\n",
     kReplOptions, replHandler},
    {"run", "FILE", "parse, verify, apply passes and run the session commands",
     "A file with no session command runs once and prints every d2h stream.\n"
     "Files named by --feed and the folders of --save, --json and --timeline are\n"
     "checked before the run (exit status 2).\n",
     kRunOptions, runHandler},
    {"check", "FILE", "parse and verify; silent on success",
     "Exit status 0 if FILE is a valid program, 1 with diagnostics on standard error if not.\n"
     "Warnings go to standard error and leave the status 0.\n",
     kCheckOptions, checkHandler},
    {"opt", "FILE", "print the canonical IR after the passes", "", kOptOptions, optHandler},
    {"import", "MODEL.onnx", "import an ONNX model as a .pir program (docs/importing.md)",
     "Writes OUT.pir (default: MODEL with the extension .pir) and, beside it, one .npy file per\n"
     "large initializer. Nothing is written when the import fails (exit 1).\n",
     kImportOptions, importHandler},
    {"dot", "FILE", "Graphviz DOT of the graphs", "", kDotOptions, dotHandler},
    {"profile", "FILE", "run, then report memory and cycle estimates",
     "Runs as `pir run` does (the values on standard output), then prints the profile\n"
     "to standard output.\n",
     kProfileOptions, profileHandler},
    {"disasm", "FILE", "the VM bytecode of every graph, with source locations", "", kDisasmOptions, disasmHandler},
    {"help", "[TOPIC]", "usage of a command; a keyword of the language; the op reference",
     "TOPIC is a command, a keyword, `keywords`, `ops` or an op:\n"
     "  help CMD               the options of CMD\n"
     "  help KEYWORD           a keyword or session command of the language (e.g. `pir help var`)\n"
     "  help keywords          every keyword, one line each (--markdown: docs/language.md §13)\n"
     "  help ops               every op: operands, attributes and defaults, gradient\n"
     "                         (--markdown: the same as docs/ops.md)\n"
     "  help OP                one op: attributes, dtype rules, result type, gradient,\n"
     "                         in-place variant, aliases (e.g. `pir help matmul`)\n",
     kHelpOptions, helpHandler},
};

const CommandSpec* findCommand(std::string_view name) {
  for (const CommandSpec& c : kCommands)
    if (c.name == name) return &c;
  return nullptr;
}

std::string optionUsage(const OptionSpec& o) {
  std::string s(o.name);
  if (!o.value.empty()) s += (o.name.starts_with("--") && !o.repeatable ? "=" : " ") + std::string(o.value);
  return s;
}

std::string synopsis(const CommandSpec& c) {
  std::string s(c.name);
  s += ' ';
  s += c.positional;
  for (const OptionSpec* o : c.options) s += " [" + optionUsage(*o) + "]" + (o->repeatable ? "..." : "");
  return s;
}

void printGeneralHelp(std::ostream& out) {
  out << "usage: pir <command> [options]\n"
         "       pir --help | --version\n\n"
         "Commands:\n";
  for (const CommandSpec& c : kCommands) {
    std::string left = std::string(c.name) + " " + std::string(c.positional);
    out << "  " << left;
    for (size_t i = left.size(); i < 16; ++i) out << ' ';
    out << ' ' << c.summary << '\n';
  }
  out << "\nFILE may be '-' for standard input. `pir help CMD` shows the options of CMD,\n"
         "`pir help KEYWORD` a keyword of the language, `pir help OP` an op.\n"
         "Exit status: 0 success, 1 the program is wrong, 2 bad command line or unreadable file.\n";
}

void printCommandHelp(const CommandSpec& c, std::ostream& out) {
  std::string summary(c.summary);
  summary[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(summary[0])));
  out << "usage: pir " << synopsis(c) << "\n\n" << summary << ".\n";
  if (!c.description.empty()) out << '\n' << c.description;
  if (!c.options.empty()) out << "\nOptions:\n";
  constexpr size_t kHelpColumn = 25;
  for (const OptionSpec* o : c.options) {
    std::string left = "  " + optionUsage(*o);
    out << left;
    if (left.size() + 1 > kHelpColumn) out << '\n' << std::string(kHelpColumn, ' ');
    else out << std::string(kHelpColumn - left.size(), ' ');
    for (char ch : o->help) {
      out << ch;
      if (ch == '\n') out << std::string(kHelpColumn, ' ');
    }
    out << (o->repeatable ? "; repeatable\n" : "\n");
  }
  for (const OptionSpec* o : c.options) {
    if (o != &kPasses) continue;
    out << "\nPasses:";
    const std::vector<api::PassInfo> passes = api::Context().passes();
    if (passes.empty()) out << " (none in this build)";
    out << '\n';
    for (const api::PassInfo& p : passes) {
      out << "  " << p.name;
      for (size_t i = p.name.size(); i < 16; ++i) out << ' ';
      out << ' ' << p.summary << '\n';
    }
  }
}

int usageError(std::ostream& err, const std::string& message, const CommandSpec* command) {
  err << "pir: error: " << message << '\n';
  if (command)
    err << "usage: pir " << synopsis(*command) << '\n';
  else
    err << "see 'pir --help'\n";
  return kUsageError;
}

bool isOption(const std::string& a) { return a.size() > 1 && a[0] == '-'; }

// Reads `pir CMD [ARG] [options]` against the row of CMD. Returns false after
// reporting a usage error.
bool readCommandLine(const std::vector<std::string>& args, const CommandSpec& command, CommandLine& line,
                     std::ostream& err) {
  bool optionsEnded = false;  // after `--`, everything is positional (e.g. a file named "-x.pir")
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (!optionsEnded && a == "--") {
      optionsEnded = true;
      continue;
    }
    if (!optionsEnded && isOption(a)) {
      const OptionSpec* option = nullptr;
      std::string value;
      for (const OptionSpec* o : command.options) {
        if (a == o->name) {
          option = o;
          if (!o->value.empty()) {
            if (i + 1 >= args.size()) {
              usageError(err, "option '" + std::string(o->name) + "' needs a value", &command);
              return false;
            }
            value = args[++i];
          }
          break;
        }
        if (!o->value.empty() && a.size() > o->name.size() && a.starts_with(o->name) && a[o->name.size()] == '=') {
          option = o;
          value = a.substr(o->name.size() + 1);
          break;
        }
      }
      if (!option) {
        std::vector<std::string> names;
        for (const OptionSpec* o : command.options) names.emplace_back(o->name);
        std::string word = a.substr(0, a.find('='));
        usageError(err, "unknown option '" + a + "' for '" + std::string(command.name) + "'" + api::didYouMean(word, names),
                   &command);
        return false;
      }
      std::string problem;
      if (!option->apply(line, value, problem)) {
        // "--max-steps needs a positive integer, got 'x'"; "--feed x=y.npy: cannot read y.npy: ..."
        const bool spaced = option->repeatable || !option->name.starts_with("--");
        usageError(err,
                   problem.starts_with("needs ") ? std::string(option->name) + " " + problem
                                                 : std::string(option->name) + (spaced ? " " : "=") + value + ": " + problem,
                   &command);
        return false;
      }
      continue;
    }
    if (line.positional) {
      usageError(err, "unexpected argument '" + a + "'", &command);
      return false;
    }
    line.positional = a;
  }
  if (!line.positional && !command.positional.starts_with("[")) {
    usageError(err, "'" + std::string(command.name) + "' needs a " + std::string(command.positional), &command);
    return false;
  }
  return true;
}

bool wantsHelp(const std::vector<std::string>& args) {
  for (size_t i = 1; i < args.size(); ++i)
    if (args[i] == "--help" || args[i] == "-h") return true;
  return false;
}

int replHandler(const CommandSpec&, const CommandLine& line, Streams& io) {
  ReplOptions o;
  o.file = line.positional;
  o.maxSteps = line.maxSteps;
  o.warnings = line.warnings;
  o.previewSteps = line.previewSteps;
  return replCommand(o, io.in, io.out, io.err);
}

int importHandler(const CommandSpec&, const CommandLine& line, Streams& io) {
  ImportOptions o;
  o.model = *line.positional;
  o.output = line.output;
  o.inputShapes = line.inputShapes;
  return importCommand(o, io.out, io.err);
}

RunOptions runOptionsOf(const CommandLine& line) {
  RunOptions o;
  o.file = *line.positional;
  o.passes = line.passes;
  o.trace = line.trace;
  o.fuse = line.fuse;
  o.profile = line.profile;
  o.verifyEach = line.verifyEach;
  o.threads = line.threads;
  o.maxSteps = line.maxSteps;
  o.feeds = line.feeds;
  o.saves = line.saves;
  o.json = line.json;
  o.timeline = line.timeline;
  o.warnings = line.warnings;
  return o;
}

int runHandler(const CommandSpec&, const CommandLine& line, Streams& io) {
  RunInterruptScope interruptible;
  return runCommand(runOptionsOf(line), io.in, io.out, io.err);
}

int profileHandler(const CommandSpec&, const CommandLine& line, Streams& io) {
  RunOptions o = runOptionsOf(line);
  o.profile = true;
  o.profileToOutput = true;
  o.mapping = line.mapping;
  RunInterruptScope interruptible;
  return runCommand(o, io.in, io.out, io.err);
}

int checkHandler(const CommandSpec&, const CommandLine& line, Streams& io) {
  return checkCommand(*line.positional, line.warnings, io.in, io.err, io.processExitsAfter);
}

int optHandler(const CommandSpec&, const CommandLine& line, Streams& io) {
  OptOptions o;
  o.file = *line.positional;
  o.passes = line.passes;
  o.printAfterEach = line.printAfterEach;
  o.verifyEach = line.verifyEach;
  o.output = line.output;
  o.warnings = line.warnings;
  return optCommand(o, io.in, io.out, io.err);
}

int dotHandler(const CommandSpec&, const CommandLine& line, Streams& io) {
  DotOptions o;
  o.file = *line.positional;
  o.graph = line.graph;
  o.output = line.output;
  return dotCommand(o, io.in, io.out, io.err);
}

int disasmHandler(const CommandSpec&, const CommandLine& line, Streams& io) {
  DisasmOptions o;
  o.file = *line.positional;
  o.passes = line.passes;
  o.fuse = line.fuse;
  return disasmCommand(o, io.in, io.out, io.err);
}

// `help TOPIC`: a command, a keyword of the language, or an op. A word that is
// both a command and a session command (`run`) shows both.
int helpHandler(const CommandSpec& help, const CommandLine& line, Streams& io) {
  if (!line.positional) {
    if (line.markdown) return usageError(io.err, "--markdown goes with 'ops' or 'keywords'", &help);
    printGeneralHelp(io.out);
    return kOk;
  }
  const std::string& topic = *line.positional;
  if (topic == "ops" || topic == "keywords") {
    io.out << (topic == "ops" ? api::opReference(line.markdown) : api::keywordReference(line.markdown));
    return kOk;
  }
  if (line.markdown) return usageError(io.err, "--markdown goes with 'ops' or 'keywords'", &help);
  const CommandSpec* command = findCommand(topic);
  std::optional<std::string> keyword = api::keywordHelp(topic);
  if (command) printCommandHelp(*command, io.out);
  if (keyword) io.out << (command ? "\n" : "") << *keyword;
  if (command || keyword) return kOk;
  if (std::optional<std::string> text = api::opHelp(topic)) {
    io.out << *text;
    return kOk;
  }
  std::vector<std::string> names;
  for (const CommandSpec& k : kCommands) names.emplace_back(k.name);
  for (std::string& word : api::keywordNames()) names.push_back(std::move(word));
  for (std::string& op : api::opNames()) names.push_back(std::move(op));
  return usageError(io.err, "unknown command, keyword or op '" + topic + "'" + api::didYouMean(topic, names), nullptr);
}

int dispatch(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err,
             bool processExitsAfter) {
  if (args.empty()) return replCommand(ReplOptions{}, in, out, err);
  const std::string& name = args[0];
  if (name == "--help" || name == "-h") {
    printGeneralHelp(out);
    return kOk;
  }
  if (name == "--version") {
    out << "pir " << api::version() << '\n';
    return kOk;
  }
  const CommandSpec* command = findCommand(name);
  if (!command) {
    if (isOption(name)) return usageError(err, "unknown option '" + name + "'", nullptr);
    std::vector<std::string> names;
    for (const CommandSpec& k : kCommands) names.emplace_back(k.name);
    return usageError(err, "unknown command '" + name + "'" + api::didYouMean(name, names), nullptr);
  }
  if (command->handler != helpHandler && wantsHelp(args)) {
    printCommandHelp(*command, out);
    return kOk;
  }
  CommandLine line;
  if (!readCommandLine(args, *command, line, err)) return kUsageError;
  // The process's host-memory budget (api::setHostMemoryLimit); it overrides
  // PIR_MAX_MEMORY, which run() applied before dispatching.
  if (line.maxMemory) api::setHostMemoryLimit(*line.maxMemory);
  Streams io{in, out, err, processExitsAfter};
  return command->handler(*command, line, io);
}

}  // namespace

std::optional<SourceText> readSource(const std::string& file, std::istream& in, std::ostream& err) {
  if (file == "-") {
    std::ostringstream text;
    if (in.rdbuf()) text << in.rdbuf();
    if (in.bad()) {
      err << "pir: error: cannot read -: standard input failed\n";
      return std::nullopt;
    }
    return SourceText{"<stdin>", text.str()};
  }
  auto fail = [&](int code) {
    err << "pir: error: cannot read " << file << ": " << std::strerror(code) << '\n';
    return std::nullopt;
  };
  if (file.empty()) return fail(ENOENT);
  std::FILE* f = std::fopen(file.c_str(), "rb");
  if (!f) return fail(errno);
  std::string text;
  // A regular file's size, when known, is the text's room: read once, never regrown.
  struct stat info{};
  if (::fstat(::fileno(f), &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0)
    text.reserve(static_cast<size_t>(info.st_size));
  char buf[1 << 16];
  size_t n;
  errno = 0;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  // fopen succeeds on a directory; the read is what fails (EISDIR).
  int readError = std::ferror(f) ? (errno ? errno : EIO) : 0;
  std::fclose(f);
  if (readError) return fail(readError);
  return SourceText{file, std::move(text)};
}

std::optional<api::Module> parseProgram(const std::string& file, std::istream& in, api::Context& context,
                                        std::ostream& err, int& status) {
  std::optional<SourceText> source = readSource(file, in, err);
  if (!source) {
    status = kUsageError;
    return std::nullopt;
  }
  api::Result<api::Module> module = api::Module::parse(context, source->text, source->name, baseDirOf(file));
  if (!module) {
    err << module.error();
    status = kProgramError;
    return std::nullopt;
  }
  err << module->takeWarnings();
  status = kOk;
  return std::move(*module);
}

std::string baseDirOf(const std::string& file) {
  if (file == "-") return ".";
  size_t slash = file.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return file.substr(0, slash);
}

bool writeFileAtomically(const std::string& path, const std::string& text, std::ostream& err) {
  // The temporary is in the target's directory so that rename() is atomic.
  std::string temp = path + ".tmp." + std::to_string(::getpid());
  auto fail = [&](int code) {
    std::remove(temp.c_str());
    err << "pir: error: cannot write " << path << ": " << std::strerror(code) << '\n';
    return false;
  };
  std::FILE* f = std::fopen(temp.c_str(), "wb");
  if (!f) return fail(errno);
  size_t written = std::fwrite(text.data(), 1, text.size(), f);
  int writeError = written != text.size() ? (errno ? errno : EIO) : 0;
  if (std::fclose(f) != 0 && !writeError) writeError = errno ? errno : EIO;
  if (writeError) return fail(writeError);
  if (std::rename(temp.c_str(), path.c_str()) != 0) return fail(errno);
  return true;
}

namespace {

int runCommandLine(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err,
                   bool processExitsAfter) {
  // Bad input must never crash the tool: anything that escapes a command is
  // reported, not rethrown.
  try {
    if (auto envError = api::applyHostMemoryEnvironment()) {
      err << "pir: error: " << *envError << '\n';
      return kUsageError;
    }
    return dispatch(args, in, out, err, processExitsAfter);
  } catch (const std::bad_alloc& e) {
    // The API reports memory refusals as a call's failure; this is the last
    // resort, still a message and exit 1, never an abort. A refusal of the
    // host-memory budget says what it refused (its what() is its own).
    const bool described = std::string_view(e.what()) != std::bad_alloc().what();
    err << "pir: error: out of memory" << (described ? std::string(": ") + e.what() : std::string()) << '\n';
    return kProgramError;
  } catch (const std::exception& e) {
    err << "pir: error: " << e.what() << '\n';
    return kProgramError;
  }
}

}  // namespace

int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err) {
  return runCommandLine(args, in, out, err, /*processExitsAfter=*/false);
}

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv + 1, argv + argc);
  int status = runCommandLine(args, std::cin, std::cout, std::cerr, /*processExitsAfter=*/true);
  std::cout.flush();
  return status;
}

}  // namespace pir::cli
