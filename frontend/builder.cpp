// The IR builder: resolves names, types and verifies each parser event as it
// arrives (language.md), appending to the Module. The first error is reported
// through DiagnosticEngine::fail, which throws CompileError.
//
// Generated names: a result the source leaves unnamed gets the smallest free
// decimal name `%N` of its graph (counting up from a per-graph hint), so the
// printed text reparses to the same IR. A later user definition of that name is
// a redefinition error pointing at the op that took it.
#include "frontend/builder.h"

#include <algorithm>
#include <filesystem>
#include <unordered_map>

#include "frontend/parser.h"
#include "ir/infer.h"
#include "ir/rewriter.h"
#include "ir/suggest.h"
#include "ir/lint.h"
#include "ir/verifier.h"

namespace pir {

namespace {

std::string sigilName(char sigil, const std::string& n) {
  std::string s(1, sigil);
  s += n;
  return s;
}

}  // namespace

struct Builder::Impl {
  Module& m;
  DiagnosticEngine& diags;
  std::string baseDir;
  BuildListener* listener;
  AutodiffTransform autodiff;
  Script commands;  // read since the last takeCommands()

  Graph* openGraph = nullptr;  // the subgraph whose body is being read
  std::vector<TensorType> types;  // scratch for inferred result types
  std::vector<std::pair<std::string, SourceLoc>> resultNames;  // scratch: an op statement's result names

  // The rules of the language are checked by ir/verifier.h. In resolve-only
  // mode (BuildMode::ResolveOnly) a failed rule is ignored and the statement is
  // built anyway, so that verifyModule can be held to the builder's diagnostics.
  bool resolveOnly = false;
  std::unique_ptr<DiagnosticEngine> silent;
  template <class F> bool semantic(F&& check) {
    if (!resolveOnly) {
      check(diags);
      return true;
    }
    try {
      check(*silent);
      return true;
    } catch (const CompileError&) {
      return false;
    }
  }

  Impl(Module& module, DiagnosticEngine& d, std::string dir, const BuildOptions& options)
      : m(module), diags(d), baseDir(std::move(dir)), listener(options.listener), autodiff(options.autodiff) {
    types.reserve(8);
  }

  Graph& current() { return openGraph ? *openGraph : *m.main; }

  void markItem() { m.anyItemSeen = true; }

  [[noreturn]] void redefinition(SourceLoc at, const std::string& what, SourceLoc first) {
    std::vector<Note> notes;
    if (first.valid()) notes.push_back({first, what + " is first defined here"});
    diags.fail(at, "redefinition of " + what, std::move(notes));
  }

  void warnDowncast(const ast::Type& t, SourceLoc fallback) {
    if (t.downcast) diags.warning(t.loc.valid() ? t.loc : fallback, downcastWarning(t.dtype));
  }
  static TensorType toType(const ast::Type& t) { return TensorType{t.dtype, t.shape}; }

  std::string resolvePath(const std::string& path) const {
    std::filesystem::path p(path);
    if (p.is_absolute() || baseDir.empty()) return path;
    return (std::filesystem::path(baseDir) / p).string();
  }

  // ---- names -------------------------------------------------------------------

  void checkFreeValueName(Graph& g, const ast::Name& n) {
    Value* prev = g.lookup(n.text);
    if (!prev) return;
    if (prev->generatedName) {
      // A name the builder made up for an unnamed result yields to a name the
      // user writes: the earlier value takes the next free generated name,
      // chosen while `n` is still taken so that it cannot be handed `n` again.
      renameValue(m, *prev, freshName(g), /*generated=*/true);
      return;
    }
    redefinition(n.loc, sigilName('%', n.text), prev->loc);
  }

  // Declares a `$` resource (stream or remote buffer) whose name was checked free.
  void addResource(Resource::Kind kind, ast::Name& name, const ast::Type& type, int64_t entries) {
    auto r = std::make_unique<Resource>();
    r->kind = kind;
    r->name = std::move(name.text);
    r->type = toType(type);
    r->downcast = type.downcast;
    r->entries = entries;
    r->loc = name.loc;
    r->index = static_cast<unsigned>(m.resources.size());
    Resource* raw = r.get();
    m.resourceScope.emplace(raw->name, raw);
    m.resources.push_back(std::move(r));
    if (listener) listener->resourceDefined(*raw);
  }

  Value* newValue(Graph& g, Value::Kind kind, std::string name, bool generated, TensorType type, SourceLoc loc) {
    return pir::newValue(m, g, kind, std::move(name), generated, std::move(type), loc);
  }

  void defined(const Value& v) {
    if (listener && v.graph == m.main.get()) listener->valueDefined(v);
  }

  // ---- operands ------------------------------------------------------------------

