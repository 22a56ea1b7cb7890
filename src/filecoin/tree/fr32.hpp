#pragma once
// fr32 padding (docs/FILECOIN.md §7.8): the data is read as one little-endian bit
// stream (bit i = bit i%8 of byte i/8) and cut into 254-bit pieces; each
// piece becomes a 32-byte node with its top two bits zero, so every node is
// a valid Fr. 127 data bytes become exactly 128 padded bytes.
#include <cstdint>
#include <span>
#include <vector>

namespace cuzk::filecoin {

// Bytes of whole 32-byte nodes needed for `unpadded` data bytes
// (ceil(8·unpadded / 254) nodes; = unpadded·128/127 for multiples of 127).
uint64_t fr32_padded_size(uint64_t unpadded);
// Data bytes that `padded` bytes (a multiple of 32) can carry: floor(254·nodes / 8).
uint64_t fr32_unpadded_capacity(uint64_t padded);

// Pads `data`; a partial last node is filled with zero bits.
std::vector<uint8_t> fr32_pad(std::span<const uint8_t> data);

// The first `unpadded_len` data bytes of `padded`. Throws
// std::invalid_argument when padded.size() is not a multiple of 32, when it
// cannot hold unpadded_len bytes, or when a node has a top bit set.
std::vector<uint8_t> fr32_unpad(std::span<const uint8_t> padded, uint64_t unpadded_len);

}  // namespace cuzk::filecoin
