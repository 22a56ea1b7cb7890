#pragma once
// ChaCha stream primitives used by SDR sealing (docs/FILECOIN.md §7.4, §7.5):
// * ChaCha8Rng: bit-compatible with rand_chacha 0.3 `ChaCha8Rng::from_seed`
//   (key = seed, 64-bit block counter from 0, stream id 0), which the DRG uses
//   to sample base parents;
// * chacha20_ietf_keystream: RFC 8439 ChaCha20 (32-bit counter, 96-bit
//   nonce), which synthetic PoRep uses as its PRF.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace cuzk::filecoin {

// One ChaCha block: `rounds` (8 or 20) rounds over the 16-word input state,
// plus the input (the standard feed-forward). Words are native u32.
void chacha_block(const std::array<uint32_t, 16>& input, int rounds, std::array<uint32_t, 16>& out);

// rand_chacha 0.3 ChaCha8Rng. Its output is the keystream read as LE u32
// words; next_u64() = lo | hi << 32 from two consecutive words. (rand_core's
// block reader has a special case for a u64 straddling a block boundary,
// which yields the same two consecutive words, so reading word by word here
// is equivalent.)
class ChaCha8Rng {
 public:
  explicit ChaCha8Rng(const std::array<uint8_t, 32>& seed);
  uint32_t next_u32();
  uint64_t next_u64() {
    uint64_t lo = next_u32();
    return lo | uint64_t(next_u32()) << 32;
  }

 private:
  void refill();
  std::array<uint32_t, 16> state_{};  // words 12-13: block counter, 14-15: stream 0
  std::array<uint32_t, 16> block_{};
  size_t pos_ = 16;
};

// Writes ChaCha20 (IETF) keystream bytes starting at byte `offset` of the
// stream (block counter = offset / 64, from 0) into `out`. Throws
// std::invalid_argument when the stream would pass the 2^32-block limit.
void chacha20_ietf_keystream(const std::array<uint8_t, 32>& key, const std::array<uint8_t, 12>& nonce,
                             uint64_t offset, std::span<uint8_t> out);

}  // namespace cuzk::filecoin
