// layer_norm_grad and group_norm_grad. layer_norm_grad: the gradients of layer_norm
// (normalised over the dims from `axis`, one flattened row) for x, gamma and beta, one
// row at a time in one kernel:
//   xhat = (x - mean) * rstd,  rstd = 1 / sqrt(var + epsilon)  (biased variance)
//   dxhat = g * gamma
//   dx = (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)) * rstd
//   dgamma = Σ_rows g * xhat,  dbeta = Σ_rows g
// Float dtypes; f16 computes in f32. Every sum runs in an order fixed by the shape
// (within a row the SIMD table's documented order; over rows, in blocks of rows:
// sumBlockRows), so the bits do not depend on the number of threads.
#include "vm/kernel_util.h"

namespace pir::vm::detail {
namespace {

struct LayerNormGradState {
  int64_t rows = 0, cols = 0;
  int64_t blockRows = 1;  // sumBlockRows
  double epsilon = 1e-5;
};

// dgamma and dbeta add their rows in blocks of consecutive rows: in row order within
// a block, then the blocks' sums in block order. The blocks follow the shape alone
// (sumBlockRows), and a split gives each thread whole blocks, so the bits are those
// of one thread, and each thread sums the rows it normalised while they are in its
// own core's cache. An operand of fewer than 2 * kMinElementsPerThread elements (too
// small to split) is one block: its rows are added in order.
constexpr int64_t kMaxSumBlocks = 16;
int64_t sumBlockRows(int64_t rows, int64_t cols) {
  const int64_t elements = rows * cols;  // the operand's size, within int64_t
  const int64_t blocks = std::clamp<int64_t>(elements / kMinElementsPerThread, 1, kMaxSumBlocks);
  return std::max<int64_t>(1, (rows + blocks - 1) / blocks);
}

// The rows of one part, whole blocks of `blockRows`: one call of the SIMD table per
// row (its row-sized scratch in L1 for usual widths); the sums are the table's (16
// interleaved partials), not one serial chain. Row r's g * xhat is added to its
// block's row of `dgammaBlocks`, g to `dbetaBlocks` ([blocks, cols], zeroed).
template <class T> struct LayerNormGradRows {
  using C = ComputeOf<T>;
  const LayerNormGradState& s;
  const C* gamma;
  const T* x;
  const T* g;
  T* dx;
  C* dgammaBlocks;
  C* dbetaBlocks;
  void run(int64_t r0, int64_t r1) const {
    const auto& f = simd::tableOf<C>();
    const int64_t cols = s.cols;
    const size_t n = static_cast<size_t>(cols);
    std::vector<C> xhat(n), xrow, grow, dxrow;
    if constexpr (!std::is_same_v<T, C>) xrow.resize(n), grow.resize(n), dxrow.resize(n);
    const C eps = static_cast<C>(s.epsilon);
    for (int64_t r = r0; r < r1; ++r) {
      const T* xs = x + r * cols;
      const T* gs = g + r * cols;
      T* dxs = dx + r * cols;
      const C* xr;
      const C* gr;
      C* out;
      if constexpr (std::is_same_v<T, C>) {
        xr = xs, gr = gs, out = dxs;
      } else {
        for (size_t j = 0; j < n; ++j) xrow[j] = static_cast<C>(xs[j]), grow[j] = static_cast<C>(gs[j]);
        xr = xrow.data(), gr = grow.data(), out = dxrow.data();
      }
      C* dgamma = dgammaBlocks + r / s.blockRows * cols;
      C* dbeta = dbetaBlocks + r / s.blockRows * cols;
      f.layerNormGradRow(xr, gr, gamma, cols, eps, xhat.data(), dgamma, dbeta, out);
      if constexpr (!std::is_same_v<T, C>)
        for (size_t j = 0; j < n; ++j) dxs[j] = static_cast<T>(dxrow[j]);
    }
  }
};

// Large operands split their blocks of rows over the kernel threads (splitRows).
template <class T>
void runLayerNormGrad(const LayerNormGradState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = ComputeOf<T>;
  const auto& f = simd::tableOf<C>();
  const int64_t cols = s.cols;
  const size_t n = static_cast<size_t>(cols);
  // At least one block: with no rows, dgamma and dbeta are zeros.
  const int64_t blocks = std::max<int64_t>(1, (s.rows + s.blockRows - 1) / s.blockRows);
  const uint64_t threads = static_cast<uint64_t>(std::max(1, simd::kernelThreads()));
  // gamma; dgamma and dbeta per block; per part the rows of LayerNormGradRows::run.
  const ScratchCharge charge(saturatingAdd(saturatingMul(n, 1 + 4 * threads),
                                           saturatingMul(saturatingMul(n, 2), static_cast<uint64_t>(blocks))),
                             sizeof(C));
  std::vector<C> gamma(n), dgamma(n * static_cast<size_t>(blocks), C(0)), dbeta(dgamma.size(), C(0));
  for (int64_t j = 0; j < cols; ++j) gamma[static_cast<size_t>(j)] = static_cast<C>(ins[1].as<const T>()[j]);
  const LayerNormGradRows<T> rows{s, gamma.data(), ins[0].as<const T>(), ins[2].as<const T>(), outs[0].as<T>(),
                                  dgamma.data(), dbeta.data()};
  splitRows(blocks, s.blockRows * cols, [&](int64_t b0, int64_t b1) {
    rows.run(b0 * s.blockRows, std::min(s.rows, b1 * s.blockRows));
  });
  for (int64_t b = 1; b < blocks; ++b) {
    f.binary[simd::kAdd][simd::kVecVec](dgamma.data(), dgamma.data() + b * cols, dgamma.data(), cols);
    f.binary[simd::kAdd][simd::kVecVec](dbeta.data(), dbeta.data() + b * cols, dbeta.data(), cols);
  }
  for (int64_t j = 0; j < cols; ++j) {
    outs[1].as<T>()[j] = static_cast<T>(dgamma[static_cast<size_t>(j)]);
    outs[2].as<T>()[j] = static_cast<T>(dbeta[static_cast<size_t>(j)]);
  }
}

// ---- group_norm_grad ----------------------------------------------------------------

// group_norm normalises each (image, group) row: the group's cpg channel planes, which
// NCHW keeps side by side (`rowLength` = cpg * spatial elements). Its gradient is
// layer_norm's on that row with gamma spread over each channel's plane, so the rows run
// the SIMD table's layerNormGradRow against a gamma row per group. dgamma and dbeta
// add over the images in blocks of consecutive images (sumBlockRows over images):
// within a block per element of an image, in image order; then over each channel's
// plane in the table's `sum` order; then the blocks in block order. The blocks follow
// the shape alone and a split gives each thread whole blocks, so the bits do not
// depend on the thread count.
struct GroupNormGradState {
  int64_t images = 0, channels = 0, groups = 1, spatial = 0;
  int64_t blockImages = 1;
  double epsilon = 1e-5;
  int64_t imageSize() const { return channels * spatial; }
  int64_t rowLength() const { return channels / groups * spatial; }
};

template <class T>
void runGroupNormGrad(const GroupNormGradState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = ComputeOf<T>;
  if (s.images == 0) {  // no element of x: dgamma and dbeta are zeros
    std::fill_n(outs[1].as<T>(), s.channels, T(0));
    std::fill_n(outs[2].as<T>(), s.channels, T(0));
    return;
  }
  const auto& f = simd::tableOf<C>();
  const int64_t image = s.imageSize(), row = s.rowLength(), channels = s.channels, spatial = s.spatial;
  const int64_t blocks = std::max<int64_t>(1, (s.images + s.blockImages - 1) / s.blockImages);
  const int64_t parts = rowParts(blocks, s.blockImages * image);
  const size_t imageN = static_cast<size_t>(image), rowN = static_cast<size_t>(row);
  // The gamma rows; per part an image's dgamma and dbeta accumulators, a row's xhat and
  // (f16) its rows in C; per block its channels' dgamma and dbeta.
  const uint64_t perPart = saturatingAdd(saturatingMul(imageN, 2), saturatingMul(rowN, 4));
  const ScratchCharge charge(saturatingAdd(saturatingAdd(imageN, saturatingMul(perPart, static_cast<uint64_t>(parts))),
                                           saturatingMul(static_cast<uint64_t>(channels) * 2, static_cast<uint64_t>(blocks))),
                             sizeof(C));
  std::vector<C> gammaRows(imageN);
  for (int64_t c = 0; c < channels; ++c)
    std::fill_n(gammaRows.begin() + c * spatial, spatial, static_cast<C>(ins[1].as<const T>()[c]));
  std::vector<C> dgammaBlocks(static_cast<size_t>(channels * blocks)), dbetaBlocks(dgammaBlocks.size());
  std::vector<std::vector<C>> scratch(static_cast<size_t>(parts));
  for (auto& v : scratch) v.resize(static_cast<size_t>(perPart));
  const T* x = ins[0].as<const T>();
  const T* g = ins[2].as<const T>();
  T* dx = outs[0].as<T>();
  const C eps = static_cast<C>(s.epsilon);
  splitRowsInParts(blocks, parts, [&](int64_t part, int64_t b0, int64_t b1) {
    C* dgamma = scratch[static_cast<size_t>(part)].data();
    C* dbeta = dgamma + image;
    C* xhat = dbeta + image;
    C* xrow = xhat + row;
    C* grow = xrow + row;
    C* dxrow = grow + row;
    for (int64_t b = b0; b < b1; ++b) {
      std::fill(dgamma, dgamma + 2 * image, C(0));
      for (int64_t n = b * s.blockImages; n < std::min(s.images, (b + 1) * s.blockImages); ++n)
        for (int64_t grp = 0; grp < s.groups; ++grp) {
          const int64_t at = n * image + grp * row;
          const C* xr;
          const C* gr;
          C* out;
          if constexpr (std::is_same_v<T, C>) {
            xr = x + at, gr = g + at, out = dx + at;
          } else {
            for (int64_t j = 0; j < row; ++j) xrow[j] = static_cast<C>(x[at + j]), grow[j] = static_cast<C>(g[at + j]);
            xr = xrow, gr = grow, out = dxrow;
          }
          const int64_t first = grp * row;
          f.layerNormGradRow(xr, gr, gammaRows.data() + first, row, eps, xhat, dgamma + first, dbeta + first, out);
          if constexpr (!std::is_same_v<T, C>)
            for (int64_t j = 0; j < row; ++j) dx[at + j] = static_cast<T>(dxrow[j]);
        }
      for (int64_t c = 0; c < channels; ++c) {
        dgammaBlocks[static_cast<size_t>(b * channels + c)] = f.sum(dgamma + c * spatial, spatial);
        dbetaBlocks[static_cast<size_t>(b * channels + c)] = f.sum(dbeta + c * spatial, spatial);
      }
    }
  });
  for (int64_t c = 0; c < channels; ++c) {
    C sg = dgammaBlocks[static_cast<size_t>(c)], sb = dbetaBlocks[static_cast<size_t>(c)];
    for (int64_t b = 1; b < blocks; ++b)
      sg += dgammaBlocks[static_cast<size_t>(b * channels + c)], sb += dbetaBlocks[static_cast<size_t>(b * channels + c)];
    outs[1].as<T>()[c] = static_cast<T>(sg);
    outs[2].as<T>()[c] = static_cast<T>(sb);
  }
}

}  // namespace

PreparedKernel prepareGroupNormGrad(const Op& op, InTypes in, InTypes out) {
  const attrs::GroupNormGrad attr{op};
  if (in.size() != 3 || out.size() != 3 || in[0].rank() < 2 || in[2] != in[0] || in[1].dtype != in[0].dtype ||
      in[1].numElements() != in[0].shape[1] || attr.groups() <= 0 || in[0].shape[1] % attr.groups() != 0)
    throw KernelError("group_norm_grad needs x with channels on axis 1 that `groups` divides, gamma of one value "
                      "per channel and a gradient shaped as x");
  if (!isFloat(in[0].dtype)) unsupported(op, in[0]);
  GroupNormGradState s;
  s.images = in[0].shape[0];
  s.channels = in[0].shape[1];
  s.groups = attr.groups();
  s.spatial = dimProduct(in[0].shape, 2, in[0].shape.size());
  if (s.images == 0 || s.channels == 0 || s.spatial == 0) s.images = 0;  // no element: zeros for dgamma, dbeta
  s.blockImages = sumBlockRows(s.images, s.imageSize());
  s.epsilon = attr.epsilon();
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (kIsFloat<T>) return makeKernel<GroupNormGradState, runGroupNormGrad<T>>(s);
    else return PreparedKernel{};
  });
}

PreparedKernel prepareLayerNormGrad(const Op& op, InTypes in, InTypes out) {
  if (in.size() != 3 || out.size() != 3 || in[0].rank() < 1 || in[2] != in[0] || in[1].dtype != in[0].dtype)
    throw KernelError("layer_norm_grad needs x, gamma of its normalised dims and a gradient shaped as x");
  if (!isFloat(in[0].dtype)) unsupported(op, in[0]);
  const attrs::LayerNormGrad attr{op};
  LayerNormGradState s;
  s.cols = layerNormCols(op, in[0], attr.axis());
  if (in[1].numElements() != s.cols)
    throw KernelError("layer_norm_grad needs x, gamma of its normalised dims and a gradient shaped as x");
  s.rows = s.cols == 0 ? 0 : in[0].numElements() / s.cols;
  s.blockRows = sumBlockRows(s.rows, s.cols);
  s.epsilon = attr.epsilon();
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (kIsFloat<T>) return makeKernel<LayerNormGradState, runLayerNormGrad<T>>(s);
    else return PreparedKernel{};
  });
}

}  // namespace pir::vm::detail
