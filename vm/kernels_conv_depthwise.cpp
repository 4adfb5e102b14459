// The depthwise weight gradient (vm/conv_depthwise.h). The channels are split over
// the kernel threads, a contiguous run per part; a part walks the images in order and
// in each its channels' planes: a plane is copied into the part's padded buffer (one
// channel of the direct kernels' layout, vm/conv_padded.h), whose depth rows are the
// kernel cells' rows, and convGradLanes adds each cell's products with the plane's
// gradient into the channel's 16 lane sums.
#include "vm/conv_depthwise.h"
#include "vm/conv_padded.h"

namespace pir::vm::detail {
namespace {

constexpr int64_t kLaneSums = 16;  // convGradLanes' lanes per depth row

// The 16 lane sums of one depth row added pairwise: lane l += lane l + 8, then + 4,
// + 2, + 1 (conv_depthwise.h "Bits").
float addLanes(const float* lanes) {
  float t[kLaneSums];
  for (int64_t l = 0; l < kLaneSums; ++l) t[l] = lanes[l];
  for (int64_t half = kLaneSums / 2; half >= 1; half /= 2)
    for (int64_t l = 0; l < half; ++l) t[l] += t[l + half];
  return t[0];
}

}  // namespace

bool depthwiseConvGradWeightServes(const DirectConvShape& s) {
  return s.inPerGroup == 1 && s.outPerGroup == 1 && directConvServes(s);
}

void depthwiseConvGradWeight(const DirectConvShape& s, const float* x, const float* g, float* dw) {
  const Window& win = s.win;
  const PaddedLayout layout(win);
  // directConvServes bounds the kernel (16K cells), the padded plane (1M elements) and
  // the output positions (1M); the channels' lane sums are 16 per weight of dw.
  const int64_t K = s.depth(), P = win.outSize(), inSize = win.inSize(), C = s.groups;
  const int64_t rowsOut = win.out[0] * win.out[1];
  const int64_t parts = partsFor(C, mulOrMax(mulOrMax(s.batch, K), P));
  const ScratchCharge charge(static_cast<uint64_t>(parts) * PaddedScratch::bytes(layout, s) +
                             saturatingMul(static_cast<uint64_t>(mulOrMax(C, K)), kLaneSums * sizeof(float)) +
                             static_cast<uint64_t>(rowsOut) * sizeof(int64_t));
  std::vector<int64_t> offsets(static_cast<size_t>(rowsOut));
  for (int64_t od = 0; od < win.out[0]; ++od)
    for (int64_t oh = 0; oh < win.out[1]; ++oh) offsets[static_cast<size_t>(od * win.out[1] + oh)] = layout.offset(od, oh);
  const simd::TypedTable<float>& table = simd::tableOf<float>();
  PartFailures failures;
  splitRowsInParts(C, parts, [&](int64_t, int64_t c0, int64_t c1) {
    const PaddedScratch scratch(layout, s);
    // The part's channels' lane sums, [channel][depth row][lane]: each image's run of
    // planes is read in memory order, and the sums stay in the core's cache.
    const AlignedFloats sums = alignedFloats((c1 - c0) * K * kLaneSums);
    if (!scratch.ok() || !sums) return failures.fail();
    std::fill(sums.get(), sums.get() + (c1 - c0) * K * kLaneSums, 0.0f);
    // One channel's layout: the depth rows sit at the same places for every plane.
    layout.rowPointers(scratch.buf.get(), 1, scratch.rows.get());
    for (int64_t n = 0; n < s.batch; ++n)
      for (int64_t c = c0; c < c1; ++c) {
        layout.fill(x + (n * C + c) * inSize, 1, scratch.buf.get());
        table.convGradLanes(scratch.rows.get(), offsets.data(), rowsOut, win.out[2], g + (n * C + c) * P,
                            sums.get() + (c - c0) * K * kLaneSums, K);
      }
    for (int64_t c = c0; c < c1; ++c)
      for (int64_t k = 0; k < K; ++k) dw[c * K + k] = addLanes(sums.get() + ((c - c0) * K + k) * kLaneSums);
  });
  failures.throwIfAnyFailed();
}

}  // namespace pir::vm::detail
