#include "msm/ifma_kernels.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <new>
#include <type_traits>

#include "ff/bls12_381.hpp"

#if defined(__x86_64__)
#include "ec/ifma_fp.hpp"
#endif

namespace cuzk::msm::ifma {

#if defined(__x86_64__)

namespace {

using namespace ec::ifma_fp;

// The inversion runs in the scalar field on the lanes' limbs as they are:
// read as scalar Montgomery limbs (radix 2^384), a kernel-domain x (limbs
// x 2^416) is the value v = x 2^32, and the kernel domain wants 1/x, i.e.
// 2^64 / v. So the one inverse is multiplied by 2^64 (an element whose
// limbs are 2^448 mod p) instead of converting every lane in and out.
constexpr auto S_FIX = arith::pow2_mod<6>(448, ff::Fp::MODULUS);

// Per-lane inverses of a (non-zero lanes, < 2p), through the scalar field:
// one Fermat inversion and a Montgomery trick over the 8 lanes.
CUZK_IFMA_TARGET V8 invert(const V8& a) {
  alignas(64) uint64_t rows[8][8];
  {
    __m512i r[8];
    to_limbs64<6, K>(canonical(a, MOD, 1), r);
    r[6] = r[7] = _mm512_setzero_si512();
    transpose8(r);
    for (int i = 0; i < 8; i++) _mm512_store_si512(rows[i], r[i]);
  }
  ff::Fp v[8], pre[8];
  ff::Fp fix;
  fix.v = S_FIX;
  ff::Fp acc = ff::Fp::one();
  for (int i = 0; i < 8; i++) {
    std::copy(rows[i], rows[i] + 6, v[i].v.begin());
    pre[i] = acc;
    acc *= v[i];
  }
  ff::Fp inv = acc.inverse_vartime() * fix;
  for (int i = 8; i-- > 0;) {
    const ff::Fp vi = inv * pre[i];
    inv *= v[i];
    std::copy(vi.v.begin(), vi.v.end(), rows[i]);
    rows[i][6] = rows[i][7] = 0;
  }
  __m512i r[8];
  for (int i = 0; i < 8; i++) r[i] = _mm512_load_si512(rows[i]);
  transpose8(r);
  return from_limbs64<6, K>(r);
}

// The kernels' points live on the curve y^2 = x^3 + 4u^6 isomorphic to
// BLS12-381's by (x, y) -> (u^2 x, u^3 y): the affine addition and doubling
// formulas do not involve the curve's constant, so sums carry over. With
// u = 2^-16, u^2 x in the 2^416 domain is x * 2^384, the field layer's form
// of x itself: x coordinates cross unchanged and only y is multiplied (by
// u^3 2^32 = 2^-16 on the way in), half the products of converting both.
// On the way in that is one 16-bit Montgomery step, not a product
// (div_pow2: 16 multiply-adds against 273; the 2^18 Filecoin-like MSMs
// convert every scalar-1 point); on the way out, mont'(Y, Y_OUT) = Y * 2^16.
constexpr unsigned Y_IN_SHIFT = 16;
constexpr auto Y_OUT = to_radix52<K>(arith::pow2_mod<6>(432, ff::Fp::MODULUS));
// y into the domain: (y + k p) / 2^16 with k < 2^16, below p for y < p (so
// the kernel's raw B operands keep the bounds of the others).
CUZK_IFMA_INLINE V8 y_in(const V8& y) { return div_pow2(y, Y_IN_SHIFT, MOD); }
CUZK_IFMA_INLINE V2 y_in(const V2& y) { return {y_in(y.c0), y_in(y.c1)}; }
// The slots' operations, as function objects: a lambda does not take its
// enclosing function's target features (in a build without -march=native
// the intrinsics would not inline into it).
struct YIn {
  CUZK_IFMA_INLINE V8 operator()(const V8& y) const { return y_in(y); }
};
struct Times {
  V8 c;
  CUZK_IFMA_INLINE V8 operator()(const V8& x) const { return mul(x, c, MOD); }
};

CUZK_IFMA_INLINE V8 norm(const V8& d) { return d; }
CUZK_IFMA_INLINE V8 inv_from_norm(const V8&, const V8& inv_n) { return inv_n; }

// Montgomery's trick runs over Fp: 1/d = conj(d) / N(d), N(d) = d0^2 + d1^2.
// (The two squares share one reduction.)
CUZK_IFMA_INLINE V8 norm(const V2& d) {
  V8 n = reduce_lazy(add_wide(mul_wide(d.c0, d.c0), mul_wide(d.c1, d.c1)), MOD);
  normalize<K>(n.l);
  return n;
}
CUZK_IFMA_INLINE V2 inv_from_norm(const V2& d, const V8& inv_n) {
  return {mul(d.c0, inv_n, MOD), sub(splat({}), mul_lazy(d.c1, inv_n, MOD), MOD.red2)};
}

// Per-thread scratch: the converted operands and prefix products of a batch.
// G2 keeps the Fp2 denominator (for conj(d) / N(d)) beside its norm; for G1
// the denominator is its own norm and is stored once.
template <class F>
struct Group {
  F xa, ya, xb, yb, den;
  V8 nrm, pre;
  const F& denominator() const { return den; }
};
template <>
struct Group<V8> {
  V8 xa, ya, xb, yb, nrm, pre;
  const V8& denominator() const { return nrm; }
};
template <class F>
struct Scratch {
  std::unique_ptr<Group<F>[]> g;
  size_t cap = 0;
  Group<F>* get(size_t groups) {
    if (groups > cap) {
      cap = std::max(groups, cap * 2);
      g.reset(new Group<F>[cap]);
    }
    return g.get();
  }
};

// The batch of affine additions for G1 (F = V8) or G2 (F = V2); points are
// x then y, each F::limbs. Component bounds (Fp2; Fp stays below them):
// inputs < p (a raw B's y too, once moved in), negated y <= p, den < 2p,
// num < 3p (12p for doublings),
// lambda < 3p (per component); lambda^2 < 4p; x3 < 6p; xa - x3 < 9p;
// y3 < 8p; both canonicalised before the store. For Fp every product is
// below 2p, so x3 and y3 stay below 4p.
// Lanes of group g (jobs 8g..8g+7 of n) whose a or b is negated, that
// double, and that hold a job. (A function, not a lambda: clang does not give
// lambdas their enclosing function's target features.)
struct GroupMasks {
  __mmask8 nega, negb, dbl, live;
};
CUZK_IFMA_TARGET inline GroupMasks group_masks(const uint8_t* flags, size_t g, size_t n) {
  uint64_t f8;
  std::memcpy(&f8, flags + 8 * g, 8);
  const __m128i f = _mm_cvtsi64_si128(int64_t(f8));
  return {__mmask8(_mm_test_epi8_mask(f, _mm_set1_epi8(NEG_A))),
          __mmask8(_mm_test_epi8_mask(f, _mm_set1_epi8(NEG_B))),
          __mmask8(_mm_test_epi8_mask(f, _mm_set1_epi8(DBL))),
          8 * g + 8 <= n ? __mmask8(0xff) : __mmask8((1u << (n - 8 * g)) - 1)};
}

// Phase 2 of one group, in steps, so that two groups of independent
// inversion chains can be interleaved: a vector product's latency is about
// 1.5x its throughput cost (231 against 150 cycles), so one chain of
// dependent products leaves the multiply-add ports idle. Two chains
// interleaved: the kernel alone 3% faster for G1 (74.4-75.7 against
// 77.2-78.2 ns per addition, in-cache operands), 3.5% for G2.
template <class F>
struct Tail {
  static constexpr size_t YOFF = std::is_same_v<F, V8> ? 6 : 12;
  const Group<F>* s;
  uint64_t* const* out;
  __mmask8 dbl, live;
  F inv_i, num, lam, x3, y3;

