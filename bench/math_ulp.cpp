// Maximum error of the vector exp/log/tanh/sigmoid/sin/cos/erf/gelu_erf kernels (f32 and f64)
// against long double, per instruction-set table: not a timed benchmark, the
// measurement behind the error figures in docs/decisions.md.
//
// usage: math_ulp [--isa avx512|avx2|sse2] [--fn log|tanh|exp|sigmoid|sin|cos|erf|gelu_erf] [--f64]
//                 [--stride N]
// Inputs (f32): every bit pattern of the function's range at `stride` (default
// 97), plus every float of a dense region (log: [0.5, 2]; tanh, exp, sigmoid:
// ±[0.25, 2] resp. ±[0.25, 1]; sin, cos: ±[0.25, 4]; their strided range runs to
// 2^24, past the vector path's 2^19; erf, gelu_erf: ±[0.25, 4], and for gelu_erf also
// [-16, -4], past the x < -14.36 where it rounds to -0; their strided range is every
// finite magnitude, subnormals included), plus log's subnormals at stride 7. f64: a
// stride of N*2^32 over the bit patterns of the same ranges and 2^29 over the
// dense ones. The error
// of a result is |got - exact| in ulps of the result type (subnormal results in
// units of the smallest subnormal), as tests/unit/numerics_test.cpp measures it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "vm/simd_kernels.h"

