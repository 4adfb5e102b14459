// The vector loops of vm/simd_kernels.h, written once with GCC vector
// extensions and compiled per instruction set: a vm/simd_isa_*.cpp defines
// PIR_SIMD_NAME (namespace), PIR_SIMD_BYTES (vector width: 16, 32, 64) and
// PIR_SIMD_FMA, then includes this file. Everything here has internal linkage
// except the one makeTable() per ISA, so that no inline function compiled for
// a wide ISA can be picked by the linker for a narrower one; for the same
// reason this file includes no library header with inline code.
//
// Invariants:
// - Element-wise loops (mapUnary/mapBinary) compute every element with the
//   same vector function; the last partial vector is padded with zeros and
//   computed the same way, so results never depend on a position.
// - Only exp/log/tanh/sigmoid(/swish/gelu/sin/cos/erf/gelu_erf) use FMA (fmadd
//   below). Everything else is one IEEE operation per element, so equal on every
//   ISA and equal to the scalar code; this file is compiled with -ffp-contract=off.
#include <immintrin.h>

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "vm/simd_kernels.h"

#if !defined(PIR_SIMD_NAME) || !defined(PIR_SIMD_BYTES) || !defined(PIR_SIMD_FMA)
#error "define PIR_SIMD_NAME, PIR_SIMD_BYTES and PIR_SIMD_FMA before including simd_impl.h"
#endif

