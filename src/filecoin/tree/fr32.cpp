#include "filecoin/tree/fr32.hpp"

#include <stdexcept>
#include <string>

namespace cuzk::filecoin {

namespace {
constexpr uint64_t kNodeBits = 254;
}

uint64_t fr32_padded_size(uint64_t unpadded) { return (unpadded * 8 + kNodeBits - 1) / kNodeBits * 32; }

uint64_t fr32_unpadded_capacity(uint64_t padded) { return padded / 32 * kNodeBits / 8; }

std::vector<uint8_t> fr32_pad(std::span<const uint8_t> data) {
  const uint64_t nodes = fr32_padded_size(data.size()) / 32;
  std::vector<uint8_t> out(nodes * 32);
  auto byte_at = [&](uint64_t i) -> unsigned { return i < data.size() ? data[i] : 0u; };
  for (uint64_t n = 0; n < nodes; n++) {
    // Node n holds data bits [254n, 254n + 254): byte-aligned reads with a
    // fixed shift s (0, 6, 4 or 2) instead of bit-by-bit copying.
    const uint64_t bit = n * kNodeBits, first = bit / 8;
    const unsigned s = bit % 8;
    uint8_t* o = out.data() + n * 32;
    for (unsigned b = 0; b < 32; b++)
      o[b] = uint8_t((byte_at(first + b) >> s) | (byte_at(first + b + 1) << (8 - s)));
    o[31] &= 0x3f;
  }
  return out;
}

std::vector<uint8_t> fr32_unpad(std::span<const uint8_t> padded, uint64_t unpadded_len) {
  if (padded.size() % 32 != 0)
    throw std::invalid_argument("fr32_unpad: padded size " + std::to_string(padded.size()) +
                                " is not a multiple of 32");
  if (unpadded_len > fr32_unpadded_capacity(padded.size()))
    throw std::invalid_argument("fr32_unpad: " + std::to_string(padded.size()) +
                                " padded bytes cannot hold " + std::to_string(unpadded_len) + " data bytes");
  const uint64_t nodes = padded.size() / 32;
  // One spare byte so the shifted writes of the last node stay in range.
  std::vector<uint8_t> out(fr32_unpadded_capacity(padded.size()) + 2, 0);
  for (uint64_t n = 0; n < nodes; n++) {
    const uint8_t* in = padded.data() + n * 32;
    if (in[31] & 0xc0)
      throw std::invalid_argument("fr32_unpad: node " + std::to_string(n) +
                                  " has one of its top two bits set (not fr32 padded)");
    const uint64_t bit = n * kNodeBits, first = bit / 8;
    const unsigned s = bit % 8;
    for (unsigned b = 0; b < 32; b++) {
      out[first + b] |= uint8_t(in[b] << s);
      if (s) out[first + b + 1] |= uint8_t(in[b] >> (8 - s));
    }
  }
  out.resize(unpadded_len);
  return out;
}

}  // namespace cuzk::filecoin
