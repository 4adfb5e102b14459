// Philox4x32-10 and the random fills of vm/random.h (runtime.md §6).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <vector>

#include "ir/half.h"
#include "vm/random.h"
#include "vm/simd_kernels.h"

using namespace pir;
using namespace pir::vm;

namespace {

TEST(Philox, KnownAnswersFromRandom123) {
  EXPECT_EQ(philox4x32_10({0, 0, 0, 0}, {0, 0}), (PhiloxBlock{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}),
            (PhiloxBlock{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}),
            (PhiloxBlock{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(Random, ElementUsesTheDocumentedCounter) {
  const SeedKey seed{12, 34};
  const PhiloxBlock block = philox4x32_10({1, 0, 3, static_cast<uint32_t>(RandomStream::Uniform)}, seed);
  // Element 6 = word 2 of block 1.
  EXPECT_EQ(uniformAt(seed, 3, RandomStream::Uniform, 6), (block[2] + 0.5) * std::ldexp(1.0, -32));
  std::vector<double> out(8);
  fillUniform(DType::F64, out.data(), 8, seed, 3, 0, 1);
  EXPECT_EQ(out[6], (block[2] + 0.5) * std::ldexp(1.0, -32));
}

TEST(Random, DeterministicAndIndependentOfCount) {
  const SeedKey seed{7, 9};
  std::vector<float> a(1001), b(1001), prefix(13);
  fillUniform(DType::F32, a.data(), 1001, seed, 0, -1, 1);
  fillUniform(DType::F32, b.data(), 1001, seed, 0, -1, 1);
  fillUniform(DType::F32, prefix.data(), 13, seed, 0, -1, 1);
  EXPECT_EQ(a, b);
  for (size_t i = 0; i < prefix.size(); ++i) EXPECT_EQ(prefix[i], a[i]) << i;

  std::vector<float> n1(10), n2(3);
  fillNormal(DType::F32, n1.data(), 10, seed, 0, 0, 1);
  fillNormal(DType::F32, n2.data(), 3, seed, 0, 0, 1);
  for (size_t i = 0; i < n2.size(); ++i) EXPECT_EQ(n2[i], n1[i]);
}

TEST(Random, SeedReplicaAndStreamChangeTheValues) {
  std::vector<float> base(16), otherSeed(16), otherReplica(16);
  fillUniform(DType::F32, base.data(), 16, {1, 2}, 0, 0, 1);
  fillUniform(DType::F32, otherSeed.data(), 16, {1, 3}, 0, 0, 1);
  fillUniform(DType::F32, otherReplica.data(), 16, {1, 2}, 1, 0, 1);
  EXPECT_NE(base, otherSeed);
  EXPECT_NE(base, otherReplica);
  EXPECT_NE(uniformAt({1, 2}, 0, RandomStream::Uniform, 0), uniformAt({1, 2}, 0, RandomStream::Dropout, 0));
}

template <class T>
void moments(const std::vector<T>& v, double& mean, double& sd) {
  double sum = 0, sq = 0;
  for (T x : v) sum += static_cast<double>(x);
  mean = sum / static_cast<double>(v.size());
  for (T x : v) sq += (static_cast<double>(x) - mean) * (static_cast<double>(x) - mean);
  sd = std::sqrt(sq / static_cast<double>(v.size()));
}

TEST(Random, UniformMomentsAndRange) {
  const int n = 100000;
  std::vector<float> v(n);
  fillUniform(DType::F32, v.data(), n, {42, 0}, 0, 2, 5);
  for (float x : v) {
    ASSERT_GE(x, 2.0f);
    ASSERT_LT(x, 5.0f);
  }
  double mean, sd;
  moments(v, mean, sd);
  EXPECT_NEAR(mean, 3.5, 0.02);
  EXPECT_NEAR(sd, 3 / std::sqrt(12.0), 0.02);
}

TEST(Random, UniformNeverReachesHighAfterRounding) {
  // f16 values near 2048 are 2 apart: low + (high - low) * u rounds to high often.
  std::vector<uint16_t> v(4000);
  fillUniform(DType::F16, v.data(), 4000, {5, 5}, 0, 2040, 2048);
  for (uint16_t h : v) {
    ASSERT_GE(halfToFloat(h), 2040.0f);
    ASSERT_LT(halfToFloat(h), 2048.0f);
  }
}

TEST(Random, NormalMoments) {
  const int n = 100000;
  std::vector<double> v(n);
  fillNormal(DType::F64, v.data(), n, {3, 1}, 2, 1.5, 2.0);
  double mean, sd;
  moments(v, mean, sd);
  EXPECT_NEAR(mean, 1.5, 0.03);
  EXPECT_NEAR(sd, 2.0, 0.03);
  int within1 = 0;
  for (double x : v) within1 += std::fabs(x - 1.5) < 2.0;
  EXPECT_NEAR(within1 / static_cast<double>(n), 0.6827, 0.01);
}

TEST(Random, IntegerUniformCoversTheHalfOpenRange) {
  std::vector<int32_t> v(10000);
  fillUniform(DType::I32, v.data(), 10000, {1, 1}, 0, -3, 3);
  std::set<int32_t> seen(v.begin(), v.end());
  EXPECT_EQ(seen, (std::set<int32_t>{-3, -2, -1, 0, 1, 2}));
}

TEST(Random, DropoutMaskKeepsAboutOneMinusP) {
  std::vector<uint8_t> keep(100000);
  fillDropoutMask(keep.data(), 100000, {8, 8}, 0, 0.25);
  double kept = 0;
  for (uint8_t k : keep) kept += k;
  EXPECT_NEAR(kept / 100000, 0.75, 0.01);
  fillDropoutMask(keep.data(), 100, {8, 8}, 0, 0.0);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(keep[i], 1);
  fillDropoutMask(keep.data(), 100, {8, 8}, 0, 1.0);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(keep[i], 0);
}

// applyDropout is the mask times x times 1/(1-p), formed in f64 and rounded once, at
// every kernel thread count (its parts start at block boundaries), f32 and f64, an odd
// length (a partial last block), huge values (which round to inf in f32).
TEST(Random, DropoutEqualsItsMaskAtAnyThreadCount) {
  const int64_t n = 100003;
  const double p = 0.3, scale = 1.0 / (1.0 - p);
  std::vector<uint8_t> keep(n);
  fillDropoutMask(keep.data(), n, {5, 9}, 2, p);
  std::vector<float> xf(n);
  std::vector<double> xd(n);
  for (int64_t i = 0; i < n; ++i) xd[i] = xf[i] = i % 1000 == 7 ? 3.3e38f : std::sin(0.01 * i);
  for (int threads : {1, 2, 3}) {
    simd::setKernelThreads(threads);
    std::vector<float> yf(n);
    std::vector<double> yd(n);
    applyDropout(DType::F32, xf.data(), yf.data(), n, {5, 9}, 2, p);
    applyDropout(DType::F64, xd.data(), yd.data(), n, {5, 9}, 2, p);
    for (int64_t i = 0; i < n; ++i) {
      const double v = keep[i] ? static_cast<double>(xf[i]) * scale : 0.0;
      ASSERT_EQ(yf[i], static_cast<float>(v)) << i << " at " << threads << " threads";
      ASSERT_EQ(yd[i], keep[i] ? xd[i] * scale : 0.0) << i << " at " << threads << " threads";
    }
  }
  simd::setKernelThreads(1);
}

// The SIMD table's Philox gives philox4x32_10's words on every instruction set, for
// counters across the 2^32 boundary of the block index and lengths of partial vectors.
TEST(Random, VectorPhiloxEqualsTheScalarOne) {
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    const simd::Table* t = simd::tableFor(isa);
    if (!t) continue;
    for (uint64_t first : {uint64_t{0}, uint64_t{0xfffffffbu}, uint64_t{0x123456789}})
      for (int64_t blocks : {1, 7, 8, 9, 33}) {
        std::vector<uint32_t> words(static_cast<size_t>(4 * blocks));
        t->philoxBlocks(first, blocks, 5, 2, 0x9e3779b9u, 77, words.data());
        for (int64_t j = 0; j < blocks; ++j) {
          const uint64_t b = first + static_cast<uint64_t>(j);
          const PhiloxBlock want =
              philox4x32_10({static_cast<uint32_t>(b), static_cast<uint32_t>(b >> 32), 5, 2}, {0x9e3779b9u, 77});
          for (int w = 0; w < 4; ++w) ASSERT_EQ(words[static_cast<size_t>(4 * j + w)], want[static_cast<size_t>(w)]) << isa;
        }
      }
  }
}

// The Box-Muller kernel gives the same bits on every instruction set (unfused IEEE
// operations only), is within a few ulps of r cos(2 pi v) and r sin(2 pi v) computed in
// long double with the C library, over words at the ends of their range, at octant
// boundaries of the angle, and pseudo-random; and a tail of any length.
TEST(Random, BoxMullerIsTheSameOnEveryIsaAndAccurate) {
  std::vector<uint32_t> first, second;
  for (uint32_t w : {0u, 1u, 2u, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu})
    for (uint32_t octant = 0; octant < 8; ++octant)
      for (uint32_t d : {0u, 1u, 0xffffffffu}) first.push_back(w), second.push_back(octant * 0x20000000u + d);
  uint32_t x = 12345;
  for (int i = 0; i < 20000; ++i) {
    x = x * 1664525u + 1013904223u;
    first.push_back(x);
    x = x * 1664525u + 1013904223u;
    second.push_back(x);
  }
  const int64_t n = static_cast<int64_t>(first.size()) - 3;  // a tail of a partial vector
  std::vector<double> baseC, baseS;
  for (const char* isa : {"sse2", "avx2", "avx512"}) {
    const simd::Table* t = simd::tableFor(isa);
    if (!t) continue;
    std::vector<double> c(static_cast<size_t>(n)), s(static_cast<size_t>(n));
    t->boxMuller(first.data(), second.data(), c.data(), s.data(), n);
    if (baseC.empty()) {
      baseC = c, baseS = s;
      for (int64_t k = 0; k < n; ++k) {
        const long double u = (first[k] + 0.5L) * 0x1p-32L, v = (second[k] + 0.5L) * 0x1p-32L;
        const long double r = std::sqrt(-2 * std::log(u)), a = 2 * 3.14159265358979323846264338327950288L * v;
        const long double wantC = r * std::cos(a), wantS = r * std::sin(a);
        // 4 ulps of r (the larger of the two's scale), for the rounding of the angle.
        const double tol = 4 * std::numeric_limits<double>::epsilon() * static_cast<double>(r);
        ASSERT_NEAR(c[k], static_cast<double>(wantC), tol) << "pair " << k;
        ASSERT_NEAR(s[k], static_cast<double>(wantS), tol) << "pair " << k;
      }
    } else {
      EXPECT_EQ(std::memcmp(c.data(), baseC.data(), c.size() * sizeof(double)), 0) << isa;
      EXPECT_EQ(std::memcmp(s.data(), baseS.data(), s.size() * sizeof(double)), 0) << isa;
    }
  }
}

// fillNormal splits over the kernel threads at block boundaries: the same bits on any
// thread count, for f32, f64 and f16, and an odd length.
TEST(Random, NormalIsTheSameOnAnyThreadCount) {
  const int64_t n = 100001;
  for (DType dt : {DType::F32, DType::F64, DType::F16}) {
    std::vector<std::vector<unsigned char>> runs;
    for (int threads : {1, 2, 3}) {
      simd::setKernelThreads(threads);
      std::vector<unsigned char> v(static_cast<size_t>(n) * dtypeSize(dt));
      fillNormal(dt, v.data(), n, {4, 2}, 1, 0.5, 3.0);
      runs.push_back(v);
    }
    simd::setKernelThreads(1);
    EXPECT_EQ(runs[0], runs[1]);
    EXPECT_EQ(runs[0], runs[2]);
  }
}

TEST(Random, SplitSeedIsDeterministicAndDistinct) {
  const auto a = splitSeed({10, 20}, 5);
  const auto b = splitSeed({10, 20}, 2);
  ASSERT_EQ(a.size(), 5u);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(a[0], b[0]);
  EXPECT_EQ(a[1], b[1]);
  std::set<SeedKey> distinct(a.begin(), a.end());
  EXPECT_EQ(distinct.size(), 5u);
  const PhiloxBlock first = philox4x32_10({0, 0, 0, static_cast<uint32_t>(RandomStream::SplitSeed)}, {10, 20});
  EXPECT_EQ(a[0], (SeedKey{first[0], first[1]}));
  EXPECT_NE(splitSeed({10, 21}, 1)[0], a[0]);
}

TEST(Random, InitSeedKeyCombinesScalarSeedAndSessionSeed) {
  EXPECT_EQ(initSeedKey(5, 0), (SeedKey{5, 0}));
  EXPECT_EQ(initSeedKey(5, 77), (SeedKey{5, 77}));
  EXPECT_EQ(initSeedKey((int64_t{1} << 32) + 3, 1), (SeedKey{3, 1}));
}

}  // namespace

// ---- the random ops, run through a session ------------------------------------
//
// Expected values are computed here from the Philox4x32-10 definition and the
// documented counter layout (docs/decisions.md "Random ops"), not through vm/random.h:
//   key = seed {s0, s1}; counter = {low32(i / 4), high32(i / 4), replica, stream};
//   element i takes word i % 4; u = (word + 0.5) * 2^-32;
//   streams: random_uniform 0, random_normal 1, dropout 2, split_random_seed 3.

#include <array>
#include <cstring>
#include <numbers>
#include <sstream>

#include "frontend/builder.h"
#include "api/session_driver.h"
#include "vm/session.h"
#include "tests/unit/text_program.h"

namespace {

using Words = std::array<uint32_t, 4>;

Words referencePhilox(Words ctr, uint32_t k0, uint32_t k1) {
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = uint64_t{0xD2511F53} * ctr[0];
    const uint64_t p1 = uint64_t{0xCD9E8D57} * ctr[2];
    ctr = {static_cast<uint32_t>(p1 >> 32) ^ ctr[1] ^ k0, static_cast<uint32_t>(p1),
           static_cast<uint32_t>(p0 >> 32) ^ ctr[3] ^ k1, static_cast<uint32_t>(p0)};
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return ctr;
}

double referenceUnit(uint32_t s0, uint32_t s1, uint32_t replica, uint32_t stream, uint64_t i) {
  const Words w = referencePhilox({static_cast<uint32_t>(i / 4), static_cast<uint32_t>((i / 4) >> 32), replica, stream}, s0, s1);
  return (static_cast<double>(w[i % 4]) + 0.5) / 4294967296.0;
}

double referenceNormal(uint32_t s0, uint32_t s1, uint32_t replica, uint64_t i) {
  const uint64_t pairFirst = i - i % 2;
  const double radius = std::sqrt(-2.0 * std::log(referenceUnit(s0, s1, replica, 1, pairFirst)));
  const double angle = 2.0 * std::numbers::pi * referenceUnit(s0, s1, replica, 1, pairFirst + 1);
  return i % 2 == 0 ? radius * std::cos(angle) : radius * std::sin(angle);
}

// Builds and runs `text` (its commands run as read); value() gives results.
struct RunProgram : TextProgram {
  explicit RunProgram(const std::string& text, SessionOptions options = {}) : TextProgram(text, options, "r.pir") {}
};

TEST(RandomOps, ReferencePhiloxMatchesRandom123) {
  EXPECT_EQ(referencePhilox({0, 0, 0, 0}, 0, 0), (Words{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(referencePhilox({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, 0xa4093822, 0x299f31d0),
            (Words{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(RandomOps, UniformKnownAnswers) {
  RunProgram p(R"(
const %seed : u32[2] = [12, 34]
%r = random_uniform %seed {shape = [2, 5], low = -1, high = 3, dtype = f64}
run
)");
  ASSERT_TRUE(p.ok) << p.err.str();
  const HostTensor r = p.value("%r");
  ASSERT_EQ(r.type.str(), "f64[2,5]");
  for (int i = 0; i < 10; ++i) EXPECT_EQ(r.get(i), -1 + 4 * referenceUnit(12, 34, 0, 0, i)) << i;
}

TEST(RandomOps, NormalKnownAnswers) {
  RunProgram p(R"(
const %seed : u32[2] = [7, 4000000000]
%r = random_normal %seed {shape = [7], mean = 2, std = 0.5, dtype = f64}
run
)");
  ASSERT_TRUE(p.ok) << p.err.str();
  const HostTensor r = p.value("%r");
  for (int i = 0; i < 7; ++i) EXPECT_NEAR(r.get(i), 2 + 0.5 * referenceNormal(7, 4000000000u, 0, i), 1e-14) << i;
}

TEST(RandomOps, DropoutKnownAnswersAndScaling) {
  RunProgram p(R"(
const %x : f64[3,4] = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
const %seed : u32[2] = [5, 6]
%r = dropout %x, %seed {p = 0.375}
%keepAll = dropout %x, %seed {p = 0}
run
)");
  ASSERT_TRUE(p.ok) << p.err.str();
  const HostTensor r = p.value("%r"), all = p.value("%keepAll");
  int kept = 0;
  for (int i = 0; i < 12; ++i) {
    const bool keep = referenceUnit(5, 6, 0, 2, i) >= 0.375;
    kept += keep;
    EXPECT_EQ(r.get(i), keep ? (i + 1) * (1.0 / (1.0 - 0.375)) : 0.0) << i;
    EXPECT_EQ(all.get(i), i + 1.0) << i;  // p = 0 keeps everything, unscaled
  }
  EXPECT_GT(kept, 0);
  EXPECT_LT(kept, 12);
}

TEST(RandomOps, DropoutPOutsideZeroOneIsALocatedError) {
  for (const char* bad : {"1", "1.5", "-0.25", "nan"}) {
    RunProgram p(std::string("const %x : f32[4] = 1\nconst %seed : u32[2] = [1, 1]\n%r = dropout %x, %seed {p = ") + bad +
              "}\nrun\n");
    EXPECT_FALSE(p.ok) << bad;
    EXPECT_NE(p.err.str().find("r.pir:3:"), std::string::npos) << p.err.str();
    EXPECT_NE(p.err.str().find("p must be in [0, 1)"), std::string::npos) << p.err.str();
  }
}

TEST(RandomOps, SplitRandomSeedKnownAnswersFeedOtherOps) {
  RunProgram p(R"(
const %seed : u32[2] = [10, 20]
%a, %b, %c = split_random_seed %seed {n = 3}
%u = random_uniform %b {shape = [5], dtype = f64}
run
)");
  ASSERT_TRUE(p.ok) << p.err.str();
  const char* names[] = {"%a", "%b", "%c"};
  for (uint32_t k = 0; k < 3; ++k) {
    const Words w = referencePhilox({k, 0, 0, 3}, 10, 20);
    const HostTensor s = p.value(names[k]);
    EXPECT_EQ(s.get(0), w[0]) << k;
    EXPECT_EQ(s.get(1), w[1]) << k;
  }
  const Words b = referencePhilox({1, 0, 0, 3}, 10, 20);
  const HostTensor u = p.value("%u");
  for (int i = 0; i < 5; ++i) EXPECT_EQ(u.get(i), referenceUnit(b[0], b[1], 0, 0, i)) << i;
}

TEST(RandomOps, ValuesDependOnTheReplicaNotOnThreadsOrRuns) {
  const char* text = R"(
ir {replication = 2}
const %seed : u32[2] = [3, 9]
%r = random_uniform %seed {shape = [9], dtype = f64}
const %ones : f32[16] = 1
%d = dropout %ones, %seed {p = 0.5}
run
)";
  std::vector<double> first;
  for (int threads : {1, 2}) {
    SessionOptions options;
    options.threads = threads;
    RunProgram p(text, options);
    ASSERT_TRUE(p.ok) << p.err.str();
    for (int again = 0; again < 2; ++again) {
      if (again) {
        EXPECT_TRUE(p.session->run()) << p.err.str();
      }
      const HostTensor r = p.value("%r");
      ASSERT_EQ(r.type.str(), "f64[2,9]");
      std::vector<double> values;
      for (int rep = 0; rep < 2; ++rep)
        for (int i = 0; i < 9; ++i) {
          EXPECT_EQ(r.get(rep * 9 + i), referenceUnit(3, 9, static_cast<uint32_t>(rep), 0, i)) << rep << " " << i;
          values.push_back(r.get(rep * 9 + i));
        }
      if (first.empty()) first = values;
      EXPECT_EQ(values, first);
      // Replicas draw different values from the same seed.
      EXPECT_NE(std::vector<double>(values.begin(), values.begin() + 9), std::vector<double>(values.begin() + 9, values.end()));
      const HostTensor d = p.value("%d");
      bool masksDiffer = false;
      for (int i = 0; i < 16; ++i) masksDiffer = masksDiffer || d.get(i) != d.get(16 + i);
      EXPECT_TRUE(masksDiffer);
    }
  }
}

TEST(RandomOps, SameSeedSameValuesOtherSeedOtherValues) {
  RunProgram p(R"(
const %s1 : u32[2] = [1, 2]
const %s2 : u32[2] = [1, 3]
%a = random_normal %s1 {shape = [16]}
%b = random_normal %s1 {shape = [16]}
%c = random_normal %s2 {shape = [16]}
%prefix = random_normal %s1 {shape = [2, 3]}
run
)");
  ASSERT_TRUE(p.ok) << p.err.str();
  const HostTensor a = p.value("%a"), b = p.value("%b"), c = p.value("%c"), prefix = p.value("%prefix");
  auto same = [](const HostTensor& x, const HostTensor& y) {
    return x.bytes.size() == y.bytes.size() && std::memcmp(x.data(), y.data(), x.bytes.size()) == 0;
  };
  EXPECT_TRUE(same(a, b));
  EXPECT_FALSE(same(a, c));
  for (int i = 0; i < 6; ++i) EXPECT_EQ(prefix.get(i), a.get(i)) << i;  // element index, not shape
}

TEST(RandomOps, DistributionsOfOneHundredThousandSamples) {
  RunProgram p(R"(
const %seed : u32[2] = [2026, 11]
%u = random_uniform %seed {shape = [100000], low = -2, high = 4}
%n = random_normal %seed {shape = [100000], mean = -1, std = 3}
%h = random_normal %seed {shape = [100000], dtype = f16}
%d = dropout %u, %seed {p = 0.2}
run
)");
  ASSERT_TRUE(p.ok) << p.err.str();
  auto moments = [&](const HostTensor& t, double& mean, double& var) {
    const int64_t n = t.type.numElements();
    double sum = 0, sq = 0;
    for (int64_t i = 0; i < n; ++i) sum += t.get(i);
    mean = sum / static_cast<double>(n);
    for (int64_t i = 0; i < n; ++i) sq += (t.get(i) - mean) * (t.get(i) - mean);
    var = sq / static_cast<double>(n);
  };
  double mean, var;
  const HostTensor u = p.value("%u");
  moments(u, mean, var);
  EXPECT_NEAR(mean, 1.0, 0.03);        // (low + high) / 2; sd of the mean ~0.006
  EXPECT_NEAR(var, 36.0 / 12, 0.04);   // (high - low)^2 / 12
  for (int64_t i = 0; i < 100000; ++i) {
    ASSERT_GE(u.get(i), -2.0);
    ASSERT_LT(u.get(i), 4.0);
  }
  moments(p.value("%n"), mean, var);
  EXPECT_NEAR(mean, -1.0, 0.05);
  EXPECT_NEAR(var, 9.0, 0.15);
  moments(p.value("%h"), mean, var);
  EXPECT_NEAR(mean, 0.0, 0.02);
  EXPECT_NEAR(var, 1.0, 0.02);
  // Dropout keeps ~80% and scales by 1.25, so the mean is preserved.
  const HostTensor d = p.value("%d");
  int64_t kept = 0;
  for (int64_t i = 0; i < 100000; ++i) {
    if (d.get(i) == 0) continue;
    ++kept;
    ASSERT_FLOAT_EQ(static_cast<float>(d.get(i)), static_cast<float>(u.get(i) * 1.25)) << i;
  }
  EXPECT_NEAR(static_cast<double>(kept) / 100000, 0.8, 0.005);
  moments(d, mean, var);
  EXPECT_NEAR(mean, 1.0, 0.04);
}

}  // namespace
