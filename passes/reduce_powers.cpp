// reduce-powers: `pow %x, c` with a constant exponent c of 1, 2, 3 or -1 (a scalar
// literal, or a scalar `const`) becomes the ops it equals: `identity %x`, `mul %x, %x`,
// `mul (mul %x, %x), %x`, `reciprocal %x`. pow's kernel computes those exponents as those
// products (vm/kernels_binary.cpp, as PyTorch does), so the bits are the same; but it
// runs an element at a time through a generic binary loop, where these ops are vector
// loops that fuse with their neighbours (a variance's or an RMS norm's x^2, the x^3 of
// an exported tanh GELU, the x^1 of x^2's gradient). The cube is reduced for f32 and
// f64 only: pow computes f16 in f32 and rounds once, where two f16 muls would round the
// square in between. Every float dtype gets the others.
//
// Only a pow whose result has x's type (the exponent broadcasts into x) is reduced.
// The new ops are inserted where the pow stands, so they read x as it was read; the
// pow's uses move to the new result, which takes the pow's name, and the pow is
// erased. Main's pows stay: every main value is one a session command may print.
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