namespace pir::vm::simd::PIR_SIMD_NAME {
namespace {

typedef float vf __attribute__((vector_size(PIR_SIMD_BYTES)));
typedef int32_t vi __attribute__((vector_size(PIR_SIMD_BYTES)));
typedef uint32_t vu __attribute__((vector_size(PIR_SIMD_BYTES)));
typedef double vd __attribute__((vector_size(PIR_SIMD_BYTES)));
typedef int64_t vl __attribute__((vector_size(PIR_SIMD_BYTES)));
typedef uint64_t vul __attribute__((vector_size(PIR_SIMD_BYTES)));
// One byte per lane of a float / double vector (bool masks in memory).
typedef int8_t vbf __attribute__((vector_size(PIR_SIMD_BYTES / 4)));
typedef int8_t vbd __attribute__((vector_size(PIR_SIMD_BYTES / 8)));
typedef uint8_t vubf __attribute__((vector_size(PIR_SIMD_BYTES / 4)));

template <class S> struct VOf;
template <> struct VOf<float> {
  using V = vf;
  using I = vi;
  using U = vu;
  static constexpr int kMantBits = 23, kBias = 127;
};
template <> struct VOf<double> {
  using V = vd;
  using I = vl;
  using U = vul;
  static constexpr int kMantBits = 52, kBias = 1023;
};
template <class S> constexpr int64_t kLanes = PIR_SIMD_BYTES / sizeof(S);

template <class V, class S> inline V load(const S* p) {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class S, class V> inline void store(S* p, V v) { std::memcpy(p, &v, sizeof v); }
template <class To, class From> inline To bits(From v) {
  static_assert(sizeof(To) == sizeof(From));
  To t;
  std::memcpy(&t, &v, sizeof t);
  return t;
}
// Every lane = s (not V{} + s: that turns -0 into +0), as one broadcast of lane 0 (a
// loop over the lanes was compiled lane by lane for doubles where it was not inlined
// into a loop that hoists it).
template <class V, class S> inline V splat(S s) {
  using E = std::remove_cvref_t<decltype(V{}[0])>;
  V v{};
  v[0] = static_cast<E>(s);
  return [&]<size_t... I>(std::index_sequence<I...>) { return V(__builtin_shufflevector(v, v, (I * 0)...)); }(
      std::make_index_sequence<sizeof(V) / sizeof(E)>{});
}

// a*b + c, fused where the ISA has FMA (one rounding), else two roundings.
inline vf fmadd(vf a, vf b, vf c) {
#if PIR_SIMD_FMA && PIR_SIMD_BYTES == 64
  return _mm512_fmadd_ps(a, b, c);
#elif PIR_SIMD_FMA && PIR_SIMD_BYTES == 32
  return _mm256_fmadd_ps(a, b, c);
#elif PIR_SIMD_FMA
  return _mm_fmadd_ps(a, b, c);
#else
  return a * b + c;
#endif
}
inline vd fmadd(vd a, vd b, vd c) {
#if PIR_SIMD_FMA && PIR_SIMD_BYTES == 64
  return _mm512_fmadd_pd(a, b, c);
#elif PIR_SIMD_FMA && PIR_SIMD_BYTES == 32
  return _mm256_fmadd_pd(a, b, c);
#elif PIR_SIMD_FMA
  return _mm_fmadd_pd(a, b, c);
#else
  return a * b + c;
#endif
}

// Bit i set if lane i of a comparison mask (all ones or zeros per lane) is
// set: one movemask instead of a lane-by-lane reduction.
template <class M> inline unsigned laneBits(M m) {
  constexpr size_t kE = sizeof(m[0]);
  static_assert(kE == 4 || kE == 8);
#if PIR_SIMD_BYTES == 64
  if constexpr (kE == 4) return _mm512_movepi32_mask(bits<__m512i>(m));
  else return _mm512_movepi64_mask(bits<__m512i>(m));
#elif PIR_SIMD_BYTES == 32
  if constexpr (kE == 4) return static_cast<unsigned>(_mm256_movemask_ps(bits<__m256>(m)));
  else return static_cast<unsigned>(_mm256_movemask_pd(bits<__m256d>(m)));
#else
  if constexpr (kE == 4) return static_cast<unsigned>(_mm_movemask_ps(bits<__m128>(m)));
  else return static_cast<unsigned>(_mm_movemask_pd(bits<__m128d>(m)));
#endif
}
// True if every lane / any lane of a comparison mask is set.
template <class M> inline bool allLanes(M m) { return laneBits(m) == (1u << (sizeof(M) / sizeof(m[0]))) - 1; }
template <class M> inline bool anyLane(M m) { return laneBits(m) != 0; }

// op folded over the lanes of v by halves (lanes i and i + N/2, then again on the
// half-width result) down to two scalars: log2(N) vector steps instead of N - 1
// scalar ones. op takes two vectors of a width or two scalars.
template <class S, size_t Bytes> struct VecOfBytes {
  typedef S type __attribute__((vector_size(Bytes)));
};
template <class S, class Vv, class Op> inline S foldLanes(Vv v, Op op) {
  constexpr size_t N = sizeof(Vv) / sizeof(S);
  if constexpr (N == 2) {
    return op(S(v[0]), S(v[1]));
  } else {
    using H = typename VecOfBytes<S, sizeof(Vv) / 2>::type;
    const auto halves = [&]<size_t... I>(std::index_sequence<I...>) {
      const H lo = __builtin_shufflevector(v, v, I...), hi = __builtin_shufflevector(v, v, (I + N / 2)...);
      return op(lo, hi);
    };
    return foldLanes<S>(halves(std::make_index_sequence<N / 2>{}), op);
  }
}

// Horner: c[0] + x*(c[1] + x*(... + x*c[N-1])). Unrolled: GCC leaves a loop of 20
// coefficients rolled, each step then a broadcast from memory on the critical path.
template <class V, class S, int N> inline V horner(V x, const S (&c)[N]) {
  V p = splat<V>(c[N - 1]);
#pragma GCC unroll 32
  for (int i = N - 2; i >= 0; --i) p = fmadd(p, x, splat<V>(c[i]));
  return p;
}

template <class S> inline typename VOf<S>::V vabs(typename VOf<S>::V x) {
  using U = typename VOf<S>::U;
  using V = typename VOf<S>::V;
  return bits<V>(bits<U>(x) & ~bits<U>(splat<V>(S(-0.0))));
}

template <class S> using Bits = std::conditional_t<sizeof(S) == 4, uint32_t, uint64_t>;
inline float sqrtOf(float v) { return __builtin_sqrtf(v); }
inline double sqrtOf(double v) { return __builtin_sqrt(v); }

// ---- exp ------------------------------------------------------------------
// x = n*ln2 + r, |r| <= ln2/2 (Cody-Waite: n*ln2hi is exact); e^r by its
// Taylor polynomial (degree 7 for f32, 13 for f64: truncation < 0.1 ulp),
// evaluated as 1 + (r + r^2*q(r)); then scaled by 2^n in two exact-power steps
// so that a subnormal result is rounded once and 2^n never overflows. x is
// clamped first to where the result is certainly 0 or inf.
// e^x as hi * scale (both normal or zero/inf; scale a power of 2, 2^-75 at
// least for f32, 2^-539 for f64), so that a caller can multiply hi by normal
// factors and round into the subnormal range only once, at the end.
template <class S> inline void vexpParts(typename VOf<S>::V x, typename VOf<S>::V& hiPart, typename VOf<S>::V& scale) {
  using T = VOf<S>;
  using V = typename T::V;
  using I = typename T::I;
  using U = typename T::U;
  constexpr bool kF = sizeof(S) == 4;
  const S lo = kF ? S(-104.0f) : S(-746.0), hi = kF ? S(89.0f) : S(710.0);
  const V magic = splat<V>(kF ? S(0x1.8p23f) : S(0x1.8p52));
  V xc = x > lo ? x : splat<V>(lo);  // NaN -> lo; restored at the end
  xc = xc < hi ? xc : splat<V>(hi);
  const V t = fmadd(xc, splat<V>(kF ? S(1.44269504088896341f) : S(1.44269504088896341)), magic);
  const V n = t - magic;
  const I k = bits<I>(t) - bits<I>(magic);
  V r = fmadd(n, splat<V>(kF ? S(-0.693359375f) : S(-6.93147180369123816490e-01)), xc);
  r = fmadd(n, splat<V>(kF ? S(2.12194440e-4f) : S(-1.90821492927058770002e-10)), r);
  V q;
  if constexpr (kF) {
    static constexpr float c[] = {1.f / 2, 1.f / 6, 1.f / 24, 1.f / 120, 1.f / 720, 1.f / 5040};
    q = horner(r, c);
  } else {
    static constexpr double c[] = {1. / 2,         1. / 6,          1. / 24,          1. / 120,
                                   1. / 720,       1. / 5040,       1. / 40320,       1. / 362880,
                                   1. / 3628800,   1. / 39916800,   1. / 479001600,   1. / 6227020800};
    q = horner(r, c);
  }
  const V p = fmadd(q, r * r, r) + S(1);
  // k in [-1077, 1025]: k1 = floor(k/2) without an arithmetic 64-bit shift.
  const I k1 = bits<I>(bits<U>(k + 2048) >> 1) - 1024;
  const I k2 = k - k1;
  const V s1 = bits<V>((k1 + T::kBias) << T::kMantBits);
  const V s2 = bits<V>((k2 + T::kBias) << T::kMantBits);
  hiPart = x < lo ? V{} : p * s1;  // beyond the clamp: exactly 0 (or inf via p * 2^64 * 2^65)
  hiPart = x != x ? x : hiPart;
  scale = s2;
}

// e^y for y in [-87, 88] (f32) or [-708, 709] (f64), no NaN, where 2^k of the
// range reduction is a normal number: vexp without the clamps and the split
// scaling, the same bits (one rounding of p 2^k either way), for tanh and vexp.
template <class S> inline typename VOf<S>::V vexpMid(typename VOf<S>::V y) {
  using T = VOf<S>;
  using V = typename T::V;
  using I = typename T::I;
  constexpr bool kF = sizeof(S) == 4;
  const V magic = splat<V>(kF ? S(0x1.8p23f) : S(0x1.8p52));
  const V t = fmadd(y, splat<V>(kF ? S(1.44269504088896341f) : S(1.44269504088896341)), magic);
  const V n = t - magic;
  const I k = bits<I>(t) - bits<I>(magic);
  V r = fmadd(n, splat<V>(kF ? S(-0.693359375f) : S(-6.93147180369123816490e-01)), y);
  r = fmadd(n, splat<V>(kF ? S(2.12194440e-4f) : S(-1.90821492927058770002e-10)), r);
  V q;
  if constexpr (kF) {
    static constexpr float c[] = {1.f / 2, 1.f / 6, 1.f / 24, 1.f / 120, 1.f / 720, 1.f / 5040};
    q = horner(r, c);
  } else {
    static constexpr double c[] = {1. / 2,         1. / 6,          1. / 24,          1. / 120,
                                   1. / 720,       1. / 5040,       1. / 40320,       1. / 362880,
                                   1. / 3628800,   1. / 39916800,   1. / 479001600,   1. / 6227020800};
    q = horner(r, c);
  }
  const V p = fmadd(q, r * r, r) + S(1);
  return p * bits<V>((k + T::kBias) << T::kMantBits);
}

// A vector whose lanes all lie in vexpMid's range (normal results, no NaN) skips the
// clamps and the two-step scaling: the same bits, in about two thirds of the time.
template <class S> inline typename VOf<S>::V vexp(typename VOf<S>::V x) {
  constexpr bool kF = sizeof(S) == 4;
  if (allLanes((x >= (kF ? S(-87.0f) : S(-708.0))) & (x <= (kF ? S(88.0f) : S(709.0))))) return vexpMid<S>(x);
  typename VOf<S>::V hi, scale;
  vexpParts<S>(x, hi, scale);
  return hi * scale;
}

// ---- log ------------------------------------------------------------------
// t[i & 31] for every lane i of idx: one two-register permute on AVX-512;
// on AVX2 four one-register permutes merged by bits 3 and 4 of i (cheaper
// than a gather); lane by lane on SSE2.
inline vf lookup32(vi idx, const float (&t)[32]) {
#if PIR_SIMD_BYTES == 64
  return _mm512_permutex2var_ps(_mm512_loadu_ps(t), bits<__m512i>(idx), _mm512_loadu_ps(t + 16));
#elif PIR_SIMD_BYTES == 32
  const __m256i i = bits<__m256i>(idx);
  const __m256 bit3 = bits<__m256>(idx << 28), bit4 = bits<__m256>(idx << 27);  // as sign bits
  const __m256 lo = _mm256_blendv_ps(_mm256_permutevar8x32_ps(_mm256_loadu_ps(t), i),
                                     _mm256_permutevar8x32_ps(_mm256_loadu_ps(t + 8), i), bit3);
  const __m256 hi = _mm256_blendv_ps(_mm256_permutevar8x32_ps(_mm256_loadu_ps(t + 16), i),
                                     _mm256_permutevar8x32_ps(_mm256_loadu_ps(t + 24), i), bit3);
  return bits<vf>(_mm256_blendv_ps(lo, hi, bit4));
#else
  vf v;
  for (int i = 0; i < 4; ++i) v[i] = t[idx[i] & 31];
  return v;
#endif
}

// f32: x = 2^k z with z in [kOff, 2 kOff), kOff = 0.6953125; z's bit pattern
// picks one of 32 intervals, whose invc (at most 6 significant bits, near
// 1/z) gives r = z*invc - 1, |r| < 0.0232. With invc that short and |r| <
// 2^-5, r is a float exactly (FMA: one rounding of an exact value; without
// FMA z is split in two so that each product is exact). Then
//   log(x) = (k ln2hi + logcHi) + r + r^2 q(r) + (k ln2lo + logcLo),
// logc = -log(invc), ln2hi and logcHi multiples of 2^-16, so the first sum H
// is exact for |k| < 256; H + r is added with its rounding error recovered
// (Fast2Sum: |H| >= |r| or H = 0, checked by the generator), so the result
// is rounded about once (bench/math_ulp: at most 0.54 ulp). Interval 19 holds 1.0
// with invc = 1 and logc = 0: log(1) = +0 and, near 1, r = z - 1.
// bench/math_tables.py derives the table and q (near-minimax relative to r).
// The lanes that need more (zero, subnormal, negative, inf, NaN) are found
// with one test; a vector with any such lane scales its subnormals into the
// normal range and patches the others, its normal lanes going through the
// same operations as in a vector without them (logF32Core(x, 0)), so a
// result never depends on its neighbours.
constexpr int32_t kLogOff = 0x3f320000;
constexpr float kLogInvC[32] = {
    1.4375f,  1.40625f, 1.375f,     1.34375f,  1.3125f,   1.28125f,  1.25f,      1.21875f,
    1.21875f, 1.1875f,  1.15625f,   1.15625f,  1.125f,    1.09375f,  1.09375f,   1.0625f,
    1.0625f,  1.03125f, 1.03125f,   1.0f,      0.96875f,  0.9375f,   0.921875f,  0.890625f,
    0.859375f, 0.84375f, 0.828125f, 0.796875f, 0.78125f,  0.765625f, 0.75f,      0.734375f};
constexpr float kLogCHi[32] = {
    -0.3628997802734375f, -0.3409271240234375f, -0.318450927734375f,  -0.29547119140625f,
    -0.2719268798828125f, -0.247833251953125f,  -0.22314453125f,      -0.1978302001953125f,
    -0.1978302001953125f, -0.171844482421875f,  -0.1451873779296875f, -0.1451873779296875f,
    -0.1177825927734375f, -0.0896148681640625f, -0.0896148681640625f, -0.0606231689453125f,
    -0.0606231689453125f, -0.0307769775390625f, -0.0307769775390625f, 0.0f,
    0.0317535400390625f,  0.064544677734375f,   0.0813446044921875f,  0.1158294677734375f,
    0.15155029296875f,    0.1699066162109375f,  0.1885986328125f,     0.22705078125f,
    0.246856689453125f,   0.267059326171875f,   0.287689208984375f,   0.3087310791015625f};
constexpr float kLogCLo[32] = {
    -0x1.7f6bbep-18f, 0x1.2053fcp-21f,  -0x1.78438cp-19f, 0x1.d451eep-18f,  -0x1.cababap-18f, -0x1.86d5e4p-19f,
    0x1.070cacp-20f,  0x1.2b185ep-18f,  0x1.2b185ep-18f,  -0x1.83853cp-18f, 0x1.683fp-18f,    0x1.683fp-18f,
    -0x1.db8abcp-22f, 0x1.6ba8d4p-19f,  0x1.6ba8d4p-19f,  -0x1.86008cp-20f, -0x1.86008cp-20f, 0x1.64f188p-18f,
    0x1.64f188p-18f,  0.0f,             -0x1.44ec32p-18f, -0x1.9d2988p-18f, 0x1.15d208p-20f,  0x1.3b1c22p-19f,
    -0x1.a7f538p-22f, -0x1.fca55ep-18f, -0x1.f4d572p-18f, 0x1.bf932ap-18f,  0x1.c6cb3cp-19f,  0x1.d044fcp-19f,
    -0x1.deecb2p-18f, 0x1.277334p-18f};

// log(x) for positive normal x, its exponent plus kadj (the subnormal scaling).
// The bit arithmetic wraps (unsigned): logF32 also passes the lanes it then replaces
// (negative x, NaN), whose patterns would overflow a signed subtraction.
inline vf logF32Core(vf x, vi kadj) {
  const vu ux = bits<vu>(x);
  const vu tmpU = ux - static_cast<uint32_t>(kLogOff);
  const vi tmp = bits<vi>(tmpU);
  const vi k = (tmp >> 23) + kadj;  // arithmetic shift: k < 0 below kOff
  const vi idx = tmp >> 18;         // the interval in the low 5 bits
  const vf z = bits<vf>(ux - (tmpU & 0xff800000u));
  const vf invc = lookup32(idx, kLogInvC);
#if PIR_SIMD_FMA
  const vf r = fmadd(z, invc, splat<vf>(-1.0f));
#else
  // z = zh + zl with zh's 18 leading bits: zh*invc (24 bits) and zl*invc are
  // exact, zh*invc - 1 is exact (Sterbenz), and the sum r is a float.
  const vf zh = bits<vf>(bits<vi>(z) & int32_t(0xffffffc0));
  const vf r = (zh * invc - 1.0f) + (z - zh) * invc;
#endif
  const vf kf = __builtin_convertvector(k, vf);
  const vf hi = fmadd(kf, splat<vf>(0.693145751953125f), lookup32(idx, kLogCHi));  // exact
  const vf lo = fmadd(kf, splat<vf>(0x1.7f7d1cp-20f), lookup32(idx, kLogCLo));
  const vf s = hi + r;
  const vf err = (hi - s) + r;
  static constexpr float q[] = {-0x1p-1f, 0x1.55556ep-2f, -0x1.00175p-2f, 0x1.972948p-3f};
  const vf t = fmadd(r * r, horner(r, q), lo + err);
  return s + t;
}

inline vf logF32(vf x) {
  const vu ux = bits<vu>(x);
  // Positive normal: bit patterns [0x00800000, 0x7f800000).
  const auto special = (ux - 0x00800000u) >= 0x7f000000u;
  if (!anyLane(special)) return logF32Core(x, vi{});
  const auto sub = (x < 0x1p-126f) & (x > 0.0f);
  const vf y = logF32Core(sub ? x * 0x1p23f : x, sub ? splat<vi>(-23) : vi{});
  const float inf = __builtin_inff();
  vf out = x == 0.0f ? splat<vf>(-inf) : y;
  out = x == inf ? x : out;
  out = x < 0.0f ? splat<vf>(__builtin_nanf("")) : out;
  return x != x ? x : out;
}

// f64: fdlibm's method: x = 2^k * m with m in [sqrt(2)/2, sqrt(2)), f = m - 1
// (exact), log(1+f) = f - (f^2/2 - s*(f^2/2 + R(s^2))) with s = f/(2+f), and
// k*ln2 added in two parts. Subnormals are scaled into the normal range first.
inline vd logF64(vd x) {
  const auto sub = (x < 0x1p-1022) & (x > 0.0);
  const vd xs = sub ? x * 0x1p54 : x;
  const vl kadj = sub ? splat<vl>(-54) : vl{};
  const vul ix = bits<vul>(xs);
  vl k = bits<vl>(ix >> 52) - 1023 + kadj;
  const vul m = ix & ((uint64_t(1) << 52) - 1);
  // sqrt(2)'s mantissa bits: m above it is halved (exponent -1) and k += 1.
  const auto big = bits<vl>(m) > int64_t(0x6a09e667f3bcdLL);
  const vd mv = bits<vd>(m | (big ? splat<vul>(uint64_t(1022) << 52) : splat<vul>(uint64_t(1023) << 52)));
  k = k + (big ? splat<vl>(1) : vl{});
  const vd f = mv - 1.0;
  const vd s = f / (f + 2.0);
  const vd z = s * s;
  const vd w = z * z;
  static constexpr double odd[] = {6.666666666666735130e-01, 2.857142874366239149e-01, 1.818357216161805012e-01,
                                   1.479819860511658591e-01};
  static constexpr double even[] = {3.999999999940941908e-01, 2.222219843214978396e-01, 1.531383769920937332e-01};
  const vd r = z * horner(w, odd) + w * horner(w, even);
  // k as a double without a 64-bit int->double conversion (not in AVX2).
  const vd magic = splat<vd>(0x1.8p52);
  const vd dk = bits<vd>(k + bits<vl>(magic)) - magic;
  const double ln2hi = 6.93147180369123816490e-01, ln2lo = 1.90821492927058770002e-10;
  const vd hfsq = 0.5 * f * f;
  vd y = dk * ln2hi - ((hfsq - (s * (hfsq + r) + dk * ln2lo)) - f);
  const double inf = __builtin_inf();
  y = x == 0.0 ? splat<vd>(-inf) : y;
  y = x == inf ? x : y;
  y = x < 0.0 ? splat<vd>(__builtin_nan("")) : y;
  return x != x ? x : y;
}

template <class S> inline typename VOf<S>::V vlog(typename VOf<S>::V x) {
  if constexpr (sizeof(S) == 4) return logF32(x);
  else return logF64(x);
}

// ---- tanh, sigmoid ----------------------------------------------------------
// tanh on a = |x|, sign restored by bits (tanh(-0) = -0):
//   a < split (1.0 for f32, 0.9 for f64): a + a^3 * R(a^2); a^3 R is at most
//     0.31 of the result, so R's rounding errors are damped.
//     f32: R a polynomial of degree 6 (bench/math_tables.py: near-minimax
//     relative to tanh, error < 2^-27 with its f32 coefficients), no division;
//     f64: R = (P - Q)/(a^2 Q) from a Pade approximant of Lambert's continued
//     fraction (depth 10; truncation < 1e-17 relative at the split);
//   a >= split: 1 - 2/(e^(2a) + 1), a clamped to 9.1 (f32) / 19.1 (f64)
//     where tanh already rounds to 1.
// For f64 both branches share one division. A vector whose lanes are all below
// the split skips the exponential: the same operations for those lanes, so the
// bits do not depend on the neighbours.
template <class S> constexpr S tanhSplit() { return sizeof(S) == 4 ? S(1.0f) : S(0.9); }
constexpr float kTanhR[] = {-0x1.55553cp-2f, 0x1.110be2p-3f,  -0x1.b96222p-5f, 0x1.60098ep-6f,
                            -0x1.0460bap-7f, 0x1.2da4dap-9f, -0x1.77dceep-12f};
constexpr double kTanhPadeNum[] = {-0.3333333333333333, -0.02456140350877193, -0.0004422821760283061,
                                   -2.184109511250894e-06, -1.5273493085670588e-09};
constexpr double kTanhPadeDen[] = {1.0, 0.47368421052631576, 0.02889576883384933, 0.00048159614723082214,
                                   2.2681137232220826e-06, 1.5273493085670588e-09};
template <class S> inline typename VOf<S>::V vtanh(typename VOf<S>::V x) {
  using T = VOf<S>;
  using V = typename T::V;
  using U = typename T::U;
  constexpr bool kF = sizeof(S) == 4;
  const V a = vabs<S>(x);
  const auto small = a < tanhSplit<S>();
  const V z = a * a;
  const S top = kF ? S(9.1f) : S(19.1);
  V y;
  if constexpr (kF) {
    y = fmadd(a * z, horner(z, kTanhR), a);
    if (!allLanes(small)) {  // NaN lanes are not small
      const V ac = a < top ? a : splat<V>(top);  // NaN -> top; restored at the end
      const V e = vexpMid<S>(ac + ac);
      y = small ? y : S(1) + splat<V>(S(-2)) / (e + S(1));
    }
  } else {
    const V rn = horner(z, kTanhPadeNum);
    const V rq = horner(z, kTanhPadeDen);
    if (allLanes(small)) {
      y = a + (a * z * rn) / rq;
    } else {
      const V ac = a < top ? a : splat<V>(top);  // NaN -> top; restored at the end
      const V e = vexpMid<S>(ac + ac);
      const V num = small ? a * z * rn : splat<V>(S(-2));
      const V den = small ? rq : e + S(1);
      const V base = small ? a : splat<V>(S(1));
      y = base + num / den;
    }
  }
  const U sign = bits<U>(x) & bits<U>(splat<V>(S(-0.0)));
  const V ys = bits<V>(bits<U>(y) | sign);
  return x != x ? x : ys;
}

// sigmoid(x) = 1/(1 + e^-|x|) for x >= 0, e^-|x|/(1 + e^-|x|) for x < 0: the
// exponential never overflows and tiny results keep their precision. The
// rounding error of d = 1 + e is recovered exactly (Fast2Sum: err = (1 - d) + e)
// and removed to first order, y*(1 - err/d), with 1/d = y (x >= 0) or 1 - y
// (x < 0): this keeps the result within ~1.5 ulp instead of ~2.3.
template <class S> inline typename VOf<S>::V vsigmoid(typename VOf<S>::V x) {
  using V = typename VOf<S>::V;
  const V e = vexp<S>(-vabs<S>(x));
  const auto neg = x < S(0);
  const V num = neg ? e : splat<V>(S(1));
  const V d = e + S(1);
  const V err = (S(1) - d) + e;
  const V q = num / d;
  const V inv = neg ? S(1) - q : q;
  const V y = fmadd(-q, err * inv, q);
  return x != x ? x : y;
}

// swish(x) = x * sigmoid(x) with the sigmoid's scale factor applied last, so a
// subnormal result is rounded once (x * sigmoid(x) would round twice).
template <class S> inline typename VOf<S>::V vswish(typename VOf<S>::V x) {
  using V = typename VOf<S>::V;
  V hi, scale;
  vexpParts<S>(-vabs<S>(x), hi, scale);
  const V e = hi * scale;
  const auto neg = x < S(0);
  const V d = e + S(1);
  const V err = (S(1) - d) + e;
  const V q = (neg ? hi : splat<V>(S(1))) / d;  // sigmoid / scale (x < 0) or sigmoid
  const V inv = neg ? S(1) - e / d : q;
  const V qc = fmadd(-q, err * inv, q);
  const V y = (x * qc) * (neg ? scale : splat<V>(S(1)));
  return x != x ? x : y;
}

// gelu's tanh form, x/2 (1 + tanh(u)) with u = k (x + a x^3), k = sqrt(2/pi), a =
// 0.044715, is x s with s = (1 + tanh(u))/2 = sigmoid(2u): s = 1/(1 + e) for u >= 0 and
// e/(1 + e) for u < 0, e = exp(-2|u|) <= 1. One exponential that never overflows, no
// cancellation anywhere (1 + tanh(u) loses the relative precision of gelu's small
// negative values as tanh(u) nears -1), and one form for every lane: each lane's result
// depends on its own value alone, and a vector costs the same whatever its lanes hold
// (a lower-range polynomial for small |u| would cost both forms wherever a vector's
// lanes straddle the split, which activations of unit scale nearly always do).
constexpr double kGeluK = 0.7978845608028654, kGeluA = 0.044715;  // sqrt(2/pi), the cubic's weight
template <class S> inline typename VOf<S>::V geluArgument(typename VOf<S>::V x, typename VOf<S>::V x2) {
  return S(kGeluK) * (x + S(kGeluA) * (x2 * x));
}
template <class S> inline typename VOf<S>::V vgelu(typename VOf<S>::V x) {
  using V = typename VOf<S>::V;
  const V u = geluArgument<S>(x, x * x);
  const V au = vabs<S>(u);
  const V e = vexp<S>(-(au + au));
  const V s = (u < S(0) ? e : splat<V>(S(1))) / (e + S(1));
  const V y = x * s;
  return x != x ? x : y;  // a NaN input's own bits
}

// g * gelu'(x) for the same form: gelu' = s + 2x u' s (1 - s), u' = k (1 + 3a x^2), with
// r = 1/(1 + e), s as in vgelu (r, or e r) and s (1 - s) = e r^2 for either sign of u.
template <class S> inline typename VOf<S>::V vgeluGrad(typename VOf<S>::V x, typename VOf<S>::V g) {
  using V = typename VOf<S>::V;
  const V x2 = x * x;
  const V u = geluArgument<S>(x, x2);
  const V au = vabs<S>(u);
  const V e = vexp<S>(-(au + au));
  const V r = S(1) / (e + S(1));
  const V s = u < S(0) ? e * r : r;
  const V ss = e * (r * r);
  const V du = S(kGeluK) * (S(1) + S(3 * kGeluA) * x2);
  const V y = g * (s + (x + x) * (du * ss));
  return g != g ? g : x != x ? x : y;  // a NaN operand's own bits
}

// ---- sin, cos (f32) ------------------------------------------------------------
// x = n pi/2 + r with n = rint(x 2/pi), |r| <= pi/4 (a hair more from the rounding of
// n), in double, where x is exact: pi/2 = kHalfPiHi + kHalfPiLo, kHalfPiHi of 33
// significant bits, so n kHalfPiHi is exact for |n| < 2^20 and so is x - n kHalfPiHi
// (a multiple of 2^-32 below 1); r = that - n kHalfPiLo is within 2^-66 + 2^-53 |r|
// of the exact remainder, also for the floats nearest a multiple of pi/2. sin(r) =
// r + r^3 S(r^2) and cos(r) = 1 - r^2/2 + r^4 C(r^2) (bench/math_tables.py: error
// relative to sin and cos below 2^-28), in double; n mod 4 picks one and its sign, and
// the float result is rounded once. Up to |x| = 2^19; larger, infinite and NaN inputs
// take the C library's sinf / cosf, lane by lane (so each lane depends on its own
// value alone). The double steps use FMA where the ISA has it (the polynomials);
// the reduction's steps are separate IEEE operations, the same on every ISA.
constexpr double kHalfPiHi = 0x1.921fb544p+0, kHalfPiLo = 0x1.0b4611a626331p-34, kTwoOverPi = 0x1.45f306dc9c883p-1;
constexpr double kSinS[] = {-0x1.555556p-3, 0x1.111108p-7, -0x1.a00f8p-13, 0x1.6cd1f2p-19};
constexpr double kCosC[] = {0x1.555556p-5, -0x1.6c16b8p-10, 0x1.a010dep-16, -0x1.241e9cp-22};
constexpr float kSinCosFastLimit = 0x1p19f;

// sin(x) (kCos false) or cos(x) for a vector of doubles that hold floats of |x| <= 2^19.
template <bool kCos> __attribute__((always_inline)) inline vd sinCosOfFloats(vd x) {
  const vd magic = splat<vd>(0x1.8p52);
  const vd t = x * splat<vd>(kTwoOverPi) + magic;
  const vd n = t - magic;
  const vl quadrant = (bits<vl>(t) - bits<vl>(magic) + (kCos ? 1 : 0)) & 3;
  const vd r = (x - n * splat<vd>(kHalfPiHi)) - n * splat<vd>(kHalfPiLo);
  const vd z = r * r;
  const vd sinR0 = fmadd(r * z, horner(z, kSinS), r);
  const vd sinR = r == 0 ? r : sinR0;  // sin(-0) = -0, where r + r^3 S gives +0
  const vd cosR = fmadd(z * z, horner(z, kCosC), fmadd(z, splat<vd>(-0.5), splat<vd>(1.0)));
  const vd pick = (quadrant & 1) != 0 ? cosR : sinR;
  return (quadrant & 2) != 0 ? -pick : pick;
}

// f of a vector of floats, evaluated as two vectors of doubles (each lane exact there),
// each lane's result rounded to float once.
template <class F> __attribute__((always_inline)) inline vf inDoubles(vf x, F f) {
  constexpr int kW = PIR_SIMD_BYTES / 4;
  using Half = typename VecOfBytes<float, PIR_SIMD_BYTES / 2>::type;
  const auto halves = [&]<size_t... I>(std::index_sequence<I...>) {
    const Half lo = __builtin_shufflevector(x, x, I...), hi = __builtin_shufflevector(x, x, (I + kW / 2)...);
    const vd a = __builtin_convertvector(lo, vd), b = __builtin_convertvector(hi, vd);
    const Half ra = __builtin_convertvector(f(a), Half);
    const Half rb = __builtin_convertvector(f(b), Half);
    return [&]<size_t... J>(std::index_sequence<J...>) { return vf(__builtin_shufflevector(ra, rb, J...)); }(
        std::make_index_sequence<kW>{});
  };
  return halves(std::make_index_sequence<kW / 2>{});
}

template <bool kCos> __attribute__((always_inline)) inline vf vsinCosF32(vf x) {
  constexpr int kW = PIR_SIMD_BYTES / 4;
  vf y = inDoubles(x, [](vd v) { return sinCosOfFloats<kCos>(v); });
  const auto fast = vabs<float>(x) <= kSinCosFastLimit;  // NaN: not fast
  if (!allLanes(fast)) {
    float xs[kW], ys[kW];
    store(xs, x);
    store(ys, y);
    const unsigned lanes = laneBits(fast);
    for (int i = 0; i < kW; ++i)
      if (!(lanes >> i & 1u)) ys[i] = kCos ? __builtin_cosf(xs[i]) : __builtin_sinf(xs[i]);
    y = load<vf>(ys);
  }
  return y;
}

// ---- Philox4x32-10 -----------------------------------------------------------------
// One counter per 64-bit lane (each 32-bit word held in a lane's low half): the blocks
// firstBlock .. firstBlock + blocks - 1 of counter {low32(j), high32(j), c2, c3} and key
// {k0, k1}; words[4 i + w] = word w of block firstBlock + i. Integer operations only:
// the same words as vm/random.cpp's philox4x32_10.
inline vul mulLow32(vul a, vul b) {  // the 64-bit product of the lanes' low 32 bits (pmuludq)
  const vul low = splat<vul>(uint64_t{0xffffffffu});
  return (a & low) * (b & low);
}

void philoxBlocks(uint64_t firstBlock, int64_t blocks, uint32_t c2, uint32_t c3, uint32_t k0, uint32_t k1,
                  uint32_t* words) {
  constexpr int kL = static_cast<int>(kLanes<double>);
  const vul low = splat<vul>(uint64_t{0xffffffffu});
  vul lane;
  for (int i = 0; i < kL; ++i) lane[i] = static_cast<uint64_t>(i);
  for (int64_t at = 0; at < blocks; at += kL) {
    const vul j = splat<vul>(firstBlock + static_cast<uint64_t>(at)) + lane;
    vul x0 = j & low, x1 = j >> 32, x2 = splat<vul>(uint64_t{c2}), x3 = splat<vul>(uint64_t{c3});
    uint32_t key0 = k0, key1 = k1;
    for (int round = 0; round < 10; ++round) {
      const vul p0 = mulLow32(splat<vul>(uint64_t{0xD2511F53u}), x0);
      const vul p1 = mulLow32(splat<vul>(uint64_t{0xCD9E8D57u}), x2);
      const vul y0 = ((p1 >> 32) ^ x1 ^ splat<vul>(uint64_t{key0})) & low;
      const vul y2 = ((p0 >> 32) ^ x3 ^ splat<vul>(uint64_t{key1})) & low;
      x1 = p1 & low;
      x3 = p0 & low;
      x0 = y0;
      x2 = y2;
      key0 += 0x9E3779B9u;
      key1 += 0xBB67AE85u;
    }
    const int64_t count = blocks - at < kL ? blocks - at : kL;
    for (int64_t i = 0; i < count; ++i) {
      uint32_t* w = words + 4 * (at + i);
      w[0] = static_cast<uint32_t>(x0[i]), w[1] = static_cast<uint32_t>(x1[i]);
      w[2] = static_cast<uint32_t>(x2[i]), w[3] = static_cast<uint32_t>(x3[i]);
    }
  }
}

// ---- Box-Muller (random_normal) -----------------------------------------------------
// From IEEE operations alone, none fused and no library call, so every ISA and machine
// gives the same bits (runtime.md §6: random values are reproducible across machines).
//   ln u, u in [2^-33, 1): u = 2^e m, m in [sqrt(1/2), sqrt(2)), ln u = e ln2hi + (e
//   ln2lo + ln m), ln m = 2 atanh(s) = 2 (s + s z Q(z)), s = (m - 1)/(m + 1), z = s^2 <
//   0.0295, Q the series 1/3 + z/5 + ... + z^10/23 (the next term is below 2^-63 of ln m;
//   e ln2hi is exact: ln2hi has 32 significant bits).
//   cos and sin of 2 pi v, v in (0, 1): t = 8 v (exact), octant o = floor(t), f = t - o
//   (exact); theta = f pi/4 (odd octants: (1 - f) pi/4) in [0, pi/4], where the Taylor
//   series of sin to theta^17 and of cos to theta^18 are within 2^-60; o picks which is
//   which and their signs.
constexpr double kLn2Hi = 0x1.62e42feep-1, kLn2Lo = 0x1.a39ef35793c76p-33;
constexpr double kAtanhQ[] = {1. / 3, 1. / 5, 1. / 7, 1. / 9, 1. / 11, 1. / 13, 1. / 15, 1. / 17, 1. / 19, 1. / 21, 1. / 23};
constexpr double kSinTaylor[] = {-1. / 6, 1. / 120, -1. / 5040, 1. / 362880, -1. / 39916800, 1. / 6227020800.,
                                 -1. / 1307674368000., 1. / 355687428096000.};
constexpr double kCosTaylor[] = {-1. / 2, 1. / 24, -1. / 720, 1. / 40320, -1. / 3628800, 1. / 479001600.,
                                 -1. / 87178291200., 1. / 20922789888000., -1. / 6402373705728000.};

template <int N> inline vd hornerUnfused(vd x, const double (&c)[N]) {
  vd p = splat<vd>(c[N - 1]);
  for (int i = N - 2; i >= 0; --i) p = p * x + splat<vd>(c[i]);
  return p;
}

inline vd sqrtD(vd x) {  // lane by lane, which the compiler turns into one vector sqrt
  vd r;
  for (int i = 0; i < static_cast<int>(kLanes<double>); ++i) r[i] = __builtin_sqrt(x[i]);
  return r;
}

// Small non-negative integers held in doubles <-> int64 lanes, exactly (|v| < 2^51).
inline vl intOf(vd v) { return bits<vl>(v + splat<vd>(0x1.8p52)) - bits<vl>(splat<vd>(0x1.8p52)); }
inline vd doubleOf(vl v) { return bits<vd>(v + bits<vl>(splat<vd>(0x1.8p52))) - splat<vd>(0x1.8p52); }

inline vd logUnitUnfused(vd u) {
  const vul b = bits<vul>(u);
  vl e = bits<vl>((b >> 52) & 0x7ff) - 1023;
  vd m = bits<vd>((b & 0xfffffffffffffull) | (uint64_t{1023} << 52));
  const vl big = m > splat<vd>(0x1.6a09e667f3bcdp+0);  // sqrt(2) rounded: m above it halves
  m = big ? m * splat<vd>(0.5) : m;
  e = e - big;  // a true lane is -1
  const vd one = splat<vd>(1.0);
  const vd s = (m - one) / (m + one), z = s * s;
  const vd half = s + s * (z * hornerUnfused(z, kAtanhQ));
  const vd ed = doubleOf(e);
  return ed * splat<vd>(kLn2Hi) + (ed * splat<vd>(kLn2Lo) + (half + half));
}

inline void cosSinTwoPi(vd v, vd& cosine, vd& sine) {
  const vd t = v * splat<vd>(8.0);
  vd tr = (t + splat<vd>(0x1.8p52)) - splat<vd>(0x1.8p52);  // nearest, then floor
  tr = tr > t ? tr - splat<vd>(1.0) : tr;
  const vl o = intOf(tr);
  const vd f = t - tr;
  const vd a = (o & 1) != 0 ? splat<vd>(1.0) - f : f;
  const vd theta = a * splat<vd>(0x1.921fb54442d18p-1), z = theta * theta;  // pi/4
  const vd sinT = theta + theta * (z * hornerUnfused(z, kSinTaylor));
  const vd cosT = splat<vd>(1.0) + z * hornerUnfused(z, kCosTaylor);
  const vl swap = ((o + 1) >> 1) & 1;
  vd sn = swap != 0 ? cosT : sinT, cs = swap != 0 ? sinT : cosT;
  sn = ((o >> 2) & 1) != 0 ? -sn : sn;
  cs = (((o + 2) >> 2) & 1) != 0 ? -cs : cs;
  cosine = cs;
  sine = sn;
}

// Per pair k: u = (first[k] + 1/2) 2^-32, v = (second[k] + 1/2) 2^-32, r = sqrt(-2 ln u);
// cosine[k] = r cos(2 pi v), sine[k] = r sin(2 pi v).
void boxMuller(const uint32_t* first, const uint32_t* second, double* cosine, double* sine, int64_t pairs) {
  constexpr int kL = static_cast<int>(kLanes<double>);
  typedef uint32_t vuHalf __attribute__((vector_size(PIR_SIMD_BYTES / 2)));
  auto run = [&](const uint32_t* a, const uint32_t* b, double* c, double* s) {
    const vd scale = splat<vd>(0x1p-32), half = splat<vd>(0.5);
    const vd u = (__builtin_convertvector(load<vuHalf>(a), vd) + half) * scale;
    const vd v = (__builtin_convertvector(load<vuHalf>(b), vd) + half) * scale;
    const vd r = sqrtD(splat<vd>(-2.0) * logUnitUnfused(u));
    vd cs, sn;
    cosSinTwoPi(v, cs, sn);
    store(c, r * cs);
    store(s, r * sn);
  };
  int64_t k = 0;
  for (; k + kL <= pairs; k += kL) run(first + k, second + k, cosine + k, sine + k);
  if (k < pairs) {  // the tail through the same vector code, padded
    uint32_t a[kL] = {}, b[kL] = {};
    double c[kL], s[kL];
    const int64_t rest = pairs - k;
    std::memcpy(a, first + k, static_cast<size_t>(rest) * sizeof(uint32_t));
    std::memcpy(b, second + k, static_cast<size_t>(rest) * sizeof(uint32_t));
    run(a, b, c, s);
    std::memcpy(cosine + k, c, static_cast<size_t>(rest) * sizeof(double));
    std::memcpy(sine + k, s, static_cast<size_t>(rest) * sizeof(double));
  }
}

// f64 sin and cos: the C library's, element by element.
template <bool kCos> void sinCosF64(const double* x, double* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = kCos ? __builtin_cos(x[i]) : __builtin_sin(x[i]);
}

// ---- erf, gelu_erf (f32) -------------------------------------------------------------
// Both evaluated in double, where a float and its square are exact, each lane rounded to
// float once at the end. bench/math_tables.py derives the constants; their errors
// relative to the result before that rounding are below 2^-32, so a result is within
// about 0.503 ulp of the exact value (bench/math_ulp). Each lane's own value picks its
// form, so no result depends on the other lanes.
//
// erf(s) = s P(s^2) for |s| < kErfOne, P of degree 19, its error relative to erf(s) (and,
// for |s| <= kGeluSplit/sqrt 2, to erfc(|s|) = 1 - erf(|s|)) below 2^-32.4; ±1 from
// kErfOne on, where erfc(|s|) < 2^-25 and f32 erf rounds to ±1. P(0) is 2/sqrt(pi), so a
// tiny or subnormal x gives x 2/sqrt(pi) in double, rounded to float; -0 stays -0. One
// form for every lane: no exponential, no division.
//
// gelu_erf(x) = x Phi(x), Phi(x) = (1 + erf(s))/2 with s = x/sqrt 2:
// - -kGeluSplit <= x < kPhiOne = kErfOne sqrt 2: Phi = 1/2 + x Q(x^2), Q(u) = P(u/2)/(2
//   sqrt 2) (kPhiPoly: P's coefficients times 2^-i/(2 sqrt 2), each rounded, a 2^-53
//   relative change; x^2 is exact, so no rounding of x/sqrt 2 enters). For x < 0 the
//   sum cancels, but P's error there is relative to erfc(|s|) and the sum is exact to
//   2^-54, so Phi keeps its relative accuracy down to Phi(-3.5) = 2.3e-4 (x/2 (1 +
//   erf(s)) evaluated in f32 loses it from about x = -2, 310 ulps in the median over
//   [-4, -3), and is 0 from x = -5.54). From kPhiOne on, Phi = 1 (1 - Phi < 2^-26, so
//   x Phi rounds to x).
// - x < -kGeluSplit: Phi(x) = Phi(-v) = t e^(-v^2/2) G(t), v = -x, t = 1/(1 + q v) with
//   q = kPhiTailQ, G of degree 7 (error relative to Phi(-v) below 2^-34.5 on
//   [kGeluSplit, kPhiZero]). v^2/2 is exact, so no rounding of 1/sqrt 2 enters the
//   exponential; t's rounding moves Phi by about 2^-52. Below x = -kPhiZero the exact
//   result is under 2^-150 and Phi is taken as 0: x Phi is -0 there, and NaN at -inf
//   (as the formula evaluated as written gives).
// A half vector of doubles with no lane below -kGeluSplit skips the tail form (its lanes
// would not use it). Activations of unit scale rarely reach that far (2 in 10^4 of a
// standard normal's values), so nearly every vector takes the polynomial alone; one that
// holds such a lane costs both forms.
constexpr float kErfOne = 0x1.f5a88ap+1f;
constexpr double kErfP[] = {  // kErfP[0] = 2/sqrt(pi)
    0x1.20dd750429b6dp+0, -0x1.81274673d3480p-2, 0x1.ce2f1b76899f6p-4, -0x1.b82ca1705248cp-6,
    0x1.565a436cf41e3p-8, -0x1.c021c76cfaf9ap-11, 0x1.f96297380c862p-14, -0x1.f3d22f140d7b5p-17,
    0x1.b6e5000fb3ac4p-20, -0x1.58733b6a1001cp-23, 0x1.e30c48f8ad43bp-27, -0x1.2c1bf22c5a3f7p-30,
    0x1.45139881a8743p-34, -0x1.2be95ff4194d5p-38, 0x1.c9bbde07d35ecp-43, -0x1.16ad72f8dbc1ap-47,
    0x1.0247a7fdfc270p-52, -0x1.542adbfb15523p-58, 0x1.1a3d7f583c1b6p-64, -0x1.ba0ded0e7324ap-72};
constexpr double kSqrtHalf = 0x1.6a09e667f3bcdp-1;  // 1/sqrt 2, rounded to double
struct ErfTable {
  double c[sizeof kErfP / sizeof kErfP[0]];
};
// Q(u) = P(u/2)/(2 sqrt 2): P's coefficients times 2^-i/(2 sqrt 2), each rounded.
constexpr ErfTable kPhiPoly = [] {
  ErfTable q{};
  double scale = kSqrtHalf / 2;
  for (size_t i = 0; i < sizeof q.c / sizeof q.c[0]; ++i, scale /= 2) q.c[i] = kErfP[i] * scale;
  return q;
}();
constexpr double kPhiOne = double(kErfOne) / kSqrtHalf;
constexpr double kGeluSplit = 3.5, kPhiTailQ = 0.37;
constexpr float kPhiZero = 0x1.cb64eap+3f;
constexpr double kPhiG[] = {0x1.2e4d0b7dcdde8p-3, 0x1.2e5a917f1182bp-3, 0x1.042e15a06d009p-3,
                            0x1.704cd3128c64ep-4, 0x1.45d345ede2137p-6, 0x1.16d23b818aedep-5,
                            -0x1.048be5bc82690p-3, 0x1.ffe99df6a60d1p-5};

// erf(s) (NaN lanes: ±1, replaced by the caller).
__attribute__((always_inline)) inline vd erfOfDoubles(vd s) {
  const vd y = s * horner(s * s, kErfP);
  const vd one = bits<vd>(bits<vul>(splat<vd>(1.0)) | (bits<vul>(s) & bits<vul>(splat<vd>(-0.0))));
  return vabs<double>(s) < double(kErfOne) ? y : one;
}

// gelu_erf(x) for doubles that hold floats (NaN lanes: replaced by the caller).
__attribute__((always_inline)) inline vd geluErfOfFloats(vd x) {
  const vd below = fmadd(x, horner(x * x, kPhiPoly.c), splat<vd>(0.5));
  vd phi = x < kPhiOne ? below : splat<vd>(1.0);  // +inf, NaN -> 1
  const auto tail = x < -kGeluSplit;
  if (anyLane(tail)) {
    vd v = -x < double(kPhiZero) ? -x : splat<vd>(double(kPhiZero));  // -inf -> kPhiZero
    v = v > kGeluSplit ? v : splat<vd>(kGeluSplit);  // the other lanes: inside G's range
    const vd t = splat<vd>(1.0) / fmadd(v, splat<vd>(kPhiTailQ), splat<vd>(1.0));
    const vd lower = t * vexpMid<double>(v * v * -0.5) * horner(t, kPhiG);  // Phi(-v)
    phi = tail ? (x < -double(kPhiZero) ? vd{} : lower) : phi;
  }
  return x * phi;
}

inline vf verfF32(vf x) {
  const vf y = inDoubles(x, [](vd v) { return erfOfDoubles(v); });
  return x != x ? x : y;  // a NaN input's own bits
}
inline vf vgeluErfF32(vf x) {
  const vf y = inDoubles(x, [](vd v) { return geluErfOfFloats(v); });
  return x != x ? x : y;
}

// f64 erf: the C library's, element by element. f64 gelu_erf: x/2 (1 + erf(x/sqrt 2))
// for x >= 0 (at least 1/2 there: nothing cancels), x/2 erfc(a) with a = -x/sqrt 2 for x
// < 0, relative to the small value. a is rounded: with a = hi + lo (lo the products'
// rounding errors, 1/sqrt 2 as two doubles), erfc(hi + lo) = erfc(hi) - lo 2/sqrt(pi)
// e^(-hi^2) to first order, which keeps a's rounding out of the result (erfc(hi) alone
// is up to about 0.6 x^2 ulps off: 60 at x = -10, 840 at x = -37).
constexpr double kSqrtHalfLo = -0x1.bdd3413b26400p-55;  // 1/sqrt 2 - kSqrtHalf
constexpr double kTwoOverSqrtPi = 0x1.20dd750429b6dp+0;
void erfF64(const double* x, double* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = __builtin_erf(x[i]);
}
void geluErfF64(const double* x, double* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const double v = x[i];
    if (!(v < 0)) {  // and NaN
      y[i] = 0.5 * v * (1.0 + __builtin_erf(v * kSqrtHalf));
    } else {
      const double hi = -v * kSqrtHalf;
      const double lo = __builtin_fma(-v, kSqrtHalf, -hi) - v * kSqrtHalfLo;
      const double e = __builtin_erfc(hi) - lo * kTwoOverSqrtPi * __builtin_exp(-hi * hi);
      y[i] = 0.5 * v * e;
    }
  }
}

// ---- softplus --------------------------------------------------------------------
// softplus(x) = max(x, 0) + log1p(e) with e = exp(-|x|) <= 1 (nothing overflows), in
// double, and log1p(e) = log(u) - ((u - 1) - e) / u with u = 1 + e: the correction
// puts back the part of e that u's rounding dropped (first order is exact enough
// here), so tiny e (x far below 0) gives e, not 0. f32 is computed in doubles and
// rounded once: within an ulp; f64 within about two.
__attribute__((always_inline)) inline vd softplusOfDoubles(vd x) {
  const vd e = vexp<double>(-vabs<double>(x));
  const vd u = e + 1.0;
  const vd log1pE = vlog<double>(u) - ((u - 1.0) - e) / u;
  return (x > 0.0 ? x : vd{}) + log1pE;
}
inline vf vsoftplusF32(vf x) {
  const vf y = inDoubles(x, [](vd v) { return softplusOfDoubles(v); });
  return x != x ? x : y;  // a NaN input's own bits
}
inline vd vsoftplusF64(vd x) {
  const vd y = softplusOfDoubles(x);
  return x != x ? x : y;
}

// f32 log2 as ln x / ln 2 in double: the f64 log (about 1 ulp of a double) times
// 1/ln 2 (rounded to double) is within 2^-50 relative of log2 x, so the one rounding to
// f32 is nearly correct (exact on powers of 2: k (1 + 2^-51) rounds to k). ±0 gives
// -inf, negatives NaN, +inf itself (the f64 log's); a NaN input keeps its own bits.
constexpr double kInvLn2 = 0x1.71547652b82fep+0;  // 1/ln 2, rounded to double
inline vf vlog2F32(vf x) {
  const vf y = inDoubles(x, [](vd v) { return vlog<double>(v) * splat<vd>(kInvLn2); });
  return x != x ? x : y;
}
void log2F64(const double* x, double* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = __builtin_log2(x[i]);
}

// ---- loops --------------------------------------------------------------------

template <class S, class F> inline void mapUnary(const S* x, S* y, int64_t n, F f) {
  using V = typename VOf<S>::V;
  constexpr int64_t W = kLanes<S>;
  int64_t i = 0;
  for (; i + 2 * W <= n; i += 2 * W) {  // two independent vectors in flight
    const V a = f(load<V>(x + i)), b = f(load<V>(x + i + W));
    store(y + i, a);
    store(y + i + W, b);
  }
  for (; i + W <= n; i += W) store(y + i, f(load<V>(x + i)));
  if (i < n) {  // the tail: padded, through the same function
    S buf[W] = {};
    std::memcpy(buf, x + i, static_cast<size_t>(n - i) * sizeof(S));
    store(buf, f(load<V>(buf)));
    std::memcpy(y + i, buf, static_cast<size_t>(n - i) * sizeof(S));
  }
}

// floor, ceil and rint (half to even) without a rounding instruction (SSE2 has none,
// and the three ISAs must agree): for |v| < 2^p (p the mantissa bits) (|v| + 2^p) - 2^p
// is |v| rounded to an integer half to even (the add's own rounding); with v's sign, it
// is stepped by one where it passed v (floor: above it; ceil: below it). Greater |v|,
// infinities and NaN are their own result. Every result takes v's sign, as IEEE's do
// (floor(-0.0) = -0, ceil(-0.5) = -0, rint(-0.4) = -0): exact, the C library's bits.
template <class S, int K> inline typename VOf<S>::V vroundToInteger(typename VOf<S>::V v) {
  using T = VOf<S>;
  using V = typename T::V;
  using U = typename T::U;
  const U sign = bits<U>(splat<V>(S(-0.0)));
  const V magnitude = bits<V>(bits<U>(v) & ~sign);
  const V big = splat<V>(S(Bits<S>(1) << T::kMantBits));
  V r = bits<V>(bits<U>((magnitude + big) - big) | (bits<U>(v) & sign));
  const U one = bits<U>(splat<V>(S(1)));
  if constexpr (K == kFloor) r -= bits<V>(bits<U>(r > v) & one);
  else if constexpr (K == kCeil) r += bits<V>(bits<U>(r < v) & one);
  r = bits<V>((bits<U>(r) & ~sign) | (bits<U>(v) & sign));
  const U small = bits<U>(magnitude < big);
  return bits<V>((bits<U>(r) & small) | (bits<U>(v) & ~small));
}

template <class S, int K> void unaryVec(const S* x, S* y, int64_t n) {
  using V = typename VOf<S>::V;
  if constexpr (K == kExp) mapUnary(x, y, n, [](V v) { return vexp<S>(v); });
  else if constexpr (K == kLog) mapUnary(x, y, n, [](V v) { return vlog<S>(v); });
  else if constexpr (K == kTanh) mapUnary(x, y, n, [](V v) { return vtanh<S>(v); });
  else if constexpr (K == kSigmoid) mapUnary(x, y, n, [](V v) { return vsigmoid<S>(v); });
  else if constexpr (K == kSwish) mapUnary(x, y, n, [](V v) { return vswish<S>(v); });
  else if constexpr (K == kGelu) mapUnary(x, y, n, [](V v) { return vgelu<S>(v); });
  else if constexpr (K == kSin || K == kCos) {
    if constexpr (sizeof(S) == 4) mapUnary(x, y, n, [](V v) { return vsinCosF32<K == kCos>(v); });
    else sinCosF64<K == kCos>(x, y, n);
  } else if constexpr (K == kErf) {
    if constexpr (sizeof(S) == 4) mapUnary(x, y, n, [](V v) { return verfF32(v); });
    else erfF64(x, y, n);
  } else if constexpr (K == kGeluErf) {
    if constexpr (sizeof(S) == 4) mapUnary(x, y, n, [](V v) { return vgeluErfF32(v); });
    else geluErfF64(x, y, n);
  } else if constexpr (K == kSoftplus) {
    if constexpr (sizeof(S) == 4) mapUnary(x, y, n, [](V v) { return vsoftplusF32(v); });
    else mapUnary(x, y, n, [](V v) { return vsoftplusF64(v); });
  } else if constexpr (K == kLog2) {
    if constexpr (sizeof(S) == 4) mapUnary(x, y, n, [](V v) { return vlog2F32(v); });
    else log2F64(x, y, n);
  } else if constexpr (K == kFloor || K == kCeil || K == kRound) {
    mapUnary(x, y, n, [](V v) { return vroundToInteger<S, K>(v); });
  }
}

// One IEEE operation per element: plain loops the compiler vectorises (with a
// run-time overlap check, so in place works), equal to scalar code bit for bit
// whatever it does with the tail.
template <class S, int K> void unaryExact(const S* x, S* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const S v = x[i];
    if constexpr (K == kSqrt) y[i] = sqrtOf(v);
    else if constexpr (K == kRsqrt) y[i] = S(1) / sqrtOf(v);
    else if constexpr (K == kReciprocal) y[i] = S(1) / v;
    else if constexpr (K == kAbs) y[i] = bits<S>(bits<Bits<S>>(v) & ~bits<Bits<S>>(S(-0.0)));
    else if constexpr (K == kNeg) y[i] = -v;
    else if constexpr (K == kSquare) y[i] = v * v;
    else y[i] = v < S(0) ? S(0) : v;  // relu; NaN stays NaN
  }
}

template <class S, int K> inline S binOp(S a, S b) {
  if constexpr (K == kAdd) return a + b;
  else if constexpr (K == kSub) return a - b;
  else if constexpr (K == kMul) return a * b;
  else if constexpr (K == kDiv) return a / b;
  else if constexpr (K == kMax) return (a != a || a > b) ? a : b;  // NaN wins
  else return (a != a || a < b) ? a : b;
}

// A binary vector function over (a, b) in mode M; the tail padded (with zeros) and
// computed by the same function, as mapUnary.
template <class S, int M, class F> inline void mapBinary(const S* a, const S* b, S* y, int64_t n, F f) {
  using V = typename VOf<S>::V;
  constexpr int64_t W = kLanes<S>;
  const V as = splat<V>(a[0]), bs = splat<V>(b[0]);
  auto at = [&](int64_t i) { return M == kScalarVec ? as : load<V>(a + i); };
  auto bt = [&](int64_t i) { return M == kVecScalar ? bs : load<V>(b + i); };
  int64_t i = 0;
  for (; i + W <= n; i += W) store(y + i, f(at(i), bt(i)));
  if (i < n) {
    S abuf[W] = {}, bbuf[W] = {};
    const size_t bytes = static_cast<size_t>(n - i) * sizeof(S);
    if (M != kScalarVec) std::memcpy(abuf, a + i, bytes);
    if (M != kVecScalar) std::memcpy(bbuf, b + i, bytes);
    const V r = f(M == kScalarVec ? as : load<V>(abuf), M == kVecScalar ? bs : load<V>(bbuf));
    store(abuf, r);
    std::memcpy(y + i, abuf, bytes);
  }
}

template <class S, int K, int M> void binaryLoop(const S* a, const S* b, S* y, int64_t n) {
  using V = typename VOf<S>::V;
  if constexpr (K == kGeluGrad) {
    mapBinary<S, M>(a, b, y, n, [](V x, V g) { return vgeluGrad<S>(x, g); });
  } else if constexpr (M == kVecVec) {
    for (int64_t i = 0; i < n; ++i) y[i] = binOp<S, K>(a[i], b[i]);
  } else if constexpr (M == kVecScalar) {
    const S s = b[0];
    for (int64_t i = 0; i < n; ++i) y[i] = binOp<S, K>(a[i], s);
  } else {
    const S s = a[0];
    for (int64_t i = 0; i < n; ++i) y[i] = binOp<S, K>(s, b[i]);
  }
}

template <class S, int K> inline bool cmpOp(S a, S b) {
  if constexpr (K == kEq) return a == b;
  else if constexpr (K == kNe) return a != b;
  else if constexpr (K == kGt) return a > b;
  else if constexpr (K == kGe) return a >= b;
  else if constexpr (K == kLt) return a < b;
  else return a <= b;
}

// Whole vectors compared in registers, the lane masks narrowed to bytes; the
// tail element by element (a comparison is exact, so both agree).
template <class S, int K, int M> void compareLoop(const S* a, const S* b, bool* y, int64_t n) {
  using V = typename VOf<S>::V;
  using I = typename VOf<S>::I;
  constexpr int64_t W = kLanes<S>;
  using vb = std::conditional_t<sizeof(S) == 4, vbf, vbd>;
  const V sa = splat<V>(a[0]), sb = splat<V>(b[0]);
  int64_t i = 0;
  for (; i + W <= n; i += W) {
    const V va = M == kScalarVec ? sa : load<V>(a + i);
    const V vb2 = M == kVecScalar ? sb : load<V>(b + i);
    I m;
    if constexpr (K == kEq) m = va == vb2;
    else if constexpr (K == kNe) m = va != vb2;
    else if constexpr (K == kGt) m = va > vb2;
    else if constexpr (K == kGe) m = va >= vb2;
    else if constexpr (K == kLt) m = va < vb2;
    else m = va <= vb2;
    const vb bytes = -__builtin_convertvector(m, vb);  // -1 -> 1
    std::memcpy(y + i, &bytes, W);
  }
  for (; i < n; ++i) y[i] = cmpOp<S, K>(M == kScalarVec ? a[0] : a[i], M == kVecScalar ? b[0] : b[i]);
}

template <class S> void scaledAdd(const S* x, const S* z, S* y, S a, S b, int64_t n, int mode) {
  if (mode == kVecVec) {
    for (int64_t i = 0; i < n; ++i) {
      const S ax = a * x[i], bz = b * z[i];
      y[i] = ax + bz;
    }
  } else if (mode == kVecScalar) {
    const S bz = b * z[0];
    for (int64_t i = 0; i < n; ++i) y[i] = a * x[i] + bz;
  } else {
    const S ax = a * x[0];
    for (int64_t i = 0; i < n; ++i) y[i] = ax + b * z[i];
  }
}

// The 16 partials as one vector of 16 (the compiler splits it into registers of
// this ISA's width), combined by halves in registers (foldLanes): p[j] + p[j + 8] is
// the sum of the two halves, and so on down to one lane.
template <class S> struct Partials16 {
  typedef S V16 __attribute__((vector_size(16 * sizeof(S))));
  static S combine(V16 p) {
    return foldLanes<S>(p, [](auto a, auto b) { return a + b; });
  }
  // The same pairwise combination by products.
  static S multiply(V16 p) {
    return foldLanes<S>(p, [](auto a, auto b) { return a * b; });
  }
};

// Sixteen consecutive elements as one V16 (unaligned).
template <class S> inline typename Partials16<S>::V16 load16(const S* p) {
  typename Partials16<S>::V16 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class S> inline void store16(S* p, typename Partials16<S>::V16 v) { std::memcpy(p, &v, sizeof v); }

// The table's summation order (`sum`) over terms t[0..n): 16 partials (chunk(i) gives
// t[i..i+16) as a V16), their pairwise combination, then the tail (term(i) gives t[i])
// in order. sumContiguous is it over stored elements; a sum of terms computed on the
// fly has the bits of the terms stored and then summed.
template <class S, class Chunk, class Term> inline S sumInOrder(int64_t n, Chunk chunk, Term term) {
  typename Partials16<S>::V16 p;
  for (int j = 0; j < 16; ++j) p[j] = S(-0.0);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) p += chunk(i);
  S s = Partials16<S>::combine(p);
  for (; i < n; ++i) s += term(i);
  return s;
}

template <class S> S sumContiguous(const S* x, int64_t n) {
  return sumInOrder<S>(n, [x](int64_t i) { return load16(x + i); }, [x](int64_t i) { return x[i]; });
}

// A row centred into d (d[i] = x[i] - mean, mean = sum(x) / n) and its rstd = 1 /
// sqrt(sum(d * d) / n + epsilon), both sums in `sum`'s order: the normalisations'
// shared first steps. d may be x.
template <class S> S centreRow(const S* x, int64_t n, S epsilon, S* d) {
  const S count = static_cast<S>(n);
  const S mean = sumContiguous(x, n) / count;
  const S sq = sumInOrder<S>(
      n,
      [&](int64_t i) {
        const auto v = load16(x + i) - mean;
        store16(d + i, v);
        return v * v;
      },
      [&](int64_t i) {
        const S v = x[i] - mean;
        d[i] = v;
        return v * v;
      });
  return S(1) / sqrtOf(sq / count + epsilon);
}

template <class S> S normaliseRowFused(const S* x, int64_t n, S epsilon, S* xhat) {
  const S rstd = centreRow(x, n, epsilon, xhat);
  S* __restrict d = xhat;
  for (int64_t i = 0; i < n; ++i) d[i] = d[i] * rstd;
  return rstd;
}

// layer_norm's row: y = xhat * gamma + beta, xhat as normaliseRowFused's.
template <class S> void layerNormRowFused(const S* x, const S* gamma, const S* beta, int64_t n, S epsilon, S* y) {
  const S rstd = centreRow(x, n, epsilon, y);
  S* __restrict out = y;
  for (int64_t i = 0; i < n; ++i) {
    const S xh = out[i] * rstd;
    const S scaled = xh * gamma[i];
    out[i] = scaled + beta[i];
  }
}

// One row of layer_norm_grad: centreRow, then one pass that scales xhat, adds g *
// xhat and g into the row's dgamma and dbeta, forms dxhat = g * gamma in dx and both
// of its sums (16 partials each, as sumInOrder), then the pass that writes dx. Every
// element is rounded as the separate loops round it.
template <class S>
void layerNormGradRowFused(const S* x, const S* g, const S* gamma, int64_t n, S epsilon, S* xhat, S* dgamma,
                           S* dbeta, S* dx) {
  using V16 = typename Partials16<S>::V16;
  const S count = static_cast<S>(n);
  S* __restrict d = xhat;
  const S rstd = centreRow(x, n, epsilon, d);
  V16 p1, p2;
  for (int j = 0; j < 16; ++j) p1[j] = S(-0.0), p2[j] = S(-0.0);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const V16 xh = load16(d + i) * rstd;
    store16(d + i, xh);
    const V16 gv = load16(g + i);
    const V16 gx = gv * xh;
    store16(dgamma + i, load16(dgamma + i) + gx);
    store16(dbeta + i, load16(dbeta + i) + gv);
    const V16 o = gv * load16(gamma + i);
    store16(dx + i, o);
    p1 += o;
    const V16 ox = o * xh;
    p2 += ox;
  }
  S s1 = Partials16<S>::combine(p1), s2 = Partials16<S>::combine(p2);
  for (; i < n; ++i) {
    const S xh = d[i] * rstd;
    d[i] = xh;
    const S gv = g[i];
    const S gx = gv * xh;
    dgamma[i] = dgamma[i] + gx;
    dbeta[i] = dbeta[i] + gv;
    const S o = gv * gamma[i];
    dx[i] = o;
    s1 += o;
    const S ox = o * xh;
    s2 += ox;
  }
  const S m1 = s1 / count, m2 = s2 / count;
  S* __restrict out = dx;
  for (int64_t j = 0; j < n; ++j) out[j] = ((out[j] - m1) - d[j] * m2) * rstd;
}

