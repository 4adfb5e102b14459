// matmul with NumPy semantics: a 1-D left operand is a row vector, a 1-D right
// operand a column vector (the added dim is dropped from the result); leading
// batch dims broadcast. Each batch is one GEMM.
//
// GEMM backends, for products of at least 32^3 multiply-adds: f32 up to 64^3 of a
// width that is a multiple of 16 through the SIMD table's small GEMM, larger ones
// through oneDNN's sgemm (PIR_USE_DNNL; AVX-512 kernels where the CPU has them), split
// by pir into blocks over its kernel threads; f64 (and f32 without oneDNN) through
// OpenBLAS (PIR_USE_OPENBLAS); Eigen otherwise and for tiny products. See
// vm/CMakeLists.txt, bench/matmul_bench.cpp and docs/decisions.md "GEMM backends".
// i32 uses Eigen's GEMM (i32 in uint32 so that overflow wraps without UB); f16
// converts to f32, multiplies, and rounds each result once.
//
// An operand may be read transposed (its last two axes swapped): the op's
// transpose_a / transpose_b flags (ir/matmul_operands.h; the fold-transposes
// pass sets them for a `transpose` feeding the matmul) become the GEMM's
// transpose flags, so neither the BLAS nor Eigen path copies it.
#include "vm/kernel_util.h"
#include "ir/matmul_operands.h"

#include <atomic>
#include <optional>

#if defined(PIR_USE_OPENBLAS) || defined(PIR_USE_DNNL)
#include <dlfcn.h>

#include <mutex>
#endif
#ifdef PIR_USE_OPENBLAS
#include <cblas.h>
#endif
#ifdef PIR_USE_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif

#include "vm/simd_kernels.h"

