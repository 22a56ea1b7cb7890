#include "ec/curve_check.hpp"

#include <algorithm>
#include <bit>
#include <type_traits>

#include "platform/cpu_features.hpp"

#if defined(__x86_64__)
#include "ec/ifma_fp.hpp"
#endif

namespace cuzk::ec {

namespace {

template <class P>
size_t first_off_curve_scalar(std::span<const P> pts) {
  for (size_t i = 0; i < pts.size(); i++)
    if (!pts[i].is_on_curve()) return i;
  return pts.size();
}

#if defined(__x86_64__)
using namespace ifma_fp;

// The lanes take the coordinates as they are, in the scalar layer's
// Montgomery form v = x * 2^384, and every IFMA product divides by 2^416:
// y_v^2 carries 2^(768 - 416) = 2^352, x_v^3 carries 2^320, and one more
// product with TO = 2^448 lifts it to 2^352 too. So the test is
// y_v^2 == x_v^3 * TO + b * 2^352, with b = 4 (G1) or 4 + 4u (G2).
constexpr auto B_2_352 = to_radix52<K>(arith::pow2_mod<6>(354, ff::Fp::MODULUS));  // 4 * 2^352

template <class P>
CUZK_IFMA_TARGET size_t first_off_curve_ifma(std::span<const P> pts) {
  constexpr bool kG2 = std::is_same_v<P, G2Affine>;
  using F = std::conditional_t<kG2, V2, V8>;
  constexpr size_t YOFF = kG2 ? 12 : 6;
  const V8 to = splat(TO), b = splat(B_2_352);
  const size_t n = pts.size();
  for (size_t g = 0; g < n; g += 8) {
    const uint64_t* p[8];
    __mmask8 live = 0;
    for (size_t l = 0; l < 8; l++) {
      const P& pt = pts[std::min(g + l, n - 1)];
      p[l] = reinterpret_cast<const uint64_t*>(&pt.x);
      if (g + l < n && !pt.infinity) live |= __mmask8(1u << l);
    }
    if (!live) continue;
    F x, y;
    fload(x, p, 0);
    fload(y, p, YOFF);
    const F yy = fsqr(y), xxx = fmul(fsqr(x), x);
    __mmask8 ok;
    if constexpr (kG2) {
      // Components: y^2 below 2p / 4p; x^3 * TO + b below 3p.
      const V8 r0 = add(mul(xxx.c0, to, MOD), b), r1 = add(mul(xxx.c1, to, MOD), b);
      ok = fequal(fcanon(yy, 2), V2{fcanon(r0, 2), fcanon(r1, 2)});
    } else {
      ok = fequal(fcanon(yy, 1), fcanon(add(mul(xxx, to, MOD), b), 2));
    }
    const __mmask8 bad = live & ~ok;
    if (bad) return g + size_t(std::countr_zero(unsigned(bad)));
  }
  return n;
}
#endif

template <class P>
size_t first_off_curve_impl(std::span<const P> pts) {
#if defined(__x86_64__)
  if (platform::use_ifma()) return first_off_curve_ifma(pts);
#endif
  return first_off_curve_scalar(pts);
}

}  // namespace

size_t first_off_curve(std::span<const G1Affine> pts) { return first_off_curve_impl(pts); }
size_t first_off_curve(std::span<const G2Affine> pts) { return first_off_curve_impl(pts); }

}  // namespace cuzk::ec
