#pragma once
// Arbitrary field elements, cheaply, for benchmarks that need data of a size
// (2^27 elements) where Fr::random would take seconds: xorshift limbs with
// the top one cut below 2^61, so every value is < r. Not random in any
// cryptographic sense; deterministic in `seed`.
#include <cstdint>
#include <span>

#include "ff/bls12_381.hpp"

namespace cuzk::ff {

inline void fill_arbitrary(std::span<Fr> out, uint64_t seed) {
  uint64_t s = seed * 0x9e3779b97f4a7c15ULL + 0x243f6a8885a308d3ULL;
  for (Fr& e : out) {
    for (auto& l : e.v) {
      s ^= s << 13;
      s ^= s >> 7;
      s ^= s << 17;
      l = s;
    }
    e.v[3] >>= 3;
  }
}

}  // namespace cuzk::ff
