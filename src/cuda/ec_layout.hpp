#pragma once
// Host side of the device points (cuda/ec_device.cuh): which device field a
// curve uses, proof that the device layouts are the host's (so arrays are
// copied as they are), and conversions of single points. Host code only.
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "cuda/namespace.hpp"
#include "cuda/ec_device.cuh"
#include "ec/bls12_381.hpp"

CUZK_CUDA_NAMESPACE_BEGIN

template <class C>
struct DevCurve;
template <>
struct DevCurve<ec::G1Curve> {
  using Field = DevFp;
};
template <>
struct DevCurve<ec::G2Curve> {
  using Field = DevFp2;
};
template <class C>
using DevAffineOf = DevAffine<typename DevCurve<C>::Field>;
template <class C>
using DevXyzzOf = DevXyzz<typename DevCurve<C>::Field>;

namespace detail {
template <class C>
constexpr bool same_layout() {
  using HA = ec::Affine<C>;
  using DA = DevAffineOf<C>;
  using HX = ec::Xyzz<C>;
  using DX = DevXyzzOf<C>;
  return sizeof(HA) == sizeof(DA) && alignof(HA) == alignof(DA) && offsetof(HA, x) == offsetof(DA, x) &&
         offsetof(HA, y) == offsetof(DA, y) && offsetof(HA, infinity) == offsetof(DA, infinity) &&
         sizeof(HX) == sizeof(DX) && offsetof(HX, X) == offsetof(DX, X) &&
         offsetof(HX, Y) == offsetof(DX, Y) && offsetof(HX, ZZ) == offsetof(DX, ZZ) &&
         offsetof(HX, ZZZ) == offsetof(DX, ZZZ) && std::is_trivially_copyable_v<HA> &&
         std::is_trivially_copyable_v<HX> && sizeof(typename C::Base) == sizeof(typename DevCurve<C>::Field);
}
}  // namespace detail
static_assert(detail::same_layout<ec::G1Curve>(), "DevAffine/DevXyzz must have ec::Affine/Xyzz's G1 layout");
static_assert(detail::same_layout<ec::G2Curve>(), "DevAffine/DevXyzz must have ec::Affine/Xyzz's G2 layout");
static_assert(sizeof(ec::G1Affine) == 104 && sizeof(ec::G2Affine) == 200);

template <class C>
DevAffineOf<C> to_device(const ec::Affine<C>& p) {
  DevAffineOf<C> d;
  std::memcpy(static_cast<void*>(&d), &p, sizeof d);
  return d;
}
template <class C>
DevXyzzOf<C> to_device(const ec::Xyzz<C>& p) {
  DevXyzzOf<C> d;
  std::memcpy(static_cast<void*>(&d), &p, sizeof d);
  return d;
}
template <class C>
ec::Xyzz<C> to_host(const DevXyzzOf<C>& d) {
  ec::Xyzz<C> p;
  std::memcpy(static_cast<void*>(&p), &d, sizeof d);
  return p;
}
template <class C>
ec::Affine<C> to_host(const DevAffineOf<C>& d) {
  ec::Affine<C> p;
  std::memcpy(static_cast<void*>(&p), &d, sizeof d);
  return p;
}
// A device XYZZ result as the host's Jacobian point.
template <class C>
ec::Jacobian<C> to_host_jacobian(const DevXyzzOf<C>& d) {
  return to_host<C>(d).to_jacobian();
}

CUZK_CUDA_NAMESPACE_END