// One row of softmax_grad along a contiguous axis: gy = g * y into dx with its sum s
// (sumInOrder's order, as `sum` over the stored products), then dx = gy - y * s.
template <class S> void softmaxGradRowFused(const S* y, const S* g, int64_t n, S* dx) {
  const S s = sumInOrder<S>(
      n,
      [&](int64_t i) {
        const auto v = load16(g + i) * load16(y + i);
        store16(dx + i, v);
        return v;
      },
      [&](int64_t i) {
        const S v = g[i] * y[i];
        dx[i] = v;
        return v;
      });
  for (int64_t i = 0; i < n; ++i) {
    const S t = y[i] * s;
    dx[i] = dx[i] - t;
  }
}

// ---- small GEMM (f32) ------------------------------------------------------
// A register tile of kGemmTileRows rows by NV vectors of c: each element is the
// sequential sum c = fmadd(a[i][p], b[p][j], c) over p from c = +0, so its bits do not
// depend on the tile it falls in, on m or on n. The operands fit L1 or L2 at the sizes
// this serves (attention's per-head products), so there is no packing: a's elements
// are broadcast from wherever its layout puts them (rsA, csA), b's rows are read as
// stored.
constexpr int kGemmTileRows = PIR_SIMD_BYTES == 64 ? 8 : 4;
constexpr int64_t kF32Lanes = kLanes<float>;

