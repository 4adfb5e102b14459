// fold-broadcasts: an operand `%b = broadcast %s {shape}` of an elementwise op with
// two or more operands (which broadcast their operands with NumPy rules, ops.md)
// becomes %s when the op's operands still broadcast to the same shape with %s in %b's
// place: the op reads each element of %s where it read its copies, so every result
// element is the same bits, and %b's copy (a tensor of the result's size, written and
// read back) is saved when nothing else needs it. A mean or sum loss's gradient is
// such a broadcast of a scalar; an imported ONNX `Expand` before an `Add` is another.
//
// Not folded: the operand an in-place op writes (its shape is the result's); a
// broadcast of a literal; an operand read after an in-place write between the
// broadcast and the op (%s may have changed since the copy; any in-place op or call
// whose callee writes a by-reference argument counts, in program order with exchange
// blocks flattened). Afterwards a subgraph's broadcast is erased when every use was
// folded and it is neither returned nor an activation of a gradient graph; main's
// stay (every main value is one a session command may print).
//
// The session runs this pass on the program it compiles (api/pass_runner.h
// lowerForCompile), like fold-transposes.
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/infer.h"
#include "ir/rewriter.h"
#include "ir/write_analysis.h"
#include "passes/passes.h"

namespace pir::passes {
namespace {

bool isFoldableBroadcast(const Op& op) {
  return op.code == OpCode::Broadcast && op.results.size() == 1 && op.results[0] && !op.operands.empty() &&
         op.operands[0].kind() == Operand::Kind::Value;
}

bool isTensorOperand(const Operand& o) {
  return o.kind() == Operand::Kind::Value || o.kind() == Operand::Kind::Literal;
}

// The shapes of `op`'s tensor operands (empty for other operands).
std::vector<Shape> operandShapes(const Op& op) {
  std::vector<Shape> shapes(op.operands.size());
  for (size_t i = 0; i < op.operands.size(); ++i)
    if (isTensorOperand(op.operands[i])) shapes[i] = op.operands[i].type().shape;
  return shapes;
}

// The NumPy broadcast of `op`'s tensor operands read with `shapes`; nullopt when they
// do not broadcast.
std::optional<Shape> broadcastOf(const Op& op, const std::vector<Shape>& shapes) {
  std::optional<Shape> shape;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    if (!isTensorOperand(op.operands[i])) continue;
    shape = shape ? broadcastShapes(*shape, shapes[i]) : std::optional<Shape>(shapes[i]);
    if (!shape) return std::nullopt;
  }
  return shape;
}

// Whether operand `i` of `op`, a broadcast of `source`, may read `source` instead,
// `shapes` being its operands' shapes with the folds already decided for it (several
// operands may be broadcasts: each is checked against the others as they will be);
// empty until an operand gets this far, then filled (most ops read no broadcast).
// On true, shapes[i] becomes the source's.
bool foldableOperand(const Op& op, size_t i, const Value& source, std::vector<Shape>& shapes) {
  if (!op.info().has(F_ELEMENTWISE) || static_cast<int>(i) == inplaceOperandIndex(op.code)) return false;
  size_t tensors = 0;
  for (const Operand& o : op.operands) tensors += isTensorOperand(o);
  if (tensors < 2) return false;  // a unary op's result has its operand's shape
  if (shapes.empty()) shapes = operandShapes(op);
  const std::optional<Shape> before = broadcastOf(op, shapes);
  const Shape kept = std::exchange(shapes[i], source.type->shape);
  const std::optional<Shape> after = broadcastOf(op, shapes);
  if (before && after && *before == *after) return true;
  shapes[i] = kept;
  return false;
}

// Whether `op`, its operands replaced, still infers the result types it has. The shape
// rule above is what ops.md gives every elementwise op of two or more operands; this
// check keeps an op table row that broke it from turning into invalid IR (which the
// session's lowering would report as an internal error): such an op is left unfolded.
bool stillInfers(const Op& op, const IrOptions& options) {
  SourceManager none;
  DiagnosticEngine quiet{none};  // no stream: nothing is printed, no location looked up
  std::vector<TensorType> types;
  try {
    inferResultTypes(op, options, types, quiet);
  } catch (const CompileError&) {
    return false;
  }
  for (size_t j = 0; j < op.results.size(); ++j)
    if (op.results[j] && (j >= types.size() || !(types[j] == *op.results[j]->type))) return false;
  return true;
}

// Folds the broadcasts of `g`; returns the broadcasts to erase.
std::vector<Op*> foldGraph(Module& m, Graph& g, WriteAnalysis& writes, const std::unordered_set<const Value*>& pinned) {
  const std::vector<Op*> ops = flatOps(g);
  std::unordered_map<const Value*, size_t> broadcastAt;  // result -> position of its broadcast
  for (size_t k = 0; k < ops.size(); ++k)
    if (isFoldableBroadcast(*ops[k])) broadcastAt.emplace(ops[k]->results[0], k);
  if (broadcastAt.empty()) return {};

  const std::vector<size_t> lastWrite = lastInPlaceWrites(ops, writes);
  // Broadcast values that must stay: read by anything not folded, returned, or an activation.
  std::unordered_set<const Value*> kept(pinned.begin(), pinned.end()), folded;
  for (const Operand& r : g.returns)
    if (r.kind() == Operand::Kind::Value) kept.insert(r.value());
  for (size_t k = 0; k < ops.size(); ++k) {
    Op& op = *ops[k];
    std::vector<Shape> shapes;
    std::vector<std::pair<size_t, Value*>> replaced;  // (operand, the broadcast it read)
    for (size_t i = 0; i < op.operands.size(); ++i) {
      const Operand& o = op.operands[i];
      if (o.kind() != Operand::Kind::Value) continue;
      auto b = broadcastAt.find(o.value());
      if (b == broadcastAt.end()) continue;
      Value* source = ops[b->second]->operands[0].value();
      const bool unchanged = k > 0 && (lastWrite[k - 1] == SIZE_MAX || lastWrite[k - 1] < b->second);
      if (unchanged && foldableOperand(op, i, *source, shapes)) replaced.emplace_back(i, o.value());
      else kept.insert(o.value());
    }
    if (replaced.empty()) continue;
    for (auto [i, broadcast] : replaced)
      setOperand(m, op, i, Operand::of(broadcast->def->operands[0].value(), op.operands[i].loc()));
    const bool valid = stillInfers(op, m.options);
    for (auto [i, broadcast] : replaced) {
      if (valid) {
        folded.insert(broadcast);
        continue;
      }
      setOperand(m, op, i, Operand::of(broadcast, op.operands[i].loc()));
      kept.insert(broadcast);
    }
  }
  std::vector<Op*> dead;
  if (!g.isMain)
    for (auto [value, k] : broadcastAt)
      if (folded.count(value) && !kept.count(value)) dead.push_back(ops[k]);
  return dead;
}

}  // namespace

bool hasBroadcastsToFold(const Module& m) {
  return anyOp(m, [](const Op& op) {
    std::vector<Shape> shapes;
    for (size_t i = 0; i < op.operands.size(); ++i) {
      const Operand& o = op.operands[i];
      if (o.kind() == Operand::Kind::Value && o.value()->def && isFoldableBroadcast(*o.value()->def) &&
          foldableOperand(op, i, *o.value()->def->operands[0].value(), shapes))
        return true;
    }
    return false;
  });
}

LogicalResult runFoldBroadcasts(Module& m, PassContext&) {
  return foldAndErase(m, [&](Graph& g, WriteAnalysis& writes, const std::unordered_set<const Value*>& activations) {
    return foldGraph(m, g, writes, activations);
  });
}

}  // namespace pir::passes
