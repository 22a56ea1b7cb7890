#pragma once
// The Feistel permutation behind SDR's expander parents (docs/FILECOIN.md §7.6,
// rust-fil-proofs storage-proofs-core crypto/feistel.rs): 3 rounds over an
// even split of the smallest power of 4 >= N, BLAKE2b-512 round function,
// cycle walking back into [0, N).
#include <array>
#include <cstdint>
#include <span>

namespace cuzk::filecoin {

// Unkeyed BLAKE2b-512 of at most 128 bytes (one compression). Our own code:
// the round function runs ~10^9 times for a 512 MiB cache, where the
// per-call overhead of OpenSSL's EVP interface would dominate. Throws
// std::invalid_argument for longer input.
std::array<uint8_t, 64> blake2b512_short(std::span<const uint8_t> data);

class Feistel {
 public:
  // num_elements = N (nodes * 8 for SDR); keys: only the first 3 are used.
  Feistel(uint64_t num_elements, const std::array<uint64_t, 4>& keys);

  // encode() repeated until the value is < N. index must be < N.
  uint64_t permute(uint64_t index) const;
  // The inverse of permute (decode repeated until < N).
  uint64_t invert(uint64_t index) const;

  // One pass of the 3-round network over the 2*half_bits-bit domain.
  uint64_t encode(uint64_t x) const;
  uint64_t decode(uint64_t x) const;

  uint64_t num_elements() const { return n_; }
  unsigned half_bits() const { return half_bits_; }

  // F(R, k) = u64_be(BLAKE2b-512(u64_be(R) ‖ u64_be(k))[0..8]) & right_mask.
  static uint64_t round_function(uint64_t right, uint64_t key, uint64_t right_mask);

 private:
  uint64_t n_;
  unsigned half_bits_;
  uint64_t right_mask_, left_mask_;
  std::array<uint64_t, 3> keys_;
};

}  // namespace cuzk::filecoin