  // `what`: the op or statement name that prefixes the message ("add", "return").
  Value* lookupValue(Graph& g, const ast::Name& n, std::string_view what) {
    if (Value* v = g.lookup(n.text)) return v;
    std::vector<Note> notes;
    if (!g.isMain)
      if (Value* outer = m.main->lookup(n.text)) {
        if (outer->loc.valid()) notes.push_back({outer->loc, "%" + n.text + " is a main-graph value declared here"});
        diags.fail(n.loc, std::string(what) + ": unknown value %" + n.text + " in @" + g.name +
                              ": a subgraph sees only its parameters and its own values; pass it as an argument",
                   std::move(notes));
      }
    diags.fail(n.loc, std::string(what) + ": unknown value %" + n.text + suggestValue(g, n.text));
  }

  Graph* lookupGraph(const ast::Name& n, std::string_view what) {
    if (openGraph && n.text == openGraph->name) diags.fail(n.loc, "recursion: @" + n.text + " calls itself");
    if (Graph* g = m.findGraph(n.text)) return g;
    if (n.text == "main") diags.fail(n.loc, std::string(what) + ": @main is the main graph and cannot be called");
    diags.fail(n.loc, std::string(what) + ": unknown graph @" + n.text + suggestGraph(m, n.text));
  }

  Operand resolveOperand(Graph& g, ast::Operand& a, std::string_view what) {
    Operand o;
    o.setLoc(a.loc.valid() ? a.loc : a.name.loc);
    switch (a.kind) {
      case ast::Operand::Kind::Value:
        o.setKind(Operand::Kind::Value);
        o.setValue(lookupValue(g, a.name, what));
        break;
      case ast::Operand::Kind::Resource:
        o.setKind(Operand::Kind::Resource);
        o.setResource(m.findResource(a.name.text));
        if (!o.resource()) diags.fail(a.name.loc, std::string(what) + ": unknown stream or remote buffer $" + a.name.text + suggestResource(m, a.name.text));
        break;
      case ast::Operand::Kind::Literal:
        o.setKind(Operand::Kind::Literal);
        o.setLiteral(std::move(a.literal));
        if (!o.literal()) diags.fail(o.loc(), std::string(what) + ": missing literal");
        break;
      case ast::Operand::Kind::Call:
        diags.fail(o.loc(), std::string(what) +
                              ": a graph call is only allowed as an operand of call, repeat or conditional");
    }
    return o;
  }

  // The operands of `op` from the source's: a graph call `@g(ARGS)` becomes a
  // callee reference whose arguments are appended as flat operands.
  void resolveOperands(Graph& g, Op& op, std::vector<ast::Operand>& src) {
    const OpInfo& info = op.info();
    const std::string_view what = info.name;
    const bool control = info.has(F_CONTROL);
    op.operands.reserve(src.size());
    for (size_t i = 0; i < src.size(); ++i) {
      ast::Operand& a = src[i];
      const bool wantCall = control && (op.code != OpCode::Conditional || i > 0);
      if (a.kind != ast::Operand::Kind::Call) {
        if (wantCall)
          diags.fail(a.loc.valid() ? a.loc : a.name.loc,
                     std::string(what) + ": operand " + std::to_string(i + 1) + " must be a graph call @g(...)");
        op.operands.push_back(resolveOperand(g, a, what));
        continue;
      }
      if (!wantCall || !a.call)
        diags.fail(a.loc, std::string(what) + ": a graph call is only allowed as an operand of call, repeat or conditional");
      CalleeRef callee;
      callee.loc = a.call->loc.valid() ? a.call->loc : a.call->graph.loc;
      callee.graph = lookupGraph(a.call->graph, what);
      callee.firstOperand = static_cast<uint32_t>(op.operands.size());
      callee.numArgs = static_cast<uint32_t>(a.call->args.size());
      for (auto& arg : a.call->args) op.operands.push_back(resolveOperand(g, arg, what));
      op.callees.push_back(callee);
    }
    const size_t wantCallees = op.code == OpCode::Conditional ? 2 : control ? 1 : 0;
    if (control && op.callees.size() != wantCallees)
      diags.fail(op.loc, std::string(what) + ": expects " +
                             (wantCallees == 2 ? "a condition and two graph calls" : "one graph call @g(...)") + ", got " +
                             std::to_string(src.size()) + " operand" + (src.size() == 1 ? "" : "s"));
  }

  // ---- in-place rules ----------------------------------------------------------------


  // The call labelled `label` in `g` (labels are front-end sugar: found by a scan, newest first).
  const Op* findLabel(const Graph& g, const std::string& label) const {
    for (size_t i = g.ops.size(); i-- > 0;)
      if (g.ops[i]->label() == label) return g.ops[i].get();
    return nullptr;
  }

