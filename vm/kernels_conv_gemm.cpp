// conv (NCHW input, OIHW weights, 1 to 3 spatial dims, groups, stride, dilation,
// padding [begin..., end...]) and its two gradients. f32 shapes that
// vm/conv_direct.h serves (small weights, output rows that fill their vectors) run
// there, a depthwise weight gradient in vm/conv_depthwise.h; every other shape runs
// here as im2col / col2im around one GEMM per (block of images, group):
//   conv              y[og, P]     = W[og, K] · col[K, P]
//   conv_grad_weight  dW[og, K]    = Σ_images g[og, P] · col[K, P]ᵀ
//   conv_grad_input   dcol[K, P]   = W[og, K]ᵀ · g[og, P], then col2im adds dcol back
// K = channels per group × kernel size, P = output positions. The column matrix holds,
// for each output position, the (channel, kernel offset) input it sees (0 in the
// padding); a block of images sits side by side in it (P columns each), so small
// images still make one GEMM of useful size. Each row is built a run of output columns
// at a time, with the run's in-bounds range computed once: a plain copy at stride 1.
//
// The pools and their gradients are in kernels_pool.cpp.
//
// f16 computes in f32. Every sum runs in an order fixed by the shapes (the image
// blocks here, the GEMM's column blocks in vm/kernels_matmul.cpp), so the bits do not
// depend on the number of threads.
#include <new>

#include "vm/conv_depthwise.h"
#include "vm/conv_direct.h"
#include "vm/conv_window.h"

