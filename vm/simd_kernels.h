// Vectorised inner loops of the elementwise, reduction and transpose kernels,
// compiled once per instruction set (vm/simd_isa_*.cpp include vm/simd_impl.h
// with different -m flags) and selected once at start-up from the CPU's
// features (__builtin_cpu_supports): the binary runs on any x86-64 and uses
// AVX2+FMA or AVX-512 where present. Not part of the VM's interface.
//
// Numerics (ops.md: a result never depends on where it sits in a tensor):
// every loop computes each element with one vector function; the last partial
// vector is padded and goes through the same function, so the tail equals the
// body bit for bit. exp/log/tanh/sigmoid are this file's own range-reduced
// polynomials (about 1 ulp, subnormals, ±0, ±inf and NaN handled), f32 sin, cos,
// erf and gelu_erf polynomials in double (about 0.5 ulp), f32 log2 as the f64 log
// times 1/ln 2 (about 0.5 ulp; f64 log2 is the C library's); floor, ceil and round
// exact; sqrt and
// division are IEEE (correctly rounded). The transcendental functions use FMA
// where the CPU has it, so their last bit may differ between CPU generations
// (as NumPy's do); the IEEE ops and the summation orders do not.
#pragma once
#include <cstdint>
#include <type_traits>
#include <functional>

