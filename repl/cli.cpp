// The `pir` command line (tools.md §1): argument parsing, usage text, and the
// `check` and `opt` commands. The other commands live behind repl/commands.h.
#include "repl/cli.h"

#include "vm/host_memory.h"

#include <signal.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string_view>

#include "frontend/builder.h"
#include "api/session_driver.h"
#include "frontend/recovery.h"
#include "importers/onnx/importer.h"
#include "ir/interrupt.h"
#include "ir/op_docs.h"
#include "ir/op_info.h"
#include "ir/printer.h"
#include "ir/suggest.h"
#include "ir/version.h"
#include "passes/autodiff.h"
#include "passes/pass_manager.h"
#include "repl/commands.h"
#include "repl/feed_save.h"


namespace pir::cli {
namespace {

volatile sig_atomic_t gRunSigint = 0;
extern "C" void onRunSigint(int) {
  gRunSigint = 1;
  requestInterrupt();
}

// `pir run` under Ctrl-C: the run stops at the op being executed (or the
// statement being read) with the usual located error, "interrupted"
// (ir/interrupt.h); then the process ends by SIGINT, as a shell expects of an
// interrupted command. SA_RESETHAND: a second Ctrl-C kills at once (a single
// long kernel does not poll). A SIGINT ignored by the parent stays ignored.
class RunInterruptScope {
 public:
  RunInterruptScope() {
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
    if (gRunSigint) {
      std::fflush(nullptr);
      ::raise(SIGINT);
    }
  }
  RunInterruptScope(const RunInterruptScope&) = delete;
  RunInterruptScope& operator=(const RunInterruptScope&) = delete;

