// The padded copy of one (image, group) that the direct convolution kernels read
// (vm/kernels_conv_direct.cpp, vm/kernels_conv_depthwise.cpp): every cell its
// windows read, the padding as zeros, each row split into the phases of the stride
// along the last axis; and the part scratch that holds it.
#pragma once
#include <new>

#include "vm/conv_direct.h"

namespace pir::vm::detail {

constexpr int64_t kColumns = simd::kSmallGemmColumns;  // columns per vector of the kernels' rows

// a * b and a + b for non-negative operands, INT64_MAX when they overflow; n rounded
// up to a multiple of m, INT64_MAX when that overflows.
inline int64_t mulOrMax(int64_t a, int64_t b) { return checkedMul(a, b).value_or(INT64_MAX); }
inline int64_t addOrMax(int64_t a, int64_t b) { return checkedAdd(a, b).value_or(INT64_MAX); }
inline int64_t roundUp(int64_t n, int64_t m) { return n > INT64_MAX - (m - 1) ? INT64_MAX : (n + m - 1) / m * m; }

// n floats from src to dst by a plain loop: an image row (a few dozen floats), where
// a call to memcpy per row cost more than the copy.
inline __attribute__((optimize("no-tree-loop-distribute-patterns"))) void copyRun(const float* __restrict src,
                                                                            float* __restrict dst, int64_t n) {
  for (int64_t i = 0; i < n; ++i) dst[i] = src[i];
}

// even[i] = src[2i] and odd[i] = src[2i + 1] for i < n: a stride-2 row's two phases in
// one pass, by a loop the compiler turns into vector loads and shuffles.
inline void splitPairs(const float* __restrict src, float* __restrict even, float* __restrict odd, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    even[i] = src[2 * i];
    odd[i] = src[2 * i + 1];
  }
}

// Where each cell of one (image, group)'s padded copy lives: [channel][padded depth]
// [padded row][phase][index]. Each axis holds the padded extent the windows read,
// (out - 1) * stride + (kernel - 1) * dilation + 1; each phase of a row is long
// enough for the last vector of an output row (out[2] rounded up to kColumns, plus
// the kernel's reach), the cells past the image reading as zero.
class PaddedLayout {
 public:
  explicit PaddedLayout(const Window& w) : w_(w) {
    for (int a = 0; a < 3; ++a)
      extent_[a] = addOrMax(addOrMax(mulOrMax(w.out[a] - 1, w.stride[a]), mulOrMax(w.kernel[a] - 1, w.dilation[a])), 1);
    const int64_t s = w.stride[2];
    const int64_t reach = mulOrMax(w.kernel[2] - 1, w.dilation[2]) / s;
    // A multiple of kColumns, so that rows start on a cache line (an unaligned vector
    // load of a whole line reads two).
    phaseLength_ = roundUp(std::max(stridedLength(extent_[2], s), addOrMax(roundUp(w.out[2], kColumns), reach)), kColumns);
    rowLength_ = mulOrMax(s, phaseLength_);
    planeLength_ = mulOrMax(mulOrMax(extent_[0], extent_[1]), rowLength_);
  }
  // Elements of the copy of `channels` channels (INT64_MAX when that overflows).
  int64_t elements(int64_t channels) const { return mulOrMax(channels, planeLength_); }

