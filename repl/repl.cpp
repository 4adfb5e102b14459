#include "repl/repl.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <utility>
#include <set>

#include "pir/interactive.h"
#include "pir/pir.h"
#include "pir/tool.h"
#include "repl/commands.h"

namespace pir {

namespace {

std::string_view trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

// Splits meta-command arguments at whitespace; "quoted words" keep their spaces.
std::vector<std::string> splitArguments(std::string_view s) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i >= s.size()) break;
    std::string word;
    if (s[i] == '"') {
      ++i;
      while (i < s.size() && s[i] != '"') word += s[i++];
      if (i < s.size()) ++i;
    } else {
      while (i < s.size() && s[i] != ' ' && s[i] != '\t') word += s[i++];
    }
    words.push_back(std::move(word));
  }
  return words;
}

}  // namespace

struct Repl::Impl {
  std::ostream& out;
  std::ostream& err;
  api::Context context;
  api::Interactive session;  // evaluates inputs, echoes them, keeps the undo history

  // The open input and the session line it started on. `scanner` has seen
  // exactly openInput (each character once: input is linear in its length).
  std::string openInput;
  api::InputScanner scanner;
  uint64_t charactersScannedBefore = 0;  // by scanners of earlier inputs
  uint32_t openInputLine = 0;
  uint32_t nextLine = 1;
  // The meta-command line being run and its session line (its errors' location).
  std::string_view metaLine;
  uint32_t metaLineNumber = 0;

  bool failed = false;
  bool quit = false;

  Impl(std::ostream& o, std::ostream& e, const api::ContextOptions& contextOptions, const PreviewBudget& preview)
      : out(o), err(e), context(contextOptions), session(context, out, err, preview) {}

  bool evaluateInput(std::string text, uint32_t firstLine) {
    if (session.evaluate(std::move(text), firstLine)) return true;
    failed = true;
    return false;
  }

  // `in`: what FILE "-" reads (pir repl -).
  int loadFile(const std::string& path, std::istream& in) {
    std::optional<cli::SourceText> source = cli::readSource(path, in, err);  // reports "cannot read FILE: REASON"
    if (!source) {
      failed = true;
      return 2;
    }
    if (session.load(source->name, std::move(source->text), cli::baseDirOf(path))) return 0;
    failed = true;
    return 1;
  }

  // ---- meta-commands ---------------------------------------------------------------
  // A meta-command error, located like any other (`<repl>:LINE:COL`, the line,
  // a caret): at `near` (an argument) when given and found, else at the `:`.
  bool metaError(const std::string& message, std::string_view near = {}) {
    size_t col = metaLine.find(':');
    if (!near.empty()) {
      const size_t at = metaLine.find(near, col == std::string_view::npos ? 0 : col + 1);
      if (at != std::string_view::npos) col = at;
    }
    session.reportError(std::string(metaLine), metaLineNumber,
                        static_cast<uint32_t>(col == std::string_view::npos ? 1 : col + 1), message);
    failed = true;
    return false;
  }

  // Resolves `@name` (or `@main`) for :print / :disasm / :dot: the graph's
  // name, or nullopt and `problem`.
  std::optional<std::string> graphArgument(const std::string& word, std::string& problem) const {
    if (word.size() < 2 || word[0] != '@') {
      problem = "expected a graph name like @g, got '" + word + "'";
      return std::nullopt;
    }
    std::string name = word.substr(1);
    if (name == "main" || session.hasGraph(name)) return name;
    problem = "no graph @" + name;
    return std::nullopt;
  }

  // ---- the meta-commands: one row each (name, arguments, help, arity, handler) ----
  using Args = std::vector<std::string>;
  struct MetaCommand {
    const char* name;
    const char* arguments;  // usage after the name ("" when none)
    const char* help;       // one line, for :help
    size_t minArgs, maxArgs;
    bool (Impl::*run)(const Args& args);
  };
  // tools.md §5, in :help order (defined after the class).
  static const MetaCommand kMetaCommands[12];

  // `line`: the whole typed line (for the error location), session line `lineNumber`.
  bool meta(std::string_view line, uint32_t lineNumber) {
    metaLine = line;
    metaLineNumber = lineNumber;
    std::string_view body = trim(line).substr(1);
    size_t space = body.find_first_of(" \t");
    std::string word(body.substr(0, space));
    Args args = splitArguments(space == std::string_view::npos ? std::string_view{} : body.substr(space));
    std::vector<std::string> candidates;
    std::optional<std::string> name = resolveMetaCommand(word, &candidates);
    if (!name) {
      if (candidates.empty())
        return metaError("unknown command ':" + word + "'" + api::didYouMean(word, metaCommandNames(), ":") + " (type :help for the list)");
      std::string list;
      for (auto& c : candidates) list += (list.empty() ? ":" : ", :") + c;
      return metaError("ambiguous command ':" + word + "': " + list);
    }
    for (const MetaCommand& command : kMetaCommands) {
      if (*name != command.name) continue;
      if (args.size() < command.minArgs || args.size() > command.maxArgs)
        return metaError(std::string("usage: :") + command.name +
                         (*command.arguments ? std::string(" ") + command.arguments : ""));
      return (this->*command.run)(args);
    }
    return metaError("unhandled command :" + *name);
  }

