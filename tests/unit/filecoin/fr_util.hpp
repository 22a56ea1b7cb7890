#pragma once
// Test helpers for Filecoin field values: an Fr from the four little-endian
// u64 limbs the Rust tests print, and seeded random vectors.
#include <cstdint>
#include <random>
#include <vector>

#include "ff/bls12_381.hpp"

namespace cuzk::filecoin::test {

inline ff::Fr fr_limbs(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  return *ff::Fr::from_canonical({a, b, c, d});
}

inline std::vector<ff::Fr> random_frs(size_t n, std::mt19937_64& rng) {
  std::vector<ff::Fr> v(n);
  for (auto& x : v) x = ff::Fr::random(rng);
  return v;
}

}  // namespace cuzk::filecoin::test
