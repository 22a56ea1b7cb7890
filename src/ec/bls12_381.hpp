#pragma once
// BLS12-381 groups: G1 over Fp (y^2 = x^3 + 4) and G2 over Fp2
// (y^2 = x^3 + 4(1+u)), both of prime order r (the Fr modulus).
#include "ec/point.hpp"
#include "ff/bls12_381.hpp"

namespace cuzk::ec {

namespace detail {
inline ff::Fp fp_hex(const arith::Limbs<6>& x) { return *ff::Fp::from_canonical(x); }
}  // namespace detail

struct G1Curve {
  using Base = ff::Fp;
  using Scalar = ff::Fr;
  static constexpr const char* name = "G1";
  static const Base& b() {
    static const Base v = Base::from_u64(4);
    return v;
  }
  static Affine<G1Curve> generator() {
    static const Affine<G1Curve> g = Affine<G1Curve>::from_xy(
        detail::fp_hex(arith::parse_hex<6>("0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac5"
                                           "86c55e83ff97a1aeffb3af00adb22c6bb")),
        detail::fp_hex(arith::parse_hex<6>("0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3e"
                                           "dd03cc744a2888ae40caa232946c5e7e1")));
    return g;
  }
};

struct G2Curve {
  using Base = ff::Fp2;
  using Scalar = ff::Fr;
  static constexpr const char* name = "G2";
  static const Base& b() {
    static const Base v = {ff::Fp::from_u64(4), ff::Fp::from_u64(4)};
    return v;
  }
  static Affine<G2Curve> generator() {
    static const Affine<G2Curve> g = Affine<G2Curve>::from_xy(
        {detail::fp_hex(arith::parse_hex<6>("0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1"
                                            "770bac0326a805bbefd48056c8c121bdb8")),
         detail::fp_hex(arith::parse_hex<6>("0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f50"
                                            "49334cf11213945d57e5ac7d055d042b7e"))},
        {detail::fp_hex(arith::parse_hex<6>("0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d1"
                                            "2c923ac9cc3baca289e193548608b82801")),
         detail::fp_hex(arith::parse_hex<6>("0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99"
                                            "ab3f370d275cec1da1aaa9075ff05f79be"))});
    return g;
  }
};

using G1Affine = Affine<G1Curve>;
using G1Jacobian = Jacobian<G1Curve>;
using G1Xyzz = Xyzz<G1Curve>;
using G2Affine = Affine<G2Curve>;
using G2Jacobian = Jacobian<G2Curve>;
using G2Xyzz = Xyzz<G2Curve>;

}  // namespace cuzk::ec
