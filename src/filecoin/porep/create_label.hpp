#pragma once
// The SDR label inside the PoRep circuit (rust-fil-proofs
// storage-proofs-porep stacked/circuit/create_label.rs, docs/FILECOIN.md §2.3
// step 4): SHA-256 over
//   replica_id (256 bits) ‖ layer u32 BE ‖ node u64 BE ‖ zeros to 512 bits ‖ 37 × 256 parent bits,
// the digest read back as a little-endian integer and its low 254 bits
// packed into one number, which equals the native trim(SHA256(message)).
#include <cstdint>
#include <span>
#include <vector>

#include "gadgets/num.hpp"
#include "gadgets/uint64.hpp"

namespace cuzk::filecoin::circuit {

inline constexpr size_t kTotalParents = 37;  // 6 DRG + 8 expander parents, repeated to 37

// `replica_id`: 32..256 bits, MSB-first per byte (zero-padded to 256).
// `parents`: exactly 37 bit strings (each zero-padded to whole 256-bit nodes).
// SHA-256 in namespace "hash", the packing in "result_num".
// Throws std::invalid_argument for wrong sizes.
gadgets::AllocatedNum create_label_circuit(r1cs::ConstraintSystem& cs,
                                           std::span<const gadgets::Boolean> replica_id,
                                           const std::vector<std::vector<gadgets::Boolean>>& parents,
                                           uint32_t layer_index, const gadgets::UInt64& node);

}  // namespace cuzk::filecoin::circuit