namespace pir::vm {

namespace {

// Products below this many multiply-adds are cheaper without a library call.
constexpr int64_t kLibraryMinWork = 32 * 32 * 32;

// Products up to this many multiply-adds, with b read as stored and a width that is a
// multiple of simd::kSmallGemmColumns, run the SIMD table's small GEMM: it reaches the
// core's peak without packing, where a library call's fixed cost is 10-25% of these
// products (one thread, oneDNN's sgemm: attention's 64x64x32 per head 89 GFLOP/s
// against 111, 64x64x64 99 against 115; even at 64x256x128, 97 against 109). Its
// sums are sequential over the depth, as oneDNN's are at these depths, so the two
// gave the same bits on every shape compared. The choice follows the shape alone.
constexpr int64_t kSmallGemmMaxWork = int64_t{1} << 18;
bool takesSmallGemm(int64_t m, int64_t n, int64_t k, bool transB, GemmScale scale) {
  return !transB && scale.plain() && n % simd::kSmallGemmColumns == 0 && m * n * k <= kSmallGemmMaxWork;
}

#if defined(PIR_USE_OPENBLAS) || defined(PIR_USE_DNNL)
// Both libraries are loaded on the first large product, not at start-up: OpenBLAS
// starts a spinning thread pool when it loads, oneDNN is 40 MB of code, and most
// `pir` processes (check, opt, the REPL) never multiply a matrix.
void* openFirst(std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (void* h = dlopen(name, RTLD_NOW | RTLD_LOCAL)) return h;
  return nullptr;
}
#endif

#ifdef PIR_USE_DNNL
struct Dnnl {
  decltype(&dnnl_sgemm) sgemm = nullptr;
  void (*setOmpThreads)(int) = nullptr;  // oneDNN's OpenMP runtime (libgomp)
};
const Dnnl& dnnl() {
  static Dnnl lib;
  static std::once_flag once;
  std::call_once(once, [] {
    if (void* h = openFirst({"libdnnl.so.2", "libdnnl.so"})) {
      lib.sgemm = reinterpret_cast<decltype(&dnnl_sgemm)>(dlsym(h, "dnnl_sgemm"));
      lib.setOmpThreads = reinterpret_cast<void (*)(int)>(dlsym(h, "omp_set_num_threads"));
    }
  });
  return lib;
}

// One call of oneDNN's row-major sgemm on this thread only: pir splits large
// products itself (gemmColumnBlocks), so its thread budget holds and the blocks,
// hence the bits, do not depend on the number of threads.
bool dnnlGemm(const float* a, const float* b, float* c, int64_t m, int64_t n, int64_t k, bool transA, bool transB,
              int64_t lda, int64_t ldb, int64_t ldc, GemmScale scale) {
  const Dnnl& lib = dnnl();
  if (!lib.sgemm) return false;
  thread_local bool singleThreaded = false;  // OpenMP's thread count is per calling thread
  if (!singleThreaded && lib.setOmpThreads) lib.setOmpThreads(1);
  singleThreaded = true;
  return lib.sgemm(transA ? 'T' : 'N', transB ? 'T' : 'N', m, n, k, scale.alpha, a, lda, b, ldb, scale.beta, c, ldc) ==
         dnnl_success;
}
#endif

#ifdef PIR_USE_OPENBLAS
struct OpenBlas {
  decltype(&cblas_sgemm) sgemm = nullptr;
  decltype(&cblas_dgemm) dgemm = nullptr;
};
const OpenBlas& openBlas() {
  static OpenBlas lib;
  static std::once_flag once;
  std::call_once(once, [] {
    if (void* h = openFirst({"libopenblas.so.0", "libopenblas.so"})) {
      lib.sgemm = reinterpret_cast<decltype(&cblas_sgemm)>(dlsym(h, "cblas_sgemm"));
      lib.dgemm = reinterpret_cast<decltype(&cblas_dgemm)>(dlsym(h, "cblas_dgemm"));
      if (!lib.sgemm || !lib.dgemm) lib = {};
    }
  });
  return lib;
}

// OpenBLAS (float and double) with its own threads (setBlasThreads); it splits
// rows and columns, never the inner dimension, so its bits do not depend on them.
template <class T>
bool blasGemm(const T* a, const T* b, T* c, int64_t m, int64_t n, int64_t k, bool transA, bool transB,
              GemmScale scale = {}) {
  const auto ta = transA ? CblasTrans : CblasNoTrans, tb = transB ? CblasTrans : CblasNoTrans;
  const int M = static_cast<int>(m), N = static_cast<int>(n), K = static_cast<int>(k);
  const int lda = transA ? M : K, ldb = transB ? K : N;
  if constexpr (std::is_same_v<T, float>) {
    if (!openBlas().sgemm) return false;
    openBlas().sgemm(CblasRowMajor, ta, tb, M, N, K, scale.alpha, a, lda, b, ldb, scale.beta, c, N);
  } else {
    if (!openBlas().dgemm) return false;
    openBlas().dgemm(CblasRowMajor, ta, tb, M, N, K, scale.alpha, a, lda, b, ldb, scale.beta, c, N);
  }
  return true;
}
#endif

// c[m,n] = op(a) * op(b) with Eigen, op(x) = x or its transpose; a is stored
// [m,k] (or [k,m] when transA), b [k,n] (or [n,k]), all row-major.
template <class T>
void eigenGemm(const T* a, const T* b, T* c, int64_t m, int64_t n, int64_t k, bool transA, bool transB) {
  using M = detail::RowMat<T>;
  Eigen::Map<M> cm(c, m, n);
  if (k == 0) {
    cm.setZero();
    return;
  }
  const Eigen::Map<const M> am(a, transA ? k : m, transA ? m : k), bm(b, transB ? n : k, transB ? k : n);
  if (!transA && !transB) {
    cm.noalias() = am * bm;
    return;
  }
  // Eigen picks its product kernel by layout, so a transposed operand is copied
  // first (these products are small): the bits are those of the unfolded matmul.
  M at, bt;
  if (transA) at = am.transpose();
  if (transB) bt = bm.transpose();
  const Eigen::Map<const M> a2(transA ? at.data() : a, m, k), b2(transB ? bt.data() : b, k, n);
  cm.noalias() = a2 * b2;
}

// Large products run as blocks on the kernel threads (simd::parallelTasks). The
// blocks depend on the shape alone, so any thread count computes the same blocks
// and the same bits (oneDNN's result for an element depends on the shape of the
// call that computes it, so the blocks must not follow the thread count).
//
// The rule, from oneDNN's single-thread time of blocked against whole calls on
// the shapes of the MLP, the transformer and square products (docs/decisions.md
// "GEMM backends"): by rows of the result, blocks of at least 64 rows, when there
// are 128 rows or more; else, when B is stored untransposed, by depth (row blocks of
// B, the partial products added in block order: two blocks from a depth of 256,
// four from 2048); else by columns, blocks of at least 128; at most 4 row or column
// blocks unless each still gets 256 rows (columns) or more; each block at least
// kBlockWork multiply-adds.
//
// Each split gives a core rows of the data it touches, and the same rows at every
// op, so that cache lines stay in one core's cache (moving a line between cores
// costs more than reading it from memory on some machines): row blocks are
// contiguous in the result, as are the chunks of the elementwise ops that follow
// (simd::parallelFor), so a bias or an activation finds its part of the product in
// its own core's cache; a product with few rows (a layer's forward product at a
// small batch) splits the rows of its weight B, as the weight's update does (an
// elementwise op) and as its gradient's product does (by rows, B's shape). Split
// by columns, each core would read half of every row of the weight that the
// update's other core wrote.
enum class GemmSplit { kRows, kColumns, kDepth };
struct GemmBlocks {
  GemmSplit split = GemmSplit::kRows;
  int64_t count = 1, size = 0;  // blocks, and rows (columns, depth) per block
};
constexpr int64_t kMinBlockRows = 64, kMinBlockColumns = 128, kBlockWork = int64_t{1} << 21;
// A depth split runs two blocks from this depth, four from kFourBlocksDepth: each
// block adds a GEMM call and a partial product to sum (one thread, the MLP's
// 64x256x784: 2 blocks 1.01x the whole call, 4 blocks 1.03x).
constexpr int64_t kMinSplitDepth = 256, kFourBlocksDepth = 2048;
// A depth split keeps a partial product per block after the first: it is chosen only
// while they take at most this many elements (else columns), so the scratch stays small.
constexpr int64_t kMaxDepthScratch = int64_t{1} << 20;
// Batched products of at least this many multiply-adds in all are split over the
// kernel threads by batch (runMatMul): about 10 us of work, several hand-offs.
constexpr int64_t kBatchSplitWork = int64_t{1} << 20;
GemmBlocks gemmBlocks(int64_t m, int64_t n, int64_t k, bool transB, bool mayAllocate) {
  GemmBlocks g;
  auto cut = [&](int64_t extent, int64_t least) {
    g.size = std::max(least, std::min<int64_t>(256, (extent + 3) / 4));
    g.count = std::max<int64_t>(1, std::min((extent + g.size - 1) / g.size, m * n * k / kBlockWork));
    g.size = (extent + g.count - 1) / g.count;
    g.count = (extent + g.size - 1) / g.size;
  };
  if (m >= 2 * kMinBlockRows) {
    cut(m, kMinBlockRows);
    return g;
  }
  if (mayAllocate && !transB && k >= kMinSplitDepth && m * n * k >= 2 * kBlockWork) {
    g.split = GemmSplit::kDepth;
    g.count = k >= kFourBlocksDepth && m * n * k >= 4 * kBlockWork ? 4 : 2;
    g.size = (k + g.count - 1) / g.count;
    if ((g.count - 1) * m * n <= kMaxDepthScratch) return g;
  }
  g.split = n >= 2 * kMinBlockColumns ? GemmSplit::kColumns : GemmSplit::kRows;
  cut(g.split == GemmSplit::kColumns ? n : m, g.split == GemmSplit::kColumns ? kMinBlockColumns : kMinBlockRows);
  return g;
}

}  // namespace

const char* gemmBackendName() {
#ifdef PIR_USE_DNNL
  if (dnnl().sgemm) return "onednn";
#endif
#ifdef PIR_USE_OPENBLAS
  if (openBlas().sgemm) return "openblas";
#endif
  return "eigen";
}

namespace {

// c = beta c + alpha t, elementwise over n (t: a product computed on its own): for
// f32 and f64 the loop scaled_add_ runs, split over the kernel threads as scaled_add_
// splits it, so the bits are scaled_add_'s of the product.
template <class T> void scaleAddInto(T* c, const T* t, int64_t n, GemmScale scale) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    const auto add = simd::tableOf<T>().scaledAdd;
    const T alpha = static_cast<T>(scale.alpha), beta = static_cast<T>(scale.beta);
    detail::splitRange(n, [&](int64_t begin, int64_t end) {
      add(c + begin, t + begin, c + begin, beta, alpha, end - begin, simd::kVecVec);
    });
  } else {
    using C = detail::ComputeOf<T>;
    const C alpha = static_cast<C>(scale.alpha), beta = static_cast<C>(scale.beta);
    for (int64_t i = 0; i < n; ++i) c[i] = static_cast<T>(beta * static_cast<C>(c[i]) + alpha * static_cast<C>(t[i]));
  }
}