  bool helpCommand(const Args&) {
    out << "Statements of the .pir language are evaluated as typed; input continues\n"
           "over lines while brackets and braces are open. Meta-commands:\n";
    for (const MetaCommand& m : kMetaCommands) {
      std::string head = std::string(":") + m.name + (*m.arguments ? std::string(" ") + m.arguments : "");
      out << "  " << head << std::string(head.size() < 20 ? 20 - head.size() : 1, ' ') << m.help << "\n";
    }
    out << "Commands may be abbreviated when unambiguous (:q, :h). Tab completes.\n";
    return true;
  }

  bool quitCommand(const Args&) {
    quit = true;
    return true;
  }

  bool loadCommand(const Args& args) {
    std::istringstream noInput;  // `:load -` would read the terminal: not supported
    if (args[0] == "-") return metaError(":load needs a file name");
    return loadFile(args[0], noInput) == 0;
  }

  bool typeCommand(const Args& args) {
    const std::string& w = args[0];
    if (w.size() >= 2 && w[0] == '%') {
      std::optional<api::Type> type = session.valueType(w.substr(1));
      if (!type) return metaError("no value " + w + " in the main graph", w);
      out << w << ": " << type->str() << "\n";
      return true;
    }
    if (w.size() >= 2 && w[0] == '$') {
      std::optional<api::ResourceInfo> r = session.resource(w.substr(1));
      if (!r) return metaError("no stream or remote buffer " + w, w);
      using Kind = api::ResourceInfo::Kind;
      const char* kind = r->kind == Kind::HostToDevice ? "h2d" : r->kind == Kind::DeviceToHost ? "d2h" : "remote_buffer";
      out << w << ": " << r->type.str() << " (" << kind;
      if (r->kind == Kind::RemoteBuffer) out << ", entries = " << r->entries;
      out << ")\n";
      return true;
    }
    if (w.size() >= 2 && w[0] == '@') {
      std::string problem;
      std::optional<std::string> g = graphArgument(w, problem);
      if (!g) return metaError(problem, w);
      if (*g == "main") return metaError("@main has no signature: it takes no inputs and returns nothing");
      out << *session.graphSignature(*g) << "\n";
      return true;
    }
    return metaError("usage: :type %v|@g|$s");
  }

  bool printCommand(const Args& args) {
    if (args.empty()) {
      out << session.print();
      return true;
    }
    std::string problem;
    std::optional<std::string> g = graphArgument(args[0], problem);
    if (!g) return metaError(problem, args[0]);
    out << session.print(*g);
    return true;
  }

  bool graphsCommand(const Args&) {
    const std::vector<std::string> graphs = session.graphNames();
    for (const std::string& g : graphs) out << *session.graphSignature(g) << "\n";
    if (graphs.empty()) out << "(no subgraphs: only the main graph, which takes no inputs)\n";
    return true;
  }

  bool disasmCommand(const Args& args) {
    std::string only;
    if (!args.empty()) {
      std::string problem;
      std::optional<std::string> g = graphArgument(args[0], problem);
      if (!g) return metaError(problem);
      only = *g;
    }
    return reported(session.disassemble(only));
  }

  bool passesCommand(const Args& args) {
    std::string list;  // `:passes inline, dce` is one list
    for (const auto& a : args) list += a;
    api::Result<std::vector<std::string>> pipeline = context.parsePipeline(list);
    if (!pipeline) return metaError(pipeline.message());
    return succeeded(session.runPasses(*pipeline, ":passes " + list));
  }

  bool resetCommand(const Args&) { return succeeded(session.reset()); }

  bool undoCommand(const Args&) {
    std::optional<std::string> undone = session.undo();
    if (!undone) return metaError("nothing to undo");
    out << "undone: " << *undone << "\n";
    return true;
  }

  bool dotCommand(const Args& args) {
    std::string only;
    if (args.size() == 2) {
      std::string problem;
      std::optional<std::string> g = graphArgument(args[0], problem);
      if (!g) return metaError(problem, args[0]);
      only = *g;
    }
    // The program as it stands, from the session itself (no detour through its
    // text, whose relative load() paths would resolve elsewhere).
    return succeeded(cli::writeFileAtomically(args.back(), session.dot(only), err));
  }

