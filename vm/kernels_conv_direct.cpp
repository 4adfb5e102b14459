// Direct f32 convolution (vm/conv_direct.h). Each (image, group) is first copied into
// a padded buffer holding every cell its windows read, the padding as zeros; the
// depth rows of one output row are then rows of that buffer at one offset, so
// convRows computes the output rows from a table of K row pointers and the weights,
// and convGradRows adds the weight gradient's products from the same rows. Along
// the last axis the buffer splits each row into `stride` phases (column q at phase
// q % stride, index q / stride): a strided window then reads consecutive elements.
#include "vm/conv_direct.h"
#include "vm/conv_padded.h"

namespace pir::vm::detail {
namespace {

// A group's weights at most this many elements (64 KB of f32): they are read once per
// output row, so they must stay in the core's cache; larger products go to the GEMM.
constexpr int64_t kMaxGroupWeights = int64_t{16} * 1024;
// The weight gradient's sums of a group at most this many elements (256 KB of f32):
// a tile of them is loaded once per (image, group) and output rows, not per output
// row, so they need only fit in the core's L2 cache beside the transposed gradient.
// Wider layers than conv's bound take them: a 1-D conv of 64 to 64 channels, kernel
// 5 (20K weights), ran its weight gradient's GEMMs ([320, 64] over depth 1024, one
// image each) at half conv's rate.
constexpr int64_t kMaxGroupGradWeights = int64_t{64} * 1024;
// Images per block of the weight gradient: each block's sums are added in block
// order, so the blocks depend on the batch alone.
constexpr int64_t kGradBlocks = 4;
// A part's padded copy of one (image, group) at most this many elements (4 MB of
// f32): the kernels read it from the core's cache.
constexpr int64_t kMaxPaddedElements = int64_t{1} << 20;
// The input gradient runs one conv per phase of the stride: at most this many.
constexpr int64_t kMaxPhases = 16;

}  // namespace

namespace {

// directConvServes with a group's weights bounded by maxWeights.
bool servesWithWeights(const DirectConvShape& s, int64_t maxWeights) {
  const Window& w = s.win;
  // Zero-size tensors may carry any dims: every product here saturates.
  const int64_t K = mulOrMax(s.inPerGroup, mulOrMax(mulOrMax(w.kernel[0], w.kernel[1]), w.kernel[2]));
  const int64_t P = mulOrMax(mulOrMax(w.out[0], w.out[1]), w.out[2]), og = s.outPerGroup;
  if (s.batch < 1 || s.groups < 1 || K < 1 || og < 1 || P < 1) return false;
  if (mulOrMax(og, K) > maxWeights || P > kMaxPaddedElements) return false;
  if (4 * w.out[2] < 3 * roundUp(w.out[2], kColumns)) return false;  // out[2] <= P: no overflow
  const int64_t padded = PaddedLayout(w).elements(s.inPerGroup);
  return padded <= kMaxPaddedElements && padded <= mulOrMax(4, mulOrMax(K, P));
}

}  // namespace

bool directConvServes(const DirectConvShape& s) { return servesWithWeights(s, kMaxGroupWeights); }

bool directConvGradWeightServes(const DirectConvShape& s) { return servesWithWeights(s, kMaxGroupGradWeights); }

namespace {

// Output rows [first, end) of one (image, group) (row r = od * out[1] + oh), rows[]
// its padded copy's depth rows.
void convOutputRows(const PaddedLayout& layout, const Window& win, const float* const* rows, const float* w,
                    int64_t og, int64_t K, float* y, int64_t first, int64_t end) {
  const simd::TypedTable<float>& table = simd::tableOf<float>();
  for (int64_t r = first; r < end;) {
    const int64_t od = r / win.out[1], oh = r % win.out[1], count = std::min(end - r, win.out[1] - oh);
    table.convRows(w, rows, layout.offset(od, oh), layout.offset(0, 1), count, y + r * win.out[2], win.outSize(), og,
                   win.out[2], K);
    r += count;
  }
}

// A batch of one image: its padded copies made once, its output rows split over the
// kernel threads (each row is computed as on one thread).
void directConvOneImage(const DirectConvShape& s, const PaddedLayout& layout, int64_t parts, const float* x,
                        const float* w, float* y) {
  const Window& win = s.win;
  const int64_t K = s.depth(), og = s.outPerGroup, P = win.outSize(), elements = layout.elements(s.inPerGroup);
  const int64_t rowsOut = win.out[0] * win.out[1];
  const ScratchCharge charge(static_cast<uint64_t>(s.groups) * PaddedScratch::bytes(layout, s));
  const AlignedFloats buf = alignedFloats(s.groups * elements);
  if (!buf) throw std::bad_alloc();
  std::fill(buf.get(), buf.get() + s.groups * elements, 0.0f);
  std::vector<const float*> rows(static_cast<size_t>(s.groups * K));
  for (int64_t grp = 0; grp < s.groups; ++grp) {
    layout.fill(x + grp * s.inPerGroup * win.inSize(), s.inPerGroup, buf.get() + grp * elements);
    layout.rowPointers(buf.get() + grp * elements, s.inPerGroup, rows.data() + grp * K);
  }
  simd::parallelTasks(parts, [&](int64_t j) {
    for (int64_t grp = 0; grp < s.groups; ++grp)
      convOutputRows(layout, win, rows.data() + grp * K, w + grp * og * K, og, K, y + grp * og * P, j * rowsOut / parts,
                     (j + 1) * rowsOut / parts);
  });
}

}  // namespace

void directConv(const DirectConvShape& s, const float* x, const float* w, float* y) {
  const Window& win = s.win;
  const PaddedLayout layout(win);
  const int64_t K = s.depth(), og = s.outPerGroup, P = win.outSize(), inSize = win.inSize();
  if (s.batch == 1) {
    const int64_t rowsOut = win.out[0] * win.out[1];
    const int64_t rowParts = partsFor(rowsOut, s.groups * og * K * win.out[2]);
    if (rowParts > 1) return directConvOneImage(s, layout, rowParts, x, w, y);
  }
  const int64_t parts = partsFor(s.batch, s.groups * og * K * P);
  const ScratchCharge charge(static_cast<uint64_t>(parts) * PaddedScratch::bytes(layout, s));
  PartFailures failures;
  splitRowsInParts(s.batch, parts, [&](int64_t, int64_t n0, int64_t n1) {
    const PaddedScratch scratch(layout, s);
    if (!scratch.ok()) return failures.fail();
    for (int64_t n = n0; n < n1; ++n)
      for (int64_t grp = 0; grp < s.groups; ++grp) {
        layout.fill(x + (n * s.groups + grp) * s.inPerGroup * inSize, s.inPerGroup, scratch.buf.get());
        layout.rowPointers(scratch.buf.get(), s.inPerGroup, scratch.rows.get());
        convOutputRows(layout, win, scratch.rows.get(), w + grp * og * K, og, K, y + (n * s.groups + grp) * og * P, 0,
                       win.out[0] * win.out[1]);
      }
  });
  failures.throwIfAnyFailed();
}

namespace {

// One axis of one phase of dx (the input cells phase + stride * i, i < count) and
// the kernel cells that reach it: cell kc reaches input cell c from output cell
// (c + padBegin - kc * dilation) / stride when that divides. `cells` lists them in
// the order of the output cells they read (the last kernel cell first): dx cell i of
// the phase reads g at i + first + t * step for its t-th cell.
struct PhaseAxis {
  int64_t count = 0;
  std::vector<int64_t> cells;
  int64_t first = 0, step = 1;
};

PhaseAxis phaseAxis(const Window& f, int a, int64_t phase) {
  PhaseAxis p;
  const int64_t s = f.stride[a];
  p.count = stridedLength(f.in[a] - phase, s);
  std::vector<int64_t> reach;  // phase + padBegin - kc * dilation, a multiple of the stride
  for (int64_t kc = f.kernel[a] - 1; kc >= 0; --kc) {
    const int64_t r = phase + f.padBegin[a] - kc * f.dilation[a];
    if (r % s == 0) p.cells.push_back(kc), reach.push_back(r);
  }
  if (!p.cells.empty()) p.first = reach[0] / s;
  if (p.cells.size() > 1) p.step = (reach[1] - reach[0]) / s;  // the same between any two
  return p;
}

// The phases of dx that hold cells (phase < stride and < in on each axis), in
// row-major order of (phase0, phase1, phase2).
int64_t phasesAlong(const Window& f, int a) { return std::min(f.stride[a], f.in[a]); }
template <class F> void forEachPhase(const Window& f, F&& body) {
  for (int64_t p0 = 0; p0 < phasesAlong(f, 0); ++p0)
    for (int64_t p1 = 0; p1 < phasesAlong(f, 1); ++p1)
      for (int64_t p2 = 0; p2 < phasesAlong(f, 2); ++p2)
        body(std::array<int64_t, 3>{p0, p1, p2},
             std::array<PhaseAxis, 3>{phaseAxis(f, 0, p0), phaseAxis(f, 1, p1), phaseAxis(f, 2, p2)});
}

bool phaseIsEmpty(const std::array<PhaseAxis, 3>& axes) {
  for (const PhaseAxis& a : axes)
    if (a.count == 0 || a.cells.empty()) return true;
  return false;
}

// The conv of g that gives one phase of dx.
DirectConvShape phaseShape(const DirectConvShape& forward, const std::array<PhaseAxis, 3>& axes) {
  DirectConvShape t;
  for (int a = 0; a < 3; ++a) {
    t.win.in[a] = forward.win.out[a];
    t.win.out[a] = axes[a].count;
    t.win.kernel[a] = static_cast<int64_t>(axes[a].cells.size());
    t.win.dilation[a] = axes[a].step;
    t.win.padBegin[a] = -axes[a].first;
  }
  t.batch = forward.batch;
  t.groups = forward.groups;
  t.inPerGroup = forward.outPerGroup;
  t.outPerGroup = forward.inPerGroup;
  return t;
}

bool unitStride(const Window& w) { return w.stride == std::array<int64_t, 3>{1, 1, 1}; }

}  // namespace

bool directConvGradInputServes(const DirectConvShape& forward) {
  const Window& f = forward.win;
  // Each phase is a conv call of its own: a few of them (strides up to 4x4) only.
  if (mulOrMax(mulOrMax(phasesAlong(f, 0), phasesAlong(f, 1)), phasesAlong(f, 2)) > kMaxPhases) return false;
  // The phases share the kernel's cells, and each phase's weights are bounded: so is
  // the kernel (a zero-size weight tensor may carry any dims), before its cells are walked.
  const int64_t cells = mulOrMax(mulOrMax(f.kernel[0], f.kernel[1]), f.kernel[2]);
  if (mulOrMax(cells, forward.outPerGroup) > kMaxPhases * kMaxGroupWeights) return false;
  bool served = forward.batch >= 1 && forward.inPerGroup >= 1 && forward.outPerGroup >= 1;
  forEachPhase(forward.win, [&](const std::array<int64_t, 3>&, const std::array<PhaseAxis, 3>& axes) {
    if (!phaseIsEmpty(axes)) served = served && directConvServes(phaseShape(forward, axes));
  });
  return served;
}

namespace {

// interleaved[2i] = even[i] and interleaved[2i + 1] = odd[i] for i < n: two phases of
// a stride-2 row in one pass, by a loop the compiler turns into vector shuffles.
void mergePairs(const float* __restrict even, const float* __restrict odd, float* __restrict interleaved, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    interleaved[2 * i] = even[i];
    interleaved[2 * i + 1] = odd[i];
  }
}

}  // namespace