  // Writes the image's cells of the padded copy of `channels` input planes starting
  // at x into buf; the padding's cells are never written, so a buffer zeroed once
  // (PaddedScratch) keeps them zero from image to image.
  void fill(const float* x, int64_t channels, float* buf) const {
    const int64_t s = w_.stride[2], pb = w_.padBegin[2], inPlane = w_.inSize();
    const int64_t first = std::clamp<int64_t>(pb, 0, extent_[2]), last = std::clamp<int64_t>(w_.in[2] + pb, first, extent_[2]);
    if (first == last) return;
    const int64_t d0 = std::max<int64_t>(0, w_.padBegin[0]), d1 = std::max<int64_t>(0, w_.padBegin[1]);
    const int64_t e0 = std::min(extent_[0], w_.in[0] + w_.padBegin[0]), e1 = std::min(extent_[1], w_.in[1] + w_.padBegin[1]);
    for (int64_t c = 0; c < channels; ++c)
      for (int64_t qd = d0; qd < e0; ++qd)
        for (int64_t qh = d1; qh < e1; ++qh) {
          float* row = buf + ((c * extent_[0] + qd) * extent_[1] + qh) * rowLength_;
          const float* src = x + c * inPlane + ((qd - w_.padBegin[0]) * w_.in[1] + qh - w_.padBegin[1]) * w_.in[2] - pb;
          if (s == 1) {  // column q reads src[q]
            copyRun(src + first, row + first, last - first);
            continue;
          }
          if (s == 2) {  // column q at phase q % 2, index q / 2
            float* even = row;
            float* odd = row + phaseLength_;
            int64_t q = first;
            if (q % 2 == 1) odd[q / 2] = src[q], ++q;
            const int64_t pairs = (last - q) / 2;
            splitPairs(src + q, even + q / 2, odd + q / 2, pairs);
            if (q + 2 * pairs < last) even[(q + 2 * pairs) / 2] = src[q + 2 * pairs];
            continue;
          }
          for (int64_t phase = 0; phase < s; ++phase) {  // index i holds column phase + i * s
            const int64_t lo = std::min(phaseLength_, first <= phase ? 0 : (first - phase + s - 1) / s);
            const int64_t hi = std::clamp<int64_t>(last <= phase ? 0 : (last - phase + s - 1) / s, lo, phaseLength_);
            float* out = row + phase * phaseLength_;
            const float* in = src + phase;
            for (int64_t i = lo; i < hi; ++i) out[i] = in[i * s];
          }
        }
  }

  // rows[k] for each depth row k = (channel, kernel cell) of output row (0, 0).
  void rowPointers(const float* buf, int64_t channels, const float** rows) const {
    const Window& w = w_;
    const int64_t s = w.stride[2];
    int64_t k = 0;
    for (int64_t c = 0; c < channels; ++c)
      for (int64_t kd = 0; kd < w.kernel[0]; ++kd)
        for (int64_t kh = 0; kh < w.kernel[1]; ++kh)
          for (int64_t kw = 0; kw < w.kernel[2]; ++kw) {
            const int64_t col = kw * w.dilation[2];
            rows[k++] = buf + c * planeLength_ + (kd * w.dilation[0] * extent_[1] + kh * w.dilation[1]) * rowLength_ +
                        col % s * phaseLength_ + col / s;
          }
  }
  // How far output row (od, oh)'s depth rows lie from output row (0, 0)'s.
  int64_t offset(int64_t od, int64_t oh) const {
    return (od * w_.stride[0] * extent_[1] + oh * w_.stride[1]) * rowLength_;
  }

 private:
  Window w_;
  std::array<int64_t, 3> extent_{};
  int64_t phaseLength_ = 0, rowLength_ = 0, planeLength_ = 0;
};

// n floats on a cache line's boundary, or null when the allocation fails.
struct AlignedDelete {
  void operator()(float* p) const { ::operator delete[](p, std::align_val_t{64}); }
};
using AlignedFloats = std::unique_ptr<float[], AlignedDelete>;
inline AlignedFloats alignedFloats(int64_t n) {
  return AlignedFloats(static_cast<float*>(
      ::operator new[](static_cast<size_t>(n) * sizeof(float), std::align_val_t{64}, std::nothrow)));
}

// One part's padded copy (zeroed: PaddedLayout::fill writes the image's cells only)
// and row pointers, allocated on the thread that runs the part.
struct PaddedScratch {
  AlignedFloats buf;
  std::unique_ptr<const float*[]> rows;
  PaddedScratch(const PaddedLayout& layout, const DirectConvShape& s)
      : buf(alignedFloats(layout.elements(s.inPerGroup))),
        rows(new (std::nothrow) const float*[static_cast<size_t>(s.depth())]) {
    if (buf) std::fill(buf.get(), buf.get() + layout.elements(s.inPerGroup), 0.0f);
  }
  bool ok() const { return buf && rows; }
  static uint64_t bytes(const PaddedLayout& layout, const DirectConvShape& s) {
    return static_cast<uint64_t>(layout.elements(s.inPerGroup)) * sizeof(float) +
           static_cast<uint64_t>(s.depth()) * sizeof(float*);
  }
};

// Parts to split `units` units of `work` multiply-adds each into (1 below the split size).
inline int64_t partsFor(int64_t units, int64_t work) { return rowParts(units, std::max<int64_t>(1, work / kColumns)); }

}  // namespace pir::vm::detail
