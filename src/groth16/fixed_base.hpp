#pragma once
// Fixed-base scalar multiplication with a window table: for window i and
// digit d the table holds d·2^(w·i)·G in affine form, so k·G costs one mixed
// addition per non-zero window (32 for w = 8, 16 for w = 16). Used by the
// development setup, which multiplies the two generators by millions of
// scalars.
#include <tbb/parallel_for.h>

#include <functional>
#include <span>
#include <vector>

#include "ec/bls12_381.hpp"

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

  ec::Jacobian<C> mul(const ff::Fr& k) const {
    const auto c = k.to_canonical();
    const size_t per = size_t(1) << w_;
    ec::Jacobian<C> acc = ec::Jacobian<C>::identity();
    for (unsigned i = 0; i < windows_; i++) {
      size_t bit = size_t(i) * w_, d = 0;
      for (unsigned j = 0; j < w_; j++) d |= size_t(arith::bit(c, bit + j)) << j;
      if (d) acc = acc.add_mixed(table_[i * per + d]);
    }
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

// out[i] = scalars[i]·G, in parallel (call inside the caller's task arena);
// `tick(n)` is called after each finished chunk of n points.
template <class C>
void fixed_base_mul_batch(const FixedBaseTable<C>& table, std::span<const ff::Fr> scalars,
                          std::span<ec::Affine<C>> out, const std::function<void(size_t)>& tick) {
  constexpr size_t kChunk = 1024;
  const size_t chunks = (scalars.size() + kChunk - 1) / kChunk;
  tbb::parallel_for(size_t(0), chunks, [&](size_t ci) {
    size_t lo = ci * kChunk, hi = std::min(scalars.size(), lo + kChunk);
    std::vector<ec::Jacobian<C>> jac(hi - lo);
    for (size_t i = lo; i < hi; i++) jac[i - lo] = table.mul(scalars[i]);
    ec::batch_to_affine<C>(jac, out.subspan(lo, hi - lo));
    if (tick) tick(hi - lo);
  });
}

}  // namespace cuzk::groth16