 private:
  struct sigaction previous_ {};
  bool installed_ = false;
};

constexpr int kOk = 0;
constexpr int kProgramError = 1;
constexpr int kUsageError = 2;
// --threads: replica threads are real threads; beyond this a run would only thrash.
constexpr int kMaxThreads = 4096;

struct CommandHelp {
  std::string_view name;
  std::string_view synopsis;  // after "usage: pir "
  std::string_view summary;   // one line, for `pir --help`
  std::string_view details;   // options, for `pir help CMD`
};

constexpr CommandHelp kCommands[] = {
    {"repl", "repl [FILE] [--max-memory=BYTES] [--max-steps=N] [-Werror] [-w]", "the interactive REPL (also `pir` with no arguments)",
     "Reads statements and meta-commands (:help) one at a time; with FILE, loads it first.\n"
     "When standard input is not a terminal there is no prompt; the exit status is 1\n"
     "if any input failed.\n"
     "  --max-memory=BYTES   host memory budget for tensors (K/M/G/T suffixes; default 3/4 of RAM)\n"
     "  --max-steps=N        work budget of the session, runs and echo previews together (as for run)\n"
     "  -Werror / -w         warnings become errors / are not shown\n"},
    {"run", "run FILE [--passes=LIST] [--trace] [--no-fuse] [--profile] [--threads=N] [--verify-each] [--max-memory=BYTES] [--max-steps=N] [--feed NAME=DATA.npy]... [--save NAME=OUT.npy]... [-Werror] [-w]",
     "parse, verify, apply passes and run the session commands",
     "Options:\n"
     "  --passes=LIST   comma-separated pass pipeline, run in order\n"
     "  --trace         trace every executed op to standard error: its value and time\n"
     "  --no-fuse       one instruction per elementwise op (no fused chains)\n"
     "  --profile       report memory and cycle estimates to standard error after the run\n"
     "  --threads=N     run replicas on N threads\n"
     "  --verify-each   verify the IR after every pass\n"
     "  --max-memory=BYTES   host memory budget for tensors (K/M/G/T suffixes; default 3/4 of RAM;\n"
     "                       also PIR_MAX_MEMORY)\n"
     "  --max-steps=N   work budget of all runs together, per replica: an instruction is one step\n"
     "                  plus one per 64 elements it touches (a matmul: per multiply-add); the run\n"
     "                  that would exceed it fails at that op (default: unlimited)\n"
     "  --feed NAME=DATA.npy   feed h2d stream $NAME from DATA.npy before the file's first run\n"
     "                  (or the default run); repeatable\n"
     "  --save NAME=OUT.npy    after the last run, save $NAME (or %NAME) to OUT.npy; repeatable\n"
     "  -Werror         warnings are errors (exit status 1)\n"
     "  -w              warnings are not shown\n"
     "A file with no session command runs once and prints every d2h stream.\n"},
    {"check", "check FILE [-Werror] [-w]", "parse and verify; silent on success",
     "Exit status 0 if FILE is a valid program, 1 with diagnostics on standard error if not.\n"
     "Warnings go to standard error and leave the status 0.\n"
     "  -Werror   warnings are errors (exit status 1)\n"
     "  -w        warnings are not shown\n"},
    {"opt", "opt FILE [--passes=LIST] [--print-after-each] [--verify-each] [-o OUT] [-Werror] [-w]",
     "print the canonical IR after the passes",
     "Options:\n"
     "  --passes=LIST        comma-separated pass pipeline, run in order\n"
     "  --print-after-each   print the IR after every pass (to standard output)\n"
     "  --verify-each        verify the IR after every pass\n"
     "  -o OUT               write the result to OUT (atomically) instead of standard output\n"
     "  -Werror / -w         warnings become errors / are not shown\n"},
    {"import", "import MODEL.onnx [-o OUT.pir] [--input-shape NAME=D0,D1,...]...",
     "import an ONNX model as a .pir program (docs/importing.md)",
     "Writes OUT.pir (default: MODEL with the extension .pir) and, beside it, one .npy file per\n"
     "large initializer. Nothing is written when the import fails (exit 1).\n"
     "Options:\n"
     "  -o OUT.pir                     where to write the program\n"
     "  --input-shape NAME=D0,D1,...   fix the dims of graph input NAME (its ONNX name); repeatable\n"},
    {"dot", "dot FILE [--graph=@g] [-o OUT]", "Graphviz DOT of the graphs",
     "Options:\n"
     "  --graph=@g   only graph @g\n"
     "  -o OUT       write to OUT instead of standard output\n"},
    {"profile", "profile FILE [--passes=LIST] [--json=OUT] [--timeline=OUT] [--mapping] [--max-memory=BYTES] [-Werror] [-w]",
     "run, then report memory and cycle estimates",
     "Options:\n"
     "  --passes=LIST    comma-separated pass pipeline, run before the session commands\n"
     "  --json=OUT       also write the report as JSON to OUT (docs/profile-schema.md)\n"
     "  --timeline=OUT   write the phases as a Chrome trace (Perfetto, chrome://tracing)\n"
     "  --mapping        also list the tile mapping of every tensor\n"
     "  --max-memory=BYTES   host memory budget for tensors (as for run)\n"
     "  -Werror / -w     warnings become errors / are not shown\n"},
    {"disasm", "disasm FILE [--passes=LIST] [--no-fuse]", "the VM bytecode of every graph, with source locations",
     "Options:\n"
     "  --passes=LIST   comma-separated pass pipeline, run before compiling\n"
     "  --no-fuse       one instruction per elementwise op (no fused chains)\n"},
    {"help", "help [CMD | ops | OP]", "usage of CMD; the op reference (`help ops`); one op in full",
     "  help CMD               the options of CMD\n"
     "  help ops               every op: operands, attributes and defaults, gradient\n"
     "  help ops --markdown    the same as docs/ops.md (with dtype rules and result types)\n"
     "  help OP                one op: attributes, dtype rules, result type, gradient,\n"
     "                         in-place variant, aliases (e.g. `pir help matmul`)\n"},
};

const CommandHelp* findCommand(std::string_view name) {
  for (const CommandHelp& c : kCommands)
    if (c.name == name) return &c;
  return nullptr;
}

void printGeneralHelp(std::ostream& out) {
  out << "usage: pir <command> [options]\n"
         "       pir --help | --version\n\n"
         "Commands:\n";
  for (const CommandHelp& c : kCommands) {
    std::string left(c.synopsis.substr(0, c.synopsis.find(" [-")));
    out << "  " << left;
    for (size_t i = left.size(); i < 16; ++i) out << ' ';
    out << ' ' << c.summary << '\n';
  }
  out << "\nFILE may be '-' for standard input. `pir help CMD` shows the options of CMD.\n"
         "Exit status: 0 success, 1 the program is wrong, 2 bad command line or unreadable file.\n";
}

void printCommandHelp(const CommandHelp& c, std::ostream& out) {
  std::string summary(c.summary);
  summary[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(summary[0])));
  out << "usage: pir " << c.synopsis << "\n\n" << summary << ".\n";
  if (!c.details.empty()) out << '\n' << c.details;
  if (c.synopsis.find("--passes") != std::string_view::npos) {
    out << "\nPasses:";
    if (passes::registeredPasses().empty()) out << " " << passes::passListText();
    out << '\n';
    for (const passes::PassInfo& p : passes::registeredPasses()) {
      out << "  " << p.name;
      for (size_t i = p.name.size(); i < 16; ++i) out << ' ';
      out << ' ' << p.summary << '\n';
    }
  }
}

int usageError(std::ostream& err, const std::string& message, const CommandHelp* command) {
  err << "pir: error: " << message << '\n';
  if (command)
    err << "usage: pir " << command->synopsis << '\n';
  else
    err << "see 'pir --help'\n";
  return kUsageError;
}

// The command line of one subcommand: flags it knows, one or more positionals.
class ArgReader {
 public:
  ArgReader(const std::vector<std::string>& args, size_t first, const CommandHelp& command, std::ostream& err)
      : args_(args), pos_(first), command_(command), err_(err) {}

