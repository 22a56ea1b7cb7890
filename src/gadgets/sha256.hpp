#pragma once
// The SHA-256 gadget of bellperson sha256.rs (docs/FILECOIN.md §4.1-4.2): big-
// endian bit streams, constant padding and IV, message expansion and rounds
// over UInt32 with `e` and `a` kept as deferred sums, and all additions of
// one compression batched in a MultiEq. With 512 allocated message bits one
// compression costs 25,840 constraints and sha256() of them 44,874.
#include <span>
#include <vector>

#include "gadgets/uint32.hpp"

namespace cuzk::gadgets {

// SHA-256 of a bit string (length a multiple of 8), MSB of each byte first;
// returns the 256 digest bits in the same order. Blocks in "block i".
std::vector<Boolean> sha256(ConstraintSystem& cs, std::span<const Boolean> input);

// One compression of exactly 512 bits with the IV, no padding.
std::vector<Boolean> sha256_block_no_padding(ConstraintSystem& cs, std::span<const Boolean> input);

// The compression function: 512 message bits and the 8-word chaining value.
std::vector<UInt32> sha256_compression_function(ConstraintSystem& cs, std::span<const Boolean> input,
                                                const std::vector<UInt32>& current_hash_value);

std::vector<UInt32> sha256_iv();

}  // namespace cuzk::gadgets
