// The work of an op, by its Cost class (ops.def): the one formula the VM's step
// budget (vm/compiler.cpp, Instr::work) and the device's cycle estimate
// (device/tile_model.h) both use for multiply-adds; the step budget adds the
// visits of window and selection kernels (kernelVisitsBeyondOperands), which the
// device prices by its per-element cycles of their class instead.
#pragma once
#include <cstdint>

#include "ir/ir.h"

namespace pir {

// Multiply-adds per result element of a MatMul- or Conv-class op: a matmul's
// contraction length (operand 0's last dim as multiplied, ir/matmul_operands.h;
// at least 1), a convolution's weights per output
// channel (operand 1's elements over its first dim; 1 when that dim is absent
// or 0). 0 for every other class: its work is the elements it touches.
uint64_t multiplyAddsPerResultElement(const Op& op);

// The elements a kernel visits beyond one pass over its operands and results,
// where that grows faster than the tensors do (saturating):
//   - matmul and convolution: result elements x multiplyAddsPerResultElement;
//   - a sliding window (pooling and its gradients: the cells of `kernel`; lrn:
//     the `size` channels): the smallest operand or result (the windows) x the
//     window's cells;
//   - topk's partial sort: input elements x ceil(log2(k + 1)) comparisons.
// 0 for every other op. A verified op is assumed; on any other this never crashes.
uint64_t kernelVisitsBeyondOperands(const Op& op);

}  // namespace pir
