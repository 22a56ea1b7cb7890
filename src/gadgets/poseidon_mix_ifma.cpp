#include "gadgets/poseidon_mix_ifma.hpp"

#include <algorithm>

#include "platform/cpu_features.hpp"

#if defined(__x86_64__)
#include "arith/ifma52.hpp"
#endif

namespace cuzk::gadgets {

#if defined(__x86_64__)

namespace {

constexpr size_t kLanes = 8, kLimbs = 5, kMinLanesWidth = 5;

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

std::vector<uint64_t> make_poseidon_sparse_table(const std::vector<PoseidonSparseMatrix>& sparse,
                                                 size_t width) {
  std::vector<uint64_t> t;
  // Width 3 (arity 2): a scalar round is five products, and the lanes'
  // overhead measured slower than that.
  if (width < kMinLanesWidth || width - 1 > kLanes) return t;
  constexpr size_t kVec = kLimbs * kLanes;
  t.assign(sparse.size() * 2 * kVec, 0);
  Fr to_ifma;
  to_ifma.v = arith::pow2_mod<4>(260, Fr::MODULUS);
  for (size_t r = 0; r < sparse.size(); r++)
    for (size_t lane = 0; lane + 1 < width; lane++) {
      const auto w = arith::ifma::to_radix52<kLimbs>((sparse[r].w_hat[lane + 1] * to_ifma).v);
      const auto v = arith::ifma::to_radix52<kLimbs>((sparse[r].v_rest[lane] * to_ifma).v);
      for (size_t k = 0; k < kLimbs; k++) {
        t[(2 * r) * kVec + k * kLanes + lane] = w[k];
        t[(2 * r + 1) * kVec + k * kLanes + lane] = v[k];
      }
    }
  return t;
}

namespace {

using namespace arith::ifma;
constexpr Modulus52<kLimbs> kMod = Modulus52<kLimbs>::make(Fr::MODULUS);

CUZK_IFMA_INLINE Vec<kLimbs> load_vec(const uint64_t* p) {
  Vec<kLimbs> v;
  for (size_t k = 0; k < kLimbs; k++) v.l[k] = _mm512_loadu_si512(p + k * kLanes);
  return v;
}
CUZK_IFMA_INLINE Vec<kLimbs> bcast_fr(const Fr& x) {
  const auto l52 = to_radix52<kLimbs>(x.v);
  Vec<kLimbs> v;
  for (size_t k = 0; k < kLimbs; k++) v.l[k] = bcast(l52[k]);
  return v;
}
// Lane 0 of v (normalised, below 2r), canonical, as an element.
CUZK_IFMA_INLINE Fr lane0(Vec<kLimbs> v) {
  v = sub_if_ge(v, kMod.p);
  __m512i L[4];
  to_limbs64<4, kLimbs>(v, L);
  Fr x;
  for (size_t k = 0; k < 4; k++) x.v[k] = uint64_t(_mm_cvtsi128_si64(_mm512_castsi512_si128(L[k])));
  return x;
}

// The first n lanes of v (normalised, below 2r), canonical, into dst[0..n).
CUZK_IFMA_INLINE void store_lanes(Vec<kLimbs> v, Fr* dst, size_t n) {
  v = sub_if_ge(v, kMod.p);
  __m512i L[4];
  to_limbs64<4, kLimbs>(v, L);
  alignas(64) uint64_t out[4][kLanes];
  for (size_t k = 0; k < 4; k++) _mm512_store_si512(out[k], L[k]);
  for (size_t lane = 0; lane < n; lane++)
    for (size_t k = 0; k < 4; k++) dst[lane].v[k] = out[k][lane];
}

CUZK_IFMA_TARGET void mix_blocks(const PoseidonMixTable& table, Fr* s) {
  const size_t n = table.n;
  Vec<kLimbs> x[PoseidonMixTable::kMaxIfmaMixWidth];
  for (size_t i = 0; i < n; i++) {
    const auto l52 = to_radix52<kLimbs>(s[i].v);
    for (size_t k = 0; k < kLimbs; k++) x[i].l[k] = bcast(l52[k]);
  }
  // Row i of block b's entries.
  const auto row = [&](size_t b, size_t i) { return table.limbs.data() + (b * n + i) * kLimbs * kLanes; };
  for (size_t b = 0, blocks = ifma_blocks(n); b < blocks; b++) {
    // n products of elements below r: limbs below n·10·2^52 < 2^60 and the
    // reduction's result below n·r²/2^260 + r < 2r for n <= 16.
    Wide<kLimbs> acc = mul_wide(x[0], load_vec(row(b, 0)));
    for (size_t i = 1; i < n; i++) acc = add_wide(acc, mul_wide(x[i], load_vec(row(b, i))));
    Vec<kLimbs> v = reduce_lazy(acc, kMod);
    normalize<kLimbs>(v.l);
    store_lanes(v, s + kLanes * b, std::min(kLanes, n - kLanes * b));
  }
}

CUZK_IFMA_TARGET void lanes_from(const Fr* s, size_t n, uint64_t (*lanes)[kLanes]) {
  for (size_t k = 0; k < kLimbs; k++)
    for (size_t lane = 0; lane < kLanes; lane++) lanes[k][lane] = 0;
  for (size_t i = 0; i < n; i++) {
    const auto l52 = to_radix52<kLimbs>(s[i].v);
    for (size_t k = 0; k < kLimbs; k++) lanes[k][i] = l52[k];
  }
}

CUZK_IFMA_TARGET void lanes_to(const uint64_t (*lanes)[kLanes], Fr* s, size_t n) {
  Vec<kLimbs> v;
  for (size_t k = 0; k < kLimbs; k++) v.l[k] = _mm512_load_si512(lanes[k]);
  store_lanes(v, s, n);
}

// Σ ŵ[i]·s[i] over the lanes of round r's table: the eight products' limbs
// summed across lanes (below 8·10·2^52 < 2^60), then one reduction (below
// 8r²/2^260 + r < 2r); lanes past the width hold zeros.
CUZK_IFMA_TARGET Fr lanes_dot(const uint64_t* table, const uint64_t (*lanes)[kLanes]) {
  Vec<kLimbs> s;
  for (size_t k = 0; k < kLimbs; k++) s.l[k] = _mm512_load_si512(lanes[k]);
  const Wide<kLimbs> prod = mul_wide(s, load_vec(table));
  Wide<kLimbs> sum;
  for (size_t j = 0; j < 2 * kLimbs; j++) sum.l[j] = bcast(uint64_t(_mm512_reduce_add_epi64(prod.l[j])));
  Vec<kLimbs> dot = reduce_lazy(sum, kMod);
  normalize<kLimbs>(dot.l);
  return lane0(dot);
}

// s[i] += v[i-1]·y in the lanes: below r + 2r, back below r.
CUZK_IFMA_TARGET void lanes_update(const uint64_t* v_table, uint64_t (*lanes)[kLanes], const Fr& y) {
  Vec<kLimbs> s;
  for (size_t k = 0; k < kLimbs; k++) s.l[k] = _mm512_load_si512(lanes[k]);
  Vec<kLimbs> next = add(s, mul(load_vec(v_table), bcast_fr(y), kMod));
  next = canonical(next, kMod, 2);
  for (size_t k = 0; k < kLimbs; k++) _mm512_store_si512(lanes[k], next.l[k]);
}

}  // namespace

bool PoseidonPartialLanes::begin(const PoseidonConstants& c, const Fr* s) {
  if (c.sparse_ifma.empty() || c.sparse_ifma.size() != c.sparse.size() * 2 * kLimbs * kLanes ||
      !platform::use_ifma())
    return false;
  table_ = c.sparse_ifma.data();
  sparse_ = c.sparse.data();
  width_ = c.width;
  lanes_from(s + 1, width_ - 1, lanes_);
  return true;
}

Fr PoseidonPartialLanes::dot(size_t r) const { return lanes_dot(table_ + r * 2 * kLimbs * kLanes, lanes_); }

Fr PoseidonPartialLanes::round(size_t r, const Fr& y, const Fr& dot) {
  lanes_update(table_ + (r * 2 + 1) * kLimbs * kLanes, lanes_, y);
  return sparse_[r].w_hat[0] * y + dot;
}

void PoseidonPartialLanes::end(Fr* s) const { lanes_to(lanes_, s + 1, width_ - 1); }

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
std::vector<uint64_t> make_poseidon_sparse_table(const std::vector<PoseidonSparseMatrix>&, size_t) {
  return {};
}
bool PoseidonPartialLanes::begin(const PoseidonConstants&, const Fr*) { return false; }
Fr PoseidonPartialLanes::dot(size_t) const { return Fr::zero(); }
Fr PoseidonPartialLanes::round(size_t, const Fr&, const Fr&) { return Fr::zero(); }
void PoseidonPartialLanes::end(Fr*) const {}
bool poseidon_mix_dense_ifma(const PoseidonMixTable&, const FrMatrix&, Fr*) { return false; }

#endif

}  // namespace cuzk::gadgets
