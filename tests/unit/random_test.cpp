// Philox4x32-10 and the random fills of vm/random.h (runtime.md §6).
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

#include "ir/half.h"
#include "vm/random.h"

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
