#pragma once
// Growth of the large per-constraint vectors of synthesis (hundreds of MB
// for a PoRep partition). Faulting them in 4 KiB pages cost about a fifth of
// synthesis time, so their buffers come from platform::reserve_large
// (huge pages past the first 4 MiB, advised before the first write).
//
// Every byte of every buffer is written once (filled, or copied on growth)
// and first writes cost page clears, so the growth factor is 4 up to 2^24
// elements (touching ~1.3x the final size instead of ~2.5x), then 2 (so the
// capacity of a large vector overshoots by at most 2x). Capacities stay
// powers of two: the prover later resizes a/b/c to the power-of-two domain
// in place.
#include <cstdint>
#include <vector>

#include "platform/large_vector.hpp"

namespace cuzk::r1cs {

using platform::reserve_large;

template <class T>
void grow_large(std::vector<T>& v) {
  const size_t cap = v.capacity();
  reserve_large(v, cap < 1024 ? 1024 : cap < (size_t(1) << 24) ? cap * 4 : cap * 2);
}

template <class T>
inline T& emplace_back_large(std::vector<T>& v) {
  if (v.size() == v.capacity()) [[unlikely]]
    grow_large(v);
  return v.emplace_back();
}

template <class T>
inline void push_back_large(std::vector<T>& v, const T& x) {
  if (v.size() == v.capacity()) [[unlikely]]
    grow_large(v);
  v.push_back(x);
}

}  // namespace cuzk::r1cs