// Every lane = *p, as one broadcast load: splat's lane-by-lane loop, inside the depth
// loop, compiled at -O3 to one masked insert per lane (7x the time).
inline vf broadcastLoad(const float* p) {
#if PIR_SIMD_BYTES == 64
  return bits<vf>(_mm512_set1_ps(*p));
#elif PIR_SIMD_BYTES == 32
  return bits<vf>(_mm256_set1_ps(*p));
#else
  return bits<vf>(_mm_set1_ps(*p));
#endif
}

// acc[r][j] = fmadd(*a(r, p), vector at b(p, j), acc[r][j]) for p = 0, 1, .., k - 1 in
// order: a(r, p) points to the float broadcast to every lane, b(p, j) to the vector.
// smallGemm's tile and the direct convolutions' tiles are this loop over their own
// operands, so each element is one FMA chain in depth order wherever it sits.
template <int MR, int NV, class A, class B> inline void fmaChains(int64_t k, A a, B b, vf (&acc)[MR][NV]) {
  for (int64_t p = 0; p < k; ++p) {
    vf bv[NV];
#pragma GCC unroll 8
    for (int j = 0; j < NV; ++j) bv[j] = load<vf>(b(p, j));
#pragma GCC unroll 16
    for (int r = 0; r < MR; ++r) {
      const vf ar = broadcastLoad(a(r, p));
#pragma GCC unroll 8
      for (int j = 0; j < NV; ++j) acc[r][j] = fmadd(ar, bv[j], acc[r][j]);
    }
  }
}

