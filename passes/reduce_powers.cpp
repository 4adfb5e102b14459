// reduce-powers: `pow %x, c` with a constant exponent c of 1, 2, 3 or -1 (a scalar
// literal, or a scalar `const`) becomes the ops it equals: `identity %x`, `mul %x, %x`,
// `mul (mul %x, %x), %x`, `reciprocal %x`. A pow is a C library call per element; these
// are vector loops, and chains of them fuse (a variance's or an RMS norm's x^2, the
// x^3 of an exported tanh GELU, the x^1 of x^2's gradient). x^2 and 1/x are then
// correctly rounded (the library's powf is within an ulp); x^3 rounds twice, as
// PyTorch's pow computes it. The cube is reduced for f32 and f64 only (f16 would round
// its square to f16 in between); every float dtype gets the others.
//
// Only a pow whose result has x's type (the exponent broadcasts into x) is reduced.
// The new ops are inserted where the pow stands, so they read x as it was read; the
// pow's uses move to the new result and the pow is erased. Main's pows stay: every
// main value is one a session command may print.
//
// The session runs this pass on the program it compiles (api/pass_runner.h
// lowerForCompile), like fold-transposes.
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "ir/rewriter.h"
#include "passes/passes.h"

namespace pir::passes {
namespace {

// The exponent of a reducible pow, if `op` is one.
std::optional<double> reducibleExponent(const Op& op) {
  if (op.code != OpCode::Pow || op.operands.size() != 2 || op.results.size() != 1 || !op.results[0]) return std::nullopt;
  const Operand& x = op.operands[0];
  if (x.kind() != Operand::Kind::Value || !isFloat(x.type().dtype) || !(x.type() == *op.results[0]->type))
    return std::nullopt;
  const std::optional<double> c = scalarConstant(op.operands[1]);
  if (!c) return std::nullopt;
  const DType dt = x.type().dtype;
  if (*c == 1 || *c == 2 || *c == -1) return c;
  if (*c == 3 && (dt == DType::F32 || dt == DType::F64)) return c;
  return std::nullopt;
}

// A pow's replacement, which takes the pow's name once the pow is gone.
struct Renamed {
  Value* value;
  std::string name;
  bool generated;
};

// Replaces the reducible pows of `g`; returns them (to erase).
std::vector<Op*> reduceGraph(Module& m, Graph& g, DiagnosticEngine& diags, std::vector<Renamed>& renames) {
  std::vector<Op*> pows;
  for (const auto& op : g.ops)  // top level: an exchange block holds IO ops only
    if (reducibleExponent(*op)) pows.push_back(op.get());
  for (Op* op : pows) {
    const double c = *reducibleExponent(*op);
    OpBuilder b(m, g, diags);
    b.setInsertionPoint(op);
    b.setLoc(op->loc);
    Value* x = op->operands[0].value();
    Value* y = c == 1   ? b.create1(OpCode::Identity, {x})
               : c == -1 ? b.create1(OpCode::Reciprocal, {x})
                         : b.create1(OpCode::Mul, {x, x});
    if (c == 3) y = b.create1(OpCode::Mul, {y, x});
    renames.push_back({y, op->results[0]->name, op->results[0]->generatedName});
    replaceAllUsesWith(m, op->results[0], y);
  }
  return pows;
}

}  // namespace

bool hasPowersToReduce(const Module& m) {
  for (const auto& g : m.graphs)
    if (!g->isMain)
      for (const auto& op : g->ops)
        if (reducibleExponent(*op)) return true;
  return false;
}

LogicalResult runReducePowers(Module& m, PassContext& ctx) {
  for (Graph* g : graphsCalleesFirst(m)) {
    if (g->isMain) continue;
    std::vector<Renamed> renames;
    const std::vector<Op*> pows = reduceGraph(m, *g, ctx.diags, renames);
    if (pows.empty()) continue;
    eraseOps(m, *g, std::unordered_set<const Op*>(pows.begin(), pows.end()));
    for (const Renamed& r : renames) renameValue(m, *r.value, r.name, r.generated);
  }
  return success();
}

}  // namespace pir::passes