namespace pir::vm::simd {

enum UnaryKind : int {
  kExp, kLog, kTanh, kSigmoid, kSqrt, kRsqrt, kReciprocal, kAbs, kNeg, kSquare, kRelu, kSwish, kGelu, kSin, kCos,
  kErf, kGeluErf, kSoftplus, kFloor, kCeil, kRound, kLog2,
  kUnaryCount
};
// kGeluGrad: g * gelu'(x) for (x, g), the tanh form's derivative with the operations
// (and roundings) of autodiff's former chain of ops, through the table's tanh.
enum BinaryKind : int { kAdd, kSub, kMul, kDiv, kMax, kMin, kGeluGrad, kBinaryCount };
enum CompareKind : int { kEq, kNe, kGt, kGe, kLt, kLe, kCompareCount };
// Which operands are one repeated element (a scalar broadcast along the run).
enum BinaryMode : int { kVecVec, kVecScalar, kScalarVec, kModeCount };
// The Reduce ops that reduceRow and reduceRows compute (sum has its own entries).
enum ReduceKind : int { kReduceProd, kReduceSumSquare, kReduceAbsSum, kReduceMax, kReduceMin, kReduceCount };

// smallGemm's n is a multiple of this (the widest ISA's f32 lanes), so no ISA has a
// column tail.
constexpr int64_t kSmallGemmColumns = 16;

template <class S> using UnaryFn = void (*)(const S* x, S* y, int64_t n);
template <class S> using BinaryFn = void (*)(const S* a, const S* b, S* y, int64_t n);

template <class S> struct TypedTable {
  UnaryFn<S> unary[kUnaryCount];
  BinaryFn<S> binary[kBinaryCount][kModeCount];
  // y = a*x + b*z (two roundings and an add, never fused: bit-equal to the
  // separate ops); `mode` as BinaryMode for (x, z).
  void (*scaledAdd)(const S* x, const S* z, S* y, S a, S b, int64_t n, int mode);
  // y[i] = a[i] OP b[i] as bool (0/1 bytes); IEEE comparisons (NaN: only != holds).
  void (*compare[kCompareCount][kModeCount])(const S* a, const S* b, bool* y, int64_t n);
  // The sum of x[0..n) in the documented order: 16 interleaved partial sums
  // (element i goes to partial i % 16) over the first n - n % 16 elements,
  // combined pairwise (p[j] += p[j+8], then +4, +2, +1), then the remaining
  // elements added in order. Partials start at -0 (the additive identity).
  S (*sum)(const S* x, int64_t n);
  // One row's normalisation (vm/norm_row.h) in one call: mean = sum(x) / n, xhat =
  // x - mean, rstd = 1 / sqrt(sum(xhat * xhat) / n + epsilon), xhat *= rstd; every
  // element rounded as `binary`'s loops round it, both sums in `sum`'s order, so the
  // bits are those of the same steps through the loops. Returns rstd. n >= 1.
  S (*normaliseRow)(const S* x, int64_t n, S epsilon, S* xhat);
  // One row of layer_norm with its parameters along the row: y = xhat * gamma + beta,
  // xhat as normaliseRow computes it, each product and sum rounded as `binary`'s loops
  // round it. y may be x. n >= 1.
  void (*layerNormRow)(const S* x, const S* gamma, const S* beta, int64_t n, S epsilon, S* y);
  // One row of layer_norm_grad in one call: xhat and rstd as normaliseRow computes
  // them (xhat into `xhat`), dgamma[i] += g * xhat, dbeta[i] += g, then dxhat = g *
  // gamma, m1 = sum(dxhat) / n, m2 = sum(dxhat * xhat) / n, dx = ((dxhat - m1) - xhat
  // * m2) * rstd; rounded as `binary`'s loops and `sum` would. dx may be x or g (each
  // element is read before it is written); `xhat`, dgamma and dbeta overlap nothing
  // else. n >= 1.
  void (*layerNormGradRow)(const S* x, const S* g, const S* gamma, int64_t n, S epsilon, S* xhat, S* dgamma,
                           S* dbeta, S* dx);
  // softmax's middle passes over one row in one call: shifted[i] = x[i] - shift
  // (when `shifted` is not null), e[i] = exp(x[i] - shift), each element as the
  // kSub and kExp loops compute it; returns the sum of e in `sum`'s order. n >= 1.
  S (*shiftExpSum)(const S* x, S shift, S* shifted, S* e, int64_t n);
  // One row of softmax_grad along a contiguous axis in one call: gy = g * y, s =
  // sum(gy) in `sum`'s order, dx = gy - y * s; each element rounded as `binary`'s loops
  // round it. dx may be g, not y. n >= 1.
  void (*softmaxGradRow)(const S* y, const S* g, int64_t n, S* dx);
  // c [m, n] = op(a) b for small products (no packing, no blocking of the depth): each
  // element is the sequential sum c = +0, then c = a[i][p] b[p][j] + c for p = 0, 1, ..,
  // each step one FMA where the ISA has it (a product and an add otherwise), so an
  // element's bits do not depend on m, n or its place. a is stored [m, k] ([k, m] when
  // transA), b [k, n], c [m, n]: row-major, dense. n a multiple of kSmallGemmColumns.
  // f32 only (null in the f64 table).
  void (*smallGemm)(const S* a, bool transA, const S* b, S* c, int64_t m, int64_t n, int64_t k);
  // Output rows of a direct convolution, a product whose depth rows are gathered:
  // for output row q < nrows, c[i][q*n + j] (channel i's plane at c + i*ldc) for j < n
  // is the sum over p < k of a[i*k + p] * rows[p][offset + q*step + j], each element
  // smallGemm's sequential chain (c = +0, then one fmadd per p in order). Reads each
  // row up to the columns rounded up to kSmallGemmColumns (the caller's buffer holds
  // them); writes n elements per output row and channel. f32 only (null in the f64
  // table).
  void (*convRows)(const S* a, const S* const* rows, int64_t offset, int64_t step, int64_t nrows, S* c, int64_t ldc,
                   int64_t m, int64_t n, int64_t k);
  // convRows' weight gradient over nrows output rows of n columns: acc[p*ldg + i] +=
  // rows[p][offsets[r] + j] * gt[(r*n + j)*ldg + i] for depth row p < k and channel
  // i < m (m a multiple of 16), one fmadd per term, positions (r, then j) in order:
  // each element one chain whose order depends on the shapes alone. gt is the
  // gradient with the channels innermost; a depth row's columns from n on are not
  // read. f32 only (null in the f64 table).
  void (*convGradRows)(const S* const* rows, const int64_t* offsets, int64_t nrows, int64_t n, const S* gt,
                       int64_t ldg, S* acc, int64_t k, int64_t m);
  // The weight gradient of one channel from one (a depthwise conv), vectorised along
  // the output rows: acc[p*16 + l] += rows[p][offsets[r] + j] * g[r*n + j] for depth
  // row p < k over the columns j < n with j % 16 == l, one fmadd per term, output rows
  // r < nrows in order and within a row the columns in order: each of a depth row's 16
  // lanes one chain whose order depends on the shapes alone (the caller adds the lanes
  // up). g's rows are dense ([nrows][n]); nothing past g's last element is read. A
  // depth row's columns and g's row up to n rounded up to 16 may be read, those from
  // n on never reach a sum. f32 only (null in the f64 table).
  void (*convGradLanes)(const S* const* rows, const int64_t* offsets, int64_t nrows, int64_t n, const S* g, S* acc,
                        int64_t k);
  // y[c] = x[0][c] + x[1][c] + ... + x[rows-1][c] in row order (row r at
  // x + r*ld), for a reduction over a leading/strided axis. rows >= 1. Each column
  // is summed alone, so a range of columns gives the bits of the whole call.
  void (*sumRows)(const S* x, int64_t rows, int64_t cols, int64_t ld, S* y);
  // A reduction of one contiguous row x[0..n), n >= 1. kReduceSumSquare and
  // kReduceAbsSum add x*x and |x| in `sum`'s order; kReduceProd multiplies in the same
  // order (16 interleaved partial products from 1, combined pairwise, then the tail in
  // order). kReduceMax and kReduceMin give the serial fold's result m = x[0], m =
  // op(m, x[i]) with op(a, b) = (a is NaN or a beats b) ? a : b: the first NaN if any,
  // and among equal extremes (+0 and -0) the last.
  S (*reduceRow[kReduceCount])(const S* x, int64_t n);
  // y[c] = the same reduction of column c over rows in row order (row r at x + r*ld):
  // y = x[0] (x[0]*x[0], |x[0]|), then y = op(y, x[r]) for r = 1.., with op as above
  // or y * x, y + x*x, y + |x|.
  // Each column alone, so a range of columns gives the bits of the whole call. rows >= 1.
  void (*reduceRows[kReduceCount])(const S* x, int64_t rows, int64_t cols, int64_t ld, S* y);
  // y[c] = the row index of column c's minimum ([0]) or maximum ([1]) over rows (row r at x
  // + r*ld), visiting rows from the first (or, with lastIndex, from the last): the
  // first visited that no later one beats, a NaN beating everything (the first NaN
  // visited). rows >= 1.
  void (*argRows[2])(const S* x, int64_t rows, int64_t cols, int64_t ld, bool lastIndex, int32_t* y);
  // The same winner's index within one contiguous row x[0..n), n >= 1.
  int64_t (*argRow[2])(const S* x, int64_t n, bool lastIndex);
  // max_pool of 2x2 windows at stride 2 without padding over `planes` planes of
  // inH x inW (each window inside the plane: 2*outH <= inH, 2*outW <= inW). A window's
  // cells are taken in row-major order: a NaN cell replaces a non-NaN maximum, a
  // greater value replaces it (kernels_conv.cpp's rule, the same bits).
  void (*maxPool2x2)(const S* x, S* y, int64_t planes, int64_t inH, int64_t inW, int64_t outH, int64_t outW);
  // Its gradient: every cell of dx is written. Each window's g goes to the first of its
  // cells that holds the maximum (as 0 + g), nowhere when a cell is NaN; every other
  // cell, and the cells no window covers, get +0.
  void (*maxPool2x2Grad)(const S* x, const S* g, S* dx, int64_t planes, int64_t inH, int64_t inW, int64_t outH,
                         int64_t outW);
  // The pools' steps over one output row (vm/kernels_pool.cpp): one window cell for
  // the row's columns o in [lo, hi), column o's cell at src[o * stride] (stride >= 1).
  // A whole output row of `width` columns from `count` cells (cells[c], lo[c], hi[c]),
  // applied in order c = 0, 1, .. to out[o] = -inf (max: a NaN cell replaces a
  // non-NaN maximum, a greater value replaces it, poolMax) or +0 (average: out[o] +=
  // the cell), each column folded in registers.
  void (*poolRow)(const S* const* cells, const int64_t* lo, const int64_t* hi, int64_t count, int64_t stride,
                  int64_t width, bool isMax, S* out);
  // max_pool_grad: a greater cell takes column o (best[o] = the cell, at[o] = base + o *
  // stride, the cell's index in its plane, below 2^31); a NaN cell sets nan[o] to 1.
  void (*poolArgMaxCell)(const S* src, int32_t base, int64_t lo, int64_t hi, int64_t stride, S* best, int32_t* at,
                         int32_t* nan);
  // average_pool_grad: dst[o * stride] += share[o].
  void (*poolShareCell)(const S* share, S* dst, int64_t lo, int64_t hi, int64_t stride);
};

struct Table {
  const char* isa;  // "avx512", "avx2" or "sse2"
  TypedTable<float> f32;
  TypedTable<double> f64;
  // y[i] = c[i] ? x[i] : z[i] on elements of 1, 2, 4 or 8 bytes; `repeated`
  // bit 0/1/2: c/x/z is one repeated element.
  void (*where[4])(const bool* c, const void* x, const void* z, void* y, int64_t n, int repeated);
  // dst[c*rows + r] = src[r*cols + c], cache-blocked, elements of 1, 2, 4, 8 bytes.
  void (*transpose[4])(const void* src, void* dst, int64_t rows, int64_t cols);
  // Philox4x32-10 of `blocks` counters {low32(j), high32(j), c2, c3}, j = firstBlock,
  // firstBlock + 1, ..., key {k0, k1}: words[4 i + w] = word w of block firstBlock + i.
  void (*philoxBlocks)(uint64_t firstBlock, int64_t blocks, uint32_t c2, uint32_t c3, uint32_t k0, uint32_t k1,
                       uint32_t* words);
  // Box-Muller on Philox words, per pair k: u and v = (word + 1/2) 2^-32 of first[k]
  // and second[k], r = sqrt(-2 ln u), cosine[k] = r cos(2 pi v), sine[k] = r sin(2 pi v),
  // from unfused IEEE operations only: the same bits on every instruction set.
  void (*boxMuller)(const uint32_t* first, const uint32_t* second, double* cosine, double* sine, int64_t pairs);
};

// The table for this CPU (chosen on first use, then fixed).
const Table& table();
// Its part for one float compute type (float or double).
template <class C> const TypedTable<C>& tableOf() {
  if constexpr (std::is_same_v<C, float>) return table().f32;
  else return table().f64;
}
// The table of one instruction set, or nullptr if the CPU lacks it (tests
// compare the ISAs with each other).
const Table* tableFor(const char* isa);

// ---- threads --------------------------------------------------------------

// Large elementwise kernels may split their range over this many threads
// (default 1). A session-wide thread budget sets it; it must count the BLAS
// threads too, so that the two never oversubscribe the cores.
void setKernelThreads(int n);
int kernelThreads();
// Runs body(begin, end) over [0, n) split into at most kernelThreads() chunks
// whose boundaries are multiples of 64 elements, each at least `minChunk`
// long; chunks run concurrently, the call returns when all are done. Results
// are the same for any thread count as long as body computes each element
// independently of the chunk bounds (all the loops above do).
void parallelFor(int64_t n, int64_t minChunk, const std::function<void(int64_t, int64_t)>& body);
// Runs task(0) .. task(count - 1), on up to kernelThreads() threads; returns when
// all are done. The tasks must be independent (the GEMM's column blocks).
void parallelTasks(int64_t count, const std::function<void(int64_t)>& task);

}  // namespace pir::vm::simd
