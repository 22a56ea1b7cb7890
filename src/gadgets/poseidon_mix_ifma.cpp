#include "gadgets/poseidon_mix_ifma.hpp"

#include "platform/cpu_features.hpp"

#if defined(__x86_64__)
// GCC 12 flags the intrinsics' internal "undefined" operands in functions
// compiled for a target the translation unit does not default to.
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#pragma GCC diagnostic ignored "-Wuninitialized"
#include "arith/ifma52.hpp"
#endif

namespace cuzk::gadgets {

#if defined(__x86_64__)

namespace {

constexpr size_t kLanes = 8, kLimbs = 5;

// Blocks of outputs taken on IFMA: the whole blocks of eight, and a last
// partial block of two or more (one output alone is cheaper scalar).
size_t ifma_blocks(size_t n) { return n / kLanes + (n % kLanes >= 2 ? 1 : 0); }

// Output j of s·m, scalar.
Fr column_product(const FrMatrix& m, const Fr* s, size_t j) {
  Fr r = s[0] * m(0, j);
  for (size_t i = 1; i < m.n; i++) r += s[i] * m(i, j);
  return r;
}

}  // namespace

PoseidonMixTable make_poseidon_mix_table(const FrMatrix& m) {
  PoseidonMixTable t;
  if (m.n < 2 || m.n > PoseidonMixTable::kMaxIfmaMixWidth) return t;
  t.n = m.n;
  const size_t blocks = ifma_blocks(m.n);
  t.limbs.assign(blocks * m.n * kLimbs * kLanes, 0);
  // (x·2^256)·(2^260 mod r)/2^256 = x·2^260: a product with the raw 2^260.
  Fr to_ifma;
  to_ifma.v = arith::pow2_mod<4>(260, Fr::MODULUS);
  for (size_t b = 0; b < blocks; b++)
    for (size_t i = 0; i < m.n; i++)
      for (size_t lane = 0; lane < kLanes && kLanes * b + lane < m.n; lane++) {
        const auto l52 = arith::ifma::to_radix52<kLimbs>((m(i, kLanes * b + lane) * to_ifma).v);
        for (size_t k = 0; k < kLimbs; k++) t.limbs[((b * m.n + i) * kLimbs + k) * kLanes + lane] = l52[k];
      }
  return t;
}

namespace {

using namespace arith::ifma;
constexpr Modulus52<kLimbs> kMod = Modulus52<kLimbs>::make(Fr::MODULUS);

CUZK_IFMA_TARGET void mix_blocks(const PoseidonMixTable& table, Fr* s) {
  const size_t n = table.n;
  Vec<kLimbs> x[PoseidonMixTable::kMaxIfmaMixWidth];
  for (size_t i = 0; i < n; i++) {
    const auto l52 = to_radix52<kLimbs>(s[i].v);
    for (size_t k = 0; k < kLimbs; k++) x[i].l[k] = bcast(l52[k]);
  }
  const auto row = [&](size_t b, size_t i) {
    const uint64_t* p = table.limbs.data() + (b * n + i) * kLimbs * kLanes;
    Vec<kLimbs> v;
    for (size_t k = 0; k < kLimbs; k++) v.l[k] = _mm512_loadu_si512(p + k * kLanes);
    return v;
  };
  for (size_t b = 0, blocks = ifma_blocks(n); b < blocks; b++) {
    // n products of elements below r: limbs below n·10·2^52 < 2^60 and the
    // reduction's result below n·r²/2^260 + r < 2r for n <= 16.
    Wide<kLimbs> acc = mul_wide(x[0], row(b, 0));
    for (size_t i = 1; i < n; i++) acc = add_wide(acc, mul_wide(x[i], row(b, i)));
    Vec<kLimbs> v = reduce_lazy(acc, kMod);
    normalize<kLimbs>(v.l);
    v = sub_if_ge(v, kMod.p);
    __m512i L[4];
    to_limbs64<4, kLimbs>(v, L);
    alignas(64) uint64_t out[4][kLanes];
    for (size_t k = 0; k < 4; k++) _mm512_store_si512(out[k], L[k]);
    for (size_t lane = 0; lane < kLanes && kLanes * b + lane < n; lane++)
      for (size_t k = 0; k < 4; k++) s[kLanes * b + lane].v[k] = out[k][lane];
  }
}

}  // namespace

bool poseidon_mix_dense_ifma(const PoseidonMixTable& table, const FrMatrix& m, Fr* s) {
  if (table.n != m.n || table.limbs.empty() || !platform::use_ifma()) return false;
  // A last output alone: scalar, from the elements before they are overwritten.
  const bool last_scalar = m.n % kLanes == 1;
  const Fr last = last_scalar ? column_product(m, s, m.n - 1) : Fr::zero();
  mix_blocks(table, s);
  if (last_scalar) s[m.n - 1] = last;
  return true;
}

#else

PoseidonMixTable make_poseidon_mix_table(const FrMatrix&) { return {}; }
bool poseidon_mix_dense_ifma(const PoseidonMixTable&, const FrMatrix&, Fr*) { return false; }

#endif

}  // namespace cuzk::gadgets
