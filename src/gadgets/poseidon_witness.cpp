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
  const Fr* k = c.compressed_round_constants.data();
  const auto mix_full = [&](size_t round) {
    poseidon_mix_dense(round + 1 == half ? c.pre_sparse : c.mds, s.data());
  };

  // First round: (x + pre)^5 + post. The tag is a constant, so its S-box is
  // too; the preimage elements are allocated already.
  const Fr *pre = k, *post = k + t;
  k += 2 * t;
  s[0] = poseidon_quintic(s[0] + pre[0]) + post[0];
  for (size_t i = 1; i < t; i++) s[i] = sbox(cs, s[i] + pre[i], post + i, false);
  mix_full(0);
  for (size_t r = 1; r < half; r++) {
    for (size_t i = 0; i < t; i++) s[i] = sbox(cs, s[i], k + i, true);
    k += t;
    mix_full(r);
  }
  for (size_t r = 0; r < c.partial_rounds; r++) {
    s[0] = sbox(cs, s[0], k++, true);
    poseidon_mix_sparse(c.sparse[r], s.data(), t);
  }
  for (size_t r = 0; r < half; r++) {
    const bool terminal = r + 1 == half;  // no round key after the last S-boxes
    for (size_t i = 0; i < t; i++) s[i] = sbox(cs, s[i], terminal ? nullptr : k + i, true);
    if (!terminal) k += t;
    poseidon_mix_dense(c.mds, s.data());
  }
  // "hash result": element 1, allocated.
  return {alloc_with_constraint(cs, s[1]), s[1]};
}

}  // namespace cuzk::gadgets::detail