// eigenGemm into c, or into a scratch product added to c by `scale`.
template <class T>
void eigenGemmScaled(const T* a, const T* b, T* c, int64_t m, int64_t n, int64_t k, bool transA, bool transB,
                     GemmScale scale) {
  if (scale.plain()) return eigenGemm(a, b, c, m, n, k, transA, transB);
  const detail::ScratchCharge charge(static_cast<uint64_t>(m * n), sizeof(T));
  std::unique_ptr<T[]> t(new T[static_cast<size_t>(m * n)]);
  eigenGemm(a, b, t.get(), m, n, k, transA, transB);
  scaleAddInto(c, t.get(), m * n, scale);
}

}  // namespace

void gemmF32(const float* a, const float* b, float* c, int64_t m, int64_t n, int64_t k, bool transA, bool transB,
             GemmScratch scratch) {
  gemmF32Scaled(a, b, c, m, n, k, transA, transB, GemmScale{}, scratch);
}

void gemmF32Scaled(const float* a, const float* b, float* c, int64_t m, int64_t n, int64_t k, bool transA,
                   bool transB, GemmScale scale, GemmScratch scratch) {
  if (m == 0 || n == 0) return;
  if (k == 0 || m * n * k < kLibraryMinWork) return eigenGemmScaled(a, b, c, m, n, k, transA, transB, scale);
  if (takesSmallGemm(m, n, k, transB, scale)) return simd::table().f32.smallGemm(a, transA, b, c, m, n, k);
#ifdef PIR_USE_DNNL
  if (dnnl().sgemm) {
    const GemmBlocks blocks = gemmBlocks(m, n, k, transB, scratch == kGemmMayAllocate);
    const int64_t lda = transA ? m : k, ldb = transB ? k : n;
    // kDepth: block 0 writes c, block j > 0 the partial product j - 1 of `partials`
    // (left uninitialised: each block's GEMM writes all of its part).
    std::unique_ptr<float[]> partials;
    std::optional<detail::ScratchCharge> partialsCharge;
    if (blocks.split == GemmSplit::kDepth && blocks.count > 1) {
      partialsCharge.emplace(static_cast<uint64_t>((blocks.count - 1) * m * n), sizeof(float));
      partials.reset(new float[static_cast<size_t>((blocks.count - 1) * m * n)]);
    }
    std::atomic<bool> ok{true};
    simd::parallelTasks(blocks.count, [&](int64_t j) {
      const int64_t first = j * blocks.size;
      switch (blocks.split) {
        case GemmSplit::kRows: {
          const int64_t rows = std::min(m, first + blocks.size) - first;
          const float* aj = transA ? a + first : a + first * lda;
          if (!dnnlGemm(aj, b, c + first * n, rows, n, k, transA, transB, lda, ldb, n, scale)) ok = false;
          break;
        }
        case GemmSplit::kColumns: {
          const int64_t cols = std::min(n, first + blocks.size) - first;
          const float* bj = transB ? b + first * ldb : b + first;
          if (!dnnlGemm(a, bj, c + first, m, cols, k, transA, transB, lda, ldb, n, scale)) ok = false;
          break;
        }
        case GemmSplit::kDepth: {  // B untransposed: its rows first..
          const int64_t depth = std::min(k, first + blocks.size) - first;
          const float* aj = transA ? a + first * lda : a + first;
          // Block 0 adds into c by `scale`; the partials are alpha times their products.
          float* cj = j == 0 ? c : partials.get() + (j - 1) * m * n;
          const GemmScale sj = j == 0 ? scale : GemmScale{scale.alpha, 0.0f};
          if (!dnnlGemm(aj, b + first * ldb, cj, m, n, depth, transA, false, lda, ldb, n, sj)) ok = false;
          break;
        }
      }
    });
    if (ok && partials) {
      // c = ((c + p1) + p2) + ...: block order at any thread count; rows of c per thread.
      const auto add = simd::table().f32.binary[simd::kAdd][simd::kVecVec];
      detail::splitRange(m * n, [&](int64_t begin, int64_t end) {
        for (int64_t j = 1; j < blocks.count; ++j) {
          const float* p = partials.get() + (j - 1) * m * n;
          add(c + begin, p + begin, c + begin, end - begin);
        }
      });
    }
    if (ok) return;  // else (never seen: bad arguments are checked before) the paths below
  }
#endif
#ifdef PIR_USE_OPENBLAS
  if (blasGemm(a, b, c, m, n, k, transA, transB, scale)) return;
#endif
  eigenGemmScaled(a, b, c, m, n, k, transA, transB, scale);
}

