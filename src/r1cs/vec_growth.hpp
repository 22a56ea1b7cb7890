#pragma once
// Growth of the large per-constraint vectors of synthesis (hundreds of MB
// for a PoRep partition). Faulting them in 4 KiB pages cost about a fifth of
// synthesis time, so buffers past the first 4 MiB are advised to use
// transparent huge pages before anything is written to them.
//
// Every byte of every buffer is written once (filled, or copied on growth)
// and first writes cost page clears, so the growth factor is 4 up to 2^24
// elements (touching ~1.3x the final size instead of ~2.5x), then 2 (so the
// capacity of a large vector overshoots by at most 2x). Capacities stay
// powers of two: the prover later resizes a/b/c to the power-of-two domain
// in place.
#include <cstdint>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace cuzk::r1cs {

// v.reserve(cap), with huge-page advice for the new buffer.
template <class T>
void reserve_large(std::vector<T>& v, size_t cap) {
  constexpr size_t kSmall = size_t(4) << 20;  // small pages below this offset
  if (cap <= v.capacity()) return;
  if (cap * sizeof(T) <= kSmall) {
    v.reserve(cap);
    return;
  }
  std::vector<T> next;
  next.reserve(cap);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Only a hint. Keeping the head in small pages means a large reservation
  // that is barely used costs no 2 MiB page clears.
  auto begin = (reinterpret_cast<uintptr_t>(next.data()) + kSmall) & ~uintptr_t(4095);
  auto end = reinterpret_cast<uintptr_t>(next.data() + cap);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#endif
  next.insert(next.end(), v.begin(), v.end());
  v.swap(next);
}

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
