// einsum's kernel: the plan of ir/einsum_spec.h carried out as a batched matrix
// product. Each operand is summed over its own letters, reordered into
// [batch, rows, contracted] / [batch, contracted, columns], multiplied per batch,
// and the product reordered into the equation's output order.
//
// Floats without letters summed away first (attention's "bhqd,bhkd->bhqk" and its
// gradients, a bilinear "bi,ij->bj") run as matmul's kernel runs a batched product:
// an operand already stored as [batch, rows, contracted] or [batch, contracted, rows]
// is read in place (the GEMM's transpose flag), other orders are copied into the plain
// one by the transpose kernel, and a product whose output order is [batch, columns,
// rows] is computed transposed (Bᵀ Aᵀ) straight into the result. So an einsum gives
// the bits of the matmul it amounts to, on the same GEMM backends and kernel threads.
//
// The rest (integers, summed letters) multiply per batch with Eigen: floats in their
// own type (f16 in f32), integers in int64 (wrapping as the result type's arithmetic
// does on the store).
#include "ir/einsum_spec.h"
#include "vm/kernel_util.h"
#include "vm/kernels_layout.h"

namespace pir::vm::detail {
namespace {

using layout::Dims;

struct EinsumState {
  einsum::Plan plan;
  Dims aShape, bShape;
};

// `x` (shape `shape`) summed over `axes`: the kept axes in order.
template <class C, class T> std::vector<C> sumAway(const T* x, const Dims& shape, const std::vector<int64_t>& axes, Dims& kept) {
  kept.clear();
  std::vector<int64_t> keptStride(shape.size(), 0);
  for (size_t d = 0; d < shape.size(); ++d)
    if (std::find(axes.begin(), axes.end(), static_cast<int64_t>(d)) == axes.end()) kept.push_back(shape[d]);
  const Dims ks = layout::stridesOf(kept);
  for (size_t d = 0, k = 0; d < shape.size(); ++d)
    if (std::find(axes.begin(), axes.end(), static_cast<int64_t>(d)) == axes.end()) keptStride[d] = ks[k++];
  std::vector<C> out(static_cast<size_t>(layout::product(kept)), C(0));
  layout::forEachIndex(shape, [&](int64_t flat, const Dims& i) {
    int64_t off = 0;
    for (size_t d = 0; d < i.size(); ++d) off += i[d] * keptStride[d];
    out[static_cast<size_t>(off)] += static_cast<C>(x[flat]);
  });
  return out;
}

// `x` (shape `shape`) with its axes reordered: result axis k is x's axis perm[k].
template <class C> std::vector<C> permuted(const std::vector<C>& x, const Dims& shape, const std::vector<int64_t>& perm) {
  const Dims xs = layout::stridesOf(shape);
  Dims outShape(perm.size()), stride(perm.size());
  for (size_t k = 0; k < perm.size(); ++k) outShape[k] = shape[perm[k]], stride[k] = xs[perm[k]];
  std::vector<C> out(x.size());
  layout::forEachIndex(outShape, [&](int64_t flat, const Dims& i) {
    int64_t off = 0;
    for (size_t d = 0; d < i.size(); ++d) off += i[d] * stride[d];
    out[static_cast<size_t>(flat)] = x[static_cast<size_t>(off)];
  });
  return out;
}

template <class T> void runEinsum(const EinsumState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  using C = std::conditional_t<kIsFloat<T>, ComputeOf<T>, int64_t>;
  const einsum::Plan& p = s.plan;
  const uint64_t elements = static_cast<uint64_t>(layout::product(s.aShape) + layout::product(s.bShape)) +
                            static_cast<uint64_t>(p.batch * p.m * p.n);
  const ScratchCharge charge(3 * elements, sizeof(C));
  Dims aKept, bKept;
  const std::vector<C> a = permuted(sumAway<C>(ins[0].as<const T>(), s.aShape, p.sumA, aKept), aKept, p.permA);
  const std::vector<C> b = permuted(sumAway<C>(ins[1].as<const T>(), s.bShape, p.sumB, bKept), bKept, p.permB);
  std::vector<C> product(static_cast<size_t>(p.batch * p.m * p.n));
  using Mat = Eigen::Matrix<C, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  for (int64_t k = 0; k < p.batch; ++k) {
    Eigen::Map<const Mat> am(a.data() + k * p.m * p.k, p.m, p.k);
    Eigen::Map<const Mat> bm(b.data() + k * p.k * p.n, p.k, p.n);
    Eigen::Map<Mat> out(product.data() + k * p.m * p.n, p.m, p.n);
    if (p.k == 0) out.setZero();
    else out.noalias() = am * bm;
  }
  Dims productShape = p.batchDims;
  productShape.insert(productShape.end(), p.leftDims.begin(), p.leftDims.end());
  productShape.insert(productShape.end(), p.rightDims.begin(), p.rightDims.end());
  const std::vector<C> ordered = permuted(product, productShape, p.permOut);
  T* y = outs[0].as<T>();
  for (size_t i = 0; i < ordered.size(); ++i) y[i] = static_cast<T>(ordered[i]);
}

// ---- floats without summed letters: matmul's kernel -------------------------------

// perm (result axis j = source axis perm[j]) maps a source stored as [lead, second,
// first] to [lead, first, second], the blocks of `firstLen` and `secondLen` axes each
// kept in order: the source is the result with its two blocks swapped.
bool swapsTwoBlocks(const std::vector<int64_t>& perm, size_t lead, size_t firstLen, size_t secondLen) {
  if (perm.size() != lead + firstLen + secondLen) return false;
  for (size_t j = 0; j < perm.size(); ++j) {
    const size_t expected = j < lead ? j : j < lead + firstLen ? j + secondLen : j - firstLen;
    if (perm[j] != static_cast<int64_t>(expected)) return false;
  }
  return true;
}

bool isIdentity(const std::vector<int64_t>& perm) {
  for (size_t j = 0; j < perm.size(); ++j)
    if (perm[j] != static_cast<int64_t>(j)) return false;
  return true;
}

// How one operand reaches the GEMM: in place (plain or transposed), or through a copy
// in the plain order made by `reorder` into scratch.
struct GemmOperand {
  bool transposed = false;
  std::optional<PreparedKernel> reorder;  // set: copy into [batch, rows, contracted] first
  TensorType reordered;                   // the copy's type
};

struct MatMulEinsumState {
  TensorType aIn, bIn;          // the operands as stored
  GemmOperand a, b;             // A as [batch, m, k], B as [batch, k, n]
  bool swapped = false;         // the output is [batch, n, m]: the product Bᵀ Aᵀ written straight
  PreparedKernel product;       // the batched matmul (operands as stored or reordered)
  TensorType productType;       // set only with `toOutput`
  std::optional<PreparedKernel> toOutput;  // from [batch, m, n] to the output order
};

TensorType typeOf(DType dtype, Shape shape) {
  TensorType t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  return t;
}

// An operand permuted by `perm` to [batch, rows, inner]: read in place when perm keeps
// the order or swaps the rows and inner blocks (the GEMM's transpose), else copied.
GemmOperand gemmOperand(const TensorType& stored, const std::vector<int64_t>& perm, size_t batchAxes, size_t rowAxes,
                        size_t innerAxes, int64_t batch, int64_t rows, int64_t inner) {
  GemmOperand g;
  if (isIdentity(perm)) return g;
  if (swapsTwoBlocks(perm, batchAxes, rowAxes, innerAxes)) {
    g.transposed = true;
    return g;
  }
  g.reorder = preparePermutedCopy(stored, perm);
  g.reordered = typeOf(stored.dtype, Shape{batch, rows, inner});
  return g;
}

Shape matrices(int64_t batch, int64_t rows, int64_t cols, bool transposed) {
  return transposed ? Shape{batch, cols, rows} : Shape{batch, rows, cols};
}

MatMulEinsumState planMatMulEinsum(const einsum::Plan& p, const TensorType& aIn, const TensorType& bIn,
                                   const TensorType& out) {
  MatMulEinsumState s;
  s.aIn = aIn;
  s.bIn = bIn;
  const size_t nb = p.batchDims.size(), nl = p.leftDims.size(), nr = p.rightDims.size(),
               nc = p.contractedDims.size();
  s.a = gemmOperand(aIn, p.permA, nb, nl, nc, p.batch, p.m, p.k);
  s.b = gemmOperand(bIn, p.permB, nb, nc, nr, p.batch, p.k, p.n);
  const TensorType aStored = typeOf(aIn.dtype, matrices(p.batch, p.m, p.k, s.a.transposed));
  const TensorType bStored = typeOf(bIn.dtype, matrices(p.batch, p.k, p.n, s.b.transposed));
  s.swapped = !isIdentity(p.permOut) && swapsTwoBlocks(p.permOut, nb, nr, nl);
  if (s.swapped) {
    // Cᵀ [n, m] = op(B)ᵀ op(A)ᵀ: B's storage read with the opposite flag, likewise A's.
    s.product = prepareMatMulTransposed(bStored, !s.b.transposed, aStored, !s.a.transposed,
                                        typeOf(out.dtype, Shape{p.batch, p.n, p.m}));
    return s;
  }
  const TensorType productType = typeOf(out.dtype, Shape{p.batch, p.m, p.n});
  s.product = prepareMatMulTransposed(aStored, s.a.transposed, bStored, s.b.transposed, productType);
  if (!isIdentity(p.permOut)) {
    Shape productShape = p.batchDims;
    productShape.insert(productShape.end(), p.leftDims.begin(), p.leftDims.end());
    productShape.insert(productShape.end(), p.rightDims.begin(), p.rightDims.end());
    s.productType = typeOf(out.dtype, productShape);
    s.toOutput = preparePermutedCopy(s.productType, p.permOut);
  }
  return s;
}

void runMatMulEinsum(const MatMulEinsumState& s, const TensorRef* ins, TensorRef* outs, KernelContext& ctx) {
  const uint64_t elemSize = dtypeSize(s.aIn.dtype);
  const uint64_t scratchElements = static_cast<uint64_t>(s.a.reorder ? s.aIn.numElements() : 0) +
                                   static_cast<uint64_t>(s.b.reorder ? s.bIn.numElements() : 0) +
                                   static_cast<uint64_t>(s.toOutput ? outs[0].type->numElements() : 0);
  const ScratchCharge charge(scratchElements, elemSize);
  // Uninitialised: each copy and the product write all of their part.
  std::unique_ptr<char[]> scratch(scratchElements ? new char[scratchElements * elemSize] : nullptr);
  char* free = scratch.get();
  auto operand = [&](const GemmOperand& g, const TensorRef& in) {
    if (!g.reorder) return in;
    TensorRef copy{free, &g.reordered};
    free += static_cast<size_t>(g.reordered.numElements()) * elemSize;
    (*g.reorder)(&in, &copy, ctx);
    return copy;
  };
  const TensorRef a = operand(s.a, ins[0]), b = operand(s.b, ins[1]);
  const TensorRef factors[2] = {s.swapped ? b : a, s.swapped ? a : b};
  if (!s.toOutput) {
    TensorRef result{outs[0].data, outs[0].type};
    s.product(factors, &result, ctx);
    return;
  }
  TensorRef product{free, &s.productType};
  s.product(factors, &product, ctx);
  (*s.toOutput)(&product, outs, ctx);
}

}  // namespace

PreparedKernel prepareEinsum(const Op& op, InTypes in, InTypes out) {
  if (out[0].numElements() == 0) return nothingToWrite();
  std::string problem;
  std::optional<einsum::Plan> plan = einsum::plan(attrs::Einsum{op}.equation(), in[0].shape, in[1].shape, problem);
  if (!plan) throw KernelError("einsum: " + problem);
  EinsumState s{std::move(*plan), Dims(in[0].shape.begin(), in[0].shape.end()), Dims(in[1].shape.begin(), in[1].shape.end())};
  if (isFloat(in[0].dtype) && s.plan.sumA.empty() && s.plan.sumB.empty())
    return makeKernel<MatMulEinsumState, runMatMulEinsum>(planMatMulEinsum(s.plan, in[0], in[1], out[0]));
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (kIsBool<T>) return unsupported(op, in[0]), PreparedKernel{};
    else return makeKernel<EinsumState, runEinsum<T>>(s);
  });
}

}  // namespace pir::vm::detail