  CUZK_IFMA_INLINE void begin(const Group<F>& g, uint64_t* const* o, const GroupMasks& m, bool nspecial,
                              V8& inv) {
    s = &g;
    out = o;
    dbl = m.dbl;
    live = m.live;
    if (nspecial) live &= ~(fequal(g.xa, g.xb) & ~dbl);
    inv_i = inv_from_norm(g.denominator(), mul(inv, g.pre, MOD));
    inv = mul(inv, g.nrm, MOD);
    num = fsub(g.yb, g.ya, MOD.red2);
    if (dbl) {
      const F xx = fsqr(g.xa);
      num = fsel(dbl, num, fadd(fadd(xx, xx), xx));
    }
  }
  CUZK_IFMA_INLINE void slope() { lam = fmul(num, inv_i); }
  CUZK_IFMA_INLINE void x() { x3 = fsub(fsqr_lazy(lam), fadd_lazy(s->xa, s->xb), MOD.red2); }
  CUZK_IFMA_INLINE void y() { y3 = fsub(fmul_lazy(lam, fsub(s->xa, x3, MOD.red8)), s->ya, MOD.red2); }
  CUZK_IFMA_INLINE void store() {
    // The bounds canonical() is given: G1 x3, y3 < 4p; G2 below 8p.
    constexpr int kLog2Bound = std::is_same_v<F, V8> ? 2 : 3;
    fstore(fcanon(x3, kLog2Bound), out, 0, live);
    fstore(fcanon(y3, kLog2Bound), out, YOFF, live);
  }
};

// kRawB: the list's B operands are raw (JobList::set_raw_b). Aligned to a
// cache line: the same code at another offset ran the G1 kernel 0.5-1%
// slower (`micro kernel`, three alternations).
template <class F, bool kRawB>
CUZK_IFMA_TARGET __attribute__((aligned(64))) size_t add_batch_impl(const JobList& jobs, size_t first,
                                                                    size_t n, uint32_t* special) {
  constexpr size_t YOFF = std::is_same_v<F, V8> ? 6 : 12;
  thread_local Scratch<F> scratch;
  const size_t groups = (n + 7) / 8;
  Group<F>* sg = scratch.get(groups);
  // Group g: jobs first + 8g .. first + 8g + 7 (the list is padded, so the
  // last group reads copies of the last job; `live` keeps them from stores).
  const uint64_t* const* pa = jobs.a_data() + first;
  const uint64_t* const* pb = jobs.b_data() + first;
  uint64_t* const* pout = jobs.out_data() + first;
  const uint8_t* pfl = jobs.flags_data() + first;
  const F zero{};
  const V8 one = splat(ONE);
  size_t nspecial = 0;
  // Two prefix-product chains, even and odd groups, so that consecutive
  // groups' products are independent (here and in the walk back).
  V8 acc[2] = {one, one};
  for (size_t g = 0; g < groups; g++) {
    const uint64_t* const* a = pa + 8 * g;
    const uint64_t* const* b = pb + 8 * g;
    auto [nega, negb, dbl, live] = group_masks(pfl, g, n);
    // Operands two groups ahead into L1, and eight groups ahead into L2: the
    // first summation rounds read entries at random from tens of MB, and the
    // far prefetch cut their cost per addition by about a tenth (TSC cycles
    // per job; CPU time of a chain16 proof -2.7%, 20 alternating runs).
    if (g + 2 < groups)
      for (size_t l = 16; l < 24; l++)
        for (size_t off = 0; off < 2 * YOFF; off += 8) {
          __builtin_prefetch(a[l] + off);
          __builtin_prefetch(b[l] + off);
        }
    if (g + 8 < groups)
      for (size_t l = 64; l < 72; l++)
        for (size_t off = 0; off < 2 * YOFF; off += 8) {
          _mm_prefetch(reinterpret_cast<const char*>(a[l] + off), _MM_HINT_T1);
          _mm_prefetch(reinterpret_cast<const char*>(b[l] + off), _MM_HINT_T1);
        }
    Group<F>& s = sg[g];
    fload(s.xa, a, 0);
    fload(s.xb, b, 0);
    F ya, yb;
    fload(ya, a, YOFF);
    fload(yb, b, YOFF);
    if constexpr (kRawB) yb = y_in(yb);
    // ya and yb only feed subtractions: the negations skip their carries.
    if (nega) ya = fsel(nega, ya, fsub_lazy(zero, ya, MOD.red1));
    if (negb) yb = fsel(negb, yb, fsub_lazy(zero, yb, MOD.red1));
    s.ya = ya;
    s.yb = yb;
    F den = fsub(s.xb, s.xa, MOD.red1);
    if (dbl) den = fsel(dbl, den, fadd(ya, ya));
    if constexpr (!std::is_same_v<F, V8>) s.den = den;
    s.nrm = norm(den);
    // Equal x without DBL (rare): left to the caller; a unit norm keeps the
    // lane's inversion chain intact and its result is not stored.
    const __mmask8 eq = fequal(s.xa, s.xb) & ~dbl;
    if (eq) [[unlikely]] {
      s.nrm = select(eq, s.nrm, one);  // also in the tail's copies of the last job
      for (size_t l = 0; l < 8; l++)
        if ((eq & live) >> l & 1) special[nspecial++] = uint32_t(g * 8 + l);
    }
    s.pre = acc[g & 1];
    acc[g & 1] = mul(acc[g & 1], s.nrm, MOD);
  }
  // One inversion for both chains: 1/(a0 a1) times a1 and a0.
  const V8 inv01 = invert(mul(acc[0], acc[1], MOD));
  V8 inv[2] = {mul(inv01, acc[1], MOD), mul(inv01, acc[0], MOD)};
  size_t g = groups;
  if (g & 1) {  // the odd one out alone
    g--;
    Tail<F> t;
    t.begin(sg[g], pout + 8 * g, group_masks(pfl, g, n), nspecial, inv[g & 1]);
    t.slope();
    t.x();
    t.y();
    t.store();
  }
  for (; g >= 2; g -= 2) {  // groups g - 1 and g - 2: one of each chain, interleaved
    Tail<F> t1, t0;
    t1.begin(sg[g - 1], pout + 8 * (g - 1), group_masks(pfl, g - 1, n), nspecial, inv[(g - 1) & 1]);
    t0.begin(sg[g - 2], pout + 8 * (g - 2), group_masks(pfl, g - 2, n), nspecial, inv[g & 1]);
    t1.slope();
    t0.slope();
    t1.x();
    t0.x();
    t1.y();
    t0.y();
    t1.store();
    t0.store();
  }
  return nspecial;
}

// Slots k < n, eight at a time: op(element at(k)), canonical, written back
// (and to its copy, where `at` names one). op's results must be below 2p.
template <class Op, class At>
CUZK_IFMA_TARGET void map_slots(size_t n, const Op& op, const At& at) {
  for (size_t g = 0; g < n; g += 8) {
    uint64_t *p[8], *d[8];
    __mmask8 live = 0, dup = 0;
    for (size_t l = 0; l < 8; l++) {
      at(std::min(g + l, n - 1), p[l], d[l]);
      live |= __mmask8(g + l < n ? 1u << l : 0);
      dup |= __mmask8(d[l] ? 1u << l : 0);
    }
    scatter(canonical(op(gather(p, 0)), MOD, 1), p, 0, live, d, live & dup);
  }
}

}  // namespace

// The kernels read whole groups of eight jobs: the list must be padded.
static void check_batch(const JobList& jobs, size_t first, size_t n) {
  if (first % 8 || first + n > jobs.size() || !jobs.padded())
    throw std::logic_error(
        "ifma add batch: first not a multiple of 8, range outside the list, or list not padded");
}

size_t g1_add_batch(const JobList& jobs, size_t first, size_t n, uint32_t* special) {
  if (!n) return 0;
  check_batch(jobs, first, n);
  return jobs.raw_b() ? add_batch_impl<V8, true>(jobs, first, n, special)
                      : add_batch_impl<V8, false>(jobs, first, n, special);
}
size_t g2_add_batch(const JobList& jobs, size_t first, size_t n, uint32_t* special) {
  if (!n) return 0;
  check_batch(jobs, first, n);
  return jobs.raw_b() ? add_batch_impl<V2, true>(jobs, first, n, special)
                      : add_batch_impl<V2, false>(jobs, first, n, special);
}
// The exported entry points are compiled for the baseline target (the
// build may not use -march=native); only these helpers enable AVX-512, so
// no vector value crosses a function compiled without it.
// The y coordinates (the FPP / 2 elements after x) of n points of FPP Fp
// elements each, through op (a template so that the slot arithmetic has
// constant divisors).
template <size_t FPP, class Op>
CUZK_IFMA_TARGET static void map_points_y(uint64_t* pts, size_t n, const Op& op) {
  constexpr size_t h = FPP / 2;
  map_slots(n * h, op, [&](size_t s, uint64_t*& p, uint64_t*& d) {
    p = pts + ((s / h) * FPP + h + s % h) * 6;
    d = nullptr;
  });
}
template <size_t FPP>
CUZK_IFMA_TARGET static void y_points_in(uint64_t* pts, size_t n) {
  map_points_y<FPP>(pts, n, YIn{});
}
template <size_t FPP>
CUZK_IFMA_TARGET static void y_points_out(uint64_t* pts, size_t n) {
  map_points_y<FPP>(pts, n, Times{splat(Y_OUT)});
}
// Pairs (P, phi(P)) of FPP Fp elements each, P's coordinates in both: P's
// y components into the domain (the results to phi(P)'s y as well), then
// phi(P)'s x components times cb.
template <size_t FPP>
CUZK_IFMA_TARGET static void convert_glv_pairs(uint64_t* elems, size_t pairs,
                                               const std::array<uint64_t, K>& cb) {
  constexpr size_t h = FPP / 2;
  const auto pair = [&](size_t s) { return elems + (s / h) * 2 * FPP * 6; };
  map_slots(pairs * h, YIn{}, [&](size_t s, uint64_t*& p, uint64_t*& d) {
    p = pair(s) + (h + s % h) * 6;
    d = pair(s) + (FPP + h + s % h) * 6;
  });
  map_slots(pairs * h, Times{splat(cb)}, [&](size_t s, uint64_t*& p, uint64_t*& d) {
    p = pair(s) + (FPP + s % h) * 6;
    d = nullptr;
  });
}

static void check_fp_per_point(size_t fp_per_point, const char* what) {
  if (fp_per_point != 2 && fp_per_point != 4)
    throw std::invalid_argument(std::string(what) + ": 2 or 4 Fp per point");
}
void points_to_domain(uint64_t* pts, size_t n, size_t fp_per_point) {
  check_fp_per_point(fp_per_point, "points_to_domain");
  if (n) (fp_per_point == 2 ? y_points_in<2> : y_points_in<4>)(pts, n);
}
void points_from_domain(uint64_t* pts, size_t n, size_t fp_per_point) {
  check_fp_per_point(fp_per_point, "points_from_domain");
  if (n) (fp_per_point == 2 ? y_points_out<2> : y_points_out<4>)(pts, n);
}
void glv_pairs_to_domain(uint64_t* elems, size_t pairs, size_t fp_per_point, const ff::Fp& beta) {
  check_fp_per_point(fp_per_point, "glv_pairs_to_domain");
  if (!pairs) return;
  // phi(P)'s x: u^2 beta x in the 2^416 domain is beta X for the field
  // layer's X = x 2^384: the product with beta 2^416, the form of beta 2^32.
  const ff::Fp two32 = ff::Fp::from_u64(uint64_t(1) << 32);
  (fp_per_point == 2 ? convert_glv_pairs<2> : convert_glv_pairs<4>)(elems, pairs,
                                                                    to_radix52<K>((beta * two32).v));
}

#else  // not x86-64: available() is false and these are never called

size_t g1_add_batch(const JobList&, size_t, size_t, uint32_t*) { return 0; }
size_t g2_add_batch(const JobList&, size_t, size_t, uint32_t*) { return 0; }
void points_to_domain(uint64_t*, size_t, size_t) {}
void points_from_domain(uint64_t*, size_t, size_t) {}
void glv_pairs_to_domain(uint64_t*, size_t, size_t, const ff::Fp&) {}

#endif

}  // namespace cuzk::msm::ifma