  bool done() const { return pos_ >= args_.size(); }
  const std::string& peek() const { return args_[pos_]; }
  void skip() { ++pos_; }

  // `--name=VALUE` or `--name VALUE` (and `-o VALUE`). Returns false if this
  // is not that flag; sets `failed` if the value is missing.
  bool valueFlag(std::string_view name, std::string& value) {
    const std::string& a = args_[pos_];
    lastFlag = name;
    if (a == name) {
      if (pos_ + 1 >= args_.size()) {
        failed = true;
        usageError(err_, "option '" + std::string(name) + "' needs a value", &command_);
        return true;
      }
      value = args_[pos_ + 1];
      pos_ += 2;
      return true;
    }
    if (a.size() > name.size() && a.compare(0, name.size(), name) == 0 && a[name.size()] == '=') {
      value = a.substr(name.size() + 1);
      ++pos_;
      return true;
    }
    return false;
  }
  bool boolFlag(std::string_view name) {
    if (args_[pos_] != name) return false;
    ++pos_;
    return true;
  }

  bool failed = false;
  std::string_view lastFlag;  // the flag valueFlag last looked for

 private:
  const std::vector<std::string>& args_;
  size_t pos_;
  const CommandHelp& command_;
  std::ostream& err_;
};

bool isOption(const std::string& a) { return a.size() > 1 && a[0] == '-'; }

// Splits and checks a --passes list against the pass manager's names.
bool parsePassList(const std::string& text, std::vector<std::string>& passes, const CommandHelp& command,
                   std::ostream& err) {
  std::string error;
  std::optional<passes::Pipeline> pipeline = passes::parsePipeline(text, error);
  if (!pipeline) {
    usageError(err, "--passes=" + text + ": " + error, &command);
    return false;
  }
  for (const passes::PassInfo* p : *pipeline) passes.emplace_back(p->name);
  return true;
}

// Reads `pir CMD FILE [flags]`: exactly one positional FILE unless `optionalFile`.
// `flag` handles the command's own flags; returns false on a usage error.
template <class FlagFn>
bool readCommandLine(const std::vector<std::string>& args, const CommandHelp& command, std::ostream& err,
                     std::optional<std::string>& file, bool optionalFile, FlagFn flag) {
  ArgReader reader(args, 1, command, err);
  bool optionsEnded = false;  // after `--`, everything is a FILE (e.g. one named "-x.pir")
  while (!reader.done()) {
    const std::string& a = reader.peek();
    if (!optionsEnded && a == "--") {
      optionsEnded = true;
      reader.skip();
      continue;
    }
    if (!optionsEnded && isOption(a)) {
      if (!flag(reader)) {
        if (!reader.failed) usageError(err, "unknown option '" + a + "' for '" + std::string(command.name) + "'", &command);
        return false;
      }
      if (reader.failed) return false;
      continue;
    }
    if (file) {
      usageError(err, "unexpected argument '" + a + "'", &command);
      return false;
    }
    file = a;
    reader.skip();
  }
  if (!file && !optionalFile) {
    usageError(err, "'" + std::string(command.name) + "' needs a FILE", &command);
    return false;
  }
  return true;
}

bool wantsHelp(const std::vector<std::string>& args) {
  for (size_t i = 1; i < args.size(); ++i)
    if (args[i] == "--help" || args[i] == "-h") return true;
  return false;
}

// Parses and verifies FILE into `module`, its commands into `script` (when
// given; else they are checked and dropped). Returns an exit status.
int buildFile(const std::string& file, std::istream& in, SourceManager& sources, DiagnosticEngine& diags,
              Module& module, std::ostream& err, Script* script) {
  uint32_t id = loadSource(file, in, sources, err);
  if (id == 0) return kUsageError;
  try {
    if (!buildFromBuffer(module, diags, id, baseDirOf(file), script, {.autodiff = autodiffTransform()})) return kProgramError;
  } catch (const CompileError&) {
    return kProgramError;  // already reported
  }
  return diags.errorCount() == 0 ? kOk : kProgramError;
}

// Unlike the other commands, check goes on after an error (frontend/recovery.h)
// to report every independent error of the file, up to a cap.
int checkCommand(const std::string& file, WarningPolicy warnings, std::istream& in, std::ostream& err) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  diags.setStream(&err);
  diags.setWarningPolicy(warnings);
  Module module;
  uint32_t id = loadSource(file, in, sources, err);
  if (id == 0) return kUsageError;
  return buildWithRecovery(module, diags, id, baseDirOf(file), kMaxReportedErrors, autodiffTransform()) ? kOk
                                                                                                     : kProgramError;
}