void directConvGradInput(const DirectConvShape& forward, const float* g, const float* w, float* dx) {
  const Window& f = forward.win;
  const int64_t ks = f.kernelSize(), og = forward.outPerGroup, cg = forward.inPerGroup;
  const int64_t planes = forward.batch * forward.groups * cg, inSize = f.inSize();
  const bool one = unitStride(f);  // one phase, written straight into dx
  // The phases along the last axis of one (phase0, phase1) are computed before any of
  // them is written into dx, so that a row of dx is written in one pass; together they
  // hold at most dx's elements.
  const ScratchCharge charge(static_cast<uint64_t>(forward.groups * og * cg * ks + (one ? 0 : planes * inSize)),
                             sizeof(float));
  const int64_t lastPhases = phasesAlong(f, 2), s2 = f.stride[2];
  std::vector<float> weights;
  std::vector<std::vector<float>> phases(static_cast<size_t>(lastPhases));
  std::vector<int64_t> counts(static_cast<size_t>(lastPhases));
  std::vector<bool> empty(static_cast<size_t>(lastPhases));
  // Writes the phases along the last axis of (at[0], at[1]) into dx (zeros for an
  // empty one).
  auto scatter = [&](const std::array<int64_t, 3>& at, int64_t n0, int64_t n1) {
    const bool pairs = s2 == 2 && lastPhases == 2 && !empty[0] && !empty[1] && counts[1] <= counts[0] &&
                       counts[0] <= counts[1] + 1;
    for (int64_t p = 0; p < planes; ++p)
      for (int64_t i0 = 0; i0 < n0; ++i0)
        for (int64_t i1 = 0; i1 < n1; ++i1) {
          float* row = dx + p * inSize + ((at[0] + i0 * f.stride[0]) * f.in[1] + at[1] + i1 * f.stride[1]) * f.in[2];
          const int64_t rowIndex = (p * n0 + i0) * n1 + i1;
          if (pairs) {
            const float* even = phases[0].data() + rowIndex * counts[0];
            const float* odd = phases[1].data() + rowIndex * counts[1];
            mergePairs(even, odd, row, counts[1]);
            if (counts[0] > counts[1]) row[2 * counts[1]] = even[counts[1]];
            continue;
          }
          for (int64_t p2 = 0; p2 < lastPhases; ++p2) {
            const size_t at2 = static_cast<size_t>(p2);
            const int64_t n2 = counts[at2];
            if (empty[at2]) {  // no buffer: nothing was computed for it
              for (int64_t i2 = 0; i2 < n2; ++i2) row[p2 + i2 * s2] = 0.0f;
              continue;
            }
            const float* src = phases[at2].data() + rowIndex * n2;
            for (int64_t i2 = 0; i2 < n2; ++i2) row[p2 + i2 * s2] = src[i2];
          }
        }
  };
  forEachPhase(f, [&](const std::array<int64_t, 3>& at, const std::array<PhaseAxis, 3>& axes) {
    const int64_t n0 = axes[0].count, n1 = axes[1].count, n2 = axes[2].count;
    const size_t slot = static_cast<size_t>(at[2]);
    counts[slot] = n2;
    empty[slot] = phaseIsEmpty(axes);
    const bool lastOfRow = at[2] == lastPhases - 1;
    if (n0 == 0 || n1 == 0 || n2 == 0 || empty[slot]) {
      if (lastOfRow && n0 > 0 && n1 > 0) scatter(at, n0, n1);
      return;
    }
    // The weights as the phase's conv reads them: [group][input channel][output
    // channel][the phase's kernel cells in reading order].
    const int64_t t0 = static_cast<int64_t>(axes[0].cells.size()), t1 = static_cast<int64_t>(axes[1].cells.size()),
                  t2 = static_cast<int64_t>(axes[2].cells.size()), ts = t0 * t1 * t2;
    weights.resize(static_cast<size_t>(forward.groups * cg * og * ts));
    for (int64_t grp = 0; grp < forward.groups; ++grp)
      for (int64_t c = 0; c < cg; ++c)
        for (int64_t o = 0; o < og; ++o) {
          const float* src = w + ((grp * og + o) * cg + c) * ks;
          float* dst = weights.data() + ((grp * cg + c) * og + o) * ts;
          for (int64_t a = 0; a < t0; ++a)
            for (int64_t b = 0; b < t1; ++b)
              for (int64_t e = 0; e < t2; ++e)
                *dst++ = src[(axes[0].cells[static_cast<size_t>(a)] * f.kernel[1] + axes[1].cells[static_cast<size_t>(b)]) *
                                 f.kernel[2] +
                             axes[2].cells[static_cast<size_t>(e)]];
        }
    if (one) return directConv(phaseShape(forward, axes), g, weights.data(), dx);
    phases[slot].resize(static_cast<size_t>(planes * n0 * n1 * n2));
    directConv(phaseShape(forward, axes), g, weights.data(), phases[slot].data());
    if (lastOfRow) scatter(at, n0, n1);
  });
}