template <int MR, int NV>
inline void gemmTile(const float* a, int64_t rsA, int64_t csA, const float* b, int64_t ldb, float* c, int64_t ldc,
                     int64_t k) {
  vf acc[MR][NV] = {};
  fmaChains<MR, NV>(
      k, [&](int r, int64_t p) { return a + r * rsA + p * csA; },
      [&](int64_t p, int j) { return b + p * ldb + j * kF32Lanes; }, acc);
#pragma GCC unroll 16
  for (int r = 0; r < MR; ++r)
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) store(c + r * ldc + j * kF32Lanes, acc[r][j]);
}

// MR rows of c, all n columns (n a multiple of the lanes).
template <int MR>
void gemmRows(const float* a, int64_t rsA, int64_t csA, const float* b, float* c, int64_t n, int64_t k) {
  int64_t j = 0;
  for (; j + 2 * kF32Lanes <= n; j += 2 * kF32Lanes) gemmTile<MR, 2>(a, rsA, csA, b + j, n, c + j, n, k);
  for (; j < n; j += kF32Lanes) gemmTile<MR, 1>(a, rsA, csA, b + j, n, c + j, n, k);
}

// The rows below the last whole tile: `rows` < kGemmTileRows of them.
template <int R>
void gemmLastRows(int64_t rows, const float* a, int64_t rsA, int64_t csA, const float* b, float* c, int64_t n,
                  int64_t k) {
  if constexpr (R > 0) {
    if (rows == R) return gemmRows<R>(a, rsA, csA, b, c, n, k);
    gemmLastRows<R - 1>(rows, a, rsA, csA, b, c, n, k);
  }
}

void smallGemm(const float* a, bool transA, const float* b, float* c, int64_t m, int64_t n, int64_t k) {
  const int64_t rsA = transA ? 1 : k, csA = transA ? m : 1;
  int64_t i = 0;
  for (; i + kGemmTileRows <= m; i += kGemmTileRows) gemmRows<kGemmTileRows>(a + i * rsA, rsA, csA, b, c + i * n, n, k);
  gemmLastRows<kGemmTileRows - 1>(m - i, a + i * rsA, rsA, csA, b, c + i * n, n, k);
}

// ---- direct convolution rows (f32) ---------------------------------------------
// convRows is smallGemm's register tile with each depth row read from its own
// pointer: the rows of a padded input that one output row's windows see, so no
// column matrix is built. Each of a tile's NV vectors has its own place: the next
// 16 columns of one output row, or (rows no wider than a vector) the next output
// row. The last vector of a c row is computed whole (the caller's rows hold the
// columns past n) and stored in part.

template <int MR, int NV>
inline void convTile(const float* a, int64_t k, const float* const* rows, const int64_t (&offset)[NV],
                     float* const (&c)[NV], int64_t ldc, const int64_t (&columns)[NV]) {
  vf acc[MR][NV] = {};
  fmaChains<MR, NV>(
      k, [&](int r, int64_t p) { return a + r * k + p; }, [&](int64_t p, int j) { return rows[p] + offset[j]; }, acc);
#pragma GCC unroll 16
  for (int r = 0; r < MR; ++r)
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) {
      float* out = c[j] + r * ldc;
      if (columns[j] >= kF32Lanes) {
        store(out, acc[r][j]);
      } else {
        float part[kF32Lanes];
        store(part, acc[r][j]);
        std::memcpy(out, part, static_cast<size_t>(columns[j]) * sizeof(float));
      }
    }
}

// MR channels of nrows output rows (row q: depth rows at offset + q * step, c + q * n).
template <int MR>
void convTileRows(const float* a, int64_t k, const float* const* rows, int64_t offset, int64_t step, int64_t nrows,
                  float* c, int64_t ldc, int64_t n) {
  if (n <= kF32Lanes) {  // two output rows a tile
    int64_t q = 0;
    for (; q + 2 <= nrows; q += 2)
      convTile<MR, 2>(a, k, rows, {offset + q * step, offset + (q + 1) * step}, {c + q * n, c + (q + 1) * n}, ldc,
                      {n, n});
    if (q < nrows) convTile<MR, 1>(a, k, rows, {offset + q * step}, {c + q * n}, ldc, {n});
    return;
  }
  for (int64_t q = 0; q < nrows; ++q)
    for (int64_t j = 0; j < n; j += 2 * kF32Lanes) {
      const int64_t at = offset + q * step + j;
      float* out = c + q * n + j;
      if (n - j > kF32Lanes)
        convTile<MR, 2>(a, k, rows, {at, at + kF32Lanes}, {out, out + kF32Lanes}, ldc, {kF32Lanes, n - j - kF32Lanes});
      else
        convTile<MR, 1>(a, k, rows, {at}, {out}, ldc, {n - j});
    }
}

template <int R>
void convLastRows(int64_t left, const float* a, int64_t k, const float* const* rows, int64_t offset, int64_t step,
                  int64_t nrows, float* c, int64_t ldc, int64_t n) {
  if constexpr (R > 0) {
    if (left == R) return convTileRows<R>(a, k, rows, offset, step, nrows, c, ldc, n);
    convLastRows<R - 1>(left, a, k, rows, offset, step, nrows, c, ldc, n);
  }
}

void convRows(const float* a, const float* const* rows, int64_t offset, int64_t step, int64_t nrows, float* c,
              int64_t ldc, int64_t m, int64_t n, int64_t k) {
  int64_t i = 0;
  for (; i + kGemmTileRows <= m; i += kGemmTileRows)
    convTileRows<kGemmTileRows>(a + i * k, k, rows, offset, step, nrows, c + i * ldc, ldc, n);
  convLastRows<kGemmTileRows - 1>(m - i, a + i * k, k, rows, offset, step, nrows, c + i * ldc, ldc, n);
}

// convGradRows' tile: KT depth rows by CH chunks of 16 output channels, one vector
// chain per (depth row, channel), the depth row's cell broadcast against the 16
// channels' gradient at each position, as convTile broadcasts a weight. The ISA's
// registers bound the tile.
constexpr int kGradChunkVectors = static_cast<int>(16 / kF32Lanes);
constexpr int kGradTileDepth = PIR_SIMD_BYTES == 64 ? 8 : PIR_SIMD_BYTES == 32 ? 4 : 2;
constexpr int kGradTileChunks = PIR_SIMD_BYTES == 64 ? 2 : 1;

template <int KT, int CH>
inline void convGradTile(const float* const* rows, const int64_t* offsets, int64_t nrows, int64_t n, const float* gt,
                         int64_t ldg, float* acc) {
  constexpr int NV = CH * kGradChunkVectors;
  vf sum[KT][NV];
#pragma GCC unroll 16
  for (int t = 0; t < KT; ++t)
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) sum[t][v] = load<vf>(acc + t * ldg + v * kF32Lanes);
  for (int64_t r = 0; r < nrows; ++r) {  // the positions of output row r are the chains' depth
    const float* g = gt + r * n * ldg;
    const int64_t at = offsets[r];
    fmaChains<KT, NV>(
        n, [&](int t, int64_t j) { return rows[t] + at + j; }, [&](int64_t j, int v) { return g + j * ldg + v * kF32Lanes; },
        sum);
  }