  void bindActivations(Graph& g, Op& op, const ast::Name& label) {
    if (op.code != OpCode::Call) diags.fail(label.loc, std::string(op.info().name) + ": `using` is only for call");
    const Op* found = findLabel(g, label.text);
    if (!found) {
      // The labels of g's calls of the forward graph first: the likeliest meant.
      std::vector<std::string> labels, ofForward;
      const Graph* fwd = op.callees.empty() ? nullptr : op.callees[0].graph->gradOf;
      for (const auto& o : g.ops)
        if (!o->label().empty()) {
          labels.push_back(o->label());
          if (fwd && !o->callees.empty() && o->callees[0].graph == fwd) ofForward.push_back(o->label());
        }
      std::string suffix = didYouMean(label.text, ofForward);
      if (suffix.empty()) suffix = didYouMean(label.text, labels);
      if (suffix.empty() && ofForward.size() == 1)
        suffix = "; the call of @" + fwd->name + " is labelled '" + ofForward[0] + "'";
      diags.fail(label.loc, "call: unknown call label '" + label.text + "'" + suffix);
    }
    const Op& site = *found;
    const Graph& grad = *op.callees[0].graph;
    if (!grad.gradOf)
      diags.fail(label.loc, "call: @" + grad.name + " is not a gradient graph (no grad_of/activations attributes)");
    const Graph& fwd = *site.callees[0].graph;
    if (&fwd != grad.gradOf) {
      std::vector<Note> notes;
      if (site.loc.valid()) notes.push_back({site.loc, "call site '" + label.text + "' is here"});
      diags.fail(label.loc, "call: @" + grad.name + " is the gradient of @" + grad.gradOf->name + ", but '" +
                                label.text + "' calls @" + fwd.name,
                 std::move(notes));
    }
    auto siteArgs = site.args(0);
    for (const Value* a : grad.activations) {
      bool bound = false;
      for (size_t k = 0; k < fwd.params.size() && !bound; ++k)
        if (fwd.params[k] == a) {
          op.operands.push_back(siteArgs[k]);
          bound = true;
        }
      for (size_t j = 0; j < fwd.returns.size() && !bound; ++j) {
        const Operand& r = fwd.returns[j];
        if (r.kind() == Operand::Kind::Value && r.value() == a && j < site.results.size()) {
          op.operands.push_back(Operand::of(site.results[j], label.loc));
          bound = true;
        }
      }
      if (!bound)
        diags.fail(label.loc, "call: activation %" + a->name + " of @" + grad.name +
                                  " is neither an input nor an output of @" + fwd.name);
    }
    op.callees[0].numArgs = static_cast<uint32_t>(op.operands.size() - op.callees[0].firstOperand);
  }

  // ---- op statements -------------------------------------------------------------

  // Builds one op statement into `g`; appended to `region` when inside an exchange block.
  Op* opStatement(Graph& g, ast::OpStmt& s, Op* region) {
    auto code = lookupOp(s.opName);
    if (!code) diags.fail(s.opLoc, "unknown op '" + s.opName + "'" + suggestOp(s.opName));
    const OpInfo& info = opInfo(*code);
    if (region && !info.has(F_IO))
      diags.fail(s.opLoc, "exchange: only IO ops (host_load, host_store, remote_load, remote_load_, remote_store) may "
                          "appear in an exchange block, not " + s.opName);
    // Duplicate result names, in linear time (an op may have 10^5 results); a
    // few results are compared pairwise, without building a map.
    constexpr size_t kPairwiseResults = 8;
    std::unordered_map<std::string_view, size_t> firstUse;
    for (size_t i = 0; i < s.results.size(); ++i) {
      checkFreeValueName(g, s.results[i]);
      if (s.results.size() <= kPairwiseResults) {
        for (size_t j = 0; j < i; ++j)
          if (s.results[j].text == s.results[i].text)
            redefinition(s.results[i].loc, sigilName('%', s.results[i].text), s.results[j].loc);
        continue;
      }
      auto [it, fresh] = firstUse.emplace(s.results[i].text, i);
      if (!fresh) redefinition(s.results[i].loc, sigilName('%', s.results[i].text), s.results[it->second].loc);
    }
    auto op = std::make_unique<Op>();
    op->code = *code;
    op->loc = s.opLoc.valid() ? s.opLoc : s.loc;
    op->attrs = std::move(s.attrs);
    op->parent = &g;
    resolveOperands(g, *op, s.operands);
    if (s.usingLabel) {
      checkOpSignature(*op, m.options, diags);
      bindActivations(g, *op, *s.usingLabel);
    }
    const bool verified = semantic([&](DiagnosticEngine& d) { verifyOp(*op, m.options, types, d); });
    if (!verified) {
      // Resolve-only: the results as written, typed as given (else f32[]).
      types.assign(std::max(s.results.size(), s.resultTypes.size()), TensorType{DType::F32, {}});
      for (size_t i = 0; i < s.resultTypes.size(); ++i) types[i] = toType(s.resultTypes[i]);
    }
    const std::string_view name = info.name;
    if (s.results.size() > types.size())
      diags.fail(s.results[types.size()].loc, std::string(name) + ": " + std::to_string(s.results.size()) +
                                                  " names for " + std::to_string(types.size()) + " result" +
                                                  (types.size() == 1 ? "" : "s"));
    if (s.resultTypes.size() > types.size())
      diags.fail(s.resultTypes[types.size()].loc, std::string(name) + ": " + std::to_string(s.resultTypes.size()) +
                                                      " result types given for " + std::to_string(types.size()) +
                                                      " result" + (types.size() == 1 ? "" : "s"));
    for (size_t i = 0; i < s.resultTypes.size(); ++i) {
      warnDowncast(s.resultTypes[i], op->loc);
      TensorType given = toType(s.resultTypes[i]);
      if (resolveOnly) types[i] = given;  // the verifier compares it with inference
      else if (!(given == types[i]))
        diags.fail(s.resultTypes[i].loc.valid() ? s.resultTypes[i].loc : op->loc,
                   std::string(name) + ": result type " + given.str() + " does not match the inferred type " +
                       types[i].str());
    }
    semantic([&](DiagnosticEngine& d) {
      checkInplaceWrites(*op, d);
      checkRemoteVariableOperands(*op, d);
      warnOpMistakes(*op, d);
    });
    if (s.asLabel) {
      if (op->code != OpCode::Call) diags.fail(s.asLabel->loc, std::string(name) + ": `as` is only for call");
      if (const Op* prev = findLabel(g, s.asLabel->text)) {
        std::vector<Note> notes;
        if (prev->loc.valid()) notes.push_back({prev->loc, "'" + s.asLabel->text + "' is first defined here"});
        diags.fail(s.asLabel->loc, "redefinition of call label '" + s.asLabel->text + "'", std::move(notes));
      }
    }
    // Results: named ones first, then generated names; an in-place op binds its alias only if named.
    std::vector<std::pair<std::string, SourceLoc>>& names = resultNames;  // reused: no allocation per op
    names.clear();
    for (ast::Name& n : s.results) names.emplace_back(std::move(n.text), n.loc);
    createResults(m, g, *op, types, names);
    Op* raw = op.get();
    if (s.asLabel) op->setLabel(s.asLabel->text);
    appendOp(g, std::move(op), region);
    for (Value* v : raw->results) defined(*v);
    return raw;
  }

