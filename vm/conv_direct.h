// Direct f32 convolution: each output row computed from the rows of a padded copy of
// its image that the windows read (vm/simd_kernels.h convRows), with no column
// matrix. Serves conv, its input gradient (convs of the gradient with the reversed
// weights, one per phase of the stride) and its weight gradient, for the shapes
// directConvServes accepts; kernels_conv_gemm.cpp runs every other shape as im2col
// around a GEMM.
//
// Bits: an output element of conv is the sequential FMA chain over its depth (input
// channel, then kernel cell, row-major) from +0; a weight-gradient element is one FMA
// chain over the positions of each fixed block of images (images, then output rows,
// then columns), the blocks' sums added in block order. Both orders depend on the
// shapes alone, not on the thread count.
#pragma once
#include "vm/conv_window.h"

namespace pir::vm::detail {

// A convolution for the direct kernels: `win` over its input, `groups` groups of
// inPerGroup input and outPerGroup output channels; weights [groups * outPerGroup,
// inPerGroup, kernel...].
struct DirectConvShape {
  Window win;
  int64_t batch = 0, groups = 1, inPerGroup = 0, outPerGroup = 0;
  int64_t depth() const { return inPerGroup * win.kernelSize(); }
};

// True when the direct kernels serve the shape: a group's weights small enough to
// stay in the core's cache (at most 16K elements), output rows that fill at least
// three quarters of the 16-column vectors they are computed in, and a padded image
// of at most 1M elements and 4x the size of im2col's column matrix (a large
// dilation or padding around a few outputs goes to im2col).
bool directConvServes(const DirectConvShape& s);
// y [N, groups * outPerGroup, out...] = conv(x [N, groups * inPerGroup, in...], w).
void directConv(const DirectConvShape& s, const float* x, const float* w, float* y);
// True when conv_grad_input of `forward` runs direct: dx split into phases by the
// stride (the cells whose coordinates leave the same remainders), each phase a conv
// of g with the kernel cells that reach it, reversed (at stride 1 one phase, the
// whole kernel), every phase's conv served by the direct kernels.
bool directConvGradInputServes(const DirectConvShape& forward);
// dx = conv_grad_input(g, w) of `forward`, which directConvGradInputServes accepts.
void directConvGradInput(const DirectConvShape& forward, const float* g, const float* w, float* dx);
// True when directConvGradWeight serves the shape: as directConvServes, but a group's
// weights may hold up to 64K elements (its sums are read per tile of them and image,
// not per output row).
bool directConvGradWeightServes(const DirectConvShape& s);
// dw [groups * outPerGroup, inPerGroup, kernel...] = conv_grad_weight(x, g), for a
// shape directConvGradWeightServes accepts.
void directConvGradWeight(const DirectConvShape& s, const float* x, const float* g, float* dw);

}  // namespace pir::vm::detail
