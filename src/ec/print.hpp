#pragma once
// Human-readable printing of points (for test diagnostics; GoogleTest finds
// these operator<< by argument-dependent lookup). Coordinates print as
// canonical hex; Fp2 elements as (c0, c1).
#include <ostream>
#include <string>

#include "ec/bls12_381.hpp"

namespace cuzk::ec {

namespace detail {
template <class F>
std::string field_str(const F& a) {
  if constexpr (requires { a.c1; }) {
    std::string s = "(";
    s.append(field_str(a.c0)).append(", ").append(field_str(a.c1)).append(")");
    return s;
  } else {
    return a.to_hex();
  }
}
}  // namespace detail

template <class C>
std::ostream& operator<<(std::ostream& os, const Affine<C>& p) {
  if (p.infinity) return os << C::name << "Affine{infinity}";
  return os << C::name << "Affine{x=" << detail::field_str(p.x) << ", y=" << detail::field_str(p.y) << "}";
}

// Printed through the affine form, which is what comparisons mean.
template <class C>
std::ostream& operator<<(std::ostream& os, const Jacobian<C>& p) {
  return os << "Jacobian->" << p.to_affine();
}

template <class C>
std::ostream& operator<<(std::ostream& os, const Xyzz<C>& p) {
  return os << "Xyzz->" << p.to_jacobian().to_affine();
}

}  // namespace cuzk::ec
