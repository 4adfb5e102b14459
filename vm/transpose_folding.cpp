#include "vm/transpose_folding.h"

#include <cstdint>
#include <unordered_set>

#include "vm/kernels.h"

namespace pir::vm {
namespace {

bool swapsLastTwoAxes(const Op& op) {
  const int64_t rank = op.operands.at(0).type().rank();
  if (rank < 2) return false;
  std::vector<int64_t> perm;
  try {
    perm = transposePermutation(op, rank);
  } catch (const KernelError&) {
    return false;  // the transpose's own kernel reports it
  }
  for (int64_t d = 0; d + 2 < rank; ++d)
    if (perm[d] != d) return false;
  return perm[rank - 2] == rank - 1 && perm[rank - 1] == rank - 2;
}

}  // namespace

MatMulFolds foldTransposesIntoMatMuls(const Graph& g, std::vector<const Op*>& ops, WriteAnalysis& writes) {
  MatMulFolds folds;
  std::unordered_map<const Value*, size_t> transposeAt;  // result -> position of its transpose
  for (size_t k = 0; k < ops.size(); ++k)
    if (ops[k]->code == OpCode::Transpose && ops[k]->results.size() == 1 && ops[k]->results[0] &&
        ops[k]->operands.at(0).kind == Operand::Kind::Value && swapsLastTwoAxes(*ops[k]))
      transposeAt.emplace(ops[k]->results[0], k);
  if (transposeAt.empty()) return folds;
  // A transposed value qualifies when every use is a matmul operand with no
  // in-place write between the transpose and that matmul.
  std::vector<size_t> lastWrite(ops.size(), SIZE_MAX);  // the last in-place writer at or before k
  for (size_t k = 0, last = SIZE_MAX; k < ops.size(); ++k) {
    if (writes.writesInPlace(*ops[k])) last = k;
    lastWrite[k] = last;
  }
  // Transposed values that must still be computed: read by anything but a foldable
  // matmul operand, returned, or in main (every main value stays printable). A
  // transpose no matmul folded is left alone (dead code is the dce pass's business).
  std::unordered_set<const Value*> kept, folded;
  for (const Operand& r : g.returns)
    if (r.kind == Operand::Kind::Value) kept.insert(r.value);
  for (size_t k = 0; k < ops.size(); ++k) {
    const Op& op = *ops[k];
    MatMulFold fold;
    for (size_t i = 0; i < op.operands.size(); ++i) {
      const Operand& o = op.operands[i];
      if (o.kind != Operand::Kind::Value) continue;
      auto t = transposeAt.find(o.value);
      if (t == transposeAt.end()) continue;
      const bool foldable = op.code == OpCode::MatMul && i < 2 && k > 0 &&
                            (lastWrite[k - 1] == SIZE_MAX || lastWrite[k - 1] < t->second);
      if (foldable) {
        fold.source[i] = ops[t->second]->operands[0].value;
        folded.insert(o.value);
      } else {
        kept.insert(o.value);
      }
    }
    if (fold.source[0] || fold.source[1]) folds.emplace(&op, fold);
  }
  std::unordered_set<const Op*> elided;
  if (!g.isMain)
    for (auto [value, k] : transposeAt)
      if (folded.count(value) && !kept.count(value)) elided.insert(ops[k]);
  std::erase_if(ops, [&](const Op* op) { return elided.count(op) != 0; });
  return folds;
}

}  // namespace pir::vm