  bool profileCommand(const Args&) { return reported(session.profile()); }

  // A session call's outcome: a failure (already reported) marks the REPL failed.
  bool succeeded(bool ok) {
    if (!ok) failed = true;
    return ok;
  }
  // Writes a report the session made, or marks the failure.
  bool reported(const std::optional<std::string>& text) {
    if (!text) return succeeded(false);
    out << *text;
    return true;
  }

  // ---- lines ---------------------------------------------------------------------
  // `line` is taken over: a long line that opens an input becomes it without a copy.
  void feedLine(std::string line) {
    // A Ctrl-C stops the input it arrives in and nothing after it.
    struct ClearInterruptAfter {
      ~ClearInterruptAfter() { api::clearInterrupt(); }
    } clearAfter;
    uint32_t lineNumber = nextLine++;
    if (openInput.empty()) {
      std::string_view t = trim(line);
      if (t.empty()) return;
      if (t.front() == ':') {
        meta(line, lineNumber);
        return;
      }
      openInputLine = lineNumber;
    }
    // Lines are joined without a final newline: an error at the end of the
    // input then points after its last character, not at an empty next line.
    if (!openInput.empty()) {
      openInput += '\n';
      scanner.feed("\n");
    }
    const size_t lineBytes = line.size();
    if (openInput.empty()) openInput = std::move(line);
    else openInput.append(line);
    scanner.feed(std::string_view(openInput).substr(openInput.size() - lineBytes));
    if (scanner.needsMoreInput()) return;
    evaluateInput(takeInput(), openInputLine);
  }

  // The open input, which is closed (and the scanner reset for the next one).
  std::string takeInput() {
    std::string input = std::move(openInput);
    openInput.clear();
    charactersScannedBefore += scanner.charactersScanned();
    scanner.reset();
    return input;
  }

  void finish() {
    struct ClearInterruptAfter {
      ~ClearInterruptAfter() { api::clearInterrupt(); }
    } clearAfter;
    if (openInput.empty()) return;
    evaluateInput(takeInput(), openInputLine);
  }

  // ---- completion --------------------------------------------------------------------
  Completion complete(std::string_view before) const {
    Completion c;
    c.wordStart = completionWordStart(before);
    std::string_view word = before.substr(c.wordStart);
    auto offer = [&](std::string candidate) {
      if (candidate.size() >= word.size() && std::string_view(candidate).substr(0, word.size()) == word)
        c.candidates.push_back(std::move(candidate));
    };
    if (!word.empty() && word.front() == ':') {
      for (auto& m : kMetaCommands) offer(std::string(":") + m.name);
    } else if (!word.empty() && word.front() == '%') {
      for (const std::string& v : session.valueNames()) offer("%" + v);
      // Names written earlier in the open input: a graph's parameters and
      // values while its body is being typed.
      // Matching names only, each once: memory follows the distinct names, not the input.
      std::set<std::string, std::less<>> seen;
      api::forEachValueName(openInput, [&](std::string_view name) {
        if (name.substr(0, word.size() - 1) == word.substr(1) && !seen.count(name)) seen.emplace(name);
      });
      for (const std::string& name : seen) offer("%" + name);
      std::sort(c.candidates.begin(), c.candidates.end());
      c.candidates.erase(std::unique(c.candidates.begin(), c.candidates.end()), c.candidates.end());
    } else if (!word.empty() && word.front() == '@') {
      offer("@main");
      for (const std::string& g : session.graphNames()) offer("@" + g);
    } else if (!word.empty() && word.front() == '$') {
      for (const std::string& r : session.resourceNames()) offer("$" + r);
    } else {
      for (std::string& op : api::opNames()) offer(std::move(op));
      for (std::string& k : api::keywordSpellings()) offer(std::move(k));
      for (std::string& t : api::dtypeNames()) offer(std::move(t));
      std::sort(c.candidates.begin(), c.candidates.end());
      c.candidates.erase(std::unique(c.candidates.begin(), c.candidates.end()), c.candidates.end());
    }
    return c;
  }
};

