#pragma once
// Packing bits into field elements (bellperson multipack.rs): public inputs
// of up to 254 bits each (Fr::CAPACITY), or one private number.
#include <cstdint>
#include <span>
#include <vector>

#include "gadgets/num.hpp"

namespace cuzk::gadgets {

// For each chunk of 254 bits: input "input i" and "packing constraint i":
// Σ 2^j·bit_j · ONE = input.
void pack_into_inputs(ConstraintSystem& cs, std::span<const Boolean> bits);

// The first 254 bits as one allocated number: "input/num" and
// "packing constraint".
AllocatedNum pack_bits(ConstraintSystem& cs, std::span<const Boolean> bits);

// Bits of bytes, most significant bit of each byte first.
std::vector<bool> bytes_to_bits(std::span<const uint8_t> bytes);
// Bits of bytes, least significant bit of each byte first.
std::vector<bool> bytes_to_bits_le(std::span<const uint8_t> bytes);
// The values pack_into_inputs exposes for these bits.
std::vector<Fr> compute_multipacking(const std::vector<bool>& bits);

}  // namespace cuzk::gadgets
