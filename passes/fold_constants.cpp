// fold-constants: evaluates ops whose operands are all constants and replaces
// each by `const` declarations of the same names.
//
// Foldable: an op with at least one tensor operand, every operand a literal or
// a `const` whose data is in the program (not `load(...)`), and that is pure and
// deterministic: not a declaration, exchange, IO, print_tensor, collective
// (replica-dependent), random (replica-dependent), control-flow or in-place op.
// Not folded either:
//  - an op whose result is written in place later (directly or through a
//    by-reference input): a `const` cannot be written (language.md §7);
//  - an op the evaluator refuses (no kernel, or a run-time error: the error
//    then happens at run time, where it did);
//  - an op whose inputs and results exceed kMaxFoldElements (bounded memory),
//    or whose result is not uniform and has more than kMaxTextElements (the
//    IR text stays small; a uniform result prints as one scalar).
// The evaluator is the VM's (ir/evaluator.h), so folding computes exactly what
// the run would. Ops are visited in program order, so chains fold in one pass.
#include <cmath>
#include <cstring>
#include <unordered_set>

#include "ir/evaluator.h"
#include "ir/infer.h"
#include "ir/rewriter.h"
#include "ir/verifier.h"
#include "passes/passes.h"

namespace pir::passes {
namespace {

constexpr int64_t kMaxFoldElements = int64_t{1} << 20;
constexpr int64_t kMaxTextElements = 4096;

bool foldableKind(const Op& op) {
  constexpr uint32_t kNot = F_DECL | F_REGION | F_IO | F_SIDE_EFFECT | F_COLLECTIVE | F_RANDOM | F_CONTROL | F_INPLACE;
  return !(op.info().flags & kNot) && op.callees.empty();
}

// The data of operand `o` when it is a constant held in the program.
bool constantData(const Operand& o, ConstTensor& out) {
  const Literal* lit = nullptr;
  if (o.kind() == Operand::Kind::Literal) {
    lit = o.literal();
    out.type = o.literalType();
  } else if (o.kind() == Operand::Kind::Value && o.value()->kind == Value::Kind::Const && o.value()->def) {
    lit = o.value()->def->init().get();
    out.type = o.value()->type;
  }
  if (!lit || lit->kind != Literal::Kind::Data) return false;
  const int64_t n = out.type.numElements();
  if (n > kMaxFoldElements) return false;
  if (lit->values.size() == 1) out.values.assign(static_cast<size_t>(n), lit->values[0]);  // a scalar broadcasts
  else if (static_cast<int64_t>(lit->values.size()) == n) out.values = lit->values;
  else return false;
  return true;
}

// The tensors (alias roots) that ops of `g` write in place, directly or through
// a by-reference input (conservatively: any by-reference binding may write).
std::unordered_set<const Value*> rootsWrittenInPlace(Graph& g) {
  std::unordered_set<const Value*> roots;
  forEachOp(g, [&](Op& op) {
    int w = inplaceOperandIndex(op.code);
    if (w >= 0 && static_cast<size_t>(w) < op.operands.size() && op.operands[w].kind() == Operand::Kind::Value)
      roots.insert(aliasRoot(op.operands[w].value()));
    for (size_t k = 0; k < op.callees.size(); ++k) {
      const Graph& callee = *op.callees[k].graph;
      auto args = op.args(k);
      for (size_t i = 0; i < args.size() && i < callee.params.size(); ++i)
        if (callee.params[i]->byRef && args[i].kind() == Operand::Kind::Value) roots.insert(aliasRoot(args[i].value()));
    }
  });
  return roots;
}

void copyPlacement(const Op& from, Op& to) {
  for (const char* key : {"ipu", "tile_set", "tile", "tiles"})
    if (const Attr* a = from.attrs.find(key)) to.attrs.set(key, *a);
}

// Turns one-result `op` into `const NAME : TYPE = values` where it stands: the
// value keeps its identity, name and uses, so folding costs O(1) however long
// the graph (replace-all-uses walks it). Journaled like the mutation API.
void becomeConstant(Module& m, Op& op, std::vector<double> values, DiagnosticEngine& diags) {
  Value* v = op.results[0];
  auto lit = std::make_shared<Literal>();
  lit->kind = Literal::Kind::Data;
  if (values.size() != 1) lit->shape = v->type->shape;
  lit->values = std::move(values);
  lit->hasNumber = true;
  lit->loc = op.loc;
  checkLiteralData(*lit, v->type, "const", diags);
  Op placement;
  copyPlacement(op, placement);
  turnIntoConstant(m, op, std::move(lit), std::move(placement.attrs));
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b)); }

