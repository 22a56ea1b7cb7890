// Eight-lane IFMA NTT blocks; see kernels_ifma.hpp.
#include "ntt/kernels_ifma.hpp"

#include <memory>

#include "ntt/kernels.hpp"

#if defined(__x86_64__)
#include "arith/ifma52.hpp"
#endif

namespace cuzk::ntt::detail::ifma {

#if defined(__x86_64__)

std::vector<uint64_t> convert_twiddles(std::span<const Fr> tw) {
  // W * (2^260 mod r) / 2^256 = w * 2^260 for W = w * 2^256 (Fr's form).
  Fr c;
  c.v = arith::pow2_mod<4>(260, Fr::MODULUS);
  std::vector<uint64_t> out(5 * tw.size());
  for (size_t i = 0; i < tw.size(); i++) {
    const auto limbs = arith::ifma::to_radix52<5>((tw[i] * c).v);
    std::copy(limbs.begin(), limbs.end(), out.begin() + 5 * i);
  }
  return out;
}

namespace {

using namespace arith::ifma;
constexpr size_t K = 5;
using V5 = Vec<K>;
constexpr Modulus52<K> MOD = Modulus52<K>::make(Fr::MODULUS);

// Eight consecutive elements (32 limbs) <-> limb-sliced form.
CUZK_IFMA_INLINE V5 load8(const Fr* e) {
  const uint64_t* q = e->v.data();
  const __m512i r0 = _mm512_loadu_si512(q), r1 = _mm512_loadu_si512(q + 8);
  const __m512i r2 = _mm512_loadu_si512(q + 16), r3 = _mm512_loadu_si512(q + 24);
  __m512i L[4];
  for (int j = 0; j < 4; j++) {
    const __m512i idx = _mm512_set_epi64(12 + j, 8 + j, 4 + j, j, 12 + j, 8 + j, 4 + j, j);
    L[j] = _mm512_mask_blend_epi64(0xf0, _mm512_permutex2var_epi64(r0, idx, r1),
                                   _mm512_permutex2var_epi64(r2, idx, r3));
  }
  return from_limbs64<4, K>(L);
}
// v (below 2r) is stored canonical.
CUZK_IFMA_INLINE void store8(V5 v, Fr* e) {
  v = sub_if_ge(v, MOD.p);
  __m512i L[4];
  to_limbs64<4, K>(v, L);
  uint64_t* q = e->v.data();
  for (int k = 0; k < 4; k++) {
    const __m512i idx =
        _mm512_set_epi64(9 + 2 * k, 2 * k + 1, 9 + 2 * k, 2 * k + 1, 8 + 2 * k, 2 * k, 8 + 2 * k, 2 * k);
    _mm512_storeu_si512(q + 8 * k, _mm512_mask_blend_epi64(0xcc, _mm512_permutex2var_epi64(L[0], idx, L[1]),
                                                           _mm512_permutex2var_epi64(L[2], idx, L[3])));
  }
}

// Values stay below 2r between stages.
CUZK_IFMA_INLINE V5 reduce2r(const V5& v) { return sub_if_ge(v, MOD.p2); }

CUZK_IFMA_INLINE void ct(V5& x, V5& y, const V5& w) {
  const V5 t = mul(y, w, MOD);  // < 2r
  const V5 s = add(x, t), d = sub(x, t, MOD.red2);
  x = reduce2r(s);
  y = reduce2r(d);
}
CUZK_IFMA_INLINE void ct1(V5& x, V5& y) {
  const V5 s = add(x, y), d = sub(x, y, MOD.red2);
  x = reduce2r(s);
  y = reduce2r(d);
}
CUZK_IFMA_INLINE void gs(V5& x, V5& y, const V5& w) {
  const V5 s = add(x, y), d = sub(x, y, MOD.red2);  // d < 4r: fine as a product input
  x = reduce2r(s);
  y = mul(d, w, MOD);
}
CUZK_IFMA_INLINE void gs1(V5& x, V5& y) {
  const V5 s = add(x, y), d = sub(x, y, MOD.red2);
  x = reduce2r(s);
  y = reduce2r(d);
}

CUZK_IFMA_INLINE V5 twiddle(const uint64_t* w52) {
  V5 w;
  for (size_t j = 0; j < K; j++) w.l[j] = bcast(w52[j]);
  return w;
}

// One stage over limb-sliced octets: nblk sub-blocks of 2 * lo octets.
template <bool kCT>
CUZK_IFMA_TARGET void stage(V5* o, size_t lo, size_t nblk, const uint64_t* w52, bool first_is_one) {
  for (size_t k = 0; k < nblk; k++) {
    V5* x = o + 2 * lo * k;
    V5* y = x + lo;
    if (k == 0 && first_is_one) {
      for (size_t i = 0; i < lo; i++) kCT ? ct1(x[i], y[i]) : gs1(x[i], y[i]);
    } else {
      const V5 w = twiddle(w52 + K * k);
      for (size_t i = 0; i < lo; i++) kCT ? ct(x[i], y[i], w) : gs(x[i], y[i], w);
    }
  }
}

// A stage whose butterfly partners are h = 4, 2 or 1 elements apart, inside
// each octet: partner lanes are brought together by permutations and each
// lane gathers its sub-block's twiddle (the product is computed on all eight
// lanes, half of them discarded).
template <bool kCT>
CUZK_IFMA_TARGET void stage_in_octet(V5* o, size_t no, unsigned h, const uint64_t* w52) {
  const __m512i lane = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
  const __m512i hv = _mm512_set1_epi64(int64_t(h));
  const __m512i idx_x = _mm512_andnot_si512(hv, lane), idx_y = _mm512_or_si512(lane, hv);
  const __mmask8 ylanes = _mm512_test_epi64_mask(lane, hv);
  // Twiddle index of each lane within the octet's sub-blocks, times K.
  const __m512i lane_k =
      _mm512_mullo_epi64(_mm512_srli_epi64(lane, __builtin_ctz(2 * h)), _mm512_set1_epi64(K));
  const size_t per_octet = 8 / (2 * h);
  for (size_t i = 0; i < no; i++) {
    const __m512i base = _mm512_add_epi64(lane_k, _mm512_set1_epi64(int64_t(K * per_octet * i)));
    V5 w, x, y;
    for (size_t j = 0; j < K; j++) {
      w.l[j] = _mm512_i64gather_epi64(_mm512_add_epi64(base, _mm512_set1_epi64(int64_t(j))), w52, 8);
      x.l[j] = _mm512_permutexvar_epi64(idx_x, o[i].l[j]);
      y.l[j] = _mm512_permutexvar_epi64(idx_y, o[i].l[j]);
    }
    if (kCT) {
      const V5 t = mul(y, w, MOD);
      o[i] = select(ylanes, reduce2r(add(x, t)), reduce2r(sub(x, t, MOD.red2)));
    } else {
      o[i] = select(ylanes, reduce2r(add(x, y)), mul(sub(x, y, MOD.red2), w, MOD));
    }
  }
}

V5* octets(size_t n) {
  thread_local std::unique_ptr<V5[]> buf;
  thread_local size_t cap = 0;
  if (n > cap) {
    buf.reset(new V5[n]);
    cap = n;
  }
  return buf.get();
}

CUZK_IFMA_TARGET void to_octets(const Fr* a, V5* o, size_t no) {
  for (size_t i = 0; i < no; i++) o[i] = load8(a + 8 * i);
}
CUZK_IFMA_TARGET void from_octets(const V5* o, Fr* a, size_t no) {
  for (size_t i = 0; i < no; i++) store8(o[i], a + 8 * i);
}

// Butterfly span of stage s, in elements.
size_t span_of(unsigned L, size_t B, unsigned s) { return (size_t(1) << (L - 1 - s)) * B; }

}  // namespace

void ct_block(Fr* a, unsigned L, size_t B, const Fr*, const uint64_t* tw52, size_t off) {
  const size_t no = ((size_t(1) << L) * B) / 8;
  V5* o = octets(no);
  to_octets(a, o, no);
  unsigned s = 0;
  for (; s < L && span_of(L, B, s) >= 8; s++)
    stage<true>(o, span_of(L, B, s) / 8, size_t(1) << s, tw52 + K * (off << s), off == 0);
  for (; s < L; s++) stage_in_octet<true>(o, no, unsigned(span_of(L, B, s)), tw52 + K * (off << s));
  from_octets(o, a, no);
}

void gs_block(Fr* a, unsigned L, size_t B, const Fr*, const uint64_t* tw52, size_t off) {
  const size_t no = ((size_t(1) << L) * B) / 8;
  V5* o = octets(no);
  to_octets(a, o, no);
  unsigned s = L;
  while (s > 0 && span_of(L, B, s - 1) < 8) {
    --s;
    stage_in_octet<false>(o, no, unsigned(span_of(L, B, s)), tw52 + K * (off << s));
  }
  while (s > 0) {
    --s;
    stage<false>(o, span_of(L, B, s) / 8, size_t(1) << s, tw52 + K * (off << s), off == 0);
  }
  from_octets(o, a, no);
}

std::vector<uint64_t> factor_table(std::span<const Fr> t) {
  // T * (2^264 mod r) / 2^256 = t * 2^264 for T = t * 2^256: a product
  // f * t' / 2^260 then lands at f t * 2^260, the form of a twiddle, so the
  // next product with x returns x f t in Fr's form.
  Fr c;
  c.v = arith::pow2_mod<4>(264, Fr::MODULUS);
  std::vector<uint64_t> out(K * t.size());
  for (size_t i = 0; i < t.size(); i++) {
    const auto limbs = arith::ifma::to_radix52<K>((t[i] * c).v);
    for (size_t j = 0; j < K; j++) out[(i / 8) * 8 * K + 8 * j + i % 8] = limbs[j];
  }
  return out;
}

CUZK_IFMA_TARGET void scale_blocks(Fr* x, size_t nblocks, size_t B, const Fr* f, const uint64_t* t52) {
  for (size_t b = 0; b < nblocks; b++) {
    const auto fl = to_radix52<K>(f[b].v);  // canonical, below r
    V5 F;
    for (size_t j = 0; j < K; j++) F.l[j] = bcast(fl[j]);
    Fr* xb = x + b * B;
    for (size_t i = 0; i < B; i += 8) {
      V5 t;
      for (size_t j = 0; j < K; j++) t.l[j] = _mm512_loadu_si512(t52 + i * K + 8 * j);
      const V5 ft = mul(F, t, MOD);  // f t * 2^260, below 2r
      store8(mul(load8(xb + i), ft, MOD), xb + i);
    }
  }
}

#else  // not x86-64: never called (platform::use_ifma() is false)

std::vector<uint64_t> convert_twiddles(std::span<const Fr>) { return {}; }
std::vector<uint64_t> factor_table(std::span<const Fr>) { return {}; }
void scale_blocks(Fr*, size_t, size_t, const Fr*, const uint64_t*) {}

void ct_block(Fr* a, unsigned L, size_t B, const Fr* tw, const uint64_t*, size_t off) {
  detail::ct_block(a, L, B, tw, off);
}
void gs_block(Fr* a, unsigned L, size_t B, const Fr* tw, const uint64_t*, size_t off) {
  detail::gs_block(a, L, B, tw, off);
}

#endif

}  // namespace cuzk::ntt::detail::ifma
