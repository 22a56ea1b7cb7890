// Final exponentiation f -> f^(3 (p^12 - 1)/r) for BLS12-381.
//
//   (p^12 - 1)/r = (p^6 - 1)(p^2 + 1) * (p^4 - p^2 + 1)/r
//
// Easy part: f^((p^6 - 1)(p^2 + 1)) with one inversion and Frobenius maps;
// the result lies in the cyclotomic subgroup (order Phi12(p) = p^4 - p^2 + 1),
// where inversion is conjugation and squaring is Granger-Scott.
//
// Hard part (Hayashida, Hayasaka, Teruya, "Efficient final exponentiation via
// cyclotomic structure for pairings over families of elliptic curves",
// ePrint 2020/875): for BLS12 curves
//   3 (p^4 - p^2 + 1)/r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3,
// five exponentiations by x plus a few multiplications and Frobenius maps.
#include "pairing/pairing.hpp"

namespace cuzk::pairing {

namespace {

// a^x for a in the cyclotomic subgroup (x < 0: conjugate of a^|x|).
Gt exp_by_x(const Gt& a) {
  Gt r = a.cyclotomic_pow_vartime(BLS_X_ABS);
  if constexpr (BLS_X_IS_NEGATIVE) r = r.conjugate();
  return r;
}

}  // namespace

Gt final_exponentiation(const Gt& f) {
  // Easy part.
  Gt t = f.conjugate() * f.inverse();  // f^(p^6 - 1)
  t = t.frobenius_map(2) * t;          // ^(p^2 + 1)

  // Hard part.
  Gt a = exp_by_x(t) * t.conjugate();                              // t^(x-1)
  a = exp_by_x(a) * a.conjugate();                                 // t^((x-1)^2)
  a = exp_by_x(a) * a.frobenius_map(1);                            // ^(x+p)
  a = exp_by_x(exp_by_x(a)) * a.frobenius_map(2) * a.conjugate();  // ^(x^2+p^2-1)
  return a * t.cyclotomic_square() * t;                            // * t^3
}

Gt gt_pow_vartime(const Gt& x, const ff::Fr& k) {
  auto e = k.to_canonical();
  Gt r = Gt::one();
  for (size_t i = arith::bit_length(e); i-- > 0;) {
    r = r.cyclotomic_square();
    if (arith::bit(e, i)) r *= x;
  }
  return r;
}

}  // namespace cuzk::pairing
