// matmul with NumPy semantics: a 1-D left operand is a row vector, a 1-D right
// operand a column vector (the added dim is dropped from the result); leading
// batch dims broadcast. Each batch is one GEMM.
//
// GEMM backend: OpenBLAS for large f32/f64 products when built with it
// (PIR_USE_OPENBLAS, see vm/CMakeLists.txt and bench/matmul_bench.cpp), Eigen
// otherwise and for tiny products; i32 uses Eigen's GEMM (i32 in uint32 so that overflow wraps without
// UB), f16 converts to f32, multiplies, and rounds each result once.
#include "vm/kernel_util.h"

#ifdef PIR_USE_OPENBLAS
#include <cblas.h>
#include <dlfcn.h>

#include <mutex>
#endif

namespace pir::vm {

#ifdef PIR_USE_OPENBLAS
namespace {
// OpenBLAS is loaded on the first large product, not at start-up: its thread
// pool starts when the library loads and spins, which would tax every `pir`
// process (check, opt, the REPL) that never multiplies a matrix.
struct OpenBlas {
  decltype(&cblas_sgemm) sgemm = nullptr;
  decltype(&cblas_dgemm) dgemm = nullptr;
};
const OpenBlas& openBlas() {
  static OpenBlas blas;
  static std::once_flag once;
  std::call_once(once, [] {
    for (const char* name : {"libopenblas.so.0", "libopenblas.so"}) {
      if (void* h = dlopen(name, RTLD_NOW | RTLD_LOCAL)) {
        blas.sgemm = reinterpret_cast<decltype(&cblas_sgemm)>(dlsym(h, "cblas_sgemm"));
        blas.dgemm = reinterpret_cast<decltype(&cblas_dgemm)>(dlsym(h, "cblas_dgemm"));
        if (blas.sgemm && blas.dgemm) return;
        blas = {};
      }
    }
  });
  return blas;
}
}  // namespace
#endif

const char* gemmBackendName() {
#ifdef PIR_USE_OPENBLAS
  if (openBlas().sgemm) return "openblas";
#endif
  return "eigen";
}

void gemmF32(const float* a, const float* b, float* c, int64_t m, int64_t n, int64_t k) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    std::fill(c, c + m * n, 0.0f);
    return;
  }
#ifdef PIR_USE_OPENBLAS
  // Tiny products are cheaper without the BLAS call overhead.
  if (m * n * k >= 32 * 32 * 32 && openBlas().sgemm) {
    openBlas().sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m), static_cast<int>(n),
                static_cast<int>(k), 1.0f, a, static_cast<int>(k), b, static_cast<int>(n), 0.0f, c,
                static_cast<int>(n));
    return;
  }
#endif
  using M = detail::RowMat<float>;
  Eigen::Map<M>(c, m, n).noalias() = Eigen::Map<const M>(a, m, k) * Eigen::Map<const M>(b, k, n);
}

namespace detail {
namespace {

struct MatMulState {
  int64_t m = 0, n = 0, k = 0;
  // Per output batch: element offsets of its a and b matrices.
  std::vector<std::pair<int64_t, int64_t>> batches;
};

template <class T> void gemm(const T* a, const T* b, T* c, int64_t m, int64_t n, int64_t k) {
  if constexpr (std::is_same_v<T, float>) {
    gemmF32(a, b, c, m, n, k);
#ifdef PIR_USE_OPENBLAS
  } else if (std::is_same_v<T, double> && k > 0 && m * n * k >= 32 * 32 * 32 && openBlas().dgemm) {
    if constexpr (std::is_same_v<T, double>)
      openBlas().dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m), static_cast<int>(n),
                  static_cast<int>(k), 1.0, a, static_cast<int>(k), b, static_cast<int>(n), 0.0, c,
                  static_cast<int>(n));
#endif
  } else {
    using M = RowMat<T>;
    if (k == 0) Eigen::Map<M>(c, m, n).setZero();
    else Eigen::Map<M>(c, m, n).noalias() = Eigen::Map<const M>(a, m, k) * Eigen::Map<const M>(b, k, n);
  }
}

template <class T> void runMatMul(const MatMulState& s, const TensorRef* ins, TensorRef* outs, KernelContext&) {
  const int64_t m = s.m, n = s.n, k = s.k;
  const T* a = ins[0].as<const T>();
  const T* b = ins[1].as<const T>();
  T* c = outs[0].as<T>();
  for (size_t i = 0; i < s.batches.size(); ++i) {
    const auto [ao, bo] = s.batches[i];
    T* ci = c + static_cast<int64_t>(i) * m * n;
    if constexpr (kIsHalf<T>) {
      using MF = RowMat<float>;
      const MF af = Eigen::Map<const RowMat<T>>(a + ao, m, k).template cast<float>();
      const MF bf = Eigen::Map<const RowMat<T>>(b + bo, k, n).template cast<float>();
      MF cf(m, n);
      gemmF32(af.data(), bf.data(), cf.data(), m, n, k);
      Eigen::Map<RowMat<T>>(ci, m, n) = cf.template cast<T>();
    } else if constexpr (std::is_same_v<T, int32_t>) {
      gemm(reinterpret_cast<const uint32_t*>(a + ao), reinterpret_cast<const uint32_t*>(b + bo),
           reinterpret_cast<uint32_t*>(ci), m, n, k);
    } else {
      gemm(a + ao, b + bo, ci, m, n, k);
    }
  }
}

}  // namespace

PreparedKernel prepareMatMul(const Op& op, InTypes in, InTypes out) {
  if (in.size() != 2 || in[0].dtype != in[1].dtype || in[0].rank() == 0 || in[1].rank() == 0)
    throw KernelError("matmul needs two operands of one dtype and rank >= 1");
  const DType dt = in[0].dtype;
  if (!(isFloat(dt) || dt == DType::I32)) unsupported(op, in[0]);
  Shape as = in[0].shape, bs = in[1].shape;
  if (as.size() == 1) as.insert(as.begin(), 1);  // [K] → [1, K]
  if (bs.size() == 1) bs.push_back(1);           // [K] → [K, 1]
  MatMulState s;
  s.m = as[as.size() - 2];
  s.k = as.back();
  s.n = bs.back();
  if (bs[bs.size() - 2] != s.k)
    throw KernelError("matmul: inner dimensions differ: " + in[0].str() + " and " + in[1].str());
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
      throw KernelError("matmul: batch dimensions do not broadcast: " + in[0].str() + " and " + in[1].str());
    batch[d] = std::max(ad, bd);
    if (ad != 1) aStr[d] = aFull[ai] * s.m * s.k;
    if (bd != 1) bStr[d] = bFull[bi] * s.k * s.n;
  }
  const int64_t nb = numElements(batch);
  if (out.empty() || out[0].dtype != dt || out[0].numElements() != nb * s.m * s.n)
    throw KernelError("matmul: the result type does not match " + in[0].str() + " x " + in[1].str());
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
  return dispatchDType(dt, [&]<class T>() {
    if constexpr (kIsFloat<T> || std::is_same_v<T, int32_t>) return makeKernel<MatMulState, runMatMul<T>>(std::move(s));
    else return PreparedKernel{};
  });
}

}  // namespace detail
}  // namespace pir::vm