bool uniform(const std::vector<double>& values) {
  for (double v : values)
    if (!sameBits(v, values[0])) return false;
  return true;
}


// Folds `op` if it can. `written` (rootsWrittenInPlace) stays valid while
// folding: a folded result is never in it, and consts are never written.
bool foldOp(Module& m, Graph& g, Op& op, const std::unordered_set<const Value*>& written,
            const ConstantEvaluator& evaluator, DiagnosticEngine& diags) {
  if (!foldableKind(op) || op.operands.empty() || op.results.empty()) return false;
  std::vector<ConstTensor> inputs(op.operands.size());
  int64_t elements = 0;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    if (!constantData(op.operands[i], inputs[i])) return false;
    elements += static_cast<int64_t>(inputs[i].values.size());
  }
  for (const Value* r : op.results) {
    elements += r->type->numElements();
    if (written.count(r)) return false;
  }
  if (elements > kMaxFoldElements) return false;
  std::vector<ConstTensor> results;
  if (!evaluator.evaluate(op, inputs, results) || results.size() != op.results.size()) return false;
  for (size_t i = 0; i < results.size(); ++i) {
    if (static_cast<int64_t>(results[i].values.size()) != op.results[i]->type->numElements()) return false;
    if (!results[i].values.empty() && uniform(results[i].values)) results[i].values.resize(1);
    else if (static_cast<int64_t>(results[i].values.size()) > kMaxTextElements) return false;
  }

  if (results.size() == 1) {
    becomeConstant(m, op, std::move(results[0].values), diags);
    return true;
  }
  // Several results (split, topk): one `const` each, taking the results' names.
  OpBuilder b(m, g, diags);
  b.setInsertionPoint(&op);
  b.setLoc(op.loc);
  std::vector<Value*> consts;
  for (size_t i = 0; i < results.size(); ++i) {
    Value* c = b.constant(op.results[i]->type, std::move(results[i].values));
    copyPlacement(op, *c->def);  // a new op: no journal entry needed
    consts.push_back(c);
  }
  std::vector<std::pair<std::string, bool>> names;
  for (size_t i = 0; i < consts.size(); ++i) {
    replaceAllUsesWith(m, op.results[i], consts[i]);
    names.emplace_back(op.results[i]->name, op.results[i]->generatedName);
  }
  eraseOp(m, op);
  for (size_t i = 0; i < consts.size(); ++i) {
    renameValue(m, *consts[i], names[i].first);
    consts[i]->generatedName = names[i].second;
  }
  return true;
}

}  // namespace

LogicalResult runFoldConstants(Module& m, PassContext& ctx) {
  if (!ctx.evaluator) return success();  // nothing can be evaluated without the VM's kernels
  for (Graph* g : graphsCalleesFirst(m)) {
    // Folding replaces the op at its place; collect first, then fold in order.
    std::vector<Op*> ops;
    for (auto& op : g->ops) ops.push_back(op.get());
    const std::unordered_set<const Value*> written = rootsWrittenInPlace(*g);
    for (Op* op : ops) foldOp(m, *g, *op, written, *ctx.evaluator, ctx.diags);
  }
  return success();
}

}  // namespace pir::passes
