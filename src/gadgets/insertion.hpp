#pragma once
// storage-proofs-core insertion.rs: place a node among its Merkle siblings
// at a position given by index bits (LSB first), and select one of 2^k
// numbers. Costs: pick 1; select(2^k) 2^k - 1; insert into 2/4/8 slots
// 2/8/22 (hand-optimised tables), otherwise size·(size-1).
#include <span>
#include <vector>

#include "gadgets/num.hpp"

namespace cuzk::gadgets {

// a if cond else b: "pick result" and "pick": (b - a)·cond = b - c.
AllocatedNum pick(ConstraintSystem& cs, const Boolean& cond, const AllocatedNum& a, const AllocatedNum& b);

// from[index(bits)], picks in namespaces "pick i, j".
AllocatedNum select(ConstraintSystem& cs, std::span<const AllocatedNum> from, std::span<const Boolean> bits);

// `elements` with `element` inserted at index(bits); elements.size() + 1
// must be 2^bits.size(). Sizes 4 and 8 need allocated, non-negated bits.
std::vector<AllocatedNum> insert(ConstraintSystem& cs, const AllocatedNum& element,
                                 std::span<const Boolean> bits, std::span<const AllocatedNum> elements);

}  // namespace cuzk::gadgets