namespace pir::vm::detail {
namespace {

// Column-matrix elements per block of images (256 KB of f32: the block's column matrix
// and result stay in one core's L2 between im2col and the GEMM, where 4 MB blocks went
// out to memory). A block holds at least one image.
constexpr int64_t kColumnBlockElements = int64_t{1} << 16;
// Column-matrix elements of the whole batch from which it is cut into at least 2
// blocks, and from 4x this into at least 4: blocks run on the kernel threads.
constexpr int64_t kSplitColumnElements = int64_t{1} << 17;

struct ConvGeometry {
  Window win;
  int64_t batch = 0, channels = 0, outChannels = 0, groups = 1;
  bool direct = false;  // f32 through vm/conv_direct.h instead of im2col
  bool depthwise = false;  // f32 conv_grad_weight through vm/conv_depthwise.h
  DirectConvShape directShape() const { return {win, batch, groups, cg(), og()}; }
  int64_t cg() const { return channels / groups; }
  int64_t og() const { return outChannels / groups; }
  int64_t K() const { return cg() * win.kernelSize(); }
  int64_t P() const { return win.outSize(); }
  // Images per GEMM: the batch is cut into blocks of equal size whose column matrices
  // stay near kColumnBlockElements; a large batch makes at least 2 or 4 blocks (for the
  // kernel threads), and 3 or more blocks are rounded up to a multiple of 4, so that 2
  // or 4 threads get equal shares. The blocks depend on the shape alone, so the bits
  // do not depend on the thread count.
  int64_t imagesPerBlock() const {
    const int64_t perImage = std::max<int64_t>(1, K() * P()), n = std::max<int64_t>(1, batch);
    const int64_t columns = perImage <= INT64_MAX / n ? n * perImage : INT64_MAX;
    const int64_t minBlocks = columns >= 4 * kSplitColumnElements ? 4 : columns >= kSplitColumnElements ? 2 : 1;
    int64_t count = std::max(minBlocks, columns / kColumnBlockElements + (columns % kColumnBlockElements != 0));
    if (count >= 3) count = count / 4 * 4 + (count % 4 != 0 ? 4 : 0);
    count = std::min(count, n);
    return (n - 1) / count + 1;
  }
  int64_t blocks() const {
    const int64_t b = imagesPerBlock();
    return batch <= 0 ? 0 : (batch - 1) / b + 1;
  }
};

// The blocks of images [0, count) in contiguous runs, one per kernel thread (at most
// blockParts(count) runs): body(firstBlock, endBlock).
int64_t blockParts(int64_t count) { return std::max<int64_t>(1, std::min<int64_t>(simd::kernelThreads(), count)); }
template <class Body> void forBlockParts(int64_t count, Body&& body) {
  const int64_t parts = blockParts(count);
  if (parts == 1) return body(int64_t{0}, count);
  simd::parallelTasks(parts, [&](int64_t j) { body(j * count / parts, (j + 1) * count / parts); });
}

// One part's scratch for its blocks of images: a [K, block * P] column matrix and an
// [og, block * P] matrix (the result, or the gathered gradient), left uninitialised
// (every use writes before it reads). Each part allocates its own on the thread that
// runs it, from that thread's heap: lines its own core last wrote. One buffer that the
// caller allocated for all parts gave the helpers lines the caller's core had written,
// and each block's writes waited on the other core (the small CNN's second conv ran
// 2.5x slower on 2 threads than with per-thread scratch). ok() is false when the
// allocation failed: a helper thread cannot throw, so the caller reports it after the
// split (throwIfAnyFailed).
template <class C> class BlockScratch {
 public:
  explicit BlockScratch(const ConvGeometry& s)
      : col_(new (std::nothrow) C[static_cast<size_t>(s.K() * s.imagesPerBlock() * s.P())]),
        out_(new (std::nothrow) C[static_cast<size_t>(s.og() * s.imagesPerBlock() * s.P())]) {}
  // Elements for `parts` parts, to charge before the split.
  static uint64_t elements(const ConvGeometry& s, int64_t parts) {
    return static_cast<uint64_t>((s.K() + s.og()) * s.imagesPerBlock() * s.P() * parts);
  }
  bool ok() const { return col_ && out_; }
  C* columns() const { return col_.get(); }
  C* outputs() const { return out_.get(); }

 private:
  std::unique_ptr<C[]> col_, out_;
};

// body(col, out, firstImage, images) for every block of images of the batch, the
// blocks split over the kernel threads, each part with its own scratch.
template <class C, class Body> void forEachImageBlock(const ConvGeometry& s, Body&& body) {
  const int64_t block = s.imagesPerBlock();
  PartFailures failures;
  forBlockParts(s.blocks(), [&](int64_t b0, int64_t b1) {
    const BlockScratch<C> scratch(s);
    if (!scratch.ok()) return failures.fail();
    for (int64_t n0 = b0 * block; n0 < std::min(s.batch, b1 * block); n0 += block)
      body(scratch.columns(), scratch.outputs(), n0, std::min(block, s.batch - n0));
  });
  failures.throwIfAnyFailed();
}

// Calls run(row, src, lo, hi, stride, offset) for every run of the column matrix of one
// image: `row` is the run's first column-matrix element (out[2] of them), `src` the
// input row it reads (nullptr when the run lies in the padding), columns [lo, hi) read
// src[o * stride + offset]. `ld` is the column matrix's row length.
template <class Elem, class In, class F>
void forEachRun(const Window& w, In* x, int64_t cg, Elem* col, int64_t ld, F&& run) {
  const int64_t inSize = w.inSize();
  const int64_t lastStride = w.stride[2];
  for (int64_t c = 0; c < cg; ++c) {
    In* plane = x + c * inSize;
    for (int64_t kd = 0; kd < w.kernel[0]; ++kd)
      for (int64_t kh = 0; kh < w.kernel[1]; ++kh)
        for (int64_t kw = 0; kw < w.kernel[2]; ++kw) {
          Elem* row = col + (((c * w.kernel[0] + kd) * w.kernel[1] + kh) * w.kernel[2] + kw) * ld;
          const int64_t offset = kw * w.dilation[2] - w.padBegin[2];
          int64_t lo, hi;
          inBounds(w.in[2], w.out[2], lastStride, offset, lo, hi);
          for (int64_t od = 0; od < w.out[0]; ++od) {
            const int64_t id = od * w.stride[0] - w.padBegin[0] + kd * w.dilation[0];
            for (int64_t oh = 0; oh < w.out[1]; ++oh) {
              const int64_t ih = oh * w.stride[1] - w.padBegin[1] + kh * w.dilation[1];
              Elem* r = row + (od * w.out[1] + oh) * w.out[2];
              const bool inside = id >= 0 && id < w.in[0] && ih >= 0 && ih < w.in[1];
              run(r, inside ? plane + (id * w.in[1] + ih) * w.in[2] : nullptr, lo, hi, lastStride, offset);
            }
          }
        }
  }
}

// n elements of p set to 0 by a plain loop: the runs zeroed here are a padding's
// width, a few elements, where a call to memset would cost more than the stores.
template <class C> __attribute__((optimize("no-tree-loop-distribute-patterns"))) void zeroFew(C* p, int64_t n) {
  for (int64_t i = 0; i < n; ++i) p[i] = C(0);
}

// True when the windows move one cell at a time along the rows and columns and the
// output rows are as long as the input's (a `same` padding): then the column-matrix
// row of one kernel cell is the input shifted by a constant, a contiguous copy.
bool rowsAreShiftedInput(const Window& w) { return w.stride[1] == 1 && w.stride[2] == 1 && w.in[2] == w.out[2]; }

// One kernel cell's column-matrix row at one output depth, for rowsAreShiftedInput
// windows: output cell p = oh * width + ow reads element `source + p` of the image's
// group (its cg planes), for rows [top, bottom) and columns [lo, hi); every other cell
// lies in the padding. No cell is real when top == bottom.
struct ShiftedRow {
  int64_t source = 0, top = 0, bottom = 0, lo = 0, hi = 0;
  // The cells from the first real one to the last: [first, last).
  int64_t first(int64_t width) const { return top * width + lo; }
  int64_t last(int64_t width) const { return (bottom - 1) * width + hi; }
};

// f(row, shifted) for every kernel cell and output depth of one image's group, `row`
// the column-matrix row's cells for that depth (out[1] * out[2] of them).
template <class Elem, class F> void forEachShiftedRow(const Window& w, int64_t cg, Elem* col, int64_t ld, F&& f) {
  const int64_t width = w.out[2], height = w.out[1], inSize = w.inSize();
  for (int64_t c = 0; c < cg; ++c)
    for (int64_t kd = 0; kd < w.kernel[0]; ++kd)
      for (int64_t kh = 0; kh < w.kernel[1]; ++kh)
        for (int64_t kw = 0; kw < w.kernel[2]; ++kw) {
          Elem* row = col + (((c * w.kernel[0] + kd) * w.kernel[1] + kh) * w.kernel[2] + kw) * ld;
          const int64_t offset = kw * w.dilation[2] - w.padBegin[2];
          const int64_t shift = kh * w.dilation[1] - w.padBegin[1];  // input row = output row + shift
          ShiftedRow s;
          inBounds(w.in[2], width, 1, offset, s.lo, s.hi);
          const int64_t top = std::clamp<int64_t>(-shift, 0, height);
          const int64_t bottom = std::clamp<int64_t>(w.in[1] - shift, top, height);
          for (int64_t od = 0; od < w.out[0]; ++od) {
            const int64_t id = od * w.stride[0] - w.padBegin[0] + kd * w.dilation[0];
            const bool real = id >= 0 && id < w.in[0] && s.lo < s.hi;
            s.top = real ? top : 0;
            s.bottom = real ? bottom : 0;
            s.source = c * inSize + (id * w.in[1] + shift) * width + offset;
            f(row + od * height * width, s);
          }
        }
}

// Between two real rows, the cells [hi, width) of one and [0, lo) of the next are one
// run (one cell for a padding of 1): set to 0 by a plain loop, where a call to memset
// would cost more than the stores.
template <class C>
__attribute__((optimize("no-tree-loop-distribute-patterns"))) void zeroBetweenRows(C* r, int64_t width,
                                                                                    const ShiftedRow& s) {
  for (int64_t oh = s.top; oh + 1 < s.bottom; ++oh)
    for (int64_t p = oh * width + s.hi; p < (oh + 1) * width + s.lo; ++p) r[p] = C(0);
}

// im2col for rowsAreShiftedInput windows: per kernel cell and output depth, one copy of
// the input cells from the first real one to the last, then zeros over the cells in the
// padding (the rows above and below, and between rows the cells the copy brought in
// from the neighbouring rows' ends). Same values as the run-by-run im2col below.
template <class T, class C> void im2colShifted(const Window& w, const T* x, int64_t cg, C* col, int64_t ld) {
  const int64_t width = w.out[2], planeOut = w.out[1] * width;
  forEachShiftedRow(w, cg, col, ld, [&](C* r, const ShiftedRow& s) {
    if (s.top == s.bottom) return std::fill(r, r + planeOut, C(0));
    const int64_t first = s.first(width), last = s.last(width);
    const T* src = x + (s.source + first);
    std::fill(r, r + first, C(0));
    if constexpr (std::is_same_v<T, C>) std::memcpy(r + first, src, static_cast<size_t>(last - first) * sizeof(C));
    else
      for (int64_t p = 0; p < last - first; ++p) r[first + p] = static_cast<C>(src[p]);
    std::fill(r + last, r + planeOut, C(0));
    zeroBetweenRows(r, width, s);
  });
}

// col[K, P] (row length ld) = the windows of one image's group (cg planes at x).
template <class T, class C> void im2col(const Window& w, const T* x, int64_t cg, C* col, int64_t ld) {
  if (rowsAreShiftedInput(w)) return im2colShifted(w, x, cg, col, ld);
  const int64_t width = w.out[2];
  forEachRun(w, x, cg, col, ld, [width](C* r, const T* src, int64_t lo, int64_t hi, int64_t stride, int64_t offset) {
    if (!src) {
      std::fill(r, r + width, C(0));
      return;
    }
    zeroFew(r, lo);
    if (stride == 1) {
      const T* s = src + offset;
      for (int64_t o = lo; o < hi; ++o) r[o] = static_cast<C>(s[o]);
    } else {
      for (int64_t o = lo; o < hi; ++o) r[o] = static_cast<C>(src[o * stride + offset]);
    }
    zeroFew(r + hi, width - hi);
  });
}

// col2im for rowsAreShiftedInput windows: per kernel cell and output depth, one
// contiguous add of the column-matrix row onto the input cells it read, after setting
// to +0 its cells between two real rows (they would land on the neighbouring rows'
// cells). Adding +0 changes no sum: a cell of dx starts at +0 and is never -0, so the
// bits are those of the run-by-run col2im below.
template <class C> void col2imShifted(const Window& w, C* dcol, int64_t cg, C* dx, int64_t ld) {
  const int64_t width = w.out[2];
  forEachShiftedRow(w, cg, dcol, ld, [&](C* r, const ShiftedRow& s) {
    if (s.top == s.bottom) return;
    zeroBetweenRows(r, width, s);
    const int64_t first = s.first(width), last = s.last(width);
    C* __restrict d = dx + (s.source + first);
    const C* __restrict src = r + first;
    for (int64_t p = 0; p < last - first; ++p) d[p] += src[p];
  });
}

// dx (cg planes) += the columns of dcol[K, P] (row length ld) at the cells they read;
// each cell of dx takes the kernel cells' columns in kernel-cell order. dcol is
// scratch: the shifted path overwrites its padding cells.
template <class C> void col2im(const Window& w, C* dcol, int64_t cg, C* dx, int64_t ld) {
  if (rowsAreShiftedInput(w)) return col2imShifted(w, dcol, cg, dx, ld);
  forEachRun(w, dx, cg, static_cast<const C*>(dcol), ld,
             [](const C* r, C* dst, int64_t lo, int64_t hi, int64_t stride, int64_t offset) {
               if (!dst) return;
               if (stride == 1) {
                 C* __restrict d = dst + offset;
                 const C* __restrict s = r;
                 for (int64_t o = lo; o < hi; ++o) d[o] += s[o];
               } else {
                 for (int64_t o = lo; o < hi; ++o) dst[o * stride + offset] += r[o];
               }
             });
}

// c[m, n] = op(a) · op(b), row-major; f32 through the matmul kernel's GEMM.
template <class C>
void gemm(const C* a, const C* b, C* c, int64_t m, int64_t n, int64_t k, bool transA = false, bool transB = false) {
  if constexpr (std::is_same_v<C, float>) {
    gemmF32(a, b, c, m, n, k, transA, transB, kGemmNoScratch);  // runs inside a split's part
  } else {
    Eigen::Map<RowMat<C>> cm(c, m, n);
    if (k == 0) {
      cm.setZero();
      return;
    }
    const Eigen::Map<const RowMat<C>> am(a, transA ? k : m, transA ? m : k), bm(b, transB ? n : k, transB ? k : n);
    if (transA && transB) cm.noalias() = am.transpose() * bm.transpose();
    else if (transA) cm.noalias() = am.transpose() * bm;
    else if (transB) cm.noalias() = am * bm.transpose();
    else cm.noalias() = am * bm;
  }
}


// A tensor in the compute type: the data itself, or a converted copy (f16).
template <class T, class C> const C* asCompute(const T* p, int64_t n, std::vector<C>& copy) {
  if constexpr (std::is_same_v<T, C>) {
    return p;
  } else {
    copy.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) copy[static_cast<size_t>(i)] = static_cast<C>(p[i]);
    return copy.data();
  }
}

// The gradient g[N, O, P] of images [n0, n0 + nb), group grp, side by side: [og, nb * P].
template <class T, class C>
void gatherGradient(const ConvGeometry& s, const T* g, int64_t n0, int64_t nb, int64_t grp, C* out) {
  const int64_t og = s.og(), P = s.P();
  for (int64_t o = 0; o < og; ++o)
    for (int64_t n = 0; n < nb; ++n) {
      const T* src = g + ((n0 + n) * s.outChannels + grp * og + o) * P;
      C* dst = out + o * nb * P + n * P;
      for (int64_t p = 0; p < P; ++p) dst[p] = static_cast<C>(src[p]);
    }
}

template <class T> void runConv(const ConvGeometry& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = ComputeOf<T>;
  const int64_t cg = s.cg(), og = s.og(), K = s.K(), P = s.P(), inSize = s.win.inSize();
  T* y = outs[0].as<T>();
  if (s.batch == 0 || og == 0 || P == 0) return;
  if (K == 0) return std::fill(y, y + s.batch * s.outChannels * P, T(0));
  if constexpr (std::is_same_v<T, float>)
    if (s.direct) return directConv(s.directShape(), ins[0].as<const T>(), ins[1].as<const T>(), y);
  const int64_t parts = blockParts(s.blocks());
  const ScratchCharge charge(
      BlockScratch<C>::elements(s, parts) + (std::is_same_v<T, C> ? 0 : static_cast<uint64_t>(s.outChannels * K)),
      sizeof(C));
  std::vector<C> wCopy;
  const C* weights = asCompute<T, C>(ins[1].as<const T>(), s.outChannels * K, wCopy);
  const T* x = ins[0].as<const T>();
  forEachImageBlock<C>(s, [&](C* col, C* result, int64_t n0, int64_t nb) {
    const int64_t ld = nb * P;
    for (int64_t grp = 0; grp < s.groups; ++grp) {
      for (int64_t n = 0; n < nb; ++n)
        im2col(s.win, x + ((n0 + n) * s.channels + grp * cg) * inSize, cg, col + n * P, ld);
      gemm<C>(weights + grp * og * K, col, result, og, ld, K);
      for (int64_t o = 0; o < og; ++o)
        for (int64_t n = 0; n < nb; ++n) {
          const C* src = result + o * ld + n * P;
          T* dst = y + ((n0 + n) * s.outChannels + grp * og + o) * P;
          for (int64_t p = 0; p < P; ++p) dst[p] = static_cast<T>(src[p]);
        }
    }
  });
}

// ins: x, g; outs: dW [O, cg, kernel...]. Each block of images makes its own
// partial dW, up to one block per kernel thread at a time; the partials are added
// in block order, the first one as is, as one thread would add them.
template <class T> void runConvGradWeight(const ConvGeometry& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = ComputeOf<T>;
  const int64_t cg = s.cg(), og = s.og(), K = s.K(), P = s.P(), inSize = s.win.inSize();
  T* dw = outs[0].as<T>();
  const int64_t total = s.outChannels * K;
  if (total == 0) return;
  if (s.batch == 0 || P == 0) return std::fill(dw, dw + total, T(0));
  if constexpr (std::is_same_v<T, float>) {
    if (s.depthwise) return depthwiseConvGradWeight(s.directShape(), ins[0].as<const T>(), ins[1].as<const T>(), dw);
    if (s.direct) return directConvGradWeight(s.directShape(), ins[0].as<const T>(), ins[1].as<const T>(), dw);
  }
  const int64_t block = s.imagesPerBlock(), count = s.blocks(), parts = blockParts(count);
  const ScratchCharge charge(static_cast<uint64_t>(total * (1 + parts)) + BlockScratch<C>::elements(s, parts), sizeof(C));
  std::vector<C> acc(static_cast<size_t>(total)), partials(static_cast<size_t>(total * parts));
  const T* x = ins[0].as<const T>();
  const T* g = ins[1].as<const T>();
  for (int64_t first = 0; first < count; first += parts) {  // a wave: blocks [first, first + wave)
    const int64_t wave = std::min(parts, count - first);
    PartFailures failures;
    forBlockParts(wave, [&](int64_t b0, int64_t b1) {
      const BlockScratch<C> scratch(s);
      if (!scratch.ok()) return failures.fail();
      C* col = scratch.columns();
      C* grad = scratch.outputs();
      for (int64_t b = b0; b < b1; ++b) {
        const int64_t n0 = (first + b) * block, nb = std::min(block, s.batch - n0), ld = nb * P;
        for (int64_t grp = 0; grp < s.groups; ++grp) {
          for (int64_t n = 0; n < nb; ++n)
            im2col(s.win, x + ((n0 + n) * s.channels + grp * cg) * inSize, cg, col + n * P, ld);
          gatherGradient(s, g, n0, nb, grp, grad);
          // The group's dW transposed, [K, og] = col · gradᵀ: oneDNN runs the product
          // with the long side as rows about 1.6x faster than [og, K] = grad · colᵀ.
          gemm<C>(col, grad, partials.data() + b * total + grp * og * K, K, og, ld, false, true);
        }
      }
    });
    failures.throwIfAnyFailed();
    for (int64_t b = 0; b < wave; ++b)  // acc[grp][o][k] (+)= the partial's [grp][k][o]
      for (int64_t grp = 0; grp < s.groups; ++grp) {
        const C* p = partials.data() + b * total + grp * og * K;
        C* a = acc.data() + grp * og * K;
        for (int64_t o = 0; o < og; ++o)
          for (int64_t k = 0; k < K; ++k) {
            if (first + b == 0) a[o * K + k] = p[k * og + o];
            else a[o * K + k] += p[k * og + o];
          }
      }
  }
  for (int64_t i = 0; i < total; ++i) dw[i] = static_cast<T>(acc[static_cast<size_t>(i)]);
}

// ins: g, w; outs: dx [N, C, in...]. Blocks of images write their own images of dx.
template <class T> void runConvGradInput(const ConvGeometry& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = ComputeOf<T>;
  const int64_t cg = s.cg(), og = s.og(), K = s.K(), P = s.P(), inSize = s.win.inSize();
  T* dx = outs[0].as<T>();
  const int64_t total = s.batch * s.channels * inSize;
  if (total == 0) return;
  if constexpr (std::is_same_v<T, float>)
    if (s.direct) return directConvGradInput(s.directShape(), ins[0].as<const T>(), ins[1].as<const T>(), dx);
  const int64_t parts = blockParts(s.blocks());
  const ScratchCharge charge(
      BlockScratch<C>::elements(s, parts) +
          (std::is_same_v<T, C> ? 0 : static_cast<uint64_t>(total + s.outChannels * K)),
      sizeof(C));
  // dx itself, or an f32 copy written back at the end (f16); each block of images
  // zeroes its own images first.
  std::vector<C> accCopy;
  C* acc;
  if constexpr (std::is_same_v<T, C>) {
    acc = dx;
  } else {
    accCopy.resize(static_cast<size_t>(total));
    acc = accCopy.data();
  }
  if (P == 0 || og == 0 || K == 0) {
    std::fill(acc, acc + total, C(0));
  } else {
    std::vector<C> wCopy;
    const C* weights = asCompute<T, C>(ins[1].as<const T>(), s.outChannels * K, wCopy);
    const T* g = ins[0].as<const T>();
    forEachImageBlock<C>(s, [&](C* dcol, C* grad, int64_t n0, int64_t nb) {
      const int64_t ld = nb * P;
      std::fill(acc + n0 * s.channels * inSize, acc + (n0 + nb) * s.channels * inSize, C(0));
      for (int64_t grp = 0; grp < s.groups; ++grp) {
        gatherGradient(s, g, n0, nb, grp, grad);
        gemm<C>(weights + grp * og * K, grad, dcol, K, ld, og, true, false);
        for (int64_t n = 0; n < nb; ++n)
          col2im(s.win, dcol + n * P, cg, acc + ((n0 + n) * s.channels + grp * cg) * inSize, ld);
      }
    });
  }
  if constexpr (!std::is_same_v<T, C>)
    for (int64_t i = 0; i < total; ++i) dx[i] = static_cast<T>(acc[i]);
}

// The geometry of conv (or a conv gradient) over input type x and weights shape ws.
ConvGeometry convGeometry(const Op& op, const TensorType& x, const Shape& ws) {
  if (x.rank() < 3 || x.rank() > 5 || ws.size() != x.shape.size())
    throw KernelError("conv needs N,C + 1..3 spatial dims input and weights of the same rank");
  ConvGeometry s;
  s.batch = x.shape[0];
  s.channels = x.shape[1];
  s.outChannels = ws[0];
  s.groups = WindowAttrs{op}.groups().value_or(1);
  if (s.groups < 1 || s.channels % s.groups || s.outChannels % s.groups || ws[1] * s.groups != s.channels)
    throw KernelError("conv: groups must divide the channels and match the weights");
  const std::vector<int64_t> kernel(ws.begin() + 2, ws.end());
  s.win = planWindow(op, x, &kernel);
  return s;
}


template <template <class> class Run, class State> PreparedKernel floatKernel(const Op& op, DType dtype, const State& s) {
  if (!isFloat(dtype)) unsupported(op, TensorType{dtype, {}});
  return dispatchDType(dtype, [&]<class T>() {
    if constexpr (kIsFloat<T>) return makeKernel<State, Run<T>::run>(s);
    else return PreparedKernel{};
  });
}
template <class T> struct ConvRun { static constexpr auto run = runConv<T>; };
template <class T> struct ConvGradInputRun { static constexpr auto run = runConvGradInput<T>; };
template <class T> struct ConvGradWeightRun { static constexpr auto run = runConvGradWeight<T>; };

}  // namespace

