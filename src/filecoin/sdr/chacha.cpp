#include "filecoin/sdr/chacha.hpp"

#include <bit>
#include <stdexcept>

namespace cuzk::filecoin {
namespace {

// "expand 32-byte k"
constexpr uint32_t kSigma[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};

inline uint32_t load_le32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

inline void quarter(uint32_t& a, uint32_t& b, uint32_t& c, uint32_t& d) {
  a += b;
  d ^= a;
  d = std::rotl(d, 16);
  c += d;
  b ^= c;
  b = std::rotl(b, 12);
  a += b;
  d ^= a;
  d = std::rotl(d, 8);
  c += d;
  b ^= c;
  b = std::rotl(b, 7);
}

void key_state(const std::array<uint8_t, 32>& key, std::array<uint32_t, 16>& s) {
  for (int i = 0; i < 4; i++) s[i] = kSigma[i];
  for (int i = 0; i < 8; i++) s[4 + i] = load_le32(key.data() + 4 * i);
}

}  // namespace

void chacha_block(const std::array<uint32_t, 16>& in, int rounds, std::array<uint32_t, 16>& out) {
  std::array<uint32_t, 16> x = in;
  for (int r = 0; r < rounds; r += 2) {
    // Column round, then diagonal round.
    quarter(x[0], x[4], x[8], x[12]);
    quarter(x[1], x[5], x[9], x[13]);
    quarter(x[2], x[6], x[10], x[14]);
    quarter(x[3], x[7], x[11], x[15]);
    quarter(x[0], x[5], x[10], x[15]);
    quarter(x[1], x[6], x[11], x[12]);
    quarter(x[2], x[7], x[8], x[13]);
    quarter(x[3], x[4], x[9], x[14]);
  }
  for (int i = 0; i < 16; i++) out[i] = x[i] + in[i];
}

ChaCha8Rng::ChaCha8Rng(const std::array<uint8_t, 32>& seed) { key_state(seed, state_); }

void ChaCha8Rng::refill() {
  chacha_block(state_, 8, block_);
  // 64-bit block counter in words 12 (low) and 13 (high).
  if (++state_[12] == 0) ++state_[13];
  pos_ = 0;
}

uint32_t ChaCha8Rng::next_u32() {
  if (pos_ == 16) refill();
  return block_[pos_++];
}

void chacha20_ietf_keystream(const std::array<uint8_t, 32>& key, const std::array<uint8_t, 12>& nonce,
                             uint64_t offset, std::span<uint8_t> out) {
  if (out.empty()) return;
  if ((offset + out.size() + 63) / 64 > (uint64_t(1) << 32))
    throw std::invalid_argument("chacha20: keystream request passes the 2^32-block counter limit");
  std::array<uint32_t, 16> s{}, blk{};
  key_state(key, s);
  for (int i = 0; i < 3; i++) s[13 + i] = load_le32(nonce.data() + 4 * i);
  uint64_t block = offset / 64;
  size_t skip = size_t(offset % 64), done = 0;
  while (done < out.size()) {
    s[12] = uint32_t(block++);
    chacha_block(s, 20, blk);
    for (size_t i = skip; i < 64 && done < out.size(); i++)
      out[done++] = uint8_t(blk[i / 4] >> (8 * (i % 4)));
    skip = 0;
  }
}

}  // namespace cuzk::filecoin
