#pragma once
// The XYZZ mixed addition of the bucket stages (the XYZZ accumulator and
// the reduction's running sums).
#include "ec/point.hpp"
#include "msm/batch_affine.hpp"
#include "msm/field_ops.hpp"

namespace cuzk::msm::detail {

// acc += (neg ? -q : q), XYZZ += affine, madd-2008-s (8M + 2S) over the
// inlined field helpers; the rare cases (identity, equal x) go to ec::Xyzz.
template <class C>
inline void xyzz_madd(ec::Xyzz<C>& acc, const Pt<C>& q, bool neg) {
  using Base = typename C::Base;
  if (acc.is_identity()) [[unlikely]] {
    acc = {q.x, neg ? fops::neg(q.y) : q.y, Base::one(), Base::one()};
    return;
  }
  const Base qy = neg ? fops::neg(q.y) : q.y;
  const Base P = fops::sub(fops::mul(q.x, acc.ZZ), acc.X);
  const Base R = fops::sub(fops::mul(qy, acc.ZZZ), acc.Y);
  if (P.is_zero()) [[unlikely]] {
    acc = acc.add_mixed(ec::Affine<C>::from_xy(q.x, qy));
    return;
  }
  const Base PP = fops::sqr(P), PPP = fops::mul(P, PP), Q = fops::mul(acc.X, PP);
  Base X3 = fops::sub(fops::sub(fops::sqr(R), PPP), fops::dbl(Q));
  acc.Y = fops::sub(fops::mul(R, fops::sub(Q, X3)), fops::mul(acc.Y, PPP));
  acc.X = X3;
  acc.ZZ = fops::mul(acc.ZZ, PP);
  acc.ZZZ = fops::mul(acc.ZZZ, PPP);
}

}  // namespace cuzk::msm::detail