#pragma GCC unroll 16
  for (int t = 0; t < KT; ++t)
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) store(acc + t * ldg + v * kF32Lanes, sum[t][v]);
}

// Depth rows [p, k) in tiles of KT, then of KT / 2, .., 1.
template <int KT, int CH>
void convGradDepth(int64_t p, int64_t k, const float* const* rows, const int64_t* offsets, int64_t nrows, int64_t n,
                   const float* gt, int64_t ldg, float* acc) {
  for (; p + KT <= k; p += KT) convGradTile<KT, CH>(rows + p, offsets, nrows, n, gt, ldg, acc + p * ldg);
  if constexpr (KT > 1) convGradDepth<KT / 2, CH>(p, k, rows, offsets, nrows, n, gt, ldg, acc);
}

void convGradRows(const float* const* rows, const int64_t* offsets, int64_t nrows, int64_t n, const float* gt,
                  int64_t ldg, float* acc, int64_t k, int64_t m) {
  int64_t c = 0;
  for (; c + 16 * kGradTileChunks <= m; c += 16 * kGradTileChunks)
    convGradDepth<kGradTileDepth, kGradTileChunks>(0, k, rows, offsets, nrows, n, gt + c, ldg, acc + c);
  for (; c < m; c += 16) convGradDepth<kGradTileDepth, 1>(0, k, rows, offsets, nrows, n, gt + c, ldg, acc + c);
}

// convGradLanes' tile: KT depth rows, one 16-lane vector of sums each (kGradChunkVectors
// vectors of the ISA), lane l the chain over the columns j with j % 16 == l. Each
// 16 columns of an output row cost a gradient load and KT row loads for KT vectors
// of FMAs. In the last, partial 16 columns the lanes past n keep their sums (a blend
// drops their FMAs, so the depth rows' and the gradient's cells there may hold
// anything); the gradient's columns are read from its row where 16 of them lie inside
// g (gEnd), else copied out, so nothing past g is read.
template <int KT>
inline void convGradLaneTile(const float* const* rows, const int64_t* offsets, int64_t nrows, int64_t n,
                             const float* g, float* acc) {
  constexpr int VG = kGradChunkVectors;
  vf sum[KT][VG];
#pragma GCC unroll 16
  for (int t = 0; t < KT; ++t)
#pragma GCC unroll 4
    for (int v = 0; v < VG; ++v) sum[t][v] = load<vf>(acc + t * 16 + v * kF32Lanes);
  const int64_t whole = n / 16 * 16;
  const float* gEnd = g + nrows * n;
  vi keep[VG];  // the tail's lanes inside the row: all ones
#pragma GCC unroll 4
  for (int v = 0; v < VG; ++v)
    for (int64_t l = 0; l < kF32Lanes; ++l) keep[v][l] = whole + v * kF32Lanes + l < n ? -1 : 0;
  for (int64_t r = 0; r < nrows; ++r) {
    const float* gr = g + r * n;
    const int64_t at = offsets[r];
    for (int64_t j = 0; j < whole; j += 16)
#pragma GCC unroll 4
      for (int v = 0; v < VG; ++v) {
        const vf gv = load<vf>(gr + j + v * kF32Lanes);
#pragma GCC unroll 16
        for (int t = 0; t < KT; ++t) sum[t][v] = fmadd(load<vf>(rows[t] + at + j + v * kF32Lanes), gv, sum[t][v]);
      }
    if (whole < n) {
      float copied[16];
      const float* tail = gr + whole;
      if (gEnd - tail < 16) {
        std::memcpy(copied, tail, static_cast<size_t>(n - whole) * sizeof(float));
        tail = copied;  // its lanes past n are never read into a sum
      }
#pragma GCC unroll 4
      for (int v = 0; v < VG; ++v) {
        const vf gv = load<vf>(tail + v * kF32Lanes);
#pragma GCC unroll 16
        for (int t = 0; t < KT; ++t) {
          const vf next = fmadd(load<vf>(rows[t] + at + whole + v * kF32Lanes), gv, sum[t][v]);
          sum[t][v] = bits<vf>((bits<vi>(next) & keep[v]) | (bits<vi>(sum[t][v]) & ~keep[v]));
        }
      }
    }
  }
#pragma GCC unroll 16
  for (int t = 0; t < KT; ++t)
#pragma GCC unroll 4
    for (int v = 0; v < VG; ++v) store(acc + t * 16 + v * kF32Lanes, sum[t][v]);
}

// The most depth rows per tile within the ISA's registers (KT * kGradChunkVectors
// sums, the gradient's vectors and the tail's masks): a tile's rows are its
// independent chains, each waiting on its previous FMA.
constexpr int kGradLaneTileMax = PIR_SIMD_BYTES == 64 ? 16 : PIR_SIMD_BYTES == 32 ? 6 : 2;

// convGradLaneTile<kt> for a runtime kt in [1, KT].
template <int KT>
void convGradLaneTileOf(int64_t kt, const float* const* rows, const int64_t* offsets, int64_t nrows, int64_t n,
                        const float* g, float* acc) {
  if (kt == KT) return convGradLaneTile<KT>(rows, offsets, nrows, n, g, acc);
  if constexpr (KT > 1) convGradLaneTileOf<KT - 1>(kt, rows, offsets, nrows, n, g, acc);
}

// The depth rows in the fewest tiles of at most kGradLaneTileMax, of sizes as equal as
// they can be: 9 cells (a 3x3 kernel) one tile of 9 chains where tiles of 8 and 1 left
// the ninth cell's lone chain waiting on its FMAs.
void convGradLanes(const float* const* rows, const int64_t* offsets, int64_t nrows, int64_t n, const float* g,
                   float* acc, int64_t k) {
  const int64_t tiles = (k + kGradLaneTileMax - 1) / kGradLaneTileMax;
  for (int64_t i = 0, p = 0; i < tiles; ++i) {
    const int64_t end = (i + 1) * k / tiles;
    convGradLaneTileOf<kGradLaneTileMax>(end - p, rows + p, offsets, nrows, n, g, acc + p * 16);
    p = end;
  }
}

// Column blocks keep the accumulated row in L1 whatever `cols` is.
constexpr int64_t kColBlock = 2048;

// y[c] = first(x[0][c]), then y[c] = step(y[c], x[r][c]) for r = 1.. in row order (row
// r at x + r*ld), in column blocks.
template <class S, class First, class Step>
inline void foldRows(const S* x, int64_t rows, int64_t cols, int64_t ld, S* y, First first, Step step) {
  for (int64_t c0 = 0; c0 < cols; c0 += kColBlock) {
    const int64_t nc = cols - c0 < kColBlock ? cols - c0 : kColBlock;
    S* __restrict acc = y + c0;
    const S* __restrict r0 = x + c0;
    for (int64_t c = 0; c < nc; ++c) acc[c] = first(r0[c]);
    for (int64_t r = 1; r < rows; ++r) {
      const S* __restrict row = x + r * ld + c0;
      for (int64_t c = 0; c < nc; ++c) acc[c] = step(acc[c], row[c]);
    }
  }
}

template <class S> void sumRows(const S* x, int64_t rows, int64_t cols, int64_t ld, S* y) {
  foldRows(x, rows, cols, ld, y, [](S v) { return v; }, [](S a, S v) { return a + v; });
}

template <class S> S shiftExpSum(const S* x, S shift, S* shifted, S* e, int64_t n) {
  using V = typename VOf<S>::V;
  constexpr int64_t W = kLanes<S>;
  const V sv = splat<V>(shift);
  int64_t i = 0;
  for (; i + W <= n; i += W) {
    const V v = load<V>(x + i) - sv;
    if (shifted) store(shifted + i, v);
    store(e + i, vexp<S>(v));
  }
  if (i < n) {  // the tail: padded, through the same functions (as mapUnary and binaryLoop)
    S buf[W] = {};
    std::memcpy(buf, x + i, static_cast<size_t>(n - i) * sizeof(S));
    const V v = load<V>(buf) - sv;
    store(buf, v);
    if (shifted) std::memcpy(shifted + i, buf, static_cast<size_t>(n - i) * sizeof(S));
    store(buf, vexp<S>(v));
    std::memcpy(e + i, buf, static_cast<size_t>(n - i) * sizeof(S));
  }
  return sumContiguous(e, n);
}

// ---- the Reduce ops other than sum ---------------------------------------------

// |v| as 0 - v for v <= 0, so that |-0| is +0 (NaN stays itself); scalars or vectors.
template <class T> inline T absOf(T v) { return v <= 0 ? 0 - v : v; }

// One step of a ReduceKind's fold: acc is the reduction so far, v the next element.
template <class S, int K> inline S reduceStep(S acc, S v) {
  if constexpr (K == kReduceProd) return acc * v;
  else if constexpr (K == kReduceSumSquare) return acc + v * v;
  else if constexpr (K == kReduceAbsSum) return acc + absOf(v);
  else if constexpr (K == kReduceMax) return binOp<S, kMax>(acc, v);
  else return binOp<S, kMin>(acc, v);
}
// The fold's first value, from the first element.
template <class S, int K> inline S reduceFirst(S v) {
  if constexpr (K == kReduceSumSquare) return v * v;
  else if constexpr (K == kReduceAbsSum) return absOf(v);
  else return v;
}

// The maximum (kReduceMax) or minimum (kReduceMin) of x[0..n) by vector lanes: a NaN
// if any element is NaN; among equal extremes (+0 and -0) any one.
template <class S, int K> S extremeByLanes(const S* x, int64_t n) {
  using V = typename VOf<S>::V;
  constexpr int64_t W = kLanes<S>;
  auto beats = [](auto a, auto b) { return K == kReduceMax ? a > b : a < b; };
  S best = x[0];
  bool nan = x[0] != x[0];
  int64_t i = 0;
  if (n >= W) {
    V acc = load<V>(x), unordered = acc != acc ? splat<V>(S(1)) : splat<V>(S(0));
    for (i = W; i + W <= n; i += W) {
      const V v = load<V>(x + i);
      acc = beats(v, acc) ? v : acc;
      unordered = v != v ? splat<V>(S(1)) : unordered;
    }
    const S lanes = foldLanes<S>(acc, [&](auto a, auto b) { return beats(b, a) ? b : a; });
    best = beats(lanes, best) ? lanes : best;
    nan = anyLane(unordered != S(0));
  }
  for (; i < n; ++i) {
    best = beats(x[i], best) ? x[i] : best;
    nan = nan || x[i] != x[i];
  }
  return nan ? S(__builtin_nan("")) : best;
}

// The serial fold's extreme: the lanes' value, recomputed serially when it is a zero
// (whose sign depends on the order) or a NaN (the first one).
template <class S, int K> S extremeOfRow(const S* x, int64_t n) {
  const S best = extremeByLanes<S, K>(x, n);
  if (best == best && best != S(0)) return best;
  S m = x[0];
  for (int64_t k = 1; k < n; ++k) m = reduceStep<S, K>(m, x[k]);
  return m;
}

template <class S, int K> S reduceRow(const S* x, int64_t n) {
  if constexpr (K == kReduceMax || K == kReduceMin) {
    return extremeOfRow<S, K>(x, n);
  } else if constexpr (K == kReduceProd) {
    typename Partials16<S>::V16 p;
    for (int j = 0; j < 16; ++j) p[j] = S(1);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) p *= load16(x + i);
    S r = Partials16<S>::multiply(p);
    for (; i < n; ++i) r *= x[i];
    return r;
  } else if constexpr (K == kReduceSumSquare) {
    return sumInOrder<S>(
        n, [x](int64_t i) { const auto v = load16(x + i); return v * v; }, [x](int64_t i) { return x[i] * x[i]; });
  } else {
    return sumInOrder<S>(
        n,
        [x](int64_t i) { return absOf(load16(x + i)); }, [x](int64_t i) { return absOf(x[i]); });
  }
}

template <class S, int K> void reduceRows(const S* x, int64_t rows, int64_t cols, int64_t ld, S* y) {
  foldRows(x, rows, cols, ld, y, [](S v) { return reduceFirst<S, K>(v); },
           [](S a, S v) { return reduceStep<S, K>(a, v); });
}

// The index of x[0..n)'s maximum (IsMax) or minimum, n >= 1, as the serial visit
// from the first element (from the last with lastIndex) finds it: the first visited
// that no later one beats, a NaN beating everything. Without NaN that is the lowest
// (highest) index holding the extreme value (+0 and -0 equal): each lane keeps its
// own first (last) extreme and the lanes are merged by value, then index; with a NaN,
// the serial visit.
template <class S, bool IsMax> int64_t argRow(const S* x, int64_t n, bool lastIndex) {
  using T = VOf<S>;
  using V = typename T::V;
  using I = typename T::I;
  using L = decltype(I{}[0]);
  constexpr int64_t W = kLanes<S>;
  auto beats = [](auto a, auto b) { return IsMax ? a > b : a < b; };
  auto serial = [&] {
    const int64_t first = lastIndex ? n - 1 : 0, step = lastIndex ? -1 : 1;
    int64_t best = first;
    S bv = x[first];
    for (int64_t k = 1, i = first + step; k < n && bv == bv; ++k, i += step)
      if (x[i] != x[i] || beats(x[i], bv)) best = i, bv = x[i];
    return best;
  };
  if (n < 2 * W) return serial();
  V best = load<V>(x), unordered = best != best ? splat<V>(S(1)) : splat<V>(S(0));
  I at, lane;
  for (int64_t j = 0; j < W; ++j) lane[j] = static_cast<L>(j);
  at = lane;
  int64_t i = W;
  for (; i + W <= n; i += W) {
    const V v = load<V>(x + i);
    const auto take = lastIndex ? (IsMax ? v >= best : v <= best) : beats(v, best);
    best = take ? v : best;
    at = take ? lane + static_cast<L>(i) : at;
    unordered = v != v ? splat<V>(S(1)) : unordered;
  }
  bool nan = anyLane(unordered != S(0));
  for (int64_t k = i; k < n; ++k) nan = nan || x[k] != x[k];
  if (nan) return serial();
  // The extreme, then the lowest (highest) index among the lanes that hold it.
  S bv = foldLanes<S>(best, [&](auto a, auto b) { return beats(b, a) ? b : a; });
  int64_t b = -1;
  for (unsigned tied = laneBits(best == bv); tied; tied &= tied - 1) {
    const int64_t a = static_cast<int64_t>(at[__builtin_ctz(tied)]);
    if (b < 0 || (lastIndex ? a > b : a < b)) b = a;
  }
  for (; i < n; ++i)  // the tail's indices are above every lane's
    if (beats(x[i], bv) || (lastIndex && x[i] == bv)) bv = x[i], b = i;
  return b;
}

// Column blocks of argRows: the best values and indices stay in L1.
constexpr int64_t kArgColBlock = 512;

template <class S, bool IsMax>
void argRows(const S* x, int64_t rows, int64_t cols, int64_t ld, bool lastIndex, int32_t* y) {
  const int64_t first = lastIndex ? rows - 1 : 0, step = lastIndex ? -1 : 1;
  S best[kArgColBlock];
  for (int64_t c0 = 0; c0 < cols; c0 += kArgColBlock) {
    const int64_t nc = cols - c0 < kArgColBlock ? cols - c0 : kArgColBlock;
    int32_t* __restrict at = y + c0;
    const S* __restrict r0 = x + first * ld + c0;
    for (int64_t c = 0; c < nc; ++c) best[c] = r0[c], at[c] = static_cast<int32_t>(first);
    for (int64_t k = 1, r = first + step; k < rows; ++k, r += step) {
      const S* __restrict row = x + r * ld + c0;
      const int32_t ri = static_cast<int32_t>(r);
      for (int64_t c = 0; c < nc; ++c) {
        const S b = best[c], v = row[c];
        const bool take = b == b && (v != v || (IsMax ? v > b : v < b));
        best[c] = take ? v : b;
        at[c] = take ? ri : at[c];
      }
    }
  }
}

