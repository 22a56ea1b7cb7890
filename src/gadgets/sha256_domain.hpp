#pragma once
// Filecoin's SHA-256 over field elements (filecoin-hashers sha256.rs,
// docs/FILECOIN.md §4.3): a number enters as its 255 little-endian bits plus a
// zero, reordered MSB-first within each byte (its 32 LE bytes as SHA-256
// reads them); the digest's bytes are read back as a little-endian integer
// and its low 254 bits packed, which equals the native trim_to_fr32.
#include <span>
#include <vector>

#include "gadgets/num.hpp"

namespace cuzk::gadgets {

// Bits of bytes given LSB-first per byte (padded with zeros to whole bytes)
// reordered MSB-first per byte.
std::vector<Boolean> reverse_bit_numbering(std::span<const Boolean> bits);

// Sha256Function::hash_circuit: sha256 in "hash", then pack_bits in "pack_le".
AllocatedNum sha256_hash_to_fr(ConstraintSystem& cs, std::span<const Boolean> bits);

// hash_multi_leaf_circuit: leaf i decomposed in "{i}_num_into_bits".
// Two leaves cost 2·256 + 44,866 + 1 = 45,379 constraints.
AllocatedNum sha256_hash_leaves(ConstraintSystem& cs, std::span<const AllocatedNum> leaves);

}  // namespace cuzk::gadgets
