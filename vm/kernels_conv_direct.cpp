// Direct f32 convolution (vm/conv_direct.h). Each (image, group) is first copied into
// a padded buffer holding every cell its windows read, the padding as zeros; the
// depth rows of one output row are then rows of that buffer at one offset, so
// convRows computes the output row from a table of K row pointers and the weights,
// and convGradRows adds the weight gradient's products from the same rows. Along
// the last axis the buffer splits each row into `stride` phases (column q at phase
// q % stride, index q / stride): a strided window then reads consecutive elements.
#include <new>

#include "vm/conv_direct.h"

namespace pir::vm::detail {
namespace {

constexpr int64_t kColumns = simd::kSmallGemmColumns;  // columns per vector of the kernels' rows
// A group's weights at most this many elements (64 KB of f32): they are read once per
// output row, so they must stay in the core's cache; larger products go to the GEMM.
constexpr int64_t kMaxGroupWeights = int64_t{16} * 1024;
// Output rows per convGradRows call: the band's input rows and gradient rows stay in
// L1 while every (depth row, output channel) tile visits them.
constexpr int64_t kGradBandRows = 16;
// Images per block of the weight gradient: each block's sums are added in block
// order, so the blocks depend on the batch alone.
constexpr int64_t kGradBlocks = 4;

int64_t roundUp(int64_t n, int64_t m) { return (n + m - 1) / m * m; }
// a * b and a + b for non-negative operands, INT64_MAX when they overflow.
int64_t mulOrMax(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}
int64_t addOrMax(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
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
    phaseLength_ = roundUp(std::max(extent_[2] / s + (extent_[2] % s != 0), addOrMax(roundUp(w.out[2], kColumns), reach)),
                           kColumns);
    rowLength_ = mulOrMax(s, phaseLength_);
    planeLength_ = mulOrMax(mulOrMax(extent_[0], extent_[1]), rowLength_);
  }
  // Elements of the copy of `channels` channels (INT64_MAX when that overflows).
  int64_t elements(int64_t channels) const { return mulOrMax(channels, planeLength_); }

