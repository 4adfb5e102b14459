// The weight gradient of a depthwise f32 convolution (one input and one output
// channel per group, the MobileNet layer): per channel, each kernel cell's gradient is
// a dot product of the padded input's rows with the gradient's rows, vectorised along
// the rows (simd::TypedTable::convGradLanes). The direct kernels' weight gradient
// vectorises over 16 output channels, of which a depthwise group has one: 15 of every
// 16 lanes computed zeros. conv and its input gradient of these shapes stay on the
// direct kernels (convRows with one channel).
//
// Bits: a channel's kernel cell sums its products in 16 lanes (column j of an output
// row in lane j % 16), each lane one FMA chain over the images in order, then the
// output rows, then the row's columns; the lanes are then added pairwise (lane l +=
// lane l + 8, then + 4, + 2, + 1). The order depends on the shapes alone, and each
// channel is computed whole on one thread, so the bits do not depend on the thread
// count.
#pragma once
#include "vm/conv_direct.h"

namespace pir::vm::detail {

// True when depthwiseConvGradWeight serves the shape: one input and one output
// channel per group, and a window the direct kernels serve (directConvServes).
bool depthwiseConvGradWeightServes(const DirectConvShape& s);
// dw [groups, 1, kernel...] = conv_grad_weight(x [N, groups, in...], g [N, groups, out...]).
void depthwiseConvGradWeight(const DirectConvShape& s, const float* x, const float* g, float* dw);

}  // namespace pir::vm::detail
