#pragma once
// Short-Weierstrass points y^2 = x^3 + b (a = 0) for device code, generic
// over the coordinate field: DevFp for G1, DevFp2 for G2. The formulas are
// those of ec/point.hpp (EFD names at each), so device and host results are
// the same points; the addition formulas do not use b.
//
// DevAffine<F> has ec::Affine<C>'s layout (x, y, bool infinity, 8-byte
// aligned: 104 bytes for G1, 200 for G2) and DevXyzz<F> ec::Xyzz<C>'s (X, Y,
// ZZ, ZZZ); cuda/ec_layout.hpp checks both against the host types, so point
// arrays travel between host and device as they are.
//
// Every function handles the identity and the exceptional cases of its
// formula (equal points: doubling; opposite points: identity). An XYZZ
// point is the identity iff ZZ = 0, so zero-filled memory is an array of
// identities.
#include "cuda/fp2_device.cuh"
#include "cuda/namespace.hpp"

// Point operations are out of line on the device (one copy per kernel, not
// one per call site: a G2 addition is some 40 inlined Fp products, and
// inlining every call made nvcc take tens of minutes); the field products
// inside them stay inlined.
#if defined(__CUDACC__)
#define CUZK_HD_OUTLINE __host__ __device__ __noinline__
#else
#define CUZK_HD_OUTLINE inline
#endif

CUZK_CUDA_NAMESPACE_BEGIN

template <class F>
struct alignas(8) DevAffine {
  F x, y;
  bool infinity;

  CUZK_HD DevAffine neg() const { return {x, -y, infinity}; }
};

template <class F>
struct DevXyzz {
  // x = X/ZZ, y = Y/ZZZ with ZZ^3 = ZZZ^2; ZZ = 0 is the identity.
  F X, Y, ZZ, ZZZ;

  CUZK_HD static DevXyzz identity() { return {F::zero(), F::one(), F::zero(), F::zero()}; }
  CUZK_HD bool is_identity() const { return ZZ.is_zero(); }
  CUZK_HD static DevXyzz from_affine(const DevAffine<F>& p) {
    if (p.infinity) return identity();
    return {p.x, p.y, F::one(), F::one()};
  }
  CUZK_HD DevXyzz neg() const { return {X, -Y, ZZ, ZZZ}; }

  // mdbl-2008-s-1 (Z = 1): 2M + 3S... the doubling of an affine point.
  CUZK_HD_OUTLINE static DevXyzz dbl_affine(const F& x, const F& y) {
    const F U = y + y, V = U.sqr(), W = U * V, S = x * V;
    const F xx = x.sqr(), M = xx + xx + xx;
    DevXyzz r;
    r.X = M.sqr() - (S + S);
    r.Y = M * (S - r.X) - W * y;
    r.ZZ = V;
    r.ZZZ = W;
    return r;
  }

  // dbl-2008-s-1: 6M + 4S.
  CUZK_HD_OUTLINE DevXyzz dbl() const {
    if (is_identity()) return *this;
    const F U = Y + Y, V = U.sqr(), W = U * V, S = X * V;
    const F xx = X.sqr(), M = xx + xx + xx;
    DevXyzz r;
    r.X = M.sqr() - (S + S);
    r.Y = M * (S - r.X) - W * Y;
    r.ZZ = V * ZZ;
    r.ZZZ = W * ZZZ;
    return r;
  }

  // madd-2008-s: 8M + 2S, adding the affine point (x, y) (not the identity).
  CUZK_HD_OUTLINE DevXyzz add_affine(const F& x, const F& y) const {
    if (is_identity()) return {x, y, F::one(), F::one()};
    const F P = x * ZZ - X, R = y * ZZZ - Y;
    if (P.is_zero()) return R.is_zero() ? dbl_affine(x, y) : identity();
    const F PP = P.sqr(), PPP = P * PP, Q = X * PP;
    DevXyzz r;
    r.X = R.sqr() - PPP - (Q + Q);
    r.Y = R * (Q - r.X) - Y * PPP;
    r.ZZ = ZZ * PP;
    r.ZZZ = ZZZ * PPP;
    return r;
  }
  CUZK_HD DevXyzz add(const DevAffine<F>& q) const { return q.infinity ? *this : add_affine(q.x, q.y); }

  // add-2008-s: 12M + 2S.
  CUZK_HD_OUTLINE DevXyzz add(const DevXyzz& q) const {
    if (is_identity()) return q;
    if (q.is_identity()) return *this;
    const F U1 = X * q.ZZ, U2 = q.X * ZZ, S1 = Y * q.ZZZ, S2 = q.Y * ZZZ;
    const F P = U2 - U1, R = S2 - S1;
    if (P.is_zero()) return R.is_zero() ? dbl() : identity();
    const F PP = P.sqr(), PPP = P * PP, Q = U1 * PP;
    DevXyzz r;
    r.X = R.sqr() - PPP - (Q + Q);
    r.Y = R * (Q - r.X) - S1 * PPP;
    r.ZZ = ZZ * q.ZZ * PP;
    r.ZZZ = ZZZ * q.ZZZ * PPP;
    return r;
  }

  // k * this for a small non-negative k (double-and-add from the top bit).
  CUZK_HD_OUTLINE DevXyzz mul_small(uint32_t k) const {
    if (k == 0) return identity();
    int top = 31;
    while (!((k >> top) & 1)) top--;
    DevXyzz r = *this;
    for (int b = top - 1; b >= 0; b--) {
      r = r.dbl();
      if ((k >> b) & 1) r = r.add(*this);
    }
    return r;
  }
};

CUZK_CUDA_NAMESPACE_END
