// fold-transposes: a matmul operand `%t = transpose %w` that swaps the last two
// axes becomes `%w` with the matmul's transpose flag (transpose_a / transpose_b,
// ir/matmul_operands.h): the GEMM reads %w transposed, and %t's copy is saved
// when nothing else needs it.
//
// An operand is folded when %w cannot change between the transpose and the
// matmul: no op in between writes anything in place (an in-place op, or a call
// whose callee writes a by-reference argument), in program order with exchange
// blocks flattened. An operand whose flag is already set is left alone.
// Afterwards a transpose of a subgraph is erased when every use was folded and
// it is neither returned nor an activation of a gradient graph. Main's
// transposes stay: every main value is one a session command may print. A
// transpose no matmul folded is left alone (dead code is dce's business).
//
// The session runs this pass on the program it compiles (api/, decisions.md
// "Transpose folding is a pass"), so the GEMM of a matmul over a transpose is
// the same wherever the code sits (inlining keeps the bits).
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/infer.h"
#include "ir/matmul_operands.h"
#include "ir/op_build.h"
#include "ir/rewriter.h"
#include "ir/write_analysis.h"
#include "passes/passes.h"

namespace pir::passes {
namespace {

bool swapsLastTwoAxes(const Op& transpose) {
  const int64_t rank = transpose.operands.at(0).type().rank();
  if (rank < 2) return false;
  const std::optional<std::vector<int64_t>> perm = transposePerm(transpose, rank);
  if (!perm) return false;
  for (int64_t d = 0; d + 2 < rank; ++d)
    if ((*perm)[d] != d) return false;
  return (*perm)[rank - 2] == rank - 1 && (*perm)[rank - 1] == rank - 2;
}

bool isFoldableTranspose(const Op& op) {
  return op.code == OpCode::Transpose && op.results.size() == 1 && op.results[0] && !op.operands.empty() &&
         op.operands[0].kind() == Operand::Kind::Value && swapsLastTwoAxes(op);
}

// One matmul operand to read from the transpose's source.
struct Fold {
  Op* matmul;
  size_t operand;
  Value* source;
};

// Folds the transposes of `g`; returns the transposes to erase.
std::vector<Op*> foldGraph(Module& m, Graph& g, WriteAnalysis& writes, const std::unordered_set<const Value*>& pinned) {
  const std::vector<Op*> ops = flatOps(g);
  std::unordered_map<const Value*, size_t> transposeAt;  // result -> position of its transpose
  for (size_t k = 0; k < ops.size(); ++k)
    if (isFoldableTranspose(*ops[k])) transposeAt.emplace(ops[k]->results[0], k);
  if (transposeAt.empty()) return {};

  const std::vector<size_t> lastWrite = lastInPlaceWrites(ops, writes);
  // Transposed values that must stay: read by anything but a foldable matmul
  // operand, returned, or an activation.
  std::unordered_set<const Value*> kept(pinned.begin(), pinned.end()), folded;
  for (const Operand& r : g.returns)
    if (r.kind() == Operand::Kind::Value) kept.insert(r.value());
  std::vector<Fold> folds;
  for (size_t k = 0; k < ops.size(); ++k) {
    Op& op = *ops[k];
    for (size_t i = 0; i < op.operands.size(); ++i) {
      const Operand& o = op.operands[i];
      if (o.kind() != Operand::Kind::Value) continue;
      auto t = transposeAt.find(o.value());
      if (t == transposeAt.end()) continue;
      const bool foldable = op.code == OpCode::MatMul && i < 2 && !matmulReadsTransposed(op, i) && k > 0 &&
                            (lastWrite[k - 1] == SIZE_MAX || lastWrite[k - 1] < t->second);
      if (foldable) {
        folds.push_back({&op, i, ops[t->second]->operands[0].value()});
        folded.insert(o.value());
      } else {
        kept.insert(o.value());
      }
    }
  }
  for (const Fold& f : folds) {
    setOperand(m, *f.matmul, f.operand, Operand::of(f.source, f.matmul->operands[f.operand].loc()));
    setAttributes(m, *f.matmul,
                  f.operand == 0 ? build::MatMul{}.transpose_a(true).dict() : build::MatMul{}.transpose_b(true).dict());
  }
  std::vector<Op*> dead;
  if (!g.isMain)
    for (auto [value, k] : transposeAt)
      if (folded.count(value) && !kept.count(value)) dead.push_back(ops[k]);
  return dead;
}

}  // namespace

bool hasTransposesToFold(const Module& m) {
  return anyOp(m, [](const Op& op) {
    if (op.code != OpCode::MatMul) return false;
    for (size_t i = 0; i < 2 && i < op.operands.size(); ++i) {
      const Operand& o = op.operands[i];
      if (o.kind() == Operand::Kind::Value && o.value()->def && !matmulReadsTransposed(op, i) &&
          isFoldableTranspose(*o.value()->def))
        return true;
    }
    return false;
  });
}

LogicalResult runFoldTransposes(Module& m, PassContext&) {
  return foldAndErase(m, [&](Graph& g, WriteAnalysis& writes, const std::unordered_set<const Value*>& activations) {
    return foldGraph(m, g, writes, activations);
  });
}

}  // namespace pir::passes
