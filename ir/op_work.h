// The work of an op, by its Cost class (ops.def): the one formula the VM's step
// budget (vm/compiler.cpp, Instr::work) and the device's cycle estimate
// (device/tile_model.h) both use.
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

}  // namespace pir
