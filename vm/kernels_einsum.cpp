// einsum's kernel: the plan of ir/einsum_spec.h carried out as a batched matrix
// product. Each operand is summed over its own letters, reordered into
// [batch, rows, contracted] / [batch, contracted, columns], multiplied per batch
// (Eigen), and the product reordered into the equation's output order. Floats
// compute in their own type (f16 in f32), integers in int64 (wrapping as the
// result type's arithmetic does on the store).
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

}  // namespace

PreparedKernel prepareEinsum(const Op& op, InTypes in, InTypes out) {
  if (out[0].numElements() == 0) return nothingToWrite();
  std::string problem;
  std::optional<einsum::Plan> plan = einsum::plan(attrs::Einsum{op}.equation(), in[0].shape, in[1].shape, problem);
  if (!plan) throw KernelError("einsum: " + problem);
  EinsumState s{std::move(*plan), Dims(in[0].shape.begin(), in[0].shape.end()), Dims(in[1].shape.begin(), in[1].shape.end())};
  return dispatchDType(in[0].dtype, [&]<class T>() {
    if constexpr (kIsBool<T>) return unsupported(op, in[0]), PreparedKernel{};
    else return makeKernel<EinsumState, runEinsum<T>>(s);
  });
}

}  // namespace pir::vm::detail