  // Appends a built op to the end of `g` (or of the exchange block `region`):
  // ir/rewriter.h appendOp. An op appended to a block goes with the block (which
  // is appended, and undone, whole).
  void appendOp(Graph& g, std::unique_ptr<Op> op, Op* region) { pir::appendOp(m, g, std::move(op), region); }

  // ---- declarations ----------------------------------------------------------------

  void declStatement(Graph& g, ast::DeclStmt& s) {
    const char* kw = s.isConst ? "const" : "var";
    std::string what = std::string(kw) + " %" + s.name.text;
    if (!s.isConst && !g.isMain)  // before the name check: the first problem with this line
      semantic([&](DiagnosticEngine& d) {
        checkDeclaration(m, g, s.isConst, s.name.text, toType(s.type), s.attrs, s.init.get(), s.loc, d);
      });
    checkFreeValueName(g, s.name);
    warnDowncast(s.type, s.loc);
    TensorType type = toType(s.type);
    bool loadMayAppear = false;
    if (s.init && s.init->kind == Literal::Kind::Load) {
      s.init->resolvedPath = resolvePath(s.init->path);
      loadMayAppear = savedByPendingCommand(s.init->resolvedPath);
    }
    semantic([&](DiagnosticEngine& d) {
      checkDeclaration(m, g, s.isConst, s.name.text, type, s.attrs, s.init.get(), s.loc, d, loadMayAppear);
    });
    auto op = std::make_unique<Op>();
    op->code = s.isConst ? OpCode::Const : OpCode::Var;
    op->loc = s.loc;
    op->attrs = std::move(s.attrs);
    op->setInit(std::move(s.init));
    op->parent = &g;
    Value* v = newValue(g, s.isConst ? Value::Kind::Const : Value::Kind::Var, std::move(s.name.text), false,
                        std::move(type), s.name.loc);
    v->def = op.get();
    op->results.push_back(v);
    appendOp(g, std::move(op), nullptr);
    defined(*v);
  }

  void exchangeStatement(Graph& g, ast::ExchangeStmt& s) {
    auto ex = std::make_unique<Op>();
    ex->code = OpCode::Exchange;
    ex->loc = s.loc;
    ex->attrs = std::move(s.attrs);
    ex->parent = &g;
    ex->mutableRegion().reserve(s.ops.size());
    for (auto& stmt : s.ops) opStatement(g, stmt, ex.get());
    semantic([&](DiagnosticEngine& d) { checkExchangeBlock(*ex, m.options, d); });
    appendOp(g, std::move(ex), nullptr);
  }