// max_pool's step: a NaN cell replaces a non-NaN maximum, a greater value replaces it.
template <class S> inline S poolMax(S acc, S v) { return acc == acc && (v != v || v > acc) ? v : acc; }

// The pools' cell steps over an output row's columns [lo, hi). Each is one loop the
// compiler vectorises, instantiated for strides 1 and 2 (contiguous loads, or two
// vectors and a shuffle) and for any stride read at run time.
template <int64_t St> using PoolStride = std::integral_constant<int64_t, St>;
template <class F> inline void withPoolStride(int64_t stride, F&& f) {
  if (stride == 1) return f(PoolStride<1>{});
  if (stride == 2) return f(PoolStride<2>{});
  f(PoolStride<0>{});
}

template <class S> void poolMaxCell(const S* src, int64_t lo, int64_t hi, int64_t stride, S* acc) {
  withPoolStride(stride, [&](auto c) {
    const int64_t st = c.value > 0 ? c.value : stride;
    const S* __restrict x = src;
    S* __restrict a = acc;
    for (int64_t o = lo; o < hi; ++o) a[o] = poolMax(a[o], x[o * st]);
  });
}

template <class S> void poolSumCell(const S* src, int64_t lo, int64_t hi, int64_t stride, S* acc) {
  withPoolStride(stride, [&](auto c) {
    const int64_t st = c.value > 0 ? c.value : stride;
    const S* __restrict x = src;
    S* __restrict a = acc;
    for (int64_t o = lo; o < hi; ++o) a[o] += x[o * st];
  });
}

template <class S>
void poolRow(const S* const* cells, const int64_t* lo, const int64_t* hi, int64_t count, int64_t stride, int64_t width,
             bool isMax, S* out) {
  std::fill(out, out + width, isMax ? S(-__builtin_inf()) : S(0));
  for (int64_t c = 0; c < count; ++c)
    if (isMax) poolMaxCell<S>(cells[c], lo[c], hi[c], stride, out);
    else poolSumCell<S>(cells[c], lo[c], hi[c], stride, out);
}

template <class S>
void poolArgMaxCell(const S* src, int32_t base, int64_t lo, int64_t hi, int64_t stride, S* best, int32_t* at,
                    int32_t* nan) {
  withPoolStride(stride, [&](auto c) {
    const int64_t st = c.value > 0 ? c.value : stride;
    const int32_t step = static_cast<int32_t>(st);
    const S* __restrict x = src;
    S* __restrict b = best;
    int32_t* __restrict a = at;
    int32_t* __restrict n = nan;
    for (int64_t o = lo; o < hi; ++o) {
      const S v = x[o * st];
      const bool take = v > b[o];
      n[o] |= static_cast<int32_t>(v != v);
      b[o] = take ? v : b[o];  // a NaN v keeps best (its flag is set)
      a[o] = take ? base + static_cast<int32_t>(o) * step : a[o];
    }
  });
}

template <class S> void poolShareCell(const S* share, S* dst, int64_t lo, int64_t hi, int64_t stride) {
  withPoolStride(stride, [&](auto c) {
    const int64_t st = c.value > 0 ? c.value : stride;
    const S* __restrict g = share;
    S* __restrict d = dst;
    for (int64_t o = lo; o < hi; ++o) d[o * st] += g[o];
  });
}

template <class S>
void maxPool2x2(const S* x, S* y, int64_t planes, int64_t inH, int64_t inW, int64_t outH, int64_t outW) {
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t oh = 0; oh < outH; ++oh) {
      const S* __restrict r0 = x + (p * inH + 2 * oh) * inW;
      const S* __restrict r1 = r0 + inW;
      S* __restrict out = y + (p * outH + oh) * outW;
      for (int64_t o = 0; o < outW; ++o)
        out[o] = poolMax(poolMax(poolMax(r0[2 * o], r0[2 * o + 1]), r1[2 * o]), r1[2 * o + 1]);
    }
}

template <class S>
void maxPool2x2Grad(const S* x, const S* g, S* dx, int64_t planes, int64_t inH, int64_t inW, int64_t outH,
                    int64_t outW) {
  for (int64_t p = 0; p < planes; ++p) {
    S* plane = dx + p * inH * inW;
    for (int64_t oh = 0; oh < outH; ++oh) {
      const S* __restrict a0 = x + (p * inH + 2 * oh) * inW;
      const S* __restrict a1 = a0 + inW;
      const S* __restrict go = g + (p * outH + oh) * outW;
      S* __restrict d0 = plane + 2 * oh * inW;
      S* __restrict d1 = d0 + inW;
      for (int64_t o = 0; o < outW; ++o) {
        const S c0 = a0[2 * o], c1 = a0[2 * o + 1], c2 = a1[2 * o], c3 = a1[2 * o + 1];
        // The maximum so far starts at -inf with the first cell chosen; a strictly
        // greater cell takes it.
        S best = S(-__builtin_inf());
        int32_t at = 0;
        at = c0 > best ? 0 : at;
        best = c0 > best ? c0 : best;
        at = c1 > best ? 1 : at;
        best = c1 > best ? c1 : best;
        at = c2 > best ? 2 : at;
        best = c2 > best ? c2 : best;
        at = c3 > best ? 3 : at;
        const bool nan = (c0 != c0) | (c1 != c1) | (c2 != c2) | (c3 != c3);
        const S v = S(0) + go[o];
        d0[2 * o] = !nan && at == 0 ? v : S(0);
        d0[2 * o + 1] = !nan && at == 1 ? v : S(0);
        d1[2 * o] = !nan && at == 2 ? v : S(0);
        d1[2 * o + 1] = !nan && at == 3 ? v : S(0);
      }
      for (int64_t c = 2 * outW; c < inW; ++c) d0[c] = d1[c] = S(0);
    }
    for (int64_t r = 2 * outH; r < inH; ++r)
      for (int64_t c = 0; c < inW; ++c) plane[r * inW + c] = S(0);
  }
}

#if PIR_SIMD_BYTES == 64
// f32 on AVX-512: 16 outputs at a time, the row's tail under a lane mask (rows of 7 or
// 14 outputs are common); the even and odd cells of 32 inputs split by permutes.
struct PoolLanes {
  __mmask16 out;  // the outputs of this step
  __mmask16 lo, hi;  // their 2 * n inputs, in two vectors
  static PoolLanes of(int64_t n) {  // 1 <= n <= 16
    const uint32_t in = n >= 16 ? 0xFFFFFFFFu : (1u << (2 * n)) - 1u;
    return {static_cast<__mmask16>(n >= 16 ? 0xFFFF : (1u << n) - 1u), static_cast<__mmask16>(in),
            static_cast<__mmask16>(in >> 16)};
  }
};
// The even (left) and odd (right) cells of the 2 * n inputs at p.
inline void loadPairs(const float* p, const PoolLanes& m, __m512& left, __m512& right) {
  // Constants in the function, not at namespace scope: no AVX-512 code runs at start-up.
  const __m512i kEvenLanes = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i kOddLanes = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  const __m512 a = _mm512_maskz_loadu_ps(m.lo, p), b = _mm512_maskz_loadu_ps(m.hi, p + 16);
  left = _mm512_permutex2var_ps(a, kEvenLanes, b);
  right = _mm512_permutex2var_ps(a, kOddLanes, b);
}
// poolMax per lane.
inline __m512 poolMaxV(__m512 acc, __m512 v) {
  const __mmask16 take = _mm512_cmp_ps_mask(acc, acc, _CMP_ORD_Q) &
                         (_mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q) | _mm512_cmp_ps_mask(v, acc, _CMP_GT_OQ));
  return _mm512_mask_blend_ps(take, acc, v);
}
// Stores left/right interleaved as the 2 * n cells at p.
inline void storePairs(float* p, const PoolLanes& m, __m512 left, __m512 right) {
  const __m512i kInterleaveLo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const __m512i kInterleaveHi = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  _mm512_mask_storeu_ps(p, m.lo, _mm512_permutex2var_ps(left, kInterleaveLo, right));
  _mm512_mask_storeu_ps(p + 16, m.hi, _mm512_permutex2var_ps(left, kInterleaveHi, right));
}

void maxPool2x2F32(const float* x, float* y, int64_t planes, int64_t inH, int64_t inW, int64_t outH, int64_t outW) {
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t oh = 0; oh < outH; ++oh) {
      const float* r0 = x + (p * inH + 2 * oh) * inW;
      const float* r1 = r0 + inW;
      float* out = y + (p * outH + oh) * outW;
      for (int64_t o = 0; o < outW; o += 16) {
        const PoolLanes m = PoolLanes::of(outW - o);
        __m512 c0, c1, c2, c3;
        loadPairs(r0 + 2 * o, m, c0, c1);
        loadPairs(r1 + 2 * o, m, c2, c3);
        _mm512_mask_storeu_ps(out + o, m.out, poolMaxV(poolMaxV(poolMaxV(c0, c1), c2), c3));
      }
    }
}

void maxPool2x2GradF32(const float* x, const float* g, float* dx, int64_t planes, int64_t inH, int64_t inW,
                       int64_t outH, int64_t outW) {
  const __m512 zero = _mm512_setzero_ps();
  for (int64_t p = 0; p < planes; ++p) {
    float* plane = dx + p * inH * inW;
    for (int64_t oh = 0; oh < outH; ++oh) {
      const float* a0 = x + (p * inH + 2 * oh) * inW;
      const float* a1 = a0 + inW;
      const float* go = g + (p * outH + oh) * outW;
      float* d0 = plane + 2 * oh * inW;
      float* d1 = d0 + inW;
      for (int64_t o = 0; o < outW; o += 16) {
        const PoolLanes m = PoolLanes::of(outW - o);
        __m512 c0, c1, c2, c3;
        loadPairs(a0 + 2 * o, m, c0, c1);
        loadPairs(a1 + 2 * o, m, c2, c3);
        // As the scalar loop: the first cell holds -inf's place, a strictly greater
        // cell takes the maximum; the last cell that took it gets g.
        const __m512 minusInf = _mm512_set1_ps(-__builtin_inff());
        __m512 best = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(c0, minusInf, _CMP_GT_OQ), minusInf, c0);
        const __mmask16 k1 = _mm512_cmp_ps_mask(c1, best, _CMP_GT_OQ);
        best = _mm512_mask_blend_ps(k1, best, c1);
        const __mmask16 k2 = _mm512_cmp_ps_mask(c2, best, _CMP_GT_OQ);
        best = _mm512_mask_blend_ps(k2, best, c2);
        const __mmask16 k3 = _mm512_cmp_ps_mask(c3, best, _CMP_GT_OQ);
        const __mmask16 nan = _mm512_cmp_ps_mask(c0, c0, _CMP_UNORD_Q) | _mm512_cmp_ps_mask(c1, c1, _CMP_UNORD_Q) |
                              _mm512_cmp_ps_mask(c2, c2, _CMP_UNORD_Q) | _mm512_cmp_ps_mask(c3, c3, _CMP_UNORD_Q);
        const __mmask16 at3 = k3, at2 = k2 & ~k3, at1 = k1 & ~k2 & ~k3, at0 = ~(k1 | k2 | k3);
        const __m512 v = _mm512_add_ps(zero, _mm512_maskz_loadu_ps(m.out, go + o));
        storePairs(d0 + 2 * o, m, _mm512_maskz_mov_ps(at0 & ~nan, v), _mm512_maskz_mov_ps(at1 & ~nan, v));
        storePairs(d1 + 2 * o, m, _mm512_maskz_mov_ps(at2 & ~nan, v), _mm512_maskz_mov_ps(at3 & ~nan, v));
      }
      for (int64_t c = 2 * outW; c < inW; ++c) d0[c] = d1[c] = 0.0f;
    }
    for (int64_t r = 2 * outH; r < inH; ++r)
      for (int64_t c = 0; c < inW; ++c) plane[r * inW + c] = 0.0f;
  }
}

// The pools' cell steps for f32 (poolArgMaxCell and poolShareCell above, the same
// operations lane by lane; poolRow below): 16 columns at a time, the row's tail under a lane mask;
// at stride 2 a column's cell is the even lane of a pair of inputs, loaded under a
// mask that stops at the last column's cell (the odd cell after it may lie past the
// tensor). Larger strides take the loops above.
struct PoolCellLanes {
  __mmask16 out;     // the columns of this step
  __mmask16 lo, hi;  // stride 2: the 2 * n - 1 inputs from the first column's cell to the last's
  static PoolCellLanes of(int64_t n) {  // 1 <= n <= 16
    const uint32_t in = (1u << (2 * n - 1)) - 1u;  // 2 * n - 1 <= 31 bits
    return {static_cast<__mmask16>(n >= 16 ? 0xFFFF : (1u << n) - 1u), static_cast<__mmask16>(in),
            static_cast<__mmask16>(in >> 16)};
  }
};
// The cells of columns [o, o + n) at stride 1 or 2 from src (column o' reads src[o' * stride]).
inline __m512 loadCells(const float* src, int64_t o, int64_t stride, const PoolCellLanes& m) {
  if (stride == 1) return _mm512_maskz_loadu_ps(m.out, src + o);
  const __m512i kEvenLanes = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512 a = _mm512_maskz_loadu_ps(m.lo, src + 2 * o), b = _mm512_maskz_loadu_ps(m.hi, src + 2 * o + 16);
  return _mm512_permutex2var_ps(a, kEvenLanes, b);
}

// poolRow for f32: per block of up to 64 columns, every cell folded into four
// registers, one per 16 columns (four independent chains: a fold's latency, not its
// throughput, bounds a single one). A cell's lanes are its columns within [lo, hi)
// (its loads stop there: outside, the cell may lie past the tensor); the other lanes
// keep their value.
inline __mmask16 laneRange(int64_t a, int64_t b) {  // lanes [a, b) of 16, clamped
  a = std::max<int64_t>(a, 0);
  b = std::min<int64_t>(b, 16);
  return a >= b ? __mmask16(0) : static_cast<__mmask16>(((1u << b) - 1u) & ~((1u << a) - 1u));
}
void poolRowF32(const float* const* cells, const int64_t* lo, const int64_t* hi, int64_t count, int64_t stride,
                int64_t width, bool isMax, float* out) {
  if (stride > 2) return poolRow<float>(cells, lo, hi, count, stride, width, isMax, out);
  const __m512i kEvenLanes = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512 start = _mm512_set1_ps(isMax ? -__builtin_inff() : 0.0f);
  for (int64_t o = 0; o < width; o += 64) {
    __m512 acc[4] = {start, start, start, start};
    for (int64_t c = 0; c < count; ++c) {
      const float* src = cells[c];
#pragma GCC unroll 4
      for (int j = 0; j < 4; ++j) {
        const int64_t first = o + 16 * j;  // the chunk's first column
        const __mmask16 lanes = laneRange(std::max(lo[c], first) - first, std::min(hi[c], width) - first);
        if (!lanes) continue;
        __m512 v;
        if (stride == 1) {
          v = _mm512_maskz_loadu_ps(lanes, src + first);
        } else {  // lane l's cell is input 2 l of the chunk's 32: inputs from the first
                  // lane's cell to the last's (the odd ones between lie between cells)
          const int first2 = 2 * __builtin_ctz(lanes), last2 = 2 * (31 - __builtin_clz(lanes));
          const uint32_t pairs = ((last2 == 30 ? 0u : (1u << (last2 + 1))) - 1u) & ~((1u << first2) - 1u);
          const __m512 x0 = _mm512_maskz_loadu_ps(static_cast<__mmask16>(pairs), src + 2 * first);
          const __m512 x1 = _mm512_maskz_loadu_ps(static_cast<__mmask16>(pairs >> 16), src + 2 * first + 16);
          v = _mm512_permutex2var_ps(x0, kEvenLanes, x1);
        }
        acc[j] = isMax ? _mm512_mask_blend_ps(lanes, acc[j], poolMaxV(acc[j], v)) : _mm512_mask_add_ps(acc[j], lanes, acc[j], v);
      }
    }
#pragma GCC unroll 4
    for (int j = 0; j < 4; ++j) {
      const __mmask16 lanes = laneRange(0, width - (o + 16 * j));
      if (lanes) _mm512_mask_storeu_ps(out + o + 16 * j, lanes, acc[j]);
    }
  }
}

