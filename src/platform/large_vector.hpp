#pragma once
// Large std::vectors in transparent huge pages: reserve_large(v, cap) gives
// v a buffer advised to use 2 MiB pages before anything is written to it.
// On the development VM a first touch in 4 KiB pages costs a paravirtual
// page fault per page: for the prover's 128 MB of h scalars that was 0.8 s
// of a 2 KiB PoRep proof, against 0.05 s in huge pages. platform::RawArray
// uses the same advice for uninitialised arrays.
#include <cstddef>
#include <cstdint>
#include <vector>

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
  // Keeping the head in small pages means a large reservation that is
  // barely used costs no 2 MiB page clears.
  auto begin = (reinterpret_cast<uintptr_t>(next.data()) + kSmall) & ~uintptr_t(4095);
  auto end = reinterpret_cast<uintptr_t>(next.data() + cap);
  if (end > begin) advise_huge_pages(reinterpret_cast<void*>(begin), end - begin);
  next.insert(next.end(), v.begin(), v.end());
  v.swap(next);
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
