#pragma once
// Fixed-base scalar multiplication with a window table: for window i and
// digit d the table holds d·2^(w·i)·G in affine form, so k·G costs one
// addition per non-zero window (32 for w = 8, 16 for w = 16). Used by the
// development setup, which multiplies the two generators by millions of
// scalars.
#include <tbb/parallel_for.h>

#include <functional>
#include <span>
#include <vector>

#include "ec/bls12_381.hpp"
#include "ff/batch_inverse.hpp"

namespace cuzk::groth16 {

template <class C>
class FixedBaseTable {
 public:
  FixedBaseTable(const ec::Affine<C>& g, unsigned window)
      : w_(window), windows_((ff::Fr::NUM_BITS + window - 1) / window) {
    const size_t per = size_t(1) << w_;
    std::vector<ec::Jacobian<C>> bases(windows_);  // 2^(w·i)·G
    bases[0] = ec::Jacobian<C>::from_affine(g);
    for (unsigned i = 1; i < windows_; i++) {
      bases[i] = bases[i - 1];
      for (unsigned k = 0; k < w_; k++) bases[i] = bases[i].dbl();
    }
    // Windows are independent: built (and made affine) in parallel, which
    // matters for the 2^16-entry windows of the largest setups.
    table_.resize(windows_ * per);
    tbb::parallel_for(unsigned(0), windows_, [&](unsigned i) {
      std::vector<ec::Jacobian<C>> jac(per);
      jac[0] = ec::Jacobian<C>::identity();
      for (size_t d = 1; d < per; d++) jac[d] = jac[d - 1].add(bases[i]);
      ec::batch_to_affine<C>(jac, std::span<ec::Affine<C>>(table_).subspan(i * per, per));
    });
  }

  unsigned windows() const { return windows_; }

  // Window i's digit of a canonical scalar.
  template <class Limbs>
  size_t digit(const Limbs& c, unsigned i) const {
    const size_t bit = size_t(i) * w_;
    size_t d = 0;
    for (unsigned j = 0; j < w_; j++) d |= size_t(arith::bit(c, bit + j)) << j;
    return d;
  }

  // d·2^(w·i)·G (d > 0).
  const ec::Affine<C>& entry(unsigned i, size_t d) const { return table_[(size_t(i) << w_) + d]; }

  // k·G, one point at a time (Jacobian additions): the reference the batched
  // path below is tested against.
  ec::Jacobian<C> mul(const ff::Fr& k) const {
    const auto c = k.to_canonical();
    ec::Jacobian<C> acc = ec::Jacobian<C>::identity();
    for (unsigned i = 0; i < windows_; i++)
      if (size_t d = digit(c, i)) acc = acc.add_mixed(entry(i, d));
    return acc;
  }

 private:
  unsigned w_, windows_;
  std::vector<ec::Affine<C>> table_;
};

// Window size for `count` multiplications: a bigger table pays off only when
// it is reused enough (w = 16: 16 additions per point instead of 32 for
// w = 8, for a table of 2^20 points, 96 MiB in G1 and 192 MiB in G2).
inline unsigned fixed_base_window(size_t count) {
  return count < 4096 ? 4 : count < (size_t(1) << 17) ? 8 : count < (size_t(1) << 20) ? 12 : 16;
}

// out[i] = scalars[i]·G for one chunk, window by window, the accumulators
// kept affine: the chunk's additions of a window are independent, so one
// inversion (Montgomery's trick) serves them all and an addition costs
// 5M + 1S, against 7M + 4S for a mixed Jacobian one and no conversion at the
// end. The accumulator holds (k mod 2^(w·i))·G, an integer multiple below
// the entry's and their sum below r, so it is never ±entry for a canonical
// scalar; the Jacobian formula guards that case all the same.
template <class C>
void fixed_base_mul_chunk(const FixedBaseTable<C>& table, std::span<const ff::Fr> scalars,
                          std::span<ec::Affine<C>> out) {
  using Base = typename C::Base;
  const size_t n = scalars.size();
  std::vector<decltype(scalars[0].to_canonical())> canon(n);
  for (size_t j = 0; j < n; j++) canon[j] = scalars[j].to_canonical();
  for (auto& p : out) p = ec::Affine<C>::identity();
  std::vector<const ec::Affine<C>*> entry(n);
  std::vector<size_t> pending(n);
  std::vector<Base> den(n), scratch(n);
  for (unsigned w = 0; w < table.windows(); w++) {
    // The entries first, prefetched: a 2^16-digit window spans megabytes.
    for (size_t j = 0; j < n; j++) {
      const size_t d = table.digit(canon[j], w);
      entry[j] = d ? &table.entry(w, d) : nullptr;
      if (d) __builtin_prefetch(entry[j]), __builtin_prefetch(&entry[j]->y);
    }
    size_t m = 0;
    for (size_t j = 0; j < n; j++) {
      const ec::Affine<C>* t = entry[j];
      ec::Affine<C>& a = out[j];
      if (!t) continue;
      if (a.infinity) {
        a = *t;
      } else if (a.x == t->x) {  // a = ±t: doubling or the identity
        a = ec::Jacobian<C>::from_affine(a).add_mixed(*t).to_affine();
      } else {
        pending[m] = j;
        den[m++] = t->x - a.x;
      }
    }
    ff::batch_inverse<Base>(std::span<Base>(den).first(m), std::span<Base>(scratch).first(m));
    for (size_t k = 0; k < m; k++) {
      ec::Affine<C>& a = out[pending[k]];
      const ec::Affine<C>& t = *entry[pending[k]];
      const Base lambda = (t.y - a.y) * den[k];
      const Base x3 = lambda.square() - a.x - t.x;
      a.y = lambda * (a.x - x3) - a.y;
      a.x = x3;
    }
  }
}

// out[i] = scalars[i]·G, in parallel (call inside the caller's task arena);
// `tick(n)` is called after each finished chunk of n points.
template <class C>
void fixed_base_mul_batch(const FixedBaseTable<C>& table, std::span<const ff::Fr> scalars,
                          std::span<ec::Affine<C>> out, const std::function<void(size_t)>& tick) {
  constexpr size_t kChunk = 1024;
  const size_t chunks = (scalars.size() + kChunk - 1) / kChunk;
  tbb::parallel_for(size_t(0), chunks, [&](size_t ci) {
    const size_t lo = ci * kChunk, hi = std::min(scalars.size(), lo + kChunk);
    fixed_base_mul_chunk<C>(table, scalars.subspan(lo, hi - lo), out.subspan(lo, hi - lo));
    if (tick) tick(hi - lo);
  });
}

}  // namespace cuzk::groth16