const Repl::Impl::MetaCommand Repl::Impl::kMetaCommands[12] = {
    {"help", "", "show this help", 0, 0, &Impl::helpCommand},
    {"quit", "", "leave the REPL (Ctrl-D too)", 0, 0, &Impl::quitCommand},
    {"load", "FILE", "read FILE as if typed (without echo)", 1, 1, &Impl::loadCommand},
    {"type", "%v|@g|$s", "show the type of a main-graph value, graph or resource", 1, 1, &Impl::typeCommand},
    {"print", "[@g]", "print the program (or one graph) in canonical form", 0, 1, &Impl::printCommand},
    {"graphs", "", "list the graphs with their signatures", 0, 0, &Impl::graphsCommand},
    {"passes", "LIST", "apply the comma-separated passes to the program", 1, SIZE_MAX, &Impl::passesCommand},
    {"dot", "[@g] FILE", "write the graphs (or one) as Graphviz DOT to FILE", 1, 2, &Impl::dotCommand},
    {"profile", "", "memory and cycle estimates of the main graph", 0, 0, &Impl::profileCommand},
    {"disasm", "[@g]", "show the VM bytecode of every graph (or one)", 0, 1, &Impl::disasmCommand},
    {"reset", "", "variables back to their initial values, buffers cleared", 0, 0, &Impl::resetCommand},
    {"undo", "", "undo the last input (or :reset) that changed the program or the session", 0, 0, &Impl::undoCommand},
};

Repl::Repl(std::ostream& out, std::ostream& err, const api::ContextOptions& context, const PreviewBudget& preview)
    : impl_(std::make_unique<Impl>(out, err, context, preview)) {}
Repl::~Repl() = default;

void Repl::feedLine(std::string_view line) { impl_->feedLine(std::string(line)); }
void Repl::feedLine(std::string&& line) { impl_->feedLine(std::move(line)); }
bool Repl::inputOpen() const { return !impl_->openInput.empty(); }
void Repl::abandonInput() { impl_->takeInput(); }
void Repl::finish() { impl_->finish(); }
int Repl::loadFile(const std::string& path, std::istream& in) { return impl_->loadFile(path, in); }
void Repl::setWarningPolicy(api::Warnings policy) { impl_->session.setWarnings(policy); }
bool Repl::quitRequested() const { return impl_->quit; }
bool Repl::anyInputFailed() const { return impl_->failed; }
Completion Repl::complete(std::string_view lineBeforeCursor) const { return impl_->complete(lineBeforeCursor); }
const api::Interactive& Repl::session() const { return impl_->session; }
Repl::Stats Repl::stats() const {
  const api::Interactive::Stats session = impl_->session.stats();
  return {impl_->charactersScannedBefore + impl_->scanner.charactersScanned(), session.programCompiles,
          session.previewOpsVisited, session.previewOpsCompiled};
}

const std::vector<std::string>& Repl::metaCommandNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (auto& m : Impl::kMetaCommands) n.emplace_back(m.name);
    return n;
  }();
  return names;
}

std::optional<std::string> Repl::resolveMetaCommand(std::string_view word, std::vector<std::string>* candidates) {
  std::vector<std::string> matches;
  for (const std::string& name : metaCommandNames()) {
    if (name == word) return name;
    if (!word.empty() && name.compare(0, word.size(), word) == 0) matches.push_back(name);
  }
  if (matches.size() == 1) return matches.front();
  if (candidates) *candidates = std::move(matches);
  return std::nullopt;
}

std::string Repl::banner() { return "pir " + api::version() + " - type :help for help"; }

std::string defaultHistoryPath() {
  const char* home = std::getenv("HOME");
  if (!home || !*home) return {};
  return (std::filesystem::path(home) / ".pir_history").string();
}

int runRepl(const ReplRunOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  Repl repl(out, err, options.context, options.preview);
  // On a terminal the banner comes first: what FILE prints belongs to the session.
  if (options.interactive) out << Repl::banner() << "\n" << std::flush;
  // An unreadable FILE is a command-line problem (status 2), as for `pir run`;
  // a FILE with errors is reported and the session goes on without it.
  if (options.file && repl.loadFile(*options.file, in) == 2) return 2;

  if (!options.interactive) {
    for (std::string line; !repl.quitRequested() && std::getline(in, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      repl.feedLine(std::move(line));
      line = std::string();  // a long line's buffer went with it
    }
    if (!repl.quitRequested()) repl.finish();
    return repl.exitStatus();
  }

  LineEditor editor("pir", options.historyPath,
                    [&repl](std::string_view before) { return repl.complete(before); });
  while (!repl.quitRequested()) {
    std::string line;
    LineEditor::Status status = editor.readLine(repl.inputOpen() ? Repl::kContinuationPrompt : Repl::kPrompt, line);
    if (status == LineEditor::Status::Interrupted) {
      repl.abandonInput();
      continue;
    }
    if (status == LineEditor::Status::EndOfInput) {
      out << "\n" << std::flush;
      repl.finish();
      break;
    }
    editor.addHistory(line);
    repl.feedLine(std::move(line));
    out << std::flush;
  }
  return repl.exitStatus();
}

}  // namespace pir