void directConvGradWeight(const DirectConvShape& s, const float* x, const float* g, float* dw) {
  const Window& win = s.win;
  const PaddedLayout layout(win);
  const int64_t K = s.depth(), og = s.outPerGroup, P = win.outSize(), inSize = win.inSize();
  const int64_t rowsOut = win.out[0] * win.out[1];
  // Sums per group [depth row][channel], the channels padded to whole vectors.
  const int64_t ldg = roundUp(og, kColumns), perGroup = K * ldg, perImage = s.groups * perGroup;
  const int64_t block = (s.batch - 1) / std::min(s.batch, kGradBlocks) + 1, blocks = (s.batch - 1) / block + 1;
  const int64_t parts = partsFor(blocks, block * s.groups * og * K * P);
  const uint64_t perPart = PaddedScratch::bytes(layout, s) + static_cast<uint64_t>(P * ldg) * sizeof(float);
  const ScratchCharge charge(static_cast<uint64_t>(parts) * perPart +
                             static_cast<uint64_t>(blocks * perImage) * sizeof(float) +
                             static_cast<uint64_t>(rowsOut) * sizeof(int64_t));
  std::vector<int64_t> offsets(static_cast<size_t>(rowsOut));
  for (int64_t od = 0; od < win.out[0]; ++od)
    for (int64_t oh = 0; oh < win.out[1]; ++oh) offsets[static_cast<size_t>(od * win.out[1] + oh)] = layout.offset(od, oh);
  // Each block's sums, [block][group][depth row][channel].
  std::vector<float> sums(static_cast<size_t>(blocks * perImage), 0.0f);
  const simd::Table& table = simd::table();
  PartFailures failures;
  splitRowsInParts(blocks, parts, [&](int64_t, int64_t b0, int64_t b1) {
    const PaddedScratch scratch(layout, s);
    // One (image, group)'s gradient with the channels innermost, [position][ldg].
    const AlignedFloats transposed = alignedFloats(P * ldg);
    if (!scratch.ok() || !transposed) return failures.fail();
    float* gt = transposed.get();
    std::fill(gt, gt + P * ldg, 0.0f);  // the channels past og stay 0
    for (int64_t b = b0; b < b1; ++b)
      for (int64_t n = b * block; n < std::min(s.batch, (b + 1) * block); ++n)
        for (int64_t grp = 0; grp < s.groups; ++grp) {
          layout.fill(x + (n * s.groups + grp) * s.inPerGroup * inSize, s.inPerGroup, scratch.buf.get());
          layout.rowPointers(scratch.buf.get(), s.inPerGroup, scratch.rows.get());
          const float* gg = g + (n * s.groups + grp) * og * P;
          if (og == ldg) {
            table.transpose[2](gg, gt, og, P);
          } else {
            for (int64_t o = 0; o < og; ++o)
              for (int64_t p = 0; p < P; ++p) gt[p * ldg + o] = gg[o * P + p];
          }
          table.f32.convGradRows(scratch.rows.get(), offsets.data(), rowsOut, win.out[2], gt, ldg,
                                 sums.data() + b * perImage + grp * perGroup, K, ldg);
        }
  });
  failures.throwIfAnyFailed();
  // dw[group][o][k] = the blocks' sums in block order.
  for (int64_t grp = 0; grp < s.groups; ++grp)
    for (int64_t o = 0; o < og; ++o)
      for (int64_t k = 0; k < K; ++k) {
        const int64_t at = grp * perGroup + k * ldg + o;
        float v = sums[static_cast<size_t>(at)];
        for (int64_t b = 1; b < blocks; ++b) v += sums[static_cast<size_t>(b * perImage + at)];
        dw[(grp * og + o) * K + k] = v;
      }
}

}  // namespace pir::vm::detail