namespace detail {
namespace {

struct MatMulState {
  int64_t m = 0, n = 0, k = 0;
  bool transA = false, transB = false;  // the operand is stored with its last two axes swapped
  int64_t bElements = 0;                 // of the stored b: its matrices lie end to end
  // Per output batch: element offsets of its a and b matrices.
  std::vector<std::pair<int64_t, int64_t>> batches;
};

template <class T> void gemm(const T* a, const T* b, T* c, const MatMulState& s, bool transB) {
  if constexpr (std::is_same_v<T, float>) {
    gemmF32(a, b, c, s.m, s.n, s.k, s.transA, transB);
  } else {
#ifdef PIR_USE_OPENBLAS
    if constexpr (std::is_same_v<T, double>)
      if (s.k > 0 && s.m * s.n * s.k >= kLibraryMinWork && blasGemm(a, b, c, s.m, s.n, s.k, s.transA, transB))
        return;
#endif
    eigenGemm(a, b, c, s.m, s.n, s.k, s.transA, transB);
  }
}

// oneDNN's sgemm reads a B stored transposed 2-20% slower than a plain one, and each
// row block of a split packs it again (the transformer's 512x128x512 backward product
// in 128-row blocks: 1.19x): an f32 product of this many rows or more, with B (and not
// A) transposed, transposes B first, in cache blocks, for 1-3% of its time. The choice
// follows the shape alone, so the bits do not depend on the thread count.
constexpr int64_t kPlainBRows = 256;
// f32 products with fewer rows (attention's backward, 64x64x32 per head) take the
// same detour one matrix at a time, just before its product, into a buffer the
// product's thread owns (a few KB, hot in L1 when the GEMM reads it): B transposed
// ran 1.2-1.3x the time of a plain B there. Matrices of B above this many elements
// keep oneDNN's transposed read.
//
// Every path below follows the shape of one product (m, n, k and the transpose
// flags), never the number of batches: a batched product computes each matrix as the
// same product alone would, so a slice of its batches (vm/sliced_group.h) gives the
// same bits.
constexpr int64_t kMaxPlainBatchElements = int64_t{1} << 16;

// A product of few rows by a large B stored transposed (a linear layer's input gradient
// at a small batch, g [16, 1024] · Wᵀ): oneDNN's sgemm took 2.9x the time of the same
// product with B plain (939 against 323 us for 16x1024x1024), and transposing B first
// would move all of it for few rows. Its transpose Cᵀ = B · Aᵀ reads B plain instead:
// Aᵀ and Cᵀ are the m rows' worth (small), and Cᵀ's product has B's many rows, cut into
// row blocks as any product of that many. The choice follows the shape alone, so the
// bits do not depend on the thread count.
constexpr int64_t kThroughTransposeMinWork = int64_t{1} << 20;
bool productGoesThroughItsTranspose(const MatMulState& s) {
  return s.transB && !s.transA && s.m > 0 && s.m < kPlainBRows && s.n >= kPlainBRows && s.k > 0 &&
         s.m * s.n * s.k >= kThroughTransposeMinWork;
}
// c [m, n] = a [m, k] · (b stored [n, k])ᵀ, as (b · aᵀ)ᵀ; `scratch` holds m k + n m
// floats. The caller charges it.
void productThroughItsTranspose(const float* a, const float* b, float* c, int64_t m, int64_t n, int64_t k,
                                float* scratch) {
  float* aT = scratch;  // uninitialised: the transposes write all
  float* cT = scratch + m * k;
  simd::table().transpose[2](a, aT, m, k);
  gemmF32(b, aT, cT, n, m, k, false, false);
  simd::table().transpose[2](cT, c, n, m);
}

template <class T> void runMatMul(const MatMulState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  const int64_t m = s.m, n = s.n, k = s.k;
  const T* a = ins[0].as<const T>();
  const T* b = ins[1].as<const T>();
  T* c = outs[0].as<T>();
  bool transB = s.transB;
  std::unique_ptr<T[]> plainB;  // uninitialised: the transposes write every element
  std::optional<ScratchCharge> plainBCharge;
  const bool throughTranspose = std::is_same_v<T, float> && productGoesThroughItsTranspose(s);
  if constexpr (std::is_same_v<T, float>) {
    if (s.transB && !s.transA && m >= kPlainBRows && n > 0 && k > 0) {
      // Every matrix of B, each [n, k] -> [k, n] in place of it (the batches' offsets stay).
      plainBCharge.emplace(static_cast<uint64_t>(s.bElements), sizeof(T));
      plainB.reset(new T[static_cast<size_t>(s.bElements)]);
      for (int64_t at = 0; at < s.bElements; at += n * k) simd::table().transpose[2](b + at, plainB.get() + at, n, k);
      b = plainB.get();
      transB = false;
    }
  }
  const int64_t batches = static_cast<int64_t>(s.batches.size()), work = m * n * k;
  const bool split = batches > 1 && work < 2 * kBlockWork && batches * work >= kBatchSplitWork && simd::kernelThreads() > 1;
  bool plainPerBatch = false;
  std::atomic<bool> plainAllocationFailed{false};
  std::optional<ScratchCharge> plainPerBatchCharge;
  if constexpr (std::is_same_v<T, float>) {
    plainPerBatch = !throughTranspose && transB && !s.transA && n > 0 && k > 0 && n * k <= kMaxPlainBatchElements;
    // One buffer per part (a product's own allocation, freed after it).
    const int64_t perPart = throughTranspose ? m * k + n * m : plainPerBatch ? n * k : 0;
    if (perPart > 0)
      plainPerBatchCharge.emplace(static_cast<uint64_t>(perPart * (split ? simd::kernelThreads() : 1)), sizeof(T));
  }
  auto product = [&](size_t i) {
    const auto [ao, bo] = s.batches[i];
    T* ci = c + static_cast<int64_t>(i) * m * n;
    if constexpr (std::is_same_v<T, float>) {
      if (throughTranspose) {
        // A part of a split must not throw: a failed allocation is reported after it.
        std::unique_ptr<float[]> scratch(new (std::nothrow) float[static_cast<size_t>(m * k + n * m)]);
        if (!scratch) {
          plainAllocationFailed.store(true, std::memory_order_relaxed);
          return;
        }
        productThroughItsTranspose(a + ao, b + bo, ci, m, n, k, scratch.get());
        return;
      }
      if (plainPerBatch) {
        // Allocated here rather than before the split: the lines are this thread's.
        // A part of a split must not throw: a failed allocation is reported after it.
        std::unique_ptr<float[]> plain(new (std::nothrow) float[static_cast<size_t>(n * k)]);
        if (!plain) {
          plainAllocationFailed.store(true, std::memory_order_relaxed);
          return;
        }
        simd::table().transpose[2](b + bo, plain.get(), n, k);
        gemmF32(a + ao, plain.get(), ci, m, n, k, false, false);
        return;
      }
    }
    if constexpr (kIsHalf<T>) {
      // Storage order is kept: the f32 copies carry the same transposition.
      using MF = RowMat<float>;
      const MF af = Eigen::Map<const RowMat<T>>(a + ao, s.transA ? k : m, s.transA ? m : k).template cast<float>();
      const MF bf = Eigen::Map<const RowMat<T>>(b + bo, s.transB ? n : k, s.transB ? k : n).template cast<float>();
      MF cf(m, n);
      gemmF32(af.data(), bf.data(), cf.data(), m, n, k, s.transA, transB);
      Eigen::Map<RowMat<T>>(ci, m, n) = cf.template cast<T>();
    } else if constexpr (std::is_same_v<T, int32_t>) {
      // i32 in uint32 so that overflow wraps without UB.
      gemm(reinterpret_cast<const uint32_t*>(a + ao), reinterpret_cast<const uint32_t*>(b + bo),
           reinterpret_cast<uint32_t*>(ci), s, transB);
    } else {
      gemm(a + ao, b + bo, ci, s, transB);
    }
  };
  // Many small products (attention's per-head matmuls) run a contiguous run of
  // batches per kernel thread; a product large enough to be split in blocks
  // splits itself instead. Each product is one call either way: same bits.
  if (split)
    simd::parallelTasks(batches, [&](int64_t i) { product(static_cast<size_t>(i)); });
  else
    for (size_t i = 0; i < s.batches.size(); ++i) product(i);
  if (plainAllocationFailed.load(std::memory_order_relaxed)) throw std::bad_alloc();
}

// ---- matmul_scaled_add_ -------------------------------------------------------

struct MatMulScaledAddState {
  MatMulState product;
  GemmScale scale;
  TensorType productType;  // the product's type (acc's)
};

bool overlaps(const TensorRef& x, const TensorRef& y) {
  const auto xb = reinterpret_cast<uintptr_t>(x.data), yb = reinterpret_cast<uintptr_t>(y.data);
  const size_t xn = static_cast<size_t>(x.type->numElements()) * dtypeSize(x.type->dtype);
  const size_t yn = static_cast<size_t>(y.type->numElements()) * dtypeSize(y.type->dtype);
  return xn > 0 && yn > 0 && xb < yb + yn && yb < xb + xn;
}

// acc = beta acc + alpha (x @ y). An f32 product of one matrix pair with B read as
// stored (matmul's plain-B detours do not apply) and beta nonzero is added into acc
// by the GEMM (gemmF32Scaled): acc is read and written once, and no product tensor
// is made. Any other (a batch, B read transposed, f16 or f64, beta 0, which a GEMM
// takes as "acc not read" where scaled_add_'s arithmetic keeps a NaN of acc, an
// operand overlapping acc) computes the product as matmul does into a scratch tensor
// and then adds it. The choice follows the types, the attributes and the overlap,
// never the thread count.
template <class T>
void runMatMulScaledAdd(const MatMulScaledAddState& s, const TensorRef* ins, TensorRef* outs, KernelContext& ctx) {
  const MatMulState& p = s.product;
  T* acc = outs[0].as<T>();
  if constexpr (std::is_same_v<T, float>) {
    if (p.batches.size() == 1 && !p.transB && s.scale.beta != 0.0f && !overlaps(ins[0], outs[0]) &&
        !overlaps(ins[1], outs[0])) {
      const auto [ao, bo] = p.batches[0];
      gemmF32Scaled(ins[0].as<const float>() + ao, ins[1].as<const float>() + bo, acc, p.m, p.n, p.k, p.transA, false,
                    s.scale);
      return;
    }
  }
  const int64_t n = s.productType.numElements();
  const ScratchCharge charge(static_cast<uint64_t>(n), sizeof(T));
  std::unique_ptr<T[]> product(new T[static_cast<size_t>(n)]);
  TensorRef productRef{product.get(), &s.productType};
  runMatMul<T>(p, ins, &productRef, ctx);
  scaleAddInto(acc, product.get(), n, s.scale);
}

// The type the product sees: `stored` with its last two axes swapped when `trans`.
TensorType logicalType(const TensorType& stored, bool trans) {
  TensorType t = stored;
  if (trans) std::swap(t.shape[t.shape.size() - 2], t.shape[t.shape.size() - 1]);
  return t;
}

// The product of aStored and bStored (read transposed by the flags) as matmul's
// kernel runs it; checks the types against `out`, the result's.
MatMulState planMatMul(const TensorType& aStored, bool transA, const TensorType& bStored, bool transB, InTypes out,
                       const Op* op) {
  if (aStored.dtype != bStored.dtype || aStored.rank() == 0 || bStored.rank() == 0 ||
      (transA && aStored.rank() < 2) || (transB && bStored.rank() < 2))
    throw KernelError("matmul needs two operands of one dtype and rank >= 1");
  const TensorType aType = logicalType(aStored, transA), bType = logicalType(bStored, transB);
  const DType dt = aType.dtype;
  if (!(isFloat(dt) || dt == DType::I32)) {
    if (op) unsupported(*op, aType);
    throw KernelError("matmul: no kernel for " + aType.str());
  }
  Shape as = aType.shape, bs = bType.shape;
  if (as.size() == 1) as.insert(as.begin(), 1);  // [K] → [1, K]
  if (bs.size() == 1) bs.push_back(1);           // [K] → [K, 1]
  MatMulState s;
  s.m = as[as.size() - 2];
  s.k = as.back();
  s.n = bs.back();
  s.transA = transA;
  s.transB = transB;
  s.bElements = bStored.numElements();
  if (bs[bs.size() - 2] != s.k)
    throw KernelError("matmul: inner dimensions differ: " + aType.str() + " and " + bType.str());
  const Shape aBatch(as.begin(), as.end() - 2), bBatch(bs.begin(), bs.end() - 2);
  const size_t rank = std::max(aBatch.size(), bBatch.size());
  Shape batch(rank, 1), aStr(rank, 0), bStr(rank, 0);
  // Align right; a size-1 (or missing) dim broadcasts with stride 0.
  const Shape aFull = contiguousStrides(aBatch), bFull = contiguousStrides(bBatch);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t ai = static_cast<int64_t>(d) - static_cast<int64_t>(rank - aBatch.size());
    const int64_t bi = static_cast<int64_t>(d) - static_cast<int64_t>(rank - bBatch.size());
    const int64_t ad = ai >= 0 ? aBatch[ai] : 1, bd = bi >= 0 ? bBatch[bi] : 1;
    if (ad != bd && ad != 1 && bd != 1)
      throw KernelError("matmul: batch dimensions do not broadcast: " + aType.str() + " and " + bType.str());
    batch[d] = std::max(ad, bd);
    if (ad != 1) aStr[d] = aFull[ai] * s.m * s.k;
    if (bd != 1) bStr[d] = bFull[bi] * s.k * s.n;
  }
  const int64_t nb = numElements(batch);
  if (out.empty() || out[0].dtype != dt || out[0].numElements() != nb * s.m * s.n)
    throw KernelError("matmul: the result type does not match " + aType.str() + " x " + bType.str());
  if (nb > 0 && s.m * s.n > 0) {
    s.batches.reserve(static_cast<size_t>(nb));
    std::vector<int64_t> idx(rank, 0);
    int64_t ao = 0, bo = 0;
    for (int64_t i = 0; i < nb; ++i) {
      s.batches.emplace_back(ao, bo);
      for (size_t d = rank; d-- > 0;) {
        if (++idx[d] < batch[d]) {
          ao += aStr[d];
          bo += bStr[d];
          break;
        }
        idx[d] = 0;
        ao -= aStr[d] * (batch[d] - 1);
        bo -= bStr[d] * (batch[d] - 1);
      }
    }
  }
  return s;
}

PreparedKernel prepareMatMulImpl(const TensorType& aStored, bool transA, const TensorType& bStored, bool transB,
                                 InTypes out, const Op* op) {
  MatMulState s = planMatMul(aStored, transA, bStored, transB, out, op);
  return dispatchDType(aStored.dtype, [&]<class T>() {
    if constexpr (kIsFloat<T> || std::is_same_v<T, int32_t>) return makeKernel<MatMulState, runMatMul<T>>(std::move(s));
    else return PreparedKernel{};
  });
}

}  // namespace

