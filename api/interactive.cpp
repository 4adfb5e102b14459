// The incremental session of include/pir/interactive.h: one Builder and one
// vm::Session over a module that grows one input at a time. Before each input
// it takes Module::checkpoint() and a session snapshot; an input that fails
// (parse, verify or runtime error) is undone completely.
#include "pir/interactive.h"

#include <deque>
#include <ostream>
#include <sstream>
#include <type_traits>
#include <utility>

#include "api/pass_runner.h"
#include "api/public_types.h"
#include "api/preview.h"
#include "api/session_driver.h"
#include "device/device_model.h"
#include "device/dot.h"
#include "frontend/builder.h"
#include "frontend/lexical.h"
#include "frontend/parser.h"
#include "ir/diagnostics.h"
#include "ir/printer.h"
#include "vm/format.h"
#include "vm/host_memory.h"
#include "vm/session.h"

namespace pir::api {

namespace {

// After a previewed value that `print` cannot show yet.
constexpr const char* kPreviewNote = "(preview: `run` computes it)";

std::string_view trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string signatureOf(const Graph& g) {
  std::string s = "@" + g.name + "(";
  for (size_t i = 0; i < g.params.size(); ++i) {
    if (i) s += ", ";
    if (g.params[i]->byRef) s += "&";
    s += g.params[i]->type->str();
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

// The first line of an input, for messages about it ("undone: ..."), cut at
// kMaxSummaryBytes (at a character boundary) with " ..." when it goes on.
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

WarningPolicy policyOf(Warnings w) {
  switch (w) {
    case Warnings::Error: return WarningPolicy::Error;
    case Warnings::Ignore: return WarningPolicy::Ignore;
    case Warnings::Report: break;
  }
  return WarningPolicy::Report;
}

vm::SessionOptions sessionOptionsOf(const ContextOptions& c) {
  vm::SessionOptions options;
  options.threads = c.threads;
  options.maxSteps = c.maxSteps;
  options.fuseElementwise = c.fuseElementwise;
  options.lowering = &lowerForCompile;
  return options;
}

}  // namespace

std::string Type::str() const { return TensorType{toIr(dtype), Shape(shape.begin(), shape.end())}.str(); }

// ---- InputScanner ---------------------------------------------------------------------

struct InputScanner::Impl {
  pir::InputScanner scanner;
};
InputScanner::InputScanner() : impl_(std::make_unique<Impl>()) {}
InputScanner::~InputScanner() = default;
void InputScanner::feed(std::string_view text) { impl_->scanner.feed(text); }
bool InputScanner::needsMoreInput() const { return impl_->scanner.needsMoreInput(); }
void InputScanner::reset() { impl_->scanner.reset(); }
uint64_t InputScanner::charactersScanned() const { return impl_->scanner.charactersScanned(); }

void forEachValueName(std::string_view text, const std::function<void(std::string_view)>& visit) {
  pir::forEachValueName(text, visit);
}

// ---- Interactive ----------------------------------------------------------------------

struct Interactive::Impl : BuildListener {
  using Module = ::pir::Module;  // the IR's, not the API's handle of it
  std::ostream& out;
  SourceManager sources;
  DiagnosticEngine diags{sources};
  Module module;
  // Output of the input being evaluated (echo, printed values): written out
  // when the input succeeds, dropped when it is undone.
  std::ostringstream pending;
  vm::Session session;
  Previewer previewer;   // the echo's previews, over `session`
  SessionDriver driver;  // runs each input's commands after its parse
  Builder builder;
  bool echo = true;  // off while loading a file
  bool sessionChanged = false;  // the input ran a command that changes the session (not print/save)

  // Turns the echo off for a scope (exceptions included).
  struct EchoOff {
    bool& flag;
    bool saved;
    explicit EchoOff(bool& f) : flag(f), saved(f) { flag = false; }
    ~EchoOff() { flag = saved; }
  };

  // Undo history, newest last. Capped in count and in memory (pushUndo): each entry
  // holds a session snapshot.
  struct UndoEntry {
    Module::Checkpoint checkpoint;
    std::shared_ptr<const vm::Session::Snapshot> snapshot;
    std::string summary;
  };
  std::deque<UndoEntry> undoStack;
  static constexpr size_t kMaxUndo = 100;

  Impl(const ContextOptions& context, std::ostream& o, std::ostream& err, const PreviewBudget& preview)
      : out(o),
        session(module, diags, pending, sessionOptionsOf(context)),
        previewer(session, diags, preview),
        driver(module, session, diags),
        builder(module, diags, ".", {.listener = this, .autodiff = autodiffTransform()}) {
    diags.setStream(&err);
    diags.setWarningPolicy(policyOf(context.warnings));
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
      pending << "%" << v.name << ": " << v.type->str();
      if (!preview.skipped.empty()) pending << "  (not previewed: " << preview.skipped << ")";
      pending << "\n";
    }
  }
  void graphDefined(const Graph& g) override {
    if (echo) pending << signatureOf(g) << "\n";
  }

  // ---- the input's session commands, after its parse --------------------------
  LogicalResult command(const ScriptCommand& sc) {
    const SessionCommand& c = sc.command;
    if (c.kind != SessionCommand::Kind::Print && c.kind != SessionCommand::Kind::Save) sessionChanged = true;
    if (driver.command(sc).failed()) return failure();
    if (!echo || c.kind != SessionCommand::Kind::Run) return success();
    for (const Resource* stream : session.lastRunWrittenStreams()) {
      FailureOr<vm::HostTensor> buffer = session.valueOf("$" + stream->name, c.loc);
      if (buffer.failed()) return failure();
      pending << vm::formatValueLine("$" + stream->name, buffer->type.dtype, buffer->type.shape,
                                     std::as_const(*buffer).data())
              << "\n";
    }
    return success();
  }

  // ---- evaluation ---------------------------------------------------------------
  void flushPending() {
    out << pending.str() << std::flush;
    pending.str({});
  }

  // Parses and builds buffer `file` through `into` as one input, undoing it
  // on any error. Returns true on success; a success that changed the program
  // or the session becomes an undo entry.
  bool evaluateBuffer(uint32_t file, Builder& into, const std::string& summary) {
    Module::Checkpoint checkpoint = module.checkpoint();
    auto snapshot = session.snapshot();
    const uint64_t generationBefore = module.generation;
    sessionChanged = false;
    bool ok = false;
    try {
      parseBuffer(file, into, diags);
      // The input parsed and verified whole: now its commands run, up to the first that fails.
      ok = true;
      for (const ScriptCommand& c : into.takeCommands())
        if (ok && command(c).failed()) ok = false;
      if (ok) driver.release();
    } catch (const CompileError&) {
      // Already reported: the parse (parseBuffer), or a listener (a preview) that stopped it.
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

  // Whether the input just evaluated did something undo should remove: a
  // definition, or a command that changes the session (print/save do not).
  bool changedState(const Module::Checkpoint& before, uint64_t generationBefore) const {
    return module.generation != generationBefore || module.anyItemSeen != before.anyItemSeen ||
           module.options.present != before.options.present || sessionChanged;
  }

  // The input's text moves into the source manager (one copy of a long line, not two).
  bool evaluate(std::string text, uint32_t firstLine) {
    if (trim(text).empty()) return true;
    std::string summary = summarise(text);
    uint32_t file = sources.add("<repl>", std::move(text), firstLine);
    return evaluateBuffer(file, builder, summary);
  }

  // A whole file as one input without echo. Its own Builder resolves relative
  // load()/save paths against the file's directory.
  bool load(const std::string& name, std::string text, const std::string& baseDir) {
    const uint32_t file = sources.add(name, std::move(text));
    Builder fileBuilder(module, diags, baseDir, {.listener = this, .autodiff = autodiffTransform()});
    EchoOff quiet(echo);
    return evaluateBuffer(file, fileBuilder, ":load " + name);
  }

  // Runs an action (void, or LogicalResult: a failure() is reported already);
  // an exception becomes a reported failure.
  template <class F>
  bool guarded(F&& action) {
    try {
      if constexpr (std::is_same_v<std::invoke_result_t<F>, LogicalResult>) {
        return action().succeeded();
      } else {
        action();
        return true;
      }
    } catch (const CompileError&) {  // the front end's statements unwind so (reported)
    } catch (const std::exception& e) {
      diags.report({Severity::Error, {}, e.what(), {}});
    }
    return false;
  }

  bool runPasses(const std::vector<std::string>& passes, const std::string& summary) {
    bool ok = false;
    // Passes change the module through ir/rewriter.h, which journals every
    // change: a failed pipeline is rolled back, a successful one is undoable.
    Module::Checkpoint checkpoint = module.checkpoint();
    auto snapshot = session.snapshot();
    // Any later input may print any main value: passes keep them all.
    guarded([&] { ok = pir::runPasses(module, passes, diags, true, nullptr).succeeded(); });
    if (!ok) {
      module.rollback(checkpoint);
      session.restore(snapshot);
      return false;
    }
    previewer.forget();  // values were rewritten: cached previews rest on the old ops
    pushUndo(checkpoint, std::move(snapshot), summary);
    return true;
  }

  bool reset() {
    auto snapshot = session.snapshot();
    if (!guarded([&] { return session.reset(); })) return false;
    pushUndo(module.checkpoint(), std::move(snapshot), ":reset");
    return true;
  }

  std::optional<std::string> undo() {
    if (undoStack.empty()) return std::nullopt;
    UndoEntry entry = std::move(undoStack.back());
    undoStack.pop_back();
    builder.reset();
    module.rollback(entry.checkpoint);
    session.restore(entry.snapshot);
    return std::move(entry.summary);
  }

  // `name`: "" for none, "main", or a subgraph's. Precondition: it exists.
  const Graph* graphNamed(const std::string& name) const {
    if (name.empty()) return nullptr;
    if (name == "main") return module.main.get();
    return module.findGraph(name);
  }
};

Interactive::Interactive(Context& context, std::ostream& output, std::ostream& diagnostics, const PreviewBudget& preview)
    : impl_(std::make_unique<Impl>(context.options(), output, diagnostics, preview)) {}
Interactive::~Interactive() = default;

bool Interactive::evaluate(std::string text, uint32_t firstLine) { return impl_->evaluate(std::move(text), firstLine); }
bool Interactive::load(const std::string& name, std::string text, const std::string& baseDir) {
  return impl_->load(name, std::move(text), baseDir);
}
bool Interactive::runPasses(const std::vector<std::string>& passes, const std::string& summary) {
  return impl_->runPasses(passes, summary);
}
bool Interactive::reset() { return impl_->reset(); }
std::optional<std::string> Interactive::undo() { return impl_->undo(); }

void Interactive::reportError(std::string line, uint32_t lineNumber, uint32_t column, const std::string& message) {
  const uint32_t file = impl_->sources.add("<repl>", std::move(line), lineNumber);
  impl_->diags.report({Severity::Error, SourceLoc{file, 1, column}, message, {}});
}
void Interactive::setWarnings(Warnings warnings) { impl_->diags.setWarningPolicy(policyOf(warnings)); }

std::optional<Type> Interactive::valueType(const std::string& name) const {
  const Value* v = impl_->module.main->lookup(name);
  if (!v) return std::nullopt;
  return Type{fromIr(v->type->dtype), v->type->shape};
}

std::optional<ResourceInfo> Interactive::resource(const std::string& name) const {
  const Resource* r = impl_->module.findResource(name);
  if (!r) return std::nullopt;
  ResourceInfo info;
  info.name = r->name;
  info.kind = r->kind == Resource::Kind::H2D   ? ResourceInfo::Kind::HostToDevice
              : r->kind == Resource::Kind::D2H ? ResourceInfo::Kind::DeviceToHost
                                               : ResourceInfo::Kind::RemoteBuffer;
  info.type = Type{fromIr(r->type.dtype), r->type.shape};
  info.entries = r->entries;
  return info;
}

bool Interactive::hasGraph(const std::string& name) const { return impl_->module.findGraph(name) != nullptr; }

std::optional<std::string> Interactive::graphSignature(const std::string& name) const {
  const Graph* g = impl_->module.findGraph(name);
  if (!g) return std::nullopt;
  return signatureOf(*g);
}

std::vector<std::string> Interactive::graphNames() const {
  std::vector<std::string> names;
  for (const auto& g : impl_->module.graphs) names.push_back(g->name);
  return names;
}

std::vector<std::string> Interactive::valueNames() const {
  std::vector<std::string> names;
  const Graph& main = *impl_->module.main;
  for (const auto& v : main.values)
    if (main.lookup(v->name) == v.get()) names.push_back(v->name);
  return names;
}

std::vector<std::string> Interactive::resourceNames() const {
  std::vector<std::string> names;
  for (const auto& r : impl_->module.resources) names.push_back(r->name);
  return names;
}

std::string Interactive::print(const std::string& graph) const {
  if (const Graph* g = impl_->graphNamed(graph)) return printGraph(impl_->module, *g);
  return printModule(impl_->module);
}

std::string Interactive::dot(const std::string& graph) const {
  return device::dotOfModule(impl_->module, impl_->graphNamed(graph));
}

std::optional<std::string> Interactive::disassemble(const std::string& graph) {
  std::string text;
  if (!impl_->guarded([&]() -> LogicalResult {
        FailureOr<std::string> bytecode = impl_->session.disassemble(impl_->graphNamed(graph));
        if (bytecode.failed()) return failure();
        text = std::move(*bytecode);
        return success();
      }))
    return std::nullopt;
  return text;
}

std::optional<std::string> Interactive::profile() {
  std::string text;
  Impl& m = *impl_;
  if (!m.guarded([&]() -> LogicalResult {
        // Compiled, and the memory checked, as a run would.
        if (m.session.program().failed()) return failure();
        if (device::checkDeviceMemory(m.module, m.diags).failed()) return failure();
        FailureOr<device::Profile> p = device::profileModule(m.module, m.diags, -1, &m.session.branchExecutions());
        if (p.failed()) return failure();
        text = device::formatProfile(*p, m.sources, false);
        return success();
      }))
    return std::nullopt;
  return text;
}

Interactive::Stats Interactive::stats() const {
  const Previewer::Counters& previews = impl_->previewer.counters();
  return {impl_->session.counters().programCompiles, previews.opsVisited, previews.opsCompiled};
}

}  // namespace pir::api