  void returnStatement(Graph& g, ast::ReturnStmt& s) {
    if (g.isMain) diags.fail(s.loc, "return: the main graph has no return");
    std::vector<Operand> values;
    values.reserve(s.values.size());
    for (auto& a : s.values) values.push_back(resolveOperand(g, a, "return"));
    for (size_t i = 0; i < values.size(); ++i) {
      Operand& o = values[i];
      if (o.kind() == Operand::Kind::Resource) diags.fail(o.loc(), "return: operand must be a tensor");
      if (o.kind() != Operand::Kind::Literal) continue;
      if (!g.outputsWritten)
        diags.fail(o.loc(), "return: cannot infer the dtype of a literal without `-> (...)`: declare a const");
      if (i < g.outputTypes.size()) o.setLiteralType(g.outputTypes[i]);
    }
    if (!g.outputsWritten) {
      g.outputTypes.clear();
      for (auto& o : values) g.outputTypes.push_back(o.type());
    }
    g.returns = std::move(values);
    g.hasReturn = true;
    g.returnLoc = s.loc;
    semantic([&](DiagnosticEngine& d) { checkReturns(g, d); });
  }

  // ---- session commands ----------------------------------------------------------

  // Whether a command read but not yet run writes `path` (a save before a
  // declaration that loads it: the file appears when the script runs).
  bool savedByPendingCommand(const std::string& path) const {
    for (const ScriptCommand& c : commands)
      if (c.command.kind == SessionCommand::Kind::Save && c.command.resolvedPath == path) return true;
    return false;
  }

  void addCommand(SessionCommand&& cmd) {
    ScriptCommand c;
    for (const std::string& name : cmd.names)
      c.values.push_back(name.size() > 1 && name[0] == '%' ? m.main->lookup(name.substr(1)) : nullptr);
    c.command = std::move(cmd);
    c.point = m.point();
    commands.push_back(std::move(c));
  }

  void checkCommandData(const char* cmd, const std::string& target, Literal& lit, const TensorType& bufferType) {
    std::string what = std::string(cmd) + " " + target;
    SourceLoc loc = lit.loc;
    if (lit.isGenerator()) diags.fail(loc, what + ": data must be a literal or load(\"file.npy\")");
    if (lit.kind == Literal::Kind::Load) {
      lit.resolvedPath = resolvePath(lit.path);
      return;  // read and shape-checked by the session when the command runs
    }
    bool scalarOk = lit.isScalar() && bufferType.numElements() == 1;
    if (!scalarOk && !lit.listFits(bufferType.shape))
      diags.fail(loc, what + ": data of shape " + shapeToString(lit.shape) + " does not match the buffer shape " +
                          shapeToString(bufferType.shape));
    checkLiteralData(lit, bufferType, what, diags);
  }