void poolArgMaxCellF32(const float* src, int32_t base, int64_t lo, int64_t hi, int64_t stride, float* best,
                       int32_t* at, int32_t* nan) {
  if (stride > 2) return poolArgMaxCell<float>(src, base, lo, hi, stride, best, at, nan);
  const __m512i lanes = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                           _mm512_set1_epi32(static_cast<int32_t>(stride)));
  const __m512i one = _mm512_set1_epi32(1);
  for (int64_t o = lo; o < hi; o += 16) {
    const PoolCellLanes m = PoolCellLanes::of(std::min<int64_t>(16, hi - o));
    const __m512 v = loadCells(src, o, stride, m);
    const __m512 b = _mm512_maskz_loadu_ps(m.out, best + o);
    const __mmask16 take = _mm512_cmp_ps_mask(v, b, _CMP_GT_OQ);
    const __mmask16 isNan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    _mm512_mask_storeu_ps(best + o, m.out & take, v);
    const __m512i cell = _mm512_add_epi32(_mm512_set1_epi32(base + static_cast<int32_t>(o * stride)), lanes);
    _mm512_mask_storeu_epi32(at + o, m.out & take, cell);
    _mm512_mask_storeu_epi32(nan + o, m.out & isNan, one);
  }
}

void poolShareCellF32(const float* share, float* dst, int64_t lo, int64_t hi, int64_t stride) {
  if (stride > 2) return poolShareCell<float>(share, dst, lo, hi, stride);
  const __m512i kInterleaveLo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const __m512i kInterleaveHi = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const __m512i kOddLanes = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  for (int64_t o = lo; o < hi; o += 16) {
    const PoolCellLanes m = PoolCellLanes::of(std::min<int64_t>(16, hi - o));
    const __m512 s = _mm512_maskz_loadu_ps(m.out, share + o);
    if (stride == 1) {
      _mm512_mask_storeu_ps(dst + o, m.out, _mm512_add_ps(_mm512_maskz_loadu_ps(m.out, dst + o), s));
      continue;
    }
    // The even cells take their shares; the odd cells between them are written back unchanged.
    const __m512 a = _mm512_maskz_loadu_ps(m.lo, dst + 2 * o), b = _mm512_maskz_loadu_ps(m.hi, dst + 2 * o + 16);
    const __m512 even = _mm512_add_ps(loadCells(dst, o, 2, m), s);
    const __m512 odd = _mm512_permutex2var_ps(a, kOddLanes, b);
    _mm512_mask_storeu_ps(dst + 2 * o, m.lo, _mm512_permutex2var_ps(even, kInterleaveLo, odd));
    _mm512_mask_storeu_ps(dst + 2 * o + 16, m.hi, _mm512_permutex2var_ps(even, kInterleaveHi, odd));
  }
}
#endif

template <class E> void whereLoop(const bool* c, const void* xv, const void* zv, void* yv, int64_t n, int rep) {
  const E* x = static_cast<const E*>(xv);
  const E* z = static_cast<const E*>(zv);
  E* y = static_cast<E*>(yv);
  if constexpr (sizeof(E) == 4) {
    // Whole vectors: the condition bytes widened to lane masks, a bitwise
    // select (moves bits: any 4-byte dtype); the rest below, element by element.
    if ((rep & 1) == 0) {
      using U = vu;
      constexpr int64_t W = kLanes<float>;
      using vb = vubf;
      const U xs = splat<U>(bits<uint32_t>(x[0])), zs = splat<U>(bits<uint32_t>(z[0]));
      int64_t i = 0;
      for (; i + W <= n; i += W) {
        vb cb;
        std::memcpy(&cb, c + i, W);
        const U m = U{} - __builtin_convertvector(cb, U);  // bools are 0/1: all ones where c
        const U vx = (rep & 2) ? xs : load<U>(x + i);
        const U vz = (rep & 4) ? zs : load<U>(z + i);
        store(y + i, (vx & m) | (vz & ~m));
      }
      c += i;
      if (!(rep & 2)) x += i;
      if (!(rep & 4)) z += i;
      y += i;
      n -= i;
    }
  }
  switch (rep) {
    case 0:
      for (int64_t i = 0; i < n; ++i) y[i] = c[i] ? x[i] : z[i];
      break;
    case 4: {  // z repeated (where(m, x, 0))
      const E zs = z[0];
      for (int64_t i = 0; i < n; ++i) y[i] = c[i] ? x[i] : zs;
      break;
    }
    case 2: {
      const E xs = x[0];
      for (int64_t i = 0; i < n; ++i) y[i] = c[i] ? xs : z[i];
      break;
    }
    default:
      for (int64_t i = 0; i < n; ++i) y[i] = c[(rep & 1) ? 0 : i] ? x[(rep & 2) ? 0 : i] : z[(rep & 4) ? 0 : i];
  }
}

// Blocks of kTile x kTile elements: both the rows read and the rows written
// stay in L1 while a block is copied.
template <class E> void transposeBlocked(const void* srcv, void* dstv, int64_t rows, int64_t cols) {
  constexpr int64_t kTile = 64 / sizeof(E) < 8 ? 8 : 64 / sizeof(E);
  const E* src = static_cast<const E*>(srcv);
  E* dst = static_cast<E*>(dstv);
  for (int64_t r0 = 0; r0 < rows; r0 += kTile) {
    const int64_t r1 = r0 + kTile < rows ? r0 + kTile : rows;
    for (int64_t c0 = 0; c0 < cols; c0 += kTile) {
      const int64_t c1 = c0 + kTile < cols ? c0 + kTile : cols;
      if (r1 - r0 == kTile && c1 - c0 == kTile) {
        for (int64_t c = 0; c < kTile; ++c)
          for (int64_t r = 0; r < kTile; ++r) dst[(c0 + c) * rows + r0 + r] = src[(r0 + r) * cols + c0 + c];
      } else {
        for (int64_t c = c0; c < c1; ++c)
          for (int64_t r = r0; r < r1; ++r) dst[c * rows + r] = src[r * cols + c];
      }
    }
  }
}

// 4-byte elements: whole 8x8 (AVX2) or 4x4 (SSE2) tiles transposed in
// registers (shuffles move bits, so any 4-byte dtype and every NaN payload
// pass unchanged), in panels of 32 source rows so that the 8 destination rows a
// tile column writes stay in L1; the ragged edges go element by element.
#if PIR_SIMD_BYTES >= 32
constexpr int64_t kRegTile = 8;
inline void transposeTile(const float* src, int64_t lds, float* dst, int64_t ldd) {
  const __m256 r0 = _mm256_loadu_ps(src), r1 = _mm256_loadu_ps(src + lds), r2 = _mm256_loadu_ps(src + 2 * lds),
               r3 = _mm256_loadu_ps(src + 3 * lds), r4 = _mm256_loadu_ps(src + 4 * lds),
               r5 = _mm256_loadu_ps(src + 5 * lds), r6 = _mm256_loadu_ps(src + 6 * lds),
               r7 = _mm256_loadu_ps(src + 7 * lds);
  const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1), t2 = _mm256_unpacklo_ps(r2, r3),
               t3 = _mm256_unpackhi_ps(r2, r3), t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5),
               t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
  const __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE),
               s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE),
               s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE),
               s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
  _mm256_storeu_ps(dst, _mm256_permute2f128_ps(s0, s4, 0x20));
  _mm256_storeu_ps(dst + ldd, _mm256_permute2f128_ps(s1, s5, 0x20));
  _mm256_storeu_ps(dst + 2 * ldd, _mm256_permute2f128_ps(s2, s6, 0x20));
  _mm256_storeu_ps(dst + 3 * ldd, _mm256_permute2f128_ps(s3, s7, 0x20));
  _mm256_storeu_ps(dst + 4 * ldd, _mm256_permute2f128_ps(s0, s4, 0x31));
  _mm256_storeu_ps(dst + 5 * ldd, _mm256_permute2f128_ps(s1, s5, 0x31));
  _mm256_storeu_ps(dst + 6 * ldd, _mm256_permute2f128_ps(s2, s6, 0x31));
  _mm256_storeu_ps(dst + 7 * ldd, _mm256_permute2f128_ps(s3, s7, 0x31));
}
#else
constexpr int64_t kRegTile = 4;
inline void transposeTile(const float* src, int64_t lds, float* dst, int64_t ldd) {
  __m128 r0 = _mm_loadu_ps(src), r1 = _mm_loadu_ps(src + lds), r2 = _mm_loadu_ps(src + 2 * lds),
         r3 = _mm_loadu_ps(src + 3 * lds);
  _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
  _mm_storeu_ps(dst, r0);
  _mm_storeu_ps(dst + ldd, r1);
  _mm_storeu_ps(dst + 2 * ldd, r2);
  _mm_storeu_ps(dst + 3 * ldd, r3);
}
#endif

void transpose4(const void* srcv, void* dstv, int64_t rows, int64_t cols) {
  // float* only as a register type: the loads and stores move bits.
  const float* src = static_cast<const float*>(srcv);
  float* dst = static_cast<float*>(dstv);
  constexpr int64_t kPanel = 32;
  const int64_t rowsT = rows - rows % kRegTile, colsT = cols - cols % kRegTile;
  for (int64_t r0 = 0; r0 < rowsT; r0 += kPanel) {
    const int64_t r1 = r0 + kPanel < rowsT ? r0 + kPanel : rowsT;
    for (int64_t c = 0; c < colsT; c += kRegTile)
      for (int64_t r = r0; r < r1; r += kRegTile) transposeTile(src + r * cols + c, cols, dst + c * rows + r, rows);
  }
  const uint32_t* s = static_cast<const uint32_t*>(srcv);
  uint32_t* d = static_cast<uint32_t*>(dstv);
  for (int64_t r = 0; r < rowsT; ++r)  // the columns right of the tiles
    for (int64_t c = colsT; c < cols; ++c) d[c * rows + r] = s[r * cols + c];
  for (int64_t c = 0; c < cols; ++c)  // the rows below them
    for (int64_t r = rowsT; r < rows; ++r) d[c * rows + r] = s[r * cols + c];
}

template <class S> TypedTable<S> makeTyped() {
  TypedTable<S> t{};
  t.unary[kExp] = unaryVec<S, kExp>;
  t.unary[kLog] = unaryVec<S, kLog>;
  t.unary[kTanh] = unaryVec<S, kTanh>;
  t.unary[kSigmoid] = unaryVec<S, kSigmoid>;
  t.unary[kSwish] = unaryVec<S, kSwish>;
  t.unary[kGelu] = unaryVec<S, kGelu>;
  t.unary[kSin] = unaryVec<S, kSin>;
  t.unary[kCos] = unaryVec<S, kCos>;
  t.unary[kErf] = unaryVec<S, kErf>;
  t.unary[kGeluErf] = unaryVec<S, kGeluErf>;
  t.unary[kSoftplus] = unaryVec<S, kSoftplus>;
  t.unary[kFloor] = unaryVec<S, kFloor>;
  t.unary[kCeil] = unaryVec<S, kCeil>;
  t.unary[kRound] = unaryVec<S, kRound>;
  t.unary[kLog2] = unaryVec<S, kLog2>;
  t.unary[kSqrt] = unaryExact<S, kSqrt>;
  t.unary[kRsqrt] = unaryExact<S, kRsqrt>;
  t.unary[kReciprocal] = unaryExact<S, kReciprocal>;
  t.unary[kAbs] = unaryExact<S, kAbs>;
  t.unary[kNeg] = unaryExact<S, kNeg>;
  t.unary[kSquare] = unaryExact<S, kSquare>;
  t.unary[kRelu] = unaryExact<S, kRelu>;
#define PIR_SIMD_BIN(K)                          \
  t.binary[K][kVecVec] = binaryLoop<S, K, kVecVec>;       \
  t.binary[K][kVecScalar] = binaryLoop<S, K, kVecScalar>; \
  t.binary[K][kScalarVec] = binaryLoop<S, K, kScalarVec>;
  PIR_SIMD_BIN(kAdd) PIR_SIMD_BIN(kSub) PIR_SIMD_BIN(kMul) PIR_SIMD_BIN(kDiv) PIR_SIMD_BIN(kMax) PIR_SIMD_BIN(kMin)
  PIR_SIMD_BIN(kGeluGrad)
#undef PIR_SIMD_BIN
  t.scaledAdd = scaledAdd<S>;
#define PIR_SIMD_CMP(K)                                   \
  t.compare[K][kVecVec] = compareLoop<S, K, kVecVec>;       \
  t.compare[K][kVecScalar] = compareLoop<S, K, kVecScalar>; \
  t.compare[K][kScalarVec] = compareLoop<S, K, kScalarVec>;
  PIR_SIMD_CMP(kEq) PIR_SIMD_CMP(kNe) PIR_SIMD_CMP(kGt) PIR_SIMD_CMP(kGe) PIR_SIMD_CMP(kLt) PIR_SIMD_CMP(kLe)
#undef PIR_SIMD_CMP
  t.sum = sumContiguous<S>;
  t.shiftExpSum = shiftExpSum<S>;
  t.normaliseRow = normaliseRowFused<S>;
  t.layerNormRow = layerNormRowFused<S>;
  t.softmaxGradRow = softmaxGradRowFused<S>;
  if constexpr (std::is_same_v<S, float>) {  // f64 products go to OpenBLAS, f64 convolutions to im2col
    t.smallGemm = smallGemm;
    t.convRows = convRows;
    t.convGradRows = convGradRows;
    t.convGradLanes = convGradLanes;
  }
  t.layerNormGradRow = layerNormGradRowFused<S>;
  t.sumRows = sumRows<S>;
#define PIR_SIMD_REDUCE(K)              \
  t.reduceRow[K] = reduceRow<S, K>;   \
  t.reduceRows[K] = reduceRows<S, K>;
  PIR_SIMD_REDUCE(kReduceProd) PIR_SIMD_REDUCE(kReduceSumSquare) PIR_SIMD_REDUCE(kReduceAbsSum)
  PIR_SIMD_REDUCE(kReduceMax) PIR_SIMD_REDUCE(kReduceMin)
#undef PIR_SIMD_REDUCE
  t.argRows[0] = argRows<S, false>;
  t.argRows[1] = argRows<S, true>;
  t.argRow[0] = argRow<S, false>;
  t.argRow[1] = argRow<S, true>;
  t.maxPool2x2 = maxPool2x2<S>;
  t.maxPool2x2Grad = maxPool2x2Grad<S>;
  t.poolRow = poolRow<S>;
  t.poolArgMaxCell = poolArgMaxCell<S>;
  t.poolShareCell = poolShareCell<S>;
#if PIR_SIMD_BYTES == 64
  if constexpr (std::is_same_v<S, float>) {
    t.maxPool2x2 = maxPool2x2F32;
    t.maxPool2x2Grad = maxPool2x2GradF32;
    t.poolRow = poolRowF32;
    t.poolArgMaxCell = poolArgMaxCellF32;
    t.poolShareCell = poolShareCellF32;
  }
#endif
  return t;
}

}  // namespace

const Table& makeTable() {
#define PIR_SIMD_STR2(x) #x
#define PIR_SIMD_STR(x) PIR_SIMD_STR2(x)
  static const Table t = {
      PIR_SIMD_STR(PIR_SIMD_NAME),
      makeTyped<float>(),
      makeTyped<double>(),
      {whereLoop<uint8_t>, whereLoop<uint16_t>, whereLoop<uint32_t>, whereLoop<uint64_t>},
      {transposeBlocked<uint8_t>, transposeBlocked<uint16_t>, transpose4, transposeBlocked<uint64_t>},
      philoxBlocks,
      boxMuller,
  };
  return t;
}

}  // namespace pir::vm::simd::PIR_SIMD_NAME
