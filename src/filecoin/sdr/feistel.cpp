#include "filecoin/sdr/feistel.hpp"

#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>

namespace cuzk::filecoin {
namespace {

// BLAKE2b IV (= SHA-512 IV) and message schedule (RFC 7693).
constexpr uint64_t kIv[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
                             0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};
constexpr uint8_t kSigma[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

inline void g(uint64_t* v, int a, int b, int c, int d, uint64_t x, uint64_t y) {
  v[a] = v[a] + v[b] + x;
  v[d] = std::rotr(v[d] ^ v[a], 32);
  v[c] = v[c] + v[d];
  v[b] = std::rotr(v[b] ^ v[c], 24);
  v[a] = v[a] + v[b] + y;
  v[d] = std::rotr(v[d] ^ v[a], 16);
  v[c] = v[c] + v[d];
  v[b] = std::rotr(v[b] ^ v[c], 63);
}

// h after the single (final) compression of a <= 128-byte message held in m.
// Always inlined and fully unrolled so that the schedule indexes are
// constants: for the Feistel round the 14 zero message words then fold away
// (about 2x faster than the rolled loop).
[[gnu::always_inline]] inline void compress_final(const uint64_t m[16], uint64_t len, uint64_t h[8]) {
  for (int i = 0; i < 8; i++) h[i] = kIv[i];
  h[0] ^= 0x01010040;  // digest length 64, no key, fanout 1, depth 1
  uint64_t v[16];
  for (int i = 0; i < 8; i++) v[i] = h[i], v[8 + i] = kIv[i];
  v[12] ^= len;    // byte counter (low word; the high word stays 0)
  v[14] = ~v[14];  // final-block flag
#pragma GCC unroll 12
  for (int r = 0; r < 12; r++) {
    const uint8_t* s = kSigma[r];
    g(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
    g(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
    g(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
    g(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
    g(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
    g(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
    g(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
    g(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
  }
  for (int i = 0; i < 8; i++) h[i] ^= v[i] ^ v[8 + i];
}

static_assert(std::endian::native == std::endian::little, "BLAKE2b words are loaded as native LE");

}  // namespace

std::array<uint8_t, 64> blake2b512_short(std::span<const uint8_t> data) {
  if (data.size() > 128)
    throw std::invalid_argument("blake2b512_short: input of " + std::to_string(data.size()) +
                                " bytes exceeds one 128-byte block");
  uint64_t m[16] = {}, h[8];
  std::memcpy(m, data.data(), data.size());
  compress_final(m, data.size(), h);
  std::array<uint8_t, 64> out;
  std::memcpy(out.data(), h, 64);
  return out;
}

uint64_t Feistel::round_function(uint64_t right, uint64_t key, uint64_t right_mask) {
  // Message = u64_be(right) ‖ u64_be(key): as LE words that is the byte-swaps.
  uint64_t m[16] = {__builtin_bswap64(right), __builtin_bswap64(key)}, h[8];
  compress_final(m, 16, h);
  // The first 8 digest bytes (h[0] stored LE) read big-endian.
  return __builtin_bswap64(h[0]) & right_mask;
}

Feistel::Feistel(uint64_t num_elements, const std::array<uint64_t, 4>& keys)
    : n_(num_elements), keys_{keys[0], keys[1], keys[2]} {
  if (num_elements == 0 || num_elements > (uint64_t(1) << 62))
    throw std::invalid_argument("Feistel: num_elements must be in [1, 2^62], got " +
                                std::to_string(num_elements));
  // Smallest 4^h >= N with h >= 1 (upstream starts its search at 4).
  half_bits_ = 1;
  while ((uint64_t(1) << (2 * half_bits_)) < num_elements) half_bits_++;
  right_mask_ = (uint64_t(1) << half_bits_) - 1;
  left_mask_ = right_mask_ << half_bits_;
}

uint64_t Feistel::encode(uint64_t x) const {
  uint64_t left = (x & left_mask_) >> half_bits_, right = x & right_mask_;
  for (uint64_t k : keys_) {
    uint64_t next_right = left ^ round_function(right, k, right_mask_);
    left = right;
    right = next_right;
  }
  return left << half_bits_ | right;
}

uint64_t Feistel::decode(uint64_t x) const {
  uint64_t left = (x & left_mask_) >> half_bits_, right = x & right_mask_;
  for (int i = 2; i >= 0; i--) {
    uint64_t prev_left = right ^ round_function(left, keys_[i], right_mask_);
    right = left;
    left = prev_left;
  }
  return left << half_bits_ | right;
}

uint64_t Feistel::permute(uint64_t index) const {
  if (index >= n_)
    throw std::out_of_range("Feistel::permute: index " + std::to_string(index) + " >= N " +
                            std::to_string(n_));
  uint64_t u = encode(index);
  while (u >= n_) u = encode(u);
  return u;
}

uint64_t Feistel::invert(uint64_t index) const {
  if (index >= n_)
    throw std::out_of_range("Feistel::invert: index " + std::to_string(index) + " >= N " +
                            std::to_string(n_));
  uint64_t u = decode(index);
  while (u >= n_) u = decode(u);
  return u;
}

}  // namespace cuzk::filecoin