struct OptOptions {
  std::string file;
  std::vector<std::string> passes;
  bool printAfterEach = false;
  bool verifyEach = false;
  std::optional<std::string> output;
  WarningPolicy warnings = WarningPolicy::Report;
};

int optCommand(const OptOptions& o, std::istream& in, std::ostream& out, std::ostream& err) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  diags.setStream(&err);
  diags.setWarningPolicy(o.warnings);
  Module module;
  Script script;
  if (int status = buildFile(o.file, in, sources, diags, module, err, &script)) return status;
  // The file's own commands read these main values: passes keep them.
  const std::set<std::string> namesRead = mainValuesReadBy(script);
  try {
    // --print-after-each: the IR after every pass ("# -- after PASS --" is a
    // comment, so each section is itself a valid program), then the result.
    if (!o.passes.empty() && (!runPasses(module, o.passes, diags, o.verifyEach, o.printAfterEach ? &out : nullptr, &namesRead) ||
                              diags.errorCount() != 0))
      return kProgramError;
  } catch (const CompileError&) {
    return kProgramError;  // already reported
  }
  std::string text = printModule(module);
  if (o.output) return writeFileAtomically(*o.output, text, err) ? kOk : kUsageError;
  out << text;
  out.flush();
  return kOk;
}

int dispatch(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err) {
  if (args.empty()) return replCommand(ReplOptions{}, in, out, err);
  const std::string& name = args[0];
  if (name == "--help" || name == "-h") {
    printGeneralHelp(out);
    return kOk;
  }
  if (name == "--version") {
    out << "pir " << PIR_VERSION << '\n';
    return kOk;
  }
  if (name == "help") {
    if (args.size() == 1) {
      printGeneralHelp(out);
      return kOk;
    }
    if (args[1] == "ops") {
      if (args.size() == 2) out << opReferenceText();
      else if (args.size() == 3 && args[2] == "--markdown") out << opReferenceMarkdown();
      else return usageError(err, "'help ops' takes only --markdown", findCommand("help"));
      return kOk;
    }
    if (args.size() > 2) return usageError(err, "'help' takes one command or op name", findCommand("help"));
    const CommandHelp* c = findCommand(args[1]);
    if (!c) {
      if (std::optional<std::string> text = opHelp(args[1])) {
        out << *text;
        return kOk;
      }
      std::vector<std::string> names;
      for (const CommandHelp& k : kCommands) names.emplace_back(k.name);
      for (std::string_view op : allOpNames()) names.emplace_back(op);
      return usageError(err, "unknown command or op '" + args[1] + "'" + didYouMean(args[1], names), nullptr);
    }
    printCommandHelp(*c, out);
    return kOk;
  }
  const CommandHelp* command = findCommand(name);
  if (!command) {
    if (isOption(name)) return usageError(err, "unknown option '" + name + "'", nullptr);
    std::vector<std::string> names;
    for (const CommandHelp& k : kCommands) names.emplace_back(k.name);
    return usageError(err, "unknown command '" + name + "'" + didYouMean(name, names), nullptr);
  }
  if (wantsHelp(args)) {
    printCommandHelp(*command, out);
    return kOk;
  }

  std::optional<std::string> file;
  std::string value;
  // --passes=LIST: handled (true) even when the list is bad; then r.failed is set.
  // --max-memory=BYTES: the process's host-memory budget (vm/host_memory.h); it
  // overrides PIR_MAX_MEMORY, applied in run() before dispatching.
  auto maxMemoryFlag = [&](ArgReader& r) {
    if (!r.valueFlag("--max-memory", value)) return false;
    if (r.failed) return true;
    if (auto bytes = vm::parseByteSize(value)) {
      vm::setHostMemoryLimit(*bytes);
    } else {
      usageError(err, "--max-memory needs a positive byte count (optionally with K, M, G or T), got '" + value + "'",
                 command);
      r.failed = true;
    }
    return true;
  };
  // FLAG=N, a positive step count: --max-steps (the session's step budget,
  // vm::SessionOptions::maxSteps) and --preview-steps (each REPL preview's).
  auto stepsFlag = [&](ArgReader& r, const std::string& flag, uint64_t& steps) {
    if (!r.valueFlag(flag, value)) return false;
    if (r.failed) return true;
    char* end = nullptr;
    errno = 0;
    const unsigned long long n = std::strtoull(value.c_str(), &end, 10);
    if (value.empty() || value[0] < '0' || value[0] > '9' || *end != '\0' || errno != 0 || n == 0) {
      usageError(err, flag + " needs a positive integer, got '" + value + "'", command);
      r.failed = true;
    } else {
      steps = n;
    }
    return true;
  };
  auto maxStepsFlag = [&](ArgReader& r, uint64_t& steps) { return stepsFlag(r, "--max-steps", steps); };
  auto passesFlag = [&](ArgReader& r, std::vector<std::string>& passes) {
    if (!r.valueFlag("--passes", value)) return false;
    if (!r.failed && !parsePassList(value, passes, *command, err)) r.failed = true;
    return true;
  };
  // -Werror / -w (check, run, opt, profile, repl): the DiagnosticEngine's WarningPolicy.
  auto warningFlag = [](ArgReader& r, WarningPolicy& policy) {
    if (r.boolFlag("-Werror")) return policy = WarningPolicy::Error, true;
    if (r.boolFlag("-w")) return policy = WarningPolicy::Ignore, true;
    return false;
  };
  if (name == "check") {
    WarningPolicy warnings = WarningPolicy::Report;
    if (!readCommandLine(args, *command, err, file, false, [&](ArgReader& r) { return warningFlag(r, warnings); }))
      return kUsageError;
    return checkCommand(*file, warnings, in, err);
  }
  if (name == "opt") {
    OptOptions o;
    bool ok = readCommandLine(args, *command, err, file, false, [&](ArgReader& r) {
      if (passesFlag(r, o.passes)) return true;
      if (r.valueFlag("-o", value)) return o.output = value, true;
      if (r.boolFlag("--print-after-each")) return o.printAfterEach = true;
      if (r.boolFlag("--verify-each")) return o.verifyEach = true;
      return warningFlag(r, o.warnings);
    });
    if (!ok) return kUsageError;
    o.file = *file;
    return optCommand(o, in, out, err);
  }
  if (name == "run") {
    RunOptions o;
    bool ok = readCommandLine(args, *command, err, file, false, [&](ArgReader& r) {
      if (passesFlag(r, o.passes)) return true;
      if (r.valueFlag("--threads", value)) {
        char* end = nullptr;
        errno = 0;
        long n = std::strtol(value.c_str(), &end, 10);
        if (value.empty() || *end != '\0' || errno != 0 || n < 1 || n > kMaxThreads) {
          usageError(err, "--threads needs an integer from 1 to " + std::to_string(kMaxThreads) + ", got '" + value + "'",
                     command);
          r.failed = true;
          return true;
        }
        o.threads = static_cast<int>(n);
        return true;
      }
      if (r.valueFlag("--feed", value) || r.valueFlag("--save", value)) {
        if (r.failed) return true;
        bool isFeed = r.lastFlag == "--feed";
        NamedPath named;
        std::string problem;
        if (!parseNamedPath(value, named, problem)) {
          usageError(err, std::string(isFeed ? "--feed" : "--save") + ": " + problem, command);
          r.failed = true;
          return true;
        }
        (isFeed ? o.feeds : o.saves).push_back(std::move(named));
        return true;
      }
      if (r.boolFlag("--trace")) return o.trace = true;
      if (r.boolFlag("--no-fuse")) {
        o.fuse = false;
        return true;
      }
      if (r.boolFlag("--profile")) return o.profile = true;
      if (r.boolFlag("--verify-each")) return o.verifyEach = true;
      if (maxMemoryFlag(r)) return true;
      if (maxStepsFlag(r, o.maxSteps)) return true;
      return warningFlag(r, o.warnings);
    });
    if (!ok) return kUsageError;
    o.file = *file;
    RunInterruptScope interruptible;
    return runCommand(o, in, out, err);
  }
  if (name == "disasm") {
    DisasmOptions o;
    bool ok = readCommandLine(args, *command, err, file, false, [&](ArgReader& r) {
      if (passesFlag(r, o.passes)) return true;
      if (r.boolFlag("--no-fuse")) {
        o.fuse = false;
        return true;
      }
      return false;
    });
    if (!ok) return kUsageError;
    o.file = *file;
    return disasmCommand(o, in, out, err);
  }
  if (name == "repl") {
    ReplOptions o;
    if (!readCommandLine(args, *command, err, file, true,
                         [&](ArgReader& r) {
                           return maxMemoryFlag(r) || maxStepsFlag(r, o.maxSteps) || warningFlag(r, o.warnings) ||
                                  stepsFlag(r, "--preview-steps", o.previewSteps);
                         }))
      return kUsageError;
    o.file = file;
    return replCommand(o, in, out, err);
  }
  if (name == "import") {
    ImportOptions o;
    bool ok = readCommandLine(args, *command, err, file, false, [&](ArgReader& r) {
      if (r.valueFlag("-o", value)) return o.output = value, true;
      if (r.valueFlag("--input-shape", value)) {
        if (r.failed) return true;
        std::string inputName, problem;
        std::vector<int64_t> dims;
        if (!onnx_import::parseInputShape(value, inputName, dims, problem)) {
          usageError(err, "--input-shape: " + problem, command);
          r.failed = true;
        } else {
          o.inputShapes[inputName] = dims;
        }
        return true;
      }
      return false;
    });
    if (!ok) return kUsageError;
    o.model = *file;
    return importCommand(o, out, err);
  }
  if (name == "dot") {
    DotOptions o;
    bool ok = readCommandLine(args, *command, err, file, false, [&](ArgReader& r) {
      if (r.valueFlag("--graph", value)) {
        o.graph = value.starts_with("@") ? value.substr(1) : value;
        return true;
      }
      if (r.valueFlag("-o", value)) return o.output = value, true;
      return false;
    });
    if (!ok) return kUsageError;
    o.file = *file;
    return dotCommand(o, in, out, err);
  }
  if (name == "profile") {
    ProfileOptions o;
    bool ok = readCommandLine(args, *command, err, file, false, [&](ArgReader& r) {
      if (passesFlag(r, o.passes)) return true;
      if (r.valueFlag("--json", value)) return o.json = value, true;
      if (r.valueFlag("--timeline", value)) return o.timeline = value, true;
      if (r.boolFlag("--mapping")) return o.mapping = true;
      if (maxMemoryFlag(r)) return true;
      return warningFlag(r, o.warnings);
    });
    if (!ok) return kUsageError;
    o.file = *file;
    return profileCommand(o, in, out, err);
  }
  return usageError(err, "unknown command '" + name + "'", nullptr);
}

}  // namespace

