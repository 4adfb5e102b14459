// Transposes folded into matmuls, over the compiler's flattened op list.
//
// A matmul operand `%t = transpose %w` (swapping the last two axes) is read as %w
// with the GEMM's transpose flag (prepareMatMulTransposed), and the transpose emits
// no code when nothing else needs %t: a full copy per run saved. Sound when %w
// cannot change between the transpose and the matmul: no op in between writes
// anything in place (in-place ops, views, callees writing by-reference params).
// Every such matmul reads the flag, in main too (where %t is still computed,
// since main's values stay printable): the GEMM's rounding then does not depend
// on which graph holds the code (inlining keeps the bits).
#pragma once
#include <cstddef>
#include <unordered_map>
#include <vector>

#include "ir/ir.h"
#include "vm/param_writes.h"

namespace pir::vm {

struct MatMulFold {
  const Value* source[2] = {nullptr, nullptr};  // the transpose's operand, per matmul operand
};
// The matmuls that read a transpose's operand instead of its result.
using MatMulFolds = std::unordered_map<const Op*, MatMulFold>;

// Finds the folds of `ops` (a graph's flattened ops, in program order) and
// removes from `ops` the transposes of a subgraph that every reader folded and
// that `g` does not return.
MatMulFolds foldTransposesIntoMatMuls(const Graph& g, std::vector<const Op*>& ops, WriteAnalysis& writes);

// Calls f(value) for each value operand `op` reads, a folded matmul operand as
// the transpose's source.
template <class F> void forEachValueUse(const Op& op, const MatMulFolds& folds, F&& f) {
  auto fold = folds.find(&op);
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const Operand& o = op.operands[i];
    if (o.kind != Operand::Kind::Value) continue;
    f(fold != folds.end() && i < 2 && fold->second.source[i] ? fold->second.source[i] : o.value);
  }
}

}  // namespace pir::vm
