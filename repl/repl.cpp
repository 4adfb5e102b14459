#include "repl/repl.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <utility>
#include <set>

#include "device/dot.h"
#include "frontend/builder.h"
#include "frontend/lexical.h"
#include "frontend/parser.h"
#include "ir/printer.h"
#include "ir/diagnostics.h"
#include "ir/interrupt.h"
#include "ir/op_info.h"
#include "passes/pass_manager.h"
#include "api/session_driver.h"
#include "repl/commands.h"
#include "vm/format.h"
#include "vm/host_memory.h"
#include "ir/suggest.h"
#include "vm/session.h"

namespace pir {

namespace {

// After a previewed value that `print` cannot show yet.
constexpr const char* kPreviewNote = "(preview: `run` computes it)";

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

std::string graphSignature(const Graph& g) {
  std::string s = "@" + g.name + "(";
  for (size_t i = 0; i < g.params.size(); ++i) {
    if (i) s += ", ";
    if (g.params[i]->byRef) s += "&";
    s += g.params[i]->type.str();
  }
  s += ") -> (";
  for (size_t i = 0; i < g.outputTypes.size(); ++i) {
    if (i) s += ", ";
    s += g.outputTypes[i].str();
  }
  return s + ")";
}

// The longest summary of an input: every undo entry keeps one, so a summary
// never copies a long line whole.
constexpr size_t kMaxSummaryBytes = 120;

// The first line of an input, for messages about it (":undo removed ..."), cut
// at kMaxSummaryBytes (at a character boundary) with " ..." when it goes on.
std::string summarise(std::string_view input) {
  std::string_view t = trim(input);
  size_t nl = t.find('\n');
  std::string_view first = trim(t.substr(0, nl));
  bool more = nl != std::string_view::npos;
  if (first.size() > kMaxSummaryBytes) {
    size_t cut = kMaxSummaryBytes;
    while (cut > 0 && (static_cast<unsigned char>(first[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 sequence
    first = trim(first.substr(0, cut));
    more = true;
  }
  std::string out(first);
  if (more) out += " ...";
  return out;
}


}  // namespace

struct Repl::Impl : BuildListener {
  std::ostream& out;
  std::ostream& err;
  SourceManager sources;
  DiagnosticEngine diags{sources};
  Module module;
  // Output of the input being evaluated (echo, printed values): written out
  // when the input succeeds, dropped when it is undone.
  std::ostringstream pending;
  vm::Session session;
  Previewer previewer;  // the echo's previews, over `session`
  SessionDriver driver;  // runs each input's commands after its parse
  Builder builder;
  bool echo = true;  // off while loading a file

  // Turns the echo off for a scope (exceptions included).
  struct EchoOff {
    bool& flag;
    bool saved;
    explicit EchoOff(bool& f) : flag(f), saved(f) { flag = false; }
    ~EchoOff() { flag = saved; }
  };

  // The open input and the session line it started on. `scanner` has seen
  // exactly openInput (each character once: input is linear in its length).
  std::string openInput;
  InputScanner scanner;
  uint64_t charactersScannedBefore = 0;  // by scanners of earlier inputs
  uint32_t openInputLine = 0;
  uint32_t nextLine = 1;
  uint32_t metaFile = 0;  // the source buffer of the meta-command being run (its errors' location)

  bool failed = false;
  bool quit = false;
  bool sessionChanged = false;  // the input ran a command that changes the session (not print/save)

  // Undo history, newest last. Capped in count and in memory (pushUndo): each entry
  // holds a session snapshot.
  struct UndoEntry {
    Module::Checkpoint checkpoint;
    std::shared_ptr<const vm::Session::Snapshot> snapshot;
    std::string summary;
  };
  std::deque<UndoEntry> undoStack;
  static constexpr size_t kMaxUndo = 100;

  Impl(std::ostream& o, std::ostream& e, const vm::SessionOptions& sessionOptions, const PreviewBudget& preview)
      : out(o),
        err(e),
        session(module, diags, pending, sessionOptions),
        previewer(session, diags, preview),
        driver(module, session, diags),
        builder(module, diags, ".", {.listener = this, .autodiff = autodiffTransform()}) {
    diags.setStream(&err);
  }

  // ---- BuildListener: the echo -------------------------------------------------
  void valueDefined(const Value& v) override {
    if (!echo) return;
    Preview preview = previewer.preview(v);
    if (preview.value) {
      const vm::HostTensor& t = *preview.value;
      pending << vm::formatValueLine("%" + v.name, t.type.dtype, t.type.shape, t.data());
      // `print` shows a computed value only after a `run` computed it: the echo
      // says that what it shows is a preview (variables and constants print as shown).
      if (v.kind != Value::Kind::Var && v.kind != Value::Kind::Const) pending << "  " << kPreviewNote;
      pending << "\n";
    } else {
      pending << "%" << v.name << ": " << v.type.str();
      if (!preview.skipped.empty()) pending << "  (not previewed: " << preview.skipped << ")";
      pending << "\n";
    }
  }
  void graphDefined(const Graph& g) override {
    if (echo) pending << graphSignature(g) << "\n";
  }
  // ---- the input's session commands, after its parse --------------------------
  void command(const ScriptCommand& sc) {
    const SessionCommand& c = sc.command;
    if (c.kind != SessionCommand::Kind::Print && c.kind != SessionCommand::Kind::Save) sessionChanged = true;
    driver.command(sc);
    if (!echo || c.kind != SessionCommand::Kind::Run) return;
    for (const Resource* stream : session.lastRunWrittenStreams()) {
      vm::HostTensor buffer = session.valueOf("$" + stream->name, c.loc);
      pending << vm::formatValueLine("$" + stream->name, buffer.type.dtype, buffer.type.shape, std::as_const(buffer).data()) << "\n";
    }
  }

  // ---- evaluation ---------------------------------------------------------------
  void flushPending() {
    out << pending.str() << std::flush;
    pending.str({});
  }

  // Parses and builds buffer `file` through `into` as one input, undoing it
  // on any error. Returns true on success; a success that changed the program
  // or the session becomes an :undo entry.
  bool evaluateBuffer(uint32_t file, Builder& into, const std::string& summary) {
    Module::Checkpoint checkpoint = module.checkpoint();
    auto snapshot = session.snapshot();
    const uint64_t generationBefore = module.generation;
    sessionChanged = false;
    bool ok = false;
    try {
      parseBuffer(file, into, diags);
      // The input parsed and verified whole: now its commands run.
      for (const ScriptCommand& c : into.takeCommands()) command(c);
      driver.release();
      ok = true;
    } catch (const CompileError&) {
      // Already reported.
    } catch (const std::bad_alloc&) {
      diags.report({Severity::Error, {}, "out of memory evaluating this input", {}});
    } catch (const std::exception& e) {
      diags.report({Severity::Error, {}, e.what(), {}});
    }
    if (!ok) {
      into.takeCommands();
      driver.release();
      into.reset();
      module.rollback(checkpoint);
      session.restore(snapshot);
      pending.str({});
      failed = true;
      return false;
    }
    flushPending();
    if (changedState(checkpoint, generationBefore)) pushUndo(checkpoint, std::move(snapshot), summary);
    return true;
  }

  void pushUndo(const Module::Checkpoint& checkpoint, std::shared_ptr<const vm::Session::Snapshot> snapshot,
                std::string summary) {
    undoStack.push_back({checkpoint, std::move(snapshot), std::move(summary)});
    if (undoStack.size() > kMaxUndo) undoStack.pop_front();
    // A snapshot shares every buffer with the session (copy-on-write) and holds, charged
    // to the host-memory budget, only those later inputs replaced (a variable a run
    // updated). The oldest entries go while more than half the budget is in use, so
    // undo history never starves the session; the newest one always stays.
    while (undoStack.size() > 1 && vm::hostMemoryInUse() > vm::hostMemoryLimit() / 2) undoStack.pop_front();
  }

  // Whether the input just evaluated did something :undo should remove: a
  // definition, or a command that changes the session (print/save do not).
  bool changedState(const Module::Checkpoint& before, uint64_t generationBefore) const {
    return module.generation != generationBefore || module.anyItemSeen != before.anyItemSeen ||
           module.options.present != before.options.present || sessionChanged;
  }

  // The input's text moves into the source manager (one copy of a long line, not two).
  bool evaluateInput(std::string text, uint32_t firstLine) {
    if (trim(text).empty()) return true;
    std::string summary = summarise(text);
    uint32_t file = sources.add("<repl>", std::move(text), firstLine);
    return evaluateBuffer(file, builder, summary);
  }

  // `in`: what FILE "-" reads (pir repl -).
  int loadFile(const std::string& path, std::istream& in) {
    uint32_t file = cli::loadSource(path, in, sources, err);  // reports "cannot read FILE: REASON"
    if (file == 0) {
      failed = true;
      return 2;
    }
    return loadBuffer(file, cli::baseDirOf(path)) ? 0 : 1;
  }

  // Evaluates a whole file as one input without echo. Its own Builder resolves
  // relative load()/save paths against the file's directory.
  bool loadBuffer(uint32_t file, const std::string& baseDir) {
    const std::string& name = sources.buffer(file).name;
    Builder fileBuilder(module, diags, baseDir, {.listener = this, .autodiff = autodiffTransform()});
    EchoOff quiet(echo);
    return evaluateBuffer(file, fileBuilder, ":load " + name);
  }

  // ---- meta-commands ---------------------------------------------------------------
  // A meta-command error, located like any other (`<repl>:LINE:COL`, the line,
  // a caret): at `near` (an argument) when given and found, else at the `:`.
  bool metaError(const std::string& message, std::string_view near = {}) {
    SourceLoc loc;
    if (metaFile != 0) {
      const std::string_view text = sources.buffer(metaFile).text;
      size_t col = text.find(':');
      if (!near.empty()) {
        const size_t at = text.find(near, col == std::string_view::npos ? 0 : col + 1);
        if (at != std::string_view::npos) col = at;
      }
      loc = SourceLoc{metaFile, 1, static_cast<uint32_t>(col == std::string_view::npos ? 1 : col + 1)};
    }
    diags.report({Severity::Error, loc, message, {}});
    failed = true;
    return false;
  }

  // Finds `@name` (or `@main`) for :print / :disasm / :dot.
  const Graph* graphArgument(const std::string& word, std::string& problem) const {
    if (word.size() < 2 || word[0] != '@') {
      problem = "expected a graph name like @g, got '" + word + "'";
      return nullptr;
    }
    std::string name = word.substr(1);
    if (name == "main") return module.main.get();
    if (const Graph* g = module.findGraph(name)) return g;
    problem = "no graph @" + name;
    return nullptr;
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
    metaFile = sources.add("<repl>", std::string(line), lineNumber);
    std::string_view body = trim(line).substr(1);
    size_t space = body.find_first_of(" \t");
    std::string word(body.substr(0, space));
    Args args = splitArguments(space == std::string_view::npos ? std::string_view{} : body.substr(space));
    std::vector<std::string> candidates;
    std::optional<std::string> name = resolveMetaCommand(word, &candidates);
    if (!name) {
      if (candidates.empty())
        return metaError("unknown command ':" + word + "'" + didYouMean(word, metaCommandNames(), ":") + " (type :help for the list)");
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
      const Value* v = module.main->lookup(w.substr(1));
      if (!v) return metaError("no value " + w + " in the main graph", w);
      out << w << ": " << v->type.str() << "\n";
      return true;
    }
    if (w.size() >= 2 && w[0] == '$') {
      const Resource* r = module.findResource(w.substr(1));
      if (!r) return metaError("no stream or remote buffer " + w, w);
      const char* kind = r->kind == Resource::Kind::H2D ? "h2d" : r->kind == Resource::Kind::D2H ? "d2h" : "remote_buffer";
      out << w << ": " << r->type.str() << " (" << kind;
      if (r->kind == Resource::Kind::RemoteBuffer) out << ", entries = " << r->entries;
      out << ")\n";
      return true;
    }
    if (w.size() >= 2 && w[0] == '@') {
      std::string problem;
      const Graph* g = graphArgument(w, problem);
      if (!g) return metaError(problem, w);
      if (g->isMain) return metaError("@main has no signature: it takes no inputs and returns nothing");
      out << graphSignature(*g) << "\n";
      return true;
    }
    return metaError("usage: :type %v|@g|$s");
  }

  bool printCommand(const Args& args) {
    if (args.empty()) {
      out << printModule(module);
      return true;
    }
    std::string problem;
    const Graph* g = graphArgument(args[0], problem);
    if (!g) return metaError(problem, args[0]);
    out << printGraph(module, *g);
    return true;
  }

  bool graphsCommand(const Args&) {
    for (const auto& g : module.graphs) out << graphSignature(*g) << "\n";
    if (module.graphs.empty()) out << "(no subgraphs: only the main graph, which takes no inputs)\n";
    return true;
  }

  bool disasmCommand(const Args& args) {
    const Graph* only = nullptr;
    if (!args.empty()) {
      std::string problem;
      only = graphArgument(args[0], problem);
      if (!only) return metaError(problem);
    }
    return guarded([&] { out << session.disassemble(only); });
  }

  bool passesCommand(const Args& args) {
    std::string list;  // `:passes inline, dce` is one list
    for (const auto& a : args) list += a;
    std::string problem;
    std::optional<passes::Pipeline> pipeline = passes::parsePipeline(list, problem);
    if (!pipeline) return metaError(problem);
    std::vector<std::string> passes;
    for (const passes::PassInfo* p : *pipeline) passes.emplace_back(p->name);
    bool ok = false;
    // Passes change the module through ir/rewriter.h, which journals every
    // change: a failed pipeline is rolled back, a successful one is undoable.
    Module::Checkpoint checkpoint = module.checkpoint();
    auto snapshot = session.snapshot();
    // Any later input may print any main value: passes keep them all.
    guarded([&] { ok = runPasses(module, passes, diags, true, nullptr); });
    if (!ok) {
      module.rollback(checkpoint);
      session.restore(snapshot);
      failed = true;
      return false;
    }
    previewer.forget();  // values were rewritten: cached previews rest on the old ops
    pushUndo(checkpoint, std::move(snapshot), ":passes " + list);
    return true;
  }

  bool resetCommand(const Args&) {
    auto snapshot = session.snapshot();
    if (!guarded([&] { session.reset(); })) return false;
    pushUndo(module.checkpoint(), std::move(snapshot), ":reset");
    return true;
  }

  bool undoCommand(const Args&) {
    if (undoStack.empty()) return metaError("nothing to undo");
    UndoEntry entry = std::move(undoStack.back());
    undoStack.pop_back();
    builder.reset();
    module.rollback(entry.checkpoint);
    session.restore(entry.snapshot);
    out << "undone: " << entry.summary << "\n";
    return true;
  }

  bool dotCommand(const Args& args) {
    const Graph* only = nullptr;
    if (args.size() == 2) {
      std::string problem;
      only = graphArgument(args[0], problem);
      if (!only) return metaError(problem, args[0]);
    }
    return dotOfProgram(only, args.back());
  }

  bool profileCommand(const Args&) {
    return guarded([&] {
      session.program();  // compiled, and the memory checked, as a run would
      cli::reportProfile(module, diags, out, -1, {}, &session.branchExecutions());
    });
  }

  // :dot writes the program as it stands, from the module itself (no detour
  // through its text, whose relative load() paths would resolve elsewhere).
  bool dotOfProgram(const Graph* only, const std::string& output) {
    if (!cli::writeFileAtomically(output, device::dotOfModule(module, only), err)) {
      failed = true;
      return false;
    }
    return true;
  }

  // Runs a meta-command action; an exception becomes a reported failure.
  template <class F>
  bool guarded(F&& action) {
    try {
      action();
      return true;
    } catch (const CompileError&) {
    } catch (const std::exception& e) {
      diags.report({Severity::Error, {}, e.what(), {}});
    }
    failed = true;
    return false;
  }

  // ---- lines ---------------------------------------------------------------------
  // `line` is taken over: a long line that opens an input becomes it without a copy.
  void feedLine(std::string line) {
    // A Ctrl-C stops the input it arrives in and nothing after it.
    struct ClearInterruptAfter {
      ~ClearInterruptAfter() { clearInterrupt(); }
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
      ~ClearInterruptAfter() { clearInterrupt(); }
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
      for (const auto& v : module.main->values)
        if (module.main->lookup(v->name) == v.get()) offer("%" + v->name);
      // Names written earlier in the open input: a graph's parameters and
      // values while its body is being typed.
      // Matching names only, each once: memory follows the distinct names, not the input.
      std::set<std::string, std::less<>> seen;
      forEachValueName(openInput, [&](std::string_view name) {
        if (name.substr(0, word.size() - 1) == word.substr(1) && !seen.count(name)) seen.emplace(name);
      });
      for (const std::string& name : seen) offer("%" + name);
      std::sort(c.candidates.begin(), c.candidates.end());
      c.candidates.erase(std::unique(c.candidates.begin(), c.candidates.end()), c.candidates.end());
    } else if (!word.empty() && word.front() == '@') {
      offer("@main");
      for (const auto& g : module.graphs) offer("@" + g->name);
    } else if (!word.empty() && word.front() == '$') {
      for (const auto& r : module.resources) offer("$" + r->name);
    } else {
      for (std::string_view op : allOpNames()) offer(std::string(op));
      for (std::string_view k : keywordSpellings()) offer(std::string(k));
      for (int t = 0; t < kNumDTypes; ++t) offer(std::string(dtypeName(static_cast<DType>(t))));
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

Repl::Repl(std::ostream& out, std::ostream& err, const vm::SessionOptions& session, const PreviewBudget& preview)
    : impl_(std::make_unique<Impl>(out, err, session, preview)) {}
Repl::~Repl() = default;

void Repl::feedLine(std::string_view line) { impl_->feedLine(std::string(line)); }
void Repl::feedLine(std::string&& line) { impl_->feedLine(std::move(line)); }
bool Repl::inputOpen() const { return !impl_->openInput.empty(); }
void Repl::abandonInput() { impl_->takeInput(); }
void Repl::finish() { impl_->finish(); }
int Repl::loadFile(const std::string& path, std::istream& in) { return impl_->loadFile(path, in); }
void Repl::setWarningPolicy(WarningPolicy policy) { impl_->diags.setWarningPolicy(policy); }
bool Repl::quitRequested() const { return impl_->quit; }
bool Repl::anyInputFailed() const { return impl_->failed; }
Completion Repl::complete(std::string_view lineBeforeCursor) const { return impl_->complete(lineBeforeCursor); }
const Module& Repl::module() const { return impl_->module; }
Repl::Stats Repl::stats() const {
  const Previewer::Counters& previews = impl_->previewer.counters();
  return {impl_->charactersScannedBefore + impl_->scanner.charactersScanned(), impl_->session.counters().programCompiles,
          previews.opsVisited, previews.opsCompiled};
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

std::string defaultHistoryPath() {
  const char* home = std::getenv("HOME");
  if (!home || !*home) return {};
  return (std::filesystem::path(home) / ".pir_history").string();
}

int runRepl(const ReplRunOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  Repl repl(out, err, options.session, options.preview);
  repl.setWarningPolicy(options.warnings);
  // On a terminal the banner comes first: what FILE prints belongs to the session.
  if (options.interactive) out << Repl::kBanner << "\n" << std::flush;
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