uint32_t loadSource(const std::string& file, std::istream& in, SourceManager& sources, std::ostream& err) {
  if (file == "-") {
    std::ostringstream text;
    if (in.rdbuf()) text << in.rdbuf();
    if (in.bad()) {
      err << "pir: error: cannot read -: standard input failed\n";
      return 0;
    }
    return sources.add("<stdin>", text.str());
  }
  auto fail = [&](int code) {
    err << "pir: error: cannot read " << file << ": " << std::strerror(code) << '\n';
    return 0u;
  };
  if (file.empty()) return fail(ENOENT);
  std::FILE* f = std::fopen(file.c_str(), "rb");
  if (!f) return fail(errno);
  std::string text;
  char buf[1 << 16];
  size_t n;
  errno = 0;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  // fopen succeeds on a directory; the read is what fails (EISDIR).
  int readError = std::ferror(f) ? (errno ? errno : EIO) : 0;
  std::fclose(f);
  if (readError) return fail(readError);
  return sources.add(file, std::move(text));
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

int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err) {
  // Bad input must never crash the tool: anything that escapes a command is
  // reported, not rethrown.
  try {
    if (auto envError = vm::applyHostMemoryEnvironment()) {
      err << "pir: error: " << *envError << '\n';
      return kUsageError;
    }
    return dispatch(args, in, out, err);
  } catch (const CompileError&) {
    return kProgramError;  // already reported
  } catch (const std::bad_alloc& e) {
    // Sessions report budget refusals at the command; this is the last resort
    // (parsing, compiling), still a message and exit 1, never an abort.
    err << "pir: error: out of memory" << (dynamic_cast<const vm::HostMemoryExhausted*>(&e) ? std::string(": ") + e.what() : std::string()) << '\n';
    return kProgramError;
  } catch (const std::exception& e) {
    err << "pir: error: " << e.what() << '\n';
    return kProgramError;
  }
}

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv + 1, argv + argc);
  int status = run(args, std::cin, std::cout, std::cerr);
  std::cout.flush();
  return status;
}

}  // namespace pir::cli
