#include "vm/random.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "ir/half.h"
#include "ir/number_format.h"
#include "vm/simd_kernels.h"

namespace pir::vm {
namespace {

constexpr uint32_t kPhiloxM0 = 0xD2511F53u;
constexpr uint32_t kPhiloxM1 = 0xCD9E8D57u;
constexpr uint32_t kPhiloxW0 = 0x9E3779B9u;
constexpr uint32_t kPhiloxW1 = 0xBB67AE85u;

inline void mulHiLo(uint32_t a, uint32_t b, uint32_t& hi, uint32_t& lo) {
  const uint64_t product = static_cast<uint64_t>(a) * b;
  hi = static_cast<uint32_t>(product >> 32);
  lo = static_cast<uint32_t>(product);
}

PhiloxBlock blockFor(SeedKey key, uint32_t replica, RandomStream stream, uint64_t blockIndex) {
  return philox4x32_10({static_cast<uint32_t>(blockIndex), static_cast<uint32_t>(blockIndex >> 32), replica,
                        static_cast<uint32_t>(stream)},
                       key);
}

// (x + 0.5) * 2^-32: never 0 or 1, so log(u) is finite in Box–Muller.
inline double wordToUnit(uint32_t word) { return (static_cast<double>(word) + 0.5) * 0x1p-32; }

// Stores a double into storage of a float or integer dtype, rounded to it.
void storeRounded(void* out, DType dtype, int64_t i, double v) {
  const double r = roundToDType(v, dtype);
  switch (dtype) {
    case DType::Bool:
    case DType::U8: static_cast<uint8_t*>(out)[i] = static_cast<uint8_t>(r); break;
    case DType::I8: static_cast<int8_t*>(out)[i] = static_cast<int8_t>(r); break;
    case DType::I16: static_cast<int16_t*>(out)[i] = static_cast<int16_t>(r); break;
    case DType::I32: static_cast<int32_t*>(out)[i] = static_cast<int32_t>(r); break;
    case DType::U16: static_cast<uint16_t*>(out)[i] = static_cast<uint16_t>(r); break;
    case DType::U32: static_cast<uint32_t*>(out)[i] = static_cast<uint32_t>(r); break;
    case DType::F16: static_cast<uint16_t*>(out)[i] = floatToHalf(static_cast<float>(r)); break;
    case DType::F32: static_cast<float*>(out)[i] = static_cast<float>(r); break;
    case DType::F64: static_cast<double*>(out)[i] = r; break;
  }
}

// The largest value of `dtype` strictly below `high` (for keeping uniform floats in
// [low, high) after rounding).
double stepBelow(double high, DType dtype) {
  const double rounded = roundToDType(high, dtype);
  if (rounded < high) return rounded;
  switch (dtype) {
    case DType::F16: {
      // One half ulp toward -inf in the sign-magnitude half encoding.
      const uint16_t bits = floatToHalf(static_cast<float>(rounded));
      uint16_t below;
      if (rounded > 0) below = static_cast<uint16_t>(bits - 1);
      else if (rounded == 0) below = 0x8001u;
      else below = static_cast<uint16_t>(bits + 1);
      return static_cast<double>(halfToFloat(below));
    }
    case DType::F32:
      return static_cast<double>(std::nextafter(static_cast<float>(rounded), -INFINITY));
    default:
      return std::nextafter(rounded, -INFINITY);
  }
}

// The words of elements [begin, end) (begin a multiple of 4), kChunkWords at a time from
// the SIMD table's Philox (the same words as philox4x32_10): words(at, w, count) receives
// element at's word and the count after it in `w`.
constexpr int64_t kChunkWords = 512;
template <class Words>
void forEachChunkOfWords(int64_t begin, int64_t end, SeedKey seed, uint32_t replica, RandomStream stream, Words&& words) {
  const auto philox = simd::table().philoxBlocks;
  uint32_t w[kChunkWords];
  for (int64_t at = begin; at < end; at += kChunkWords) {
    const int64_t count = std::min(kChunkWords, end - at);
    philox(static_cast<uint64_t>(at) / 4, (count + 3) / 4, replica, static_cast<uint32_t>(stream), seed[0], seed[1], w);
    words(at, w, count);
  }
}

// Runs part(begin, end) over [0, n) split over the kernel threads at multiples of 64
// elements (whole Philox blocks) from 16K elements a part: each element is the same
// function of its index, so the same bits on any thread count.
template <class Part> void forEachPart(int64_t n, Part&& part) {
  constexpr int64_t kMinPerThread = 16 * 1024;
  if (n < 2 * kMinPerThread || simd::kernelThreads() <= 1) part(int64_t{0}, n);
  else simd::parallelFor(n, kMinPerThread, part);
}

template <class ValueOfWord>
void fillByWords(int64_t n, SeedKey seed, uint32_t replica, RandomStream stream, ValueOfWord&& valueOf) {
  forEachChunkOfWords(0, n, seed, replica, stream, [&](int64_t at, const uint32_t* w, int64_t count) {
    for (int64_t k = 0; k < count; ++k) valueOf(at + k, w[k]);
  });
}

}  // namespace

PhiloxBlock philox4x32_10(PhiloxBlock counter, SeedKey key) {
  for (int round = 0; round < 10; ++round) {
    uint32_t hi0, lo0, hi1, lo1;
    mulHiLo(kPhiloxM0, counter[0], hi0, lo0);
    mulHiLo(kPhiloxM1, counter[2], hi1, lo1);
    counter = {hi1 ^ counter[1] ^ key[0], lo1, hi0 ^ counter[3] ^ key[1], lo0};
    key[0] += kPhiloxW0;
    key[1] += kPhiloxW1;
  }
  return counter;
}

double uniformAt(SeedKey key, uint32_t replica, RandomStream stream, int64_t index) {
  const PhiloxBlock block = blockFor(key, replica, stream, static_cast<uint64_t>(index) / 4);
  return wordToUnit(block[static_cast<size_t>(index % 4)]);
}

void fillUniform(DType dtype, void* out, int64_t n, SeedKey seed, uint32_t replica, double low, double high,
                 RandomStream stream) {
  if (dtype == DType::Bool) {
    fillByWords(n, seed, replica, stream, [&](int64_t i, uint32_t word) {
      static_cast<uint8_t*>(out)[i] = wordToUnit(word) >= 0.5 ? 1 : 0;
    });
    return;
  }
  if (isInteger(dtype)) {
    fillByWords(n, seed, replica, stream, [&](int64_t i, uint32_t word) {
      storeRounded(out, dtype, i, std::floor(low + (high - low) * wordToUnit(word)));
    });
    return;
  }
  const double highBound = high > low ? stepBelow(high, dtype) : high;
  fillByWords(n, seed, replica, stream, [&](int64_t i, uint32_t word) {
    double v = roundToDType(low + (high - low) * wordToUnit(word), dtype);
    if (high > low && v >= high) v = highBound;
    storeRounded(out, dtype, i, v);
  });
}

void fillNormal(DType dtype, void* out, int64_t n, SeedKey seed, uint32_t replica, double mean, double std,
                RandomStream stream) {
  // Chunks of whole Philox blocks: their words, then the SIMD table's Box-Muller (the
  // same bits on every ISA), then mean + std z rounded to the dtype.
  const auto boxMuller = simd::table().boxMuller;
  forEachPart(n, [&](int64_t begin, int64_t end) {
    uint32_t first[kChunkWords / 2], second[kChunkWords / 2];
    double cosine[kChunkWords / 2], sine[kChunkWords / 2];
    forEachChunkOfWords(begin, end, seed, replica, stream, [&](int64_t chunk, const uint32_t* words, int64_t count) {
      const int64_t blocks = (count + 3) / 4;
      for (int64_t j = 0; j < blocks; ++j) {
        first[2 * j] = words[4 * j], second[2 * j] = words[4 * j + 1];
        first[2 * j + 1] = words[4 * j + 2], second[2 * j + 1] = words[4 * j + 3];
      }
      boxMuller(first, second, cosine, sine, 2 * blocks);
      // Element 4 j + 2 p + q of the chunk: pair 2 j + p, its cosine (q = 0) or sine.
      auto z = [&](int64_t e) { return e % 2 == 0 ? cosine[e / 2] : sine[e / 2]; };
      if (dtype == DType::F32) {
        float* o = static_cast<float*>(out) + chunk;
        for (int64_t e = 0; e < count; ++e) o[e] = roundToFloat(mean + std * z(e));
      } else if (dtype == DType::F64) {
        double* o = static_cast<double*>(out) + chunk;
        for (int64_t e = 0; e < count; ++e) o[e] = mean + std * z(e);
      } else {
        for (int64_t e = 0; e < count; ++e) storeRounded(out, dtype, chunk + e, mean + std * z(e));
      }
    });
  });
}

// The one rule of which elements dropout keeps (mask and op share it).
static bool dropoutKeeps(uint32_t word, double p) { return wordToUnit(word) >= p; }

void fillDropoutMask(uint8_t* keep, int64_t n, SeedKey seed, uint32_t replica, double p) {
  fillByWords(n, seed, replica, RandomStream::Dropout,
              [&](int64_t i, uint32_t word) { keep[i] = dropoutKeeps(word, p) ? 1 : 0; });
}

void applyDropout(DType dtype, const void* x, void* out, int64_t n, SeedKey seed, uint32_t replica, double p) {
  const double scale = 1.0 / (1.0 - p);
  if (dtype == DType::F32 || dtype == DType::F64) {
    // Typed loops over whole Philox blocks, split over the kernel threads.
    auto typed = [&]<class T>() {
      const T* in = static_cast<const T*>(x);
      T* o = static_cast<T*>(out);
      forEachPart(n, [&](int64_t begin, int64_t end) {
        forEachChunkOfWords(begin, end, seed, replica, RandomStream::Dropout,
                            [&](int64_t at, const uint32_t* w, int64_t count) {
                              for (int64_t k = 0; k < count; ++k) {
                                const double v = dropoutKeeps(w[k], p) ? static_cast<double>(in[at + k]) * scale : 0.0;
                                if constexpr (std::is_same_v<T, float>) o[at + k] = roundToFloat(v);
                                else o[at + k] = v;
                              }
                            });
      });
    };
    if (dtype == DType::F32) typed.operator()<float>();
    else typed.operator()<double>();
    return;
  }
  auto run = [&]<class T>(auto load) {
    const T* in = static_cast<const T*>(x);
    fillByWords(n, seed, replica, RandomStream::Dropout, [&](int64_t i, uint32_t word) {
      storeRounded(out, dtype, i, dropoutKeeps(word, p) ? load(in[i]) * scale : 0.0);
    });
  };
  switch (dtype) {
    case DType::F16: run.operator()<uint16_t>([](uint16_t h) { return static_cast<double>(halfToFloat(h)); }); break;
    case DType::F32: run.operator()<float>([](float v) { return static_cast<double>(v); }); break;
    case DType::F64: run.operator()<double>([](double v) { return v; }); break;
    default: break;  // the verifier admits float dtypes only
  }
}

std::vector<SeedKey> splitSeed(SeedKey seed, int64_t n) {
  std::vector<SeedKey> seeds;
  seeds.reserve(n > 0 ? static_cast<size_t>(n) : 0);
  for (int64_t k = 0; k < n; ++k) {
    const PhiloxBlock block =
        philox4x32_10({static_cast<uint32_t>(k), static_cast<uint32_t>(static_cast<uint64_t>(k) >> 32), 0,
                       static_cast<uint32_t>(RandomStream::SplitSeed)},
                      seed);
    seeds.push_back({block[0], block[1]});
  }
  return seeds;
}

}  // namespace pir::vm