namespace {

using LD = long double;
namespace simd = pir::vm::simd;

template <class S> LD ulpOf(LD ref) {
  constexpr int digits = sizeof(S) == 4 ? 24 : 53, minExp = sizeof(S) == 4 ? -126 : -1022;
  int e = minExp;
  if (ref != 0 && std::isfinite(ref)) e = std::max(minExp, std::ilogb(ref));
  return std::ldexp(LD(1), e - digits + 1);
}

LD ref(const std::string& fn, LD x) {
  if (fn == "log") return std::log(x);
  if (fn == "tanh") return std::tanh(x);
  if (fn == "exp") return std::exp(x);
  if (fn == "sin") return std::sin(x);
  if (fn == "cos") return std::cos(x);
  if (fn == "erf") return std::erf(x);
  if (fn == "gelu_erf") return x * std::erfc(-x / std::sqrt(LD(2))) / 2;
  return x >= 0 ? 1 / (1 + std::exp(-x)) : std::exp(x) / (1 + std::exp(x));
}

struct Worst {
  LD err = 0;
  double at = 0;
  int64_t count = 0;
  int64_t aboveHalf = 0;  // results more than 1/2 ulp off: not the correctly rounded value
  int64_t above1 = 0;     // results more than 1 ulp off
};

template <class S> void run(const simd::UnaryFn<S> f, const std::string& fn, const std::vector<S>& xs, Worst& w) {
  std::vector<S> ys(xs.size());
  f(xs.data(), ys.data(), static_cast<int64_t>(xs.size()));
  for (size_t i = 0; i < xs.size(); ++i) {
    const LD r = ref(fn, xs[i]);
    if (!std::isfinite(r) || std::isnan(ys[i])) continue;  // the hard values are the unit test's
    const LD err = std::fabs(LD(ys[i]) - r) / ulpOf<S>(r);
    if (err > w.err) {
      w.err = err;
      w.at = static_cast<double>(xs[i]);
    }
    if (err > 0.5) ++w.aboveHalf;
    if (err > 1) ++w.above1;
  }
  w.count += static_cast<int64_t>(xs.size());
}

// Calls run() on [lo, hi] bit patterns (of the positive or negative values) at
// `stride`, in blocks.
template <class S, class B>
void sweepBits(const simd::UnaryFn<S> f, const std::string& fn, B lo, B hi, B stride, Worst& w) {
  std::vector<S> xs;
  xs.reserve(1 << 20);
  for (B b = lo; b <= hi; b += stride) {
    S x;
    std::memcpy(&x, &b, sizeof x);
    xs.push_back(x);
    if (xs.size() == (1u << 20)) {
      run(f, fn, xs, w);
      xs.clear();
    }
    if (hi - b < stride) break;
  }
  if (!xs.empty()) run(f, fn, xs, w);
}

template <class B, class S> B bitsOf(S x) {
  B b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

template <class S> Worst sweep(const simd::TypedTable<S>& t, const std::string& fn, uint64_t stride) {
  using B = std::conditional_t<sizeof(S) == 4, uint32_t, uint64_t>;
  constexpr B sign = B(1) << (sizeof(S) * 8 - 1);
  const int kind = fn == "log"    ? simd::kLog
                   : fn == "tanh" ? simd::kTanh
                   : fn == "exp"  ? simd::kExp
                   : fn == "sin"  ? simd::kSin
                   : fn == "cos"  ? simd::kCos
                   : fn == "erf"  ? simd::kErf
                   : fn == "gelu_erf" ? simd::kGeluErf
                                  : simd::kSigmoid;
  const simd::UnaryFn<S> f = t.unary[kind];
  // f64 covers the same ranges with a stride scaled to about the same count.
  const B s = sizeof(S) == 4 ? B(stride) : B(stride) << 32;
  const B dense = sizeof(S) == 4 ? B(1) : B(1) << 29;
  Worst w;
  auto both = [&](S lo, S hi, B st) {  // [lo, hi] and [-hi, -lo]
    sweepBits<S, B>(f, fn, bitsOf<B>(lo), bitsOf<B>(hi), st, w);
    sweepBits<S, B>(f, fn, bitsOf<B>(lo) | sign, bitsOf<B>(hi) | sign, st, w);
  };
  if (fn == "log") {
    sweepBits<S, B>(f, fn, B(1), bitsOf<B>(std::numeric_limits<S>::max()), s, w);
    sweepBits<S, B>(f, fn, B(1), bitsOf<B>(std::numeric_limits<S>::min()), B(7) * dense, w);
    sweepBits<S, B>(f, fn, bitsOf<B>(S(0.5)), bitsOf<B>(S(2)), dense, w);
  } else if (fn == "tanh") {
    both(S(0x1p-40), S(20), s);
    both(S(0.25), S(2), dense);
  } else if (fn == "exp") {  // up to the overflow threshold
    sweepBits<S, B>(f, fn, bitsOf<B>(S(0x1p-40)), bitsOf<B>(sizeof(S) == 4 ? S(88.72f) : S(709.78)), s, w);
    sweepBits<S, B>(f, fn, bitsOf<B>(S(0x1p-40)) | sign, bitsOf<B>(sizeof(S) == 4 ? S(104) : S(746)) | sign, s, w);
    both(S(0.25), S(1), dense);
  } else if (fn == "sin" || fn == "cos") {
    both(S(0x1p-40), S(0x1p24), s);
    both(S(0.25), S(4), dense);
  } else if (fn == "erf" || fn == "gelu_erf") {  // every finite magnitude
    both(std::numeric_limits<S>::denorm_min(), std::numeric_limits<S>::max(), s);
    both(S(0.25), S(4), dense);
    if (fn == "gelu_erf") sweepBits<S, B>(f, fn, bitsOf<B>(S(4)) | sign, bitsOf<B>(S(16)) | sign, dense, w);
  } else {
    both(S(0x1p-40), sizeof(S) == 4 ? S(104) : S(746), s);
    both(S(0.25), S(2), dense);
  }
  return w;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> isas = {"avx512", "avx2", "sse2"},
                           fns = {"log", "tanh", "exp", "sigmoid", "sin", "cos", "erf", "gelu_erf"};
  bool f64 = false;
  uint64_t stride = 97;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--isa" && i + 1 < argc) isas = {argv[++i]};
    else if (a == "--fn" && i + 1 < argc) fns = {argv[++i]};
    else if (a == "--f64") f64 = true;
    else if (a == "--stride" && i + 1 < argc) stride = std::stoull(argv[++i]);
    else {
      std::fprintf(stderr,
                   "usage: math_ulp [--isa avx512|avx2|sse2] [--fn log|tanh|exp|sigmoid|sin|cos|erf|gelu_erf] [--f64] "
                   "[--stride N]\n");
      return 2;
    }
  }
  for (const std::string& isa : isas) {
    const simd::Table* t = simd::tableFor(isa.c_str());
    if (!t) {
      std::printf("%-7s not on this CPU\n", isa.c_str());
      continue;
    }
    for (const std::string& fn : fns) {
      const Worst w = f64 ? sweep<double>(t->f64, fn, stride) : sweep<float>(t->f32, fn, stride);
      std::printf("%-7s %-4s %-9s max %.3f ulp at %.9g (%lld inputs, %lld above 1/2 ulp, %lld above 1)\n",
                  isa.c_str(), f64 ? "f64" : "f32", fn.c_str(), static_cast<double>(w.err), w.at,
                  static_cast<long long>(w.count), static_cast<long long>(w.aboveHalf),
                  static_cast<long long>(w.above1));
      std::fflush(stdout);
    }
  }
  return 0;
}
