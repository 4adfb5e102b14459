// Counter-based random numbers (runtime.md §6): Philox4x32-10 (Salmon et al., SC'11,
// the constants of Random123/numpy/JAX/cuRAND).
//
// Every value is a pure function of (seed, replica, element index, stream), never of
// thread count, chunking or the total count n (a prefix of a longer fill is equal to
// a shorter fill).
//
// Key   = the u32[2] seed tensor {seed[0], seed[1]}.
// Block = philox4x32_10(counter, key), 4 u32 words, where
//   counter[0] = low  32 bits of (element index / 4)
//   counter[1] = high 32 bits of (element index / 4)
//   counter[2] = replica index
//   counter[3] = stream id (RandomStream), so ops sharing a seed differ
// Element i uses word (i % 4) of block i / 4 (normal: see fillNormal).
// Word x -> uniform u = (x + 0.5) * 2^-32, in the open interval (0, 1).
//
// Seeds for `uniform(low, high, seed)` / `normal(mean, std, seed)` initialisers: the
// key is {seed mod 2^32, session base seed (IR option `seed`)}, replica index 0 (all
// replicas start from the same initial value), streams Uniform / Normal.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "ir/dtype.h"

namespace pir::vm {

using SeedKey = std::array<uint32_t, 2>;
using PhiloxBlock = std::array<uint32_t, 4>;

enum class RandomStream : uint32_t {
  Uniform = 0,    // random_uniform, uniform(...) INIT
  Normal = 1,     // random_normal, normal(...) INIT
  Dropout = 2,    // dropout masks
  SplitSeed = 3,  // split_random_seed
};

// One Philox4x32-10 block.
PhiloxBlock philox4x32_10(PhiloxBlock counter, SeedKey key);

// Uniform in (0, 1) for element `index` (word index % 4 of block index / 4).
double uniformAt(SeedKey key, uint32_t replica, RandomStream stream, int64_t index);

// out[i] = low + (high - low) * u_i rounded to `dtype`, for i in [0, n). Floats land in
// [low, high) (a value that rounds up to `high` is moved one step down); integers
// are floor(low + (high - low) * u) in [low, high) (saturated to the dtype); bool is a
// fair coin, u >= 0.5 (low/high ignored). Storage as in vm/tensor.h.
void fillUniform(DType dtype, void* out, int64_t n, SeedKey seed, uint32_t replica, double low,
                 double high, RandomStream stream = RandomStream::Uniform);

// out[i] = mean + std * z_i rounded to `dtype` (a float dtype). Box–Muller: block j
// gives uniforms u0..u3; (u0, u1) -> elements 4j, 4j+1 as r cos(2π u1), r sin(2π u1)
// with r = sqrt(-2 ln u0); (u2, u3) -> elements 4j+2, 4j+3 likewise. ln, cos and sin
// are the SIMD table's unfused IEEE series (simd::Table::boxMuller), not the C
// library's: the same bits on every machine.
void fillNormal(DType dtype, void* out, int64_t n, SeedKey seed, uint32_t replica, double mean,
                double std, RandomStream stream = RandomStream::Normal);

// keep[i] = 1 if element i survives dropout with drop probability p (u_i >= p), else 0.
// Stream Dropout: a gradient that reuses (seed, replica) gets the same mask.
void fillDropoutMask(uint8_t* keep, int64_t n, SeedKey seed, uint32_t replica, double p);

// The `dropout` op on a float dtype: out[i] = keep[i] ? x[i] * (1 / (1 - p)) : 0, with
// keep[i] exactly fillDropoutMask's. The product is formed in f64 and rounded once to
// `dtype`. `out` may equal `x`. Requires 0 <= p < 1 (the verifier's rule).
void applyDropout(DType dtype, const void* x, void* out, int64_t n, SeedKey seed, uint32_t replica, double p);

// split_random_seed: result k = the first two words of
// philox4x32_10({k low 32 bits, k high 32 bits, 0, SplitSeed}, seed). Independent of the replica, so replicas
// fed the same seed derive the same seeds.
std::vector<SeedKey> splitSeed(SeedKey seed, int64_t n);

// The key of an INIT generator's scalar seed (see top).
inline SeedKey initSeedKey(int64_t scalarSeed, uint32_t sessionBaseSeed) {
  return {static_cast<uint32_t>(static_cast<uint64_t>(scalarSeed)), sessionBaseSeed};
}

}  // namespace pir::vm