PreparedKernel prepareConv(const Op& op, InTypes in, InTypes) {
  if (in.size() != 2 || in[0].dtype != in[1].dtype) throw KernelError("conv needs input and weights of one dtype");
  ConvGeometry s = convGeometry(op, in[0], in[1].shape);
  s.direct = in[0].dtype == DType::F32 && directConvServes(s.directShape());
  return floatKernel<ConvRun>(op, in[0].dtype, s);
}

PreparedKernel prepareConvGradInput(const Op& op, InTypes in, InTypes out) {  // g, w -> dx
  if (in.size() != 2 || out.size() != 1 || in[0].dtype != in[1].dtype)
    throw KernelError("conv_grad_input needs a gradient and weights of one dtype");
  ConvGeometry s = convGeometry(op, out[0], in[1].shape);
  requireOutputShape(in[0], s.batch, s.outChannels, s.win);
  s.direct = in[0].dtype == DType::F32 && directConvGradInputServes(s.directShape());
  return floatKernel<ConvGradInputRun>(op, in[0].dtype, s);
}

PreparedKernel prepareConvGradWeight(const Op& op, InTypes in, InTypes out) {  // x, g -> dW
  if (in.size() != 2 || out.size() != 1 || in[0].dtype != in[1].dtype)
    throw KernelError("conv_grad_weight needs an input and a gradient of one dtype");
  ConvGeometry s = convGeometry(op, in[0], out[0].shape);
  requireOutputShape(in[1], s.batch, s.outChannels, s.win);
  s.depthwise = in[0].dtype == DType::F32 && depthwiseConvGradWeightServes(s.directShape());
  s.direct = in[0].dtype == DType::F32 && directConvGradWeightServes(s.directShape());
  return floatKernel<ConvGradWeightRun>(op, in[0].dtype, s);
}

}  // namespace pir::vm::detail