  // buf = the padded copy of `channels` input planes starting at x.
  void fill(const float* x, int64_t channels, float* buf) const {
    const int64_t s = w_.stride[2], pb = w_.padBegin[2], inPlane = w_.inSize();
    const int64_t first = std::clamp<int64_t>(pb, 0, extent_[2]), last = std::clamp<int64_t>(w_.in[2] + pb, first, extent_[2]);
    for (int64_t c = 0; c < channels; ++c)
      for (int64_t qd = 0; qd < extent_[0]; ++qd)
        for (int64_t qh = 0; qh < extent_[1]; ++qh) {
          float* row = buf + ((c * extent_[0] + qd) * extent_[1] + qh) * rowLength_;
          const int64_t id = qd - w_.padBegin[0], ih = qh - w_.padBegin[1];
          if (id < 0 || id >= w_.in[0] || ih < 0 || ih >= w_.in[1] || first == last) {
            std::fill(row, row + rowLength_, 0.0f);
            continue;
          }
          const float* src = x + c * inPlane + (id * w_.in[1] + ih) * w_.in[2] - pb;  // column q reads src[q]
          if (s == 1) {
            std::fill(row, row + first, 0.0f);
            std::memcpy(row + first, src + first, static_cast<size_t>(last - first) * sizeof(float));
            std::fill(row + last, row + rowLength_, 0.0f);
            continue;
          }
          for (int64_t phase = 0; phase < s; ++phase) {  // index i holds column phase + i * s
            float* out = row + phase * phaseLength_;
            const int64_t lo = std::min(phaseLength_, first <= phase ? 0 : (first - phase + s - 1) / s);
            const int64_t hi = std::clamp<int64_t>(last <= phase ? 0 : (last - phase + s - 1) / s, lo, phaseLength_);
            std::fill(out, out + lo, 0.0f);
            const float* in = src + phase;
            for (int64_t i = lo; i < hi; ++i) out[i] = in[i * s];
            std::fill(out + hi, out + phaseLength_, 0.0f);
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
AlignedFloats alignedFloats(int64_t n) {
  return AlignedFloats(static_cast<float*>(
      ::operator new[](static_cast<size_t>(n) * sizeof(float), std::align_val_t{64}, std::nothrow)));
}

// One part's padded copy and row pointers, allocated on the thread that runs the part.
struct PaddedScratch {
  AlignedFloats buf;
  std::unique_ptr<const float*[]> rows;
  PaddedScratch(const PaddedLayout& layout, const DirectConvShape& s)
      : buf(alignedFloats(layout.elements(s.inPerGroup))),
        rows(new (std::nothrow) const float*[static_cast<size_t>(s.depth())]) {}
  bool ok() const { return buf && rows; }
  static uint64_t bytes(const PaddedLayout& layout, const DirectConvShape& s) {
    return static_cast<uint64_t>(layout.elements(s.inPerGroup)) * sizeof(float) +
           static_cast<uint64_t>(s.depth()) * sizeof(float*);
  }
};

// Parts to split `units` units of `work` multiply-adds each into (1 below the split size).
int64_t partsFor(int64_t units, int64_t work) { return rowParts(units, std::max<int64_t>(1, work / kColumns)); }

}  // namespace

bool directConvServes(const DirectConvShape& s) {
  const Window& w = s.win;
  const int64_t K = s.depth(), og = s.outPerGroup, P = w.outSize();
  if (s.batch < 1 || s.groups < 1 || K < 1 || og < 1 || P < 1) return false;
  if (mulOrMax(og, K) > kMaxGroupWeights) return false;
  if (4 * w.out[2] < 3 * roundUp(w.out[2], kColumns)) return false;
  const int64_t padded = PaddedLayout(w).elements(s.inPerGroup);
  return padded < INT64_MAX && padded <= mulOrMax(4, mulOrMax(K, P));
}

void directConv(const DirectConvShape& s, const float* x, const float* w, float* y) {
  const Window& win = s.win;
  const PaddedLayout layout(win);
  const int64_t K = s.depth(), og = s.outPerGroup, P = win.outSize(), inSize = win.inSize();
  const int64_t parts = partsFor(s.batch, s.groups * og * K * P);
  const ScratchCharge charge(static_cast<uint64_t>(parts) * PaddedScratch::bytes(layout, s));
  const simd::TypedTable<float>& table = simd::tableOf<float>();
  PartFailures failures;
  splitRowsInParts(s.batch, parts, [&](int64_t, int64_t n0, int64_t n1) {
    const PaddedScratch scratch(layout, s);
    if (!scratch.ok()) return failures.fail();
    for (int64_t n = n0; n < n1; ++n)
      for (int64_t grp = 0; grp < s.groups; ++grp) {
        layout.fill(x + (n * s.groups + grp) * s.inPerGroup * inSize, s.inPerGroup, scratch.buf.get());
        layout.rowPointers(scratch.buf.get(), s.inPerGroup, scratch.rows.get());
        const float* wg = w + grp * og * K;
        float* yg = y + (n * s.groups + grp) * og * P;
        for (int64_t od = 0; od < win.out[0]; ++od)
          for (int64_t oh = 0; oh < win.out[1]; ++oh)
            table.convRows(wg, scratch.rows.get(), layout.offset(od, oh), yg + (od * win.out[1] + oh) * win.out[2], P,
                           og, win.out[2], K);
      }
  });
  failures.throwIfAnyFailed();
}

std::optional<DirectConvShape> directInputGradientShape(const DirectConvShape& forward) {
  const Window& f = forward.win;
  if (f.stride != std::array<int64_t, 3>{1, 1, 1}) return std::nullopt;
  DirectConvShape t;
  t.win.in = f.out;
  t.win.out = f.in;
  t.win.kernel = f.kernel;
  t.win.dilation = f.dilation;
  // dx[i] = sum over cells k of w[k] g[i + padBegin - k * dilation]: a conv of g with
  // the kernel reversed, whose padding before is the kernel's reach less the forward's.
  for (int a = 0; a < 3; ++a) t.win.padBegin[a] = (f.kernel[a] - 1) * f.dilation[a] - f.padBegin[a];
  t.batch = forward.batch;
  t.groups = forward.groups;
  t.inPerGroup = forward.outPerGroup;
  t.outPerGroup = forward.inPerGroup;
  return t;
}

void directConvGradInput(const DirectConvShape& forward, const float* g, const float* w, float* dx) {
  const DirectConvShape t = *directInputGradientShape(forward);
  const int64_t ks = forward.win.kernelSize(), og = forward.outPerGroup, cg = forward.inPerGroup;
  const int64_t total = forward.groups * og * cg * ks;
  const ScratchCharge charge(static_cast<uint64_t>(total), sizeof(float));
  // The weights as the gradient's conv reads them: [group][input channel][output
  // channel][kernel cell reversed] (reversing every spatial axis reverses the cell index).
  std::vector<float> flipped(static_cast<size_t>(total));
  for (int64_t grp = 0; grp < forward.groups; ++grp)
    for (int64_t c = 0; c < cg; ++c)
      for (int64_t o = 0; o < og; ++o) {
        const float* src = w + ((grp * og + o) * cg + c) * ks;
        float* dst = flipped.data() + ((grp * cg + c) * og + o) * ks;
        for (int64_t k = 0; k < ks; ++k) dst[k] = src[ks - 1 - k];
      }
  directConv(t, g, flipped.data(), dx);
}

void directConvGradWeight(const DirectConvShape& s, const float* x, const float* g, float* dw) {
  const Window& win = s.win;
  const PaddedLayout layout(win);
  const int64_t K = s.depth(), og = s.outPerGroup, P = win.outSize(), inSize = win.inSize();
  const int64_t width = win.out[2], padded = roundUp(width, kColumns), rowsOut = win.out[0] * win.out[1];
  const int64_t perGroup = K * og, perImage = s.groups * perGroup;
  const int64_t block = (s.batch - 1) / std::min(s.batch, kGradBlocks) + 1, blocks = (s.batch - 1) / block + 1;
  const int64_t parts = partsFor(blocks, block * perImage * P);
  const uint64_t perPart = PaddedScratch::bytes(layout, s) +
                           static_cast<uint64_t>(og * rowsOut * padded + perImage * 16) * sizeof(float);
  const ScratchCharge charge(static_cast<uint64_t>(parts) * perPart +
                             static_cast<uint64_t>(blocks * perImage) * sizeof(float) +
                             static_cast<uint64_t>(rowsOut) * sizeof(int64_t));
  std::vector<int64_t> offsets(static_cast<size_t>(rowsOut));
  for (int64_t od = 0; od < win.out[0]; ++od)
    for (int64_t oh = 0; oh < win.out[1]; ++oh) offsets[static_cast<size_t>(od * win.out[1] + oh)] = layout.offset(od, oh);
  // Each block's sums, [block][group][depth row][output channel].
  std::vector<float> sums(static_cast<size_t>(blocks * perImage));
  const simd::TypedTable<float>& table = simd::tableOf<float>();
  PartFailures failures;
  splitRowsInParts(blocks, parts, [&](int64_t, int64_t b0, int64_t b1) {
    const PaddedScratch scratch(layout, s);
    // The gradient of one (image, group), each row zero-padded to `padded` columns.
    const AlignedFloats grad = alignedFloats(og * rowsOut * padded);
    std::unique_ptr<float[]> lanes(new (std::nothrow) float[static_cast<size_t>(perImage * 16)]);
    if (!scratch.ok() || !grad || !lanes) return failures.fail();
    std::fill(grad.get(), grad.get() + og * rowsOut * padded, 0.0f);  // the columns past `width` stay 0
    for (int64_t b = b0; b < b1; ++b) {
      std::fill(lanes.get(), lanes.get() + perImage * 16, 0.0f);
      for (int64_t n = b * block; n < std::min(s.batch, (b + 1) * block); ++n)
        for (int64_t grp = 0; grp < s.groups; ++grp) {
          layout.fill(x + (n * s.groups + grp) * s.inPerGroup * inSize, s.inPerGroup, scratch.buf.get());
          layout.rowPointers(scratch.buf.get(), s.inPerGroup, scratch.rows.get());
          const float* gg = g + (n * s.groups + grp) * og * P;
          for (int64_t o = 0; o < og; ++o)
            for (int64_t r = 0; r < rowsOut; ++r)
              std::memcpy(grad.get() + (o * rowsOut + r) * padded, gg + o * P + r * width,
                          static_cast<size_t>(width) * sizeof(float));
          for (int64_t r0 = 0; r0 < rowsOut; r0 += kGradBandRows)
            table.convGradRows(scratch.rows.get(), offsets.data() + r0, std::min(kGradBandRows, rowsOut - r0),
                               grad.get() + r0 * padded, rowsOut * padded, padded, lanes.get() + grp * perGroup * 16, K,
                               og, width);
        }
      // Each pair's 16 partials combined pairwise, as `sum` combines its partials.
      for (int64_t i = 0; i < perImage; ++i) {
        float p[16];
        std::memcpy(p, lanes.get() + i * 16, sizeof p);
        for (int64_t half = 8; half >= 1; half /= 2)
          for (int64_t j = 0; j < half; ++j) p[j] += p[j + half];
        sums[static_cast<size_t>(b * perImage + i)] = p[0];
      }
    }
  });
  failures.throwIfAnyFailed();
  // dw[group][o][k] = the blocks' sums in block order.
  for (int64_t grp = 0; grp < s.groups; ++grp)
    for (int64_t o = 0; o < og; ++o)
      for (int64_t k = 0; k < K; ++k) {
        const int64_t at = grp * perGroup + k * og + o;
        float v = sums[static_cast<size_t>(at)];
        for (int64_t b = 1; b < blocks; ++b) v += sums[static_cast<size_t>(b * perImage + at)];
        dw[(grp * og + o) * K + k] = v;
      }
}

}  // namespace pir::vm::detail
