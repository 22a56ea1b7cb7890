#pragma once
// Large std::vectors in transparent huge pages: reserve_large(v, cap) gives
// v a buffer advised to use 2 MiB pages before anything is written to it,
// or a recycled one (recycle_large, below) whose pages are already there.
// On the development VM a first touch in 4 KiB pages costs a paravirtual
// page fault per page: for the prover's 128 MB of h scalars that was 0.8 s
// of a 2 KiB PoRep proof, against 0.05 s in huge pages. platform::RawArray
// uses the same advice for uninitialised arrays.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "platform/recycle_pool.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace cuzk::platform {

// Asks for transparent huge pages over [p, p + bytes), before its first
// write; only a hint (no effect where unsupported).
inline void advise_huge_pages(void* p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (bytes) madvise(p, bytes, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

inline constexpr size_t kLargeBytes = size_t(4) << 20;  // buffers below this are left to malloc

// Offers v's buffer for reuse by a later reserve_large of the same element
// type (kept when large and the pool has room, else freed); v is left empty.
template <class T>
void recycle_large(std::vector<T>& v) {
  if (v.capacity() * sizeof(T) >= kLargeBytes) detail::Recycled<T>::put(std::move(v));
  std::vector<T>().swap(v);
}
// v.reserve(cap), with huge-page advice for the new buffer, or a recycled
// buffer large enough.
template <class T>
void reserve_large(std::vector<T>& v, size_t cap) {
  constexpr size_t kSmall = kLargeBytes;  // small pages below this offset
  if (cap <= v.capacity()) return;
  if (cap * sizeof(T) <= kSmall) {
    v.reserve(cap);
    return;
  }
  std::vector<T> next;
  if (detail::Recycled<T>::take(next, cap)) {
    next.clear();
    next.insert(next.end(), v.begin(), v.end());
    v.swap(next);
    return;
  }
  next.reserve(cap);
  // Keeping the head in small pages means a large reservation that is
  // barely used costs no 2 MiB page clears.
  auto begin = (reinterpret_cast<uintptr_t>(next.data()) + kSmall) & ~uintptr_t(4095);
  auto end = reinterpret_cast<uintptr_t>(next.data() + cap);
  if (end > begin) advise_huge_pages(reinterpret_cast<void*>(begin), end - begin);
  next.insert(next.end(), v.begin(), v.end());
  v.swap(next);
}

// An empty v given a recycled buffer of cap to 2·cap elements with the
// elements it was recycled with (whatever values), if the pool holds one;
// false (v unchanged) otherwise.
template <class T>
bool take_recycled(std::vector<T>& v, size_t cap) {
  static_assert(std::is_trivially_copyable_v<T>, "old contents are kept as they are");
  return v.empty() && cap * sizeof(T) > kLargeBytes && detail::Recycled<T>::take(v, cap);
}

// An empty v sized to n elements, in a large buffer of at least `cap`, for
// a caller that then writes every one of them: from a recycled buffer they
// hold whatever it held (no pass over the memory to zero it first), in a new
// one they are zero. Meant for trivially copyable elements such as field
// elements.
template <class T>
void size_large(std::vector<T>& v, size_t n, size_t cap = 0) {
  static_assert(std::is_trivially_copyable_v<T>, "old contents are kept as they are");
  cap = std::max(cap, n);
  if (v.capacity() < cap) take_recycled(v, cap);
  reserve_large(v, cap);  // nothing to do when the recycled one fits
  v.resize(n);            // a shrink writes nothing; growth zero-fills only the new tail
}

// n value-initialised elements in such a buffer.
template <class T>
std::vector<T> large_vector(size_t n) {
  std::vector<T> v;
  reserve_large(v, n);
  v.resize(n);
  return v;
}

}  // namespace cuzk::platform