PreparedKernel prepareMatMulScaledAdd(const Op& op, InTypes in, InTypes out) {
  if (in.size() != 3 || out.empty() || in[2].dtype != in[0].dtype || in[2].shape != out[0].shape)
    throw KernelError("matmul_scaled_add_ needs x, y and acc of one dtype, acc of the product's shape");
  if (!isFloat(in[0].dtype)) unsupported(op, in[0]);
  const TensorType productType = out[0];
  MatMulState product =
      planMatMul(in[0], matmulReadsTransposed(op, 0), in[1], matmulReadsTransposed(op, 1), out, &op);
  const attrs::MatMulScaledAddInplace attr{op};
  const GemmScale scale{static_cast<float>(attr.alpha()), static_cast<float>(attr.beta())};
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (kIsFloat<T>) {
      MatMulScaledAddState s{std::move(product), scale, productType};
      return makeKernel<MatMulScaledAddState, runMatMulScaledAdd<T>>(std::move(s));
    } else {
      return PreparedKernel{};
    }
  });
}

PreparedKernel prepareMatMul(const Op& op, InTypes in, InTypes out) {
  if (in.size() != 2) throw KernelError("matmul needs two operands of one dtype and rank >= 1");
  return prepareMatMulImpl(in[0], matmulReadsTransposed(op, 0), in[1], matmulReadsTransposed(op, 1), out, &op);
}

// The batch dims: each matrix of the result is one product of one matrix of each
// operand (runMatMul's paths follow the product's shape, not the batch count). A
// 1-D operand's dropped dim would shift the alignment: none then.
int64_t matMulIndependentDims(const Op&, InTypes in, InTypes out) {
  if (in.size() != 2 || out.empty() || in[0].rank() < 2 || in[1].rank() < 2 || out[0].rank() < 2) return 0;
  return out[0].rank() - 2;
}

}  // namespace detail
PreparedKernel prepareMatMulTransposed(const TensorType& aStored, bool transA, const TensorType& bStored, bool transB,
                                       const TensorType& out) {
  if (out.numElements() == 0) return detail::nothingToWrite();  // as prepareKernel: nothing to write
  return detail::prepareMatMulImpl(aStored, transA, bStored, transB, std::span<const TensorType>(&out, 1), nullptr);
}

}  // namespace pir::vm
