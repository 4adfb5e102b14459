#include "frontend/recovery.h"

#include <set>
#include <utility>

#include "frontend/builder.h"
#include "frontend/parser.h"

namespace pir {
namespace {

// Thrown through the parser when the error cap is reached.
struct TooManyErrors {};

class RecoveringSink final : public ast::ParseSink {
 public:
  RecoveringSink(Builder& builder, Module& module, DiagnosticEngine& diags, int maxErrors)
      : b_(builder), m_(module), diags_(diags), maxErrors_(maxErrors), stream_(diags.stream()) {}

  // A syntax error escaped the parser: drop a graph left open, as after an error in its body.
  void abandonOpenItem() {
    if (inGraph_ && !skipGraph_) dropGraph();
    inGraph_ = skipGraph_ = false;
    graphName_.clear();
  }
  // Called after each error: silences the engine once the cap is reached and
  // stops at the first error beyond it.
  void counted() {
    if (diags_.errorCount() == maxErrors_) diags_.setStream(nullptr);
    if (diags_.errorCount() > maxErrors_) throw TooManyErrors{};
  }
  void restoreStream() { diags_.setStream(stream_); }
  void reportTooMany() {
    restoreStream();
    if (stream_)
      *stream_ << "pir: error: too many errors emitted (" << maxErrors_ << "), stopping now\n" << std::flush;
  }

  void irOptions(ast::IrOptionsItem&& item) override {
    guard([&] { b_.irOptions(std::move(item)); });
  }
  void stream(ast::StreamDecl&& s) override {
    std::string name = s.name.text;
    bool existed = m_.findResource(name) != nullptr;
    if (!guard([&] { b_.stream(std::move(s)); }) && !existed) badResources_.insert(name);
  }
  void remoteBuffer(ast::RemoteBufferDecl&& s) override {
    std::string name = s.name.text;
    bool existed = m_.findResource(name) != nullptr;
    if (!guard([&] { b_.remoteBuffer(std::move(s)); }) && !existed) badResources_.insert(name);
  }
  void beginGraph(ast::GraphHeader&& h) override {
    inGraph_ = true;
    graphFailed_ = false;
    graphName_ = h.name.text;
    bool existed = m_.findGraph(graphName_) != nullptr;
    skipGraph_ = !guard([&] { b_.beginGraph(std::move(h)); });
    if (skipGraph_ && !existed) badGraphs_.insert(graphName_);
  }
  void endGraph(SourceLoc closeBrace) override {
    if (!skipGraph_) {
      if (graphFailed_) dropGraph();
      else if (!guard([&] { b_.endGraph(closeBrace); })) dropGraph();
    }
    inGraph_ = skipGraph_ = false;
    graphName_.clear();
  }
  void beginMain(SourceLoc loc) override {
    guard([&] { b_.beginMain(loc); });
  }
  void endMain(SourceLoc loc) override {
    guard([&] { b_.endMain(loc); });
  }
  void resultNamed(std::string_view name) override { b_.resultNamed(name); }
  void statement(ast::BodyStmt&& stmt) override {
    if (skipGraph_) return;
    std::vector<std::string>& defines = defines_;  // reused: no allocation per statement
    defines.clear();
    bool usesBad = false;
    std::visit([&](auto& s) { scan(s, defines, usesBad); }, stmt);
    Graph* g = inGraph_ ? m_.findGraph(graphName_) : m_.main.get();
    const size_t valuesBefore = g ? g->values.size() : 0;
    bool ok = !usesBad && guard([&] { b_.statement(std::move(stmt)); });
    // Labels named by a statement that failed are poisoned like its results.
    if (!ok)
      for (auto& l : pendingLabels_) badLabels_.insert({graphName_, l});
    pendingLabels_.clear();
    if (ok) return;
    if (inGraph_) graphFailed_ = true;
    // An exchange block that failed after some of its ops were built leaves their
    // results in scope with their op gone: take them out, poisoned.
    if (g)
      for (size_t i = valuesBefore; i < g->values.size(); ++i) {
        Value* v = g->values[i].get();
        g->scope.erase(v);
        v->def = nullptr;
        badValues_.insert({graphName_, v->name});
      }
    for (const std::string& name : defines)
      if (!g || !g->lookup(name)) badValues_.insert({graphName_, name});
  }
  void autodiff(ast::AutodiffItem&& item) override {
    std::string grad = item.grad.text;
    bool existed = m_.findGraph(grad) != nullptr;
    if (badGraphs_.contains(item.fwd.text) || !guard([&] { b_.autodiff(std::move(item)); }))
      if (!existed) badGraphs_.insert(grad);
  }
  void feed(ast::FeedCmd&& c) override {
    if (!badResources_.contains(c.stream.text)) guard([&] { b_.feed(std::move(c)); });
  }
  void run(ast::RunCmd&& c) override {
    guard([&] { b_.run(std::move(c)); });
  }
  void print(ast::PrintCmd&& c) override {
    for (const ast::Name& t : c.targets)
      if (badTarget(t.text)) return;
    guard([&] { b_.print(std::move(c)); });
  }
  void write(ast::WriteCmd&& c) override {
    if (!badValues_.contains({"", c.var.text})) guard([&] { b_.write(std::move(c)); });
  }
  void save(ast::SaveCmd&& c) override {
    if (!badTarget(c.target.text)) guard([&] { b_.save(std::move(c)); });
  }

