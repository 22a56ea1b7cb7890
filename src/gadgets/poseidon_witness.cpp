#include "gadgets/poseidon_witness.hpp"

#include <array>
#include <stdexcept>

#include "gadgets/poseidon_rounds.hpp"

namespace cuzk::gadgets::detail {

namespace {

// One of the circuit's allocations with the constraint that comes with it
// (each allocation of the gadget has exactly one).
Variable alloc_with_constraint(ConstraintSystem& cs, const Fr& v) {
  cs.skip_constraint();
  return cs.alloc("num", [&] { return v; });
}

// An S-box with the circuit's allocations: its input x where the previous
// mixing left it a linear combination ("allocate for Elt::Num"; the first
// round's inputs are allocated already), then x², x⁴ and x⁴·x (+ the round
// key).
Fr sbox(ConstraintSystem& cs, const Fr& x, const Fr* key, bool allocate_input) {
  if (allocate_input) alloc_with_constraint(cs, x);
  const Fr x2 = x.square();
  alloc_with_constraint(cs, x2);
  const Fr x4 = x2.square();
  alloc_with_constraint(cs, x4);
  Fr out = x4 * x;
  if (key) out += *key;
  alloc_with_constraint(cs, out);
  return out;
}

}  // namespace

AllocatedNum poseidon_hash_witness(ConstraintSystem& cs, std::span<const AllocatedNum> preimage,
                                   const PoseidonConstants& c, const Fr& tag) {
  const size_t t = c.width, half = c.half_full_rounds;
  if (preimage.size() != c.arity || t > kMaxPoseidonWidth || half == 0)
    throw std::invalid_argument("poseidon witness: preimage length or width out of range");
  std::array<Fr, kMaxPoseidonWidth> s;
  s[0] = tag;
  for (size_t i = 1; i < t; i++) s[i] = preimage[i - 1].value.value();
  poseidon_static_rounds(c, s.data(), [&](size_t round, size_t i, const Fr& x, const Fr* key) {
    // The tag is a constant, so its first S-box is too; the first round's
    // other inputs are the preimage, allocated already.
    if (round == 0 && i == 0) return poseidon_quintic(x) + *key;
    return sbox(cs, x, key, round != 0);
  });
  // "hash result": element 1, allocated.
  return {alloc_with_constraint(cs, s[1]), s[1]};
}

}  // namespace cuzk::gadgets::detail
