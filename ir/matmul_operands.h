// The operands of `matmul` (and of `matmul_scaled_add_`, whose x and y are operands
// 0 and 1 too) as it multiplies them. Each operand has a transpose
// flag (ops.def: transpose_a, transpose_b; the fold-transposes pass sets them):
// a flagged operand is stored as written and read with its last two axes
// swapped, which the GEMM does without a copy. Inference, gradients, the work
// formula, the device's exchange estimate and the kernel read the operands
// through these, so the flag means one thing everywhere.
#pragma once
#include <cstddef>

#include "ir/dtype.h"
#include "ir/ir.h"

namespace pir {

// True when operand `i` (0 or 1) of `op`, a matmul or matmul_scaled_add_, is read
// transposed; false for every other op.
bool matmulReadsTransposed(const Op& op, size_t i);
// `stored` with its last two axes swapped when `transposed` (rank >= 2; a
// lower rank is returned as is: the verifier rejects the flag there).
Shape matmulLogicalShape(const Shape& stored, bool transposed);
// Operand `i`'s shape as multiplied (a verified matmul's).
Shape matmulOperandShape(const Op& op, size_t i);

}  // namespace pir