 private:
  // Runs one builder call; false if it reported an error.
  template <class F> bool guard(F&& f) {
    try {
      f();
      return true;
    } catch (const CompileError&) {
      counted();
      return false;
    }
  }

  void dropGraph() {
    // The graph's signature may be wrong (outputs inferred from a failed
    // return): calls to it would only repeat that error.
    badGraphs_.insert(graphName_);
    b_.reset();
  }

  bool badTarget(const std::string& sigilName) const {
    if (sigilName.size() < 2) return false;
    if (sigilName[0] == '$') return badResources_.contains(sigilName.substr(1));
    return badValues_.contains({"", sigilName.substr(1)});
  }

  bool usesBadOperand(const ast::Operand& o) const {
    // The sets are empty until an error: then no key is made (a copy of two
    // strings per operand of every statement of a file without errors).
    switch (o.kind) {
      case ast::Operand::Kind::Value: return !badValues_.empty() && badValues_.contains({graphName_, o.name.text});
      case ast::Operand::Kind::Resource: return !badResources_.empty() && badResources_.contains(o.name.text);
      case ast::Operand::Kind::Literal: return false;
      case ast::Operand::Kind::Call:
        if (!o.call) return false;
        if (badGraphs_.contains(o.call->graph.text)) return true;
        for (const ast::Operand& a : o.call->args)
          if (usesBadOperand(a)) return true;
        return false;
    }
    return false;
  }

  void scan(const ast::OpStmt& s, std::vector<std::string>& defines, bool& usesBad) {
    for (const ast::Name& r : s.results) defines.push_back(r.text);
    for (const ast::Operand& o : s.operands) usesBad = usesBad || usesBadOperand(o);
    if (s.usingLabel && badLabels_.contains({graphName_, s.usingLabel->text})) usesBad = true;
    if (s.asLabel) pendingLabels_.push_back(s.asLabel->text);
  }
  void scan(const ast::DeclStmt& s, std::vector<std::string>& defines, bool& usesBad) {
    defines.push_back(s.name.text);
    const Attr* remote = s.attrs.find("remote");
    if (remote && badResources_.contains(remote->s)) usesBad = true;
  }
  void scan(const ast::ExchangeStmt& s, std::vector<std::string>& defines, bool& usesBad) {
    for (const ast::OpStmt& op : s.ops) scan(op, defines, usesBad);
  }
  void scan(const ast::ReturnStmt& s, std::vector<std::string>&, bool& usesBad) {
    for (const ast::Operand& o : s.values) usesBad = usesBad || usesBadOperand(o);
  }

  Builder& b_;
  Module& m_;
  DiagnosticEngine& diags_;
  int maxErrors_;
  std::ostream* stream_;
  bool inGraph_ = false, skipGraph_ = false, graphFailed_ = false;
  std::string graphName_;  // "" outside a subgraph (the main graph)
  std::set<std::pair<std::string, std::string>> badValues_;  // (graph, %name); graph "" is main
  std::set<std::pair<std::string, std::string>> badLabels_;  // (graph, call label)
  std::vector<std::string> pendingLabels_;
  std::vector<std::string> defines_;  // the names the current statement defines
  std::set<std::string> badGraphs_, badResources_;
};

bool startsItem(char c) { return c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '}' && c != '#'; }

// Where to resume after a syntax error at `at`: the start of the error's own line
// if the error is at its first character and that line can start a top-level
// item (an unclosed bracket swallowed the next line, say) and lies after
// `offset`, unless the failing statement itself starts there (`statementStart`:
// a misspelt keyword; parsing it again repeats the error); else the next line
// that can start one: it begins in column 1 with neither white space, `}` nor
// `#`. npos when there is none.
size_t resumeOffset(const std::string& text, SourceLoc at, size_t offset, size_t statementStart) {
  size_t pos = 0;
  for (uint32_t l = 1; l < at.line; ++l) {
    pos = text.find('\n', pos);
    if (pos == std::string::npos) return std::string::npos;
    ++pos;
  }
  if (at.col == 1 && pos > offset && pos < text.size() && startsItem(text[pos]) && pos != statementStart) return pos;
  for (;;) {
    pos = text.find('\n', pos);
    if (pos == std::string::npos) return std::string::npos;
    ++pos;
    if (pos < text.size() && startsItem(text[pos])) return pos;
  }
}

}  // namespace

bool buildWithRecovery(Module& module, DiagnosticEngine& diags, uint32_t file, const std::string& baseDir,
                       int maxErrors, AutodiffTransform autodiff) {
  BuildOptions options;
  options.autodiff = autodiff;
  Builder builder(module, diags, baseDir, options);
  RecoveringSink sink(builder, module, diags, maxErrors);
  const std::string& text = diags.sources().buffer(file).text;
  reserveForBuffer(module, text);
  size_t offset = 0;
  size_t statementStart = 0;
  for (;;) {
    try {
      parseBuffer(file, sink, diags, offset, &statementStart);
      break;
    } catch (const TooManyErrors&) {
      sink.reportTooMany();
      break;
    } catch (const CompileError& e) {
      try {
        sink.counted();
      } catch (const TooManyErrors&) {
        sink.reportTooMany();
        break;
      }
      sink.abandonOpenItem();
      if (!e.diag.loc.valid() || e.diag.loc.file != file) break;
      size_t next = resumeOffset(text, e.diag.loc, offset, statementStart);
      if (next == std::string::npos || next <= offset) break;
      offset = next;
    }
  }
  builder.reset();
  sink.restoreStream();
  return diags.errorCount() == 0;
}

}  // namespace pir
