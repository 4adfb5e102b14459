// Compute kernels: the `Kernel` column of ir/ops.def.
//
// The VM resolves each op to a PreparedKernel once, at compile time, so that
// everything that depends only on types and attributes (broadcast strides,
// reduction axes, the dtype switch) is done before the run loop. Running a
// kernel is then one indirect call.
//
// Control flow, IO, declarations and collectives are VM instructions, not
// kernels; prepareKernel is only asked for ops with a compute kernel.
#pragma once
#include <cstdint>
#include <cstddef>
#include <memory>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ir/dtype.h"
#include "ir/ir.h"

namespace pir::vm {

// A tensor argument: contiguous row-major data of `type`.
struct TensorRef {
  void* data = nullptr;
  const TensorType* type = nullptr;
  template <class T> T* as() const { return static_cast<T*>(data); }
};

// Thrown by a kernel for a runtime error (runtime.md §8); the VM adds the op's
// source location and replica index.
struct KernelError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class FusionScratch;

struct KernelContext {
  int replica = 0;           // replica index
  int numReplicas = 1;
  std::ostream* out = nullptr;  // print_tensor output
  // The working memory of fused instructions (vm/fusion.h): the running worker
  // thread's, set by the replica pool before a replica runs on it; null: each fused
  // instruction makes its own.
  FusionScratch* fusionScratch = nullptr;
};

// ins and outs are in operand / result order. For F_INPLACE ops outs[0].data ==
// ins[0].data (the kernel must be correct under that aliasing); an in-place op
// whose alias result is unbound still gets outs[0].
using KernelFn = void (*)(const void* state, const TensorRef* ins, TensorRef* outs, KernelContext& ctx);

// The loop of an elementwise kernel over one contiguous run, for a caller that
// splits the work itself: `invoke(loop, ins, out, n)` computes elements [0, n) of
// the result at `out` from `ins` (one pointer per operand, each either the run's
// elements or, where the kernel was prepared with a scalar operand, its one
// element). Fused chains call it per block, without TensorRefs, the broadcast
// plan or a thread split.
struct ElementRun {
  using AnyFn = void (*)();  // the typed loop, cast back by invoke
  using Invoke = void (*)(AnyFn loop, const std::byte* const* ins, std::byte* out, int64_t n);
  Invoke invoke = nullptr;
  AnyFn loop = nullptr;
  explicit operator bool() const { return invoke != nullptr; }
  friend bool operator==(const ElementRun&, const ElementRun&) = default;
};

struct PreparedKernel {
  KernelFn fn = nullptr;
  std::shared_ptr<const void> state;  // kernel-specific, immutable while running
  ElementRun run;  // set by kernels that are one loop for the types they were prepared with
  void operator()(const TensorRef* ins, TensorRef* outs, KernelContext& ctx) const {
    fn(state.get(), ins, outs, ctx);
  }
};

// Resolves `op` (operand/result types already inferred by the verifier) to its
// kernel. `inTypes` are the types of its tensor operands in order (literal
// operands included, resources and graph calls excluded); `outTypes` the types of
// its results (for an in-place op, outTypes[0] == inTypes[0] even if the result
// is unbound). Throws KernelError if the op has no compute kernel.
PreparedKernel prepareKernel(const Op& op, std::span<const TensorType> inTypes,
                             std::span<const TensorType> outTypes);

// True if prepareKernel handles this op code.
bool hasKernel(OpCode code);

// How many leading dims of `op`'s results it computes index by index: each index of
// them from the same index of every operand that has those dims (right-aligned, as
// broadcasting aligns them), with the whole of every operand whose aligned dims there
// are 1 or absent, by the same arithmetic as the op prepared for that index's slice
// alone. A batched matmul's batch dims, softmax's dims before its axis, every dim of
// an elementwise op; 0 for ops whose kernel family does not say (vm/sliced_group.h).
int64_t independentLeadingDims(const Op& op, std::span<const TensorType> inTypes,
                               std::span<const TensorType> outTypes);

// F_VIEW ops (reshape_, transpose_): the view is transpose(operand, perm) with the
// returned perm; empty when the view keeps the operand's flat element order (reshape_,
// or a transpose_ that moves only size-1 axes), so it can share the operand's storage.
// Throws KernelError for a bad perm or an op that is not F_VIEW.
std::vector<int64_t> viewPermutation(const Op& op, const TensorType& operand);
// transpose / transpose_'s perm over `rank` axes, resolved (negative axes counted
// from the end; absent: reversed). Throws KernelError when it is not a permutation.
std::vector<int64_t> transposePermutation(const Op& op, int64_t rank);

// out = transpose(in, perm): out's dim j is in's dim perm[j]. Used to materialise a
// view and, with the inverse perm, to write it back to its operand.
PreparedKernel preparePermutedCopy(const TensorType& in, std::span<const int64_t> perm);

// matmul whose operands may be stored transposed: `aStored` is read with its last
// two axes swapped when `transA` (likewise b), without a copy (the GEMM's transpose
// flags). A matmul op's kernel reads the flags from its transpose_a / transpose_b
// attributes; this entry is for callers without an op (kernel tests, benches).
// `out` is the product's type. Throws KernelError.
PreparedKernel prepareMatMulTransposed(const TensorType& aStored, bool transA, const TensorType& bStored, bool transB,
                                       const TensorType& out);

// The f32 GEMM the matmul kernel uses: c[m,n] = op(a) * op(b), all row-major and
// contiguous; op(a) = a stored [m,k], or with transA a stored [k,m] transposed
// (likewise b, [k,n] or [n,k]). Exposed for bench/matmul_bench.cpp.
// `scratch` kGemmMayAllocate: a product with few rows may be split by depth, with
// partial products charged to the context's host-memory budget (may throw);
// kGemmNoScratch (callers inside a split's part, which must not throw) keeps rows
// or columns. The bits depend on the shape and this choice, never the thread count.
enum GemmScratch { kGemmMayAllocate, kGemmNoScratch };
void gemmF32(const float* a, const float* b, float* c, int64_t m, int64_t n, int64_t k, bool transA = false,
             bool transB = false, GemmScratch scratch = kGemmMayAllocate);
// c = beta c + alpha op(a) op(b) (BLAS's sgemm): the product is added into c by the
// GEMM, not rounded on its own (products too small for a library call are).
struct GemmScale {
  float alpha = 1.0f, beta = 0.0f;
  bool plain() const { return alpha == 1.0f && beta == 0.0f; }
};
void gemmF32Scaled(const float* a, const float* b, float* c, int64_t m, int64_t n, int64_t k, bool transA,
                   bool transB, GemmScale scale, GemmScratch scratch = kGemmMayAllocate);
const char* gemmBackendName();  // "eigen", "openblas" or "openblas (SkylakeX kernels)"

}  // namespace pir::vm
