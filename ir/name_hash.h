// The hash of the IR's name tables (the value scope, the op table): names are
// short ("v123", "relu"), and a statement hashes several, so the hash is a few
// multiplies inline rather than a call to the library's byte hash. Not a
// cryptographic or a stable hash: only for the tables' placement.
#pragma once
#include <cstdint>
#include <cstring>
#include <string_view>

namespace pir {

inline uint32_t hashName(std::string_view name) {
  const auto mix = [](uint64_t x) {
    x *= 0xbf58476d1ce4e5b9ull;
    return x ^ (x >> 31);
  };
  const char* p = name.data();
  size_t n = name.size();
  uint64_t h = 0x9e3779b97f4a7c15ull * (n + 1);
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    h = mix(h ^ word);
  }
  if (n) {
    uint64_t word = 0;
    for (size_t i = 0; i < n; ++i) word |= static_cast<uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
    h = mix(h ^ word);
  }
  h *= 0x94d049bb133111ebull;
  return static_cast<uint32_t>(h ^ (h >> 32));
}

}  // namespace pir