  // A print/save target: `$` streams (h2d or d2h) or `%` main-graph values.
  void checkOutputTarget(const char* cmd, const ast::Name& n) {
    const std::string& t = n.text;
    if (t.size() > 1 && t[0] == '$') {
      Resource* r = m.findResource(t.substr(1));
      if (!r) diags.fail(n.loc, std::string(cmd) + ": unknown stream " + t + suggestResource(m, t.substr(1)));
      if (r->kind == Resource::Kind::RemoteBuffer)
        diags.fail(n.loc, std::string(cmd) + ": " + t + " is a remote buffer; print a remote variable instead");
      return;
    }
    if (t.size() > 1 && t[0] == '%') {
      if (!m.main->lookup(t.substr(1)))
        diags.fail(n.loc, std::string(cmd) + ": unknown value " + t + " in the main graph" + suggestValue(*m.main, t.substr(1)));
      return;
    }
    diags.fail(n.loc, std::string(cmd) + ": expected a $stream or a %value, got " + t);
  }
};

Builder::Builder(Module& module, DiagnosticEngine& diags, std::string baseDir, const BuildOptions& options)
    : impl_(std::make_shared<Impl>(module, diags, std::move(baseDir), options)) {
  if (options.mode == BuildMode::ResolveOnly) {
    impl_->resolveOnly = true;
    impl_->silent = std::make_unique<DiagnosticEngine>(diags.sources());
  }
}

void Builder::irOptions(ast::IrOptionsItem&& item) {
  Impl& b = *impl_;
  if (b.m.options.present) {
    std::vector<Note> notes;
    if (b.m.options.loc.valid()) notes.push_back({b.m.options.loc, "the options are first set here"});
    b.diags.fail(item.loc, "ir: options may be set only once", std::move(notes));
  }
  if (b.m.anyItemSeen) b.diags.fail(item.loc, "ir: `ir {...}` must come before any other item");
  IrOptions opts = b.m.options;
  const std::span<const IrOptionKey> keys = irOptionKeys();
  for (size_t i = 0; i < item.entries.size(); ++i) {
    auto& [key, value] = item.entries[i];
    for (size_t j = 0; j < i; ++j)
      if (item.entries[j].first.text == key.text) b.diags.fail(key.loc, "ir: duplicate option '" + key.text + "'");
    const IrOptionKey* spec = nullptr;
    for (auto& k : keys)
      if (k.key == key.text) spec = &k;
    if (!spec) {
      std::string known;
      for (auto& k : keys) known += (known.empty() ? "" : ", ") + std::string(k.key);
      b.diags.fail(key.loc, "ir: unknown option '" + key.text + "' (known: " + known + ")");
    }
    SourceLoc vloc = value.loc.valid() ? value.loc : key.loc;
    if (value.kind != Attr::Kind::Int) b.diags.fail(vloc, "ir: option '" + key.text + "' must be an integer");
    opts.*(spec->field) = value.i;
    opts.valueLocs[static_cast<size_t>(spec - keys.data())] = vloc;
    // Ranges one key at a time, in the order written (the first bad one is reported).
    IrOptions one;
    one.*(spec->field) = value.i;
    one.valueLocs[static_cast<size_t>(spec - keys.data())] = vloc;
    one.loc = item.loc;
    if (spec->field != &IrOptions::ioTiles && spec->field != &IrOptions::tilesPerIpu)
      b.semantic([&](DiagnosticEngine& d) { checkIrOptions(one, d); });
  }
  opts.present = true;
  opts.loc = item.loc;
  b.semantic([&](DiagnosticEngine& d) { checkIrOptions(opts, d); });
  b.m.options = opts;
  b.markItem();
}

void Builder::stream(ast::StreamDecl&& s) {
  Impl& b = *impl_;
  b.markItem();
  if (Resource* prev = b.m.findResource(s.name.text)) b.redefinition(s.name.loc, "$" + s.name.text, prev->loc);
  b.warnDowncast(s.type, s.loc);
  b.addResource(s.h2d ? Resource::Kind::H2D : Resource::Kind::D2H, s.name, s.type, 1);
}

void Builder::remoteBuffer(ast::RemoteBufferDecl&& s) {
  Impl& b = *impl_;
  b.markItem();
  if (Resource* prev = b.m.findResource(s.name.text)) b.redefinition(s.name.loc, "$" + s.name.text, prev->loc);
  b.warnDowncast(s.type, s.loc);
  int64_t entries = 1;
  for (auto& [key, value] : s.attrs.entries) {
    SourceLoc loc = value.loc.valid() ? value.loc : s.loc;
    if (key != "entries") b.diags.fail(loc, "remote_buffer $" + s.name.text + ": unknown attribute '" + key + "'");
    if (value.kind != Attr::Kind::Int || value.i < 1 || value.i > (int64_t(1) << 32))
      b.diags.fail(loc, "remote_buffer $" + s.name.text + ": entries must be an integer >= 1");
    entries = value.i;
  }
  b.addResource(Resource::Kind::RemoteBuffer, s.name, s.type, entries);
}

void Builder::beginGraph(ast::GraphHeader&& h) {
  Impl& b = *impl_;
  b.markItem();
  if (b.openGraph) b.diags.fail(h.loc, "graph definitions do not nest");
  if (h.name.text == "main") b.diags.fail(h.name.loc, "@main is the main graph; write `main { ... }`");
  if (Graph* prev = b.m.findGraph(h.name.text)) b.redefinition(h.name.loc, "@" + h.name.text, prev->loc);
  auto g = std::make_unique<Graph>();
  g->name = std::move(h.name.text);
  g->loc = h.name.loc;
  g->index = static_cast<unsigned>(b.m.graphs.size());
  Module& m = b.m;
  for (auto& p : h.params) {
    if (Value* prev = g->lookup(p.name.text)) b.redefinition(p.name.loc, "%" + p.name.text, prev->loc);
    b.warnDowncast(p.type, p.name.loc);
    Value* v = pir::newValue(m, *g, Value::Kind::Param, std::move(p.name.text), false, Impl::toType(p.type), p.name.loc);
    v->byRef = p.byRef;
    g->params.push_back(v);
  }
  if (h.outputs) {
    g->outputsWritten = true;
    for (auto& t : *h.outputs) {
      b.warnDowncast(t, h.loc);
      g->outputTypes.push_back(Impl::toType(t));
    }
  }
  // grad_of / activations (language.md §9) become references: the forward
  // graph, and values of it. Other graph attributes are kept as written.
  const Attr* gradOf = h.attrs.find("grad_of");
  const Attr* acts = h.attrs.find("activations");
  if (gradOf) {
    SourceLoc loc = gradOf->loc.valid() ? gradOf->loc : h.loc;
    if (gradOf->kind != Attr::Kind::Graph) b.diags.fail(loc, "@" + g->name + ": attribute 'grad_of' must be a graph name @g");
    g->gradOf = m.findGraph(gradOf->s);
    if (!g->gradOf) b.diags.fail(loc, "@" + g->name + ": grad_of: unknown graph @" + gradOf->s);
  }
  if (acts) {
    SourceLoc loc = acts->loc.valid() ? acts->loc : h.loc;
    bool ok = acts->kind == Attr::Kind::List || acts->kind == Attr::Kind::Tuple;
    for (auto& item : acts->items) ok = ok && item.kind == Attr::Kind::Value;
    if (!ok) b.diags.fail(loc, "@" + g->name + ": attribute 'activations' must be a list of %names");
    if (!g->gradOf) b.diags.fail(loc, "@" + g->name + ": attribute 'activations' needs grad_of = @forward");
    for (auto& item : acts->items) {
      Value* v = g->gradOf->lookup(item.s);
      if (!v)
        b.diags.fail(item.loc.valid() ? item.loc : loc,
                     "@" + g->name + ": activation %" + item.s + " is not a value of @" + g->gradOf->name);
      g->activations.push_back(v);
    }
  }
  for (auto& [key, value] : h.attrs.entries)
    if (key != "grad_of" && key != "activations") g->attrs.set(key, value);
  g->attrs.setLocations(h.attrs.loc(), {});
  b.openGraph = appendGraph(b.m, std::move(g));
}

void Builder::endGraph(SourceLoc closeBrace) {
  Impl& b = *impl_;
  if (!b.openGraph) b.diags.fail(closeBrace, "'}' without an open graph");
  Graph& g = *b.openGraph;
  if (!g.hasReturn)
    b.diags.fail(closeBrace, "@" + g.name + ": missing return: a graph body ends with `return`",
                 g.loc.valid() ? std::vector<Note>{{g.loc, "@" + g.name + " is defined here"}} : std::vector<Note>{});
  b.semantic([&](DiagnosticEngine& d) { warnUnobservedInplaceWrites(g, d); });
  b.openGraph = nullptr;
  if (b.listener) b.listener->graphDefined(g);
}

void Builder::beginMain(SourceLoc loc) {
  Impl& b = *impl_;
  b.markItem();
  if (b.openGraph) b.diags.fail(loc, "main { } cannot appear inside a graph");
}

void Builder::endMain(SourceLoc) {
  Impl& b = *impl_;
  b.semantic([&](DiagnosticEngine& d) { warnUnwrittenStreamSlots(b.m, d); });
}

void Builder::resultNamed(std::string_view name) { impl_->current().scope.prefetch(name); }

void Builder::statement(ast::BodyStmt&& stmt) {
  Impl& b = *impl_;
  b.markItem();
  Graph& g = b.current();
  if (g.hasReturn) {
    SourceLoc loc = std::visit([](auto& s) { return s.loc; }, stmt);
    b.diags.fail(loc, "statement after return: `return` must be the last statement of @" + g.name,
                 g.returnLoc.valid() ? std::vector<Note>{{g.returnLoc, "the return is here"}} : std::vector<Note>{});
  }
  // The IR a statement makes is charged to the host-memory budget
  // (IrHostCharge): a statement that does not fit is an error at the statement.
  const SourceLoc at = std::visit([](auto& s) { return s.loc; }, stmt);
  try {
    if (auto* op = std::get_if<ast::OpStmt>(&stmt)) b.opStatement(g, *op, nullptr);
    else if (auto* decl = std::get_if<ast::DeclStmt>(&stmt)) b.declStatement(g, *decl);
    else if (auto* ex = std::get_if<ast::ExchangeStmt>(&stmt)) b.exchangeStatement(g, *ex);
    else b.returnStatement(g, std::get<ast::ReturnStmt>(stmt));
  } catch (const HostMemoryExhausted& e) {
    b.diags.fail(at, e.what());
  }
}

void Builder::autodiff(ast::AutodiffItem&& item) {
  Impl& b = *impl_;
  b.markItem();
  if (!b.m.findGraph(item.fwd.text)) b.diags.fail(item.fwd.loc, "autodiff: unknown graph @" + item.fwd.text + suggestGraph(b.m, item.fwd.text));
  if (Graph* prev = b.m.findGraph(item.grad.text)) b.redefinition(item.grad.loc, "@" + item.grad.text, prev->loc);
  Graph* fwd = b.m.findGraph(item.fwd.text);
  // Without the transform the program cannot be used: it needs the graph the
  // directive creates.
  if (!b.autodiff) b.diags.fail(item.loc, "autodiff is not available in this build");
  if (!b.autodiff(b.m, *fwd, item.grad.text, item.attrs, item.loc, b.diags))
    throw CompileError(b.diags.all().back());  // already reported: abandon the input
  if (b.listener)
    if (const Graph* g = b.m.findGraph(item.grad.text)) b.listener->graphDefined(*g);
}

void Builder::feed(ast::FeedCmd&& c) {
  Impl& b = *impl_;
  b.markItem();
  Resource* r = b.m.findResource(c.stream.text);
  if (!r) b.diags.fail(c.stream.loc, "feed: unknown stream $" + c.stream.text + suggestResource(b.m, c.stream.text));
  if (r->kind != Resource::Kind::H2D)
    b.diags.fail(c.stream.loc, "feed: $" + r->name + " is not an h2d stream",
                 r->loc.valid() ? std::vector<Note>{{r->loc, "$" + r->name + " is declared here"}} : std::vector<Note>{});
  if (!c.data) b.diags.fail(c.loc, "feed: missing data");
  b.checkCommandData("feed", "$" + r->name, *c.data, b.m.hostBufferType(*r));
  SessionCommand cmd;
  cmd.kind = SessionCommand::Kind::Feed;
  cmd.target = r->name;
  cmd.data = std::move(c.data);
  cmd.loc = c.loc;
  b.addCommand(std::move(cmd));
}

void Builder::run(ast::RunCmd&& c) {
  Impl& b = *impl_;
  b.markItem();
  if (c.count < 0) b.diags.fail(c.loc, "run: the count must be >= 0, got " + std::to_string(c.count));
  SessionCommand cmd;
  cmd.kind = SessionCommand::Kind::Run;
  cmd.count = c.count;
  cmd.loc = c.loc;
  b.addCommand(std::move(cmd));
}

void Builder::print(ast::PrintCmd&& c) {
  Impl& b = *impl_;
  b.markItem();
  SessionCommand cmd;
  cmd.kind = SessionCommand::Kind::Print;
  for (auto& t : c.targets) {
    b.checkOutputTarget("print", t);
    cmd.names.push_back(std::move(t.text));
    cmd.nameLocs.push_back(t.loc);
  }
  cmd.loc = c.loc;
  b.addCommand(std::move(cmd));
}

void Builder::write(ast::WriteCmd&& c) {
  Impl& b = *impl_;
  b.markItem();
  Value* v = b.m.main->lookup(c.var.text);
  if (!v) b.diags.fail(c.var.loc, "write: unknown variable %" + c.var.text + suggestValue(*b.m.main, c.var.text));
  if (v->kind != Value::Kind::Var)
    b.diags.fail(c.var.loc, "write: %" + c.var.text + " is not a variable",
                 v->loc.valid() ? std::vector<Note>{{v->loc, "%" + v->name + " is declared here"}} : std::vector<Note>{});
  if (!c.data) b.diags.fail(c.loc, "write: missing data");
  TensorType type = v->type;
  if (const Attr* grouping = v->def ? v->def->attrs.find("replica_grouping") : nullptr) {
    int64_t groups = readGrouping(grouping, b.m.options.replication).numGroups(b.m.options.replication);
    if (groups > 1) type.shape.insert(type.shape.begin(), groups);
  }
  // A scalar is broadcast, as in declarations.
  if (c.data->isScalar()) checkLiteralData(*c.data, type, "write %" + v->name, b.diags);
  else b.checkCommandData("write", "%" + v->name, *c.data, type);
  SessionCommand cmd;
  cmd.kind = SessionCommand::Kind::Write;
  cmd.target = v->name;
  cmd.data = std::move(c.data);
  cmd.loc = c.loc;
  b.addCommand(std::move(cmd));
}

void Builder::save(ast::SaveCmd&& c) {
  Impl& b = *impl_;
  b.markItem();
  b.checkOutputTarget("save", c.target);
  SessionCommand cmd;
  cmd.kind = SessionCommand::Kind::Save;
  cmd.names.push_back(std::move(c.target.text));
  cmd.nameLocs.push_back(c.target.loc);
  cmd.path = c.path;
  cmd.resolvedPath = b.resolvePath(c.path);
  cmd.loc = c.loc;
  b.addCommand(std::move(cmd));
}

void Builder::reset() {
  Impl& b = *impl_;
  if (b.openGraph) {
    Graph* g = b.openGraph;
    b.openGraph = nullptr;
    if (!b.m.graphs.empty() && b.m.graphs.back().get() == g) dropLastGraph(b.m, *g);
  }
}

Script Builder::takeCommands() { return std::exchange(impl_->commands, {}); }

void reserveForBuffer(Module& module, const std::string& text) {
  // A large file is mostly main-graph statements (at least ~24 bytes each, one
  // per line or `;`): reserving up front avoids regrowing the scope and op/value
  // lists. A file of a few long lines (a literal, an operand list) reserves for
  // its few statements only.
  size_t bytes = text.size();
  if (bytes <= (1u << 20)) return;
  size_t separators = 0;  // one pass over the text (it may be hundreds of MB)
  for (const char c : text) separators += static_cast<size_t>((c == '\n') | (c == ';'));
  const size_t statements = 1 + separators;
  size_t estimate = std::min(bytes / 24, statements);
  Graph& main = *module.main;
  main.scope.reserve(main.scope.size() + estimate);
  main.values.reserve(main.values.size() + estimate);
  main.ops.reserve(main.ops.size() + estimate);
}

LogicalResult buildFromBuffer(Module& module, DiagnosticEngine& diags, uint32_t file, const std::string& baseDir,
                              Script* script, const BuildOptions& options) {
  Builder builder(module, diags, baseDir, options);
  reserveForBuffer(module, diags.sources().buffer(file).text);
  try {
    parseBuffer(file, builder, diags);
  } catch (const CompileError&) {
    builder.reset();
    return failure();
  }
  if (script) {
    Script read = builder.takeCommands();
    script->insert(script->end(), std::make_move_iterator(read.begin()), std::make_move_iterator(read.end()));
  }
  return success();
}

}  // namespace pir
