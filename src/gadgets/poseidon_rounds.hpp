#pragma once
// Poseidon's optimized ("static") rounds on plain field elements: the S-box,
// the two kinds of mixing and the round schedule. Shared by the native hash
// (src/filecoin/hash/poseidon.cpp) and the gadget's witness-only path
// (gadgets/poseidon_witness.hpp), which must agree to the bit.
#include <array>
#include <cstddef>
#include <stdexcept>

#include "gadgets/poseidon_constants.hpp"
#include "gadgets/poseidon_mix_ifma.hpp"

namespace cuzk::gadgets {

// The widest instance Filecoin uses: arity 36 (hash_md), t = 37.
inline constexpr size_t kMaxPoseidonWidth = 37;

inline Fr poseidon_quintic(const Fr& x) { return x.square().square() * x; }

// s ← s·M (neptune's row-vector product: new[j] = Σ_i s[i]·M[i][j]), t = m.n
// ≤ kMaxPoseidonWidth.
inline void poseidon_mix_dense(const FrMatrix& m, Fr* s) {
  const size_t t = m.n;
  if (t > kMaxPoseidonWidth) throw std::length_error("poseidon: width above the widest instance");
  std::array<Fr, kMaxPoseidonWidth> r;
  for (size_t j = 0; j < t; j++) r[j] = s[0] * m(0, j);
  for (size_t i = 1; i < t; i++) {
    const Fr si = s[i];
    for (size_t j = 0; j < t; j++) r[j] += si * m(i, j);
  }
  for (size_t j = 0; j < t; j++) s[j] = r[j];
}

// The same with m's IFMA table where the CPU takes it (poseidon_mix_ifma.hpp).
inline void poseidon_mix_dense(const FrMatrix& m, const PoseidonMixTable& table, Fr* s) {
  if (!poseidon_mix_dense_ifma(table, m, s)) poseidon_mix_dense(m, s);
}

// s ← s·M'' for a partial round's sparse factor: new[0] = Σ_i s[i]·ŵ[i],
// new[j] = s[j] + s[0]·v[j-1].
inline void poseidon_mix_sparse(const PoseidonSparseMatrix& m, Fr* s, size_t t) {
  const Fr s0 = s[0];
  Fr r0 = s0 * m.w_hat[0];
  for (size_t i = 1; i < t; i++) r0 += m.w_hat[i] * s[i];
  for (size_t j = 1; j < t; j++) s[j] += m.v_rest[j - 1] * s0;
  s[0] = r0;
}

// The round schedule on the state s (c.width elements): the first round's
// keys added before its S-boxes, each S-box then followed by the next
// round's key (none after the last round's); full rounds mixed by the MDS
// matrix (the last of the first half by the pre-sparse one), partial rounds
// S-box element 0 only and mix by their sparse factors. sbox(round, i, x,
// key) gives S-box i of the round (rounds counted from 0 across all three
// phases) for input x, plus *key where key is not null.
template <class SBox>
void poseidon_static_rounds(const PoseidonConstants& c, Fr* s, SBox&& sbox) {
  const size_t t = c.width, half = c.half_full_rounds;
  const Fr* k = c.compressed_round_constants.data();
  for (size_t i = 0; i < t; i++) s[i] += *k++;
  size_t round = 0;
  for (size_t r = 0; r < half; r++, round++) {
    for (size_t i = 0; i < t; i++) s[i] = sbox(round, i, s[i], k + i);
    k += t;
    if (r + 1 == half) poseidon_mix_dense(c.pre_sparse, c.pre_sparse_ifma, s);
    else poseidon_mix_dense(c.mds, c.mds_ifma, s);
  }
  if (PoseidonPartialLanes lanes; lanes.begin(c, s)) {
    for (size_t r = 0; r < c.partial_rounds; r++, round++) {
      const Fr dot = lanes.dot(r);  // first: it overlaps the S-box
      s[0] = lanes.round(r, sbox(round, size_t(0), s[0], k++), dot);
    }
    lanes.end(s);
  } else {
    for (size_t r = 0; r < c.partial_rounds; r++, round++) {
      s[0] = sbox(round, size_t(0), s[0], k++);
      poseidon_mix_sparse(c.sparse[r], s, t);
    }
  }
  for (size_t r = 0; r < half; r++, round++) {
    const bool last = r + 1 == half;
    for (size_t i = 0; i < t; i++) s[i] = sbox(round, i, s[i], last ? nullptr : k + i);
    if (!last) k += t;
    poseidon_mix_dense(c.mds, c.mds_ifma, s);
  }
}

}  // namespace cuzk::gadgets
