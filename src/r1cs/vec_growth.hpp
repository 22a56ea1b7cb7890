#pragma once
// Growth of the large per-constraint vectors of synthesis (hundreds of MB
// for a PoRep partition). Faulting them in 4 KiB pages cost about a fifth of
// synthesis time; once a vector is large, each new buffer is advised to use
// transparent huge pages before the old contents are copied in. Capacity
// still doubles, as std::vector's would.
#include <cstdint>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace cuzk::r1cs {

template <class T>
void grow_large(std::vector<T>& v) {
  constexpr size_t kMinAdvise = size_t(4) << 20;  // below this, small pages are fine
  size_t cap = v.capacity() < 1024 ? 1024 : v.capacity() * 2;
  if (cap * sizeof(T) < kMinAdvise) {
    v.reserve(cap);
    return;
  }
  std::vector<T> next;
  next.reserve(cap);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // madvise needs a page-aligned start; the advice is only a hint.
  auto begin = (reinterpret_cast<uintptr_t>(next.data()) + 4095) & ~uintptr_t(4095);
  auto end = reinterpret_cast<uintptr_t>(next.data() + cap);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#endif
  next.insert(next.end(), v.begin(), v.end());
  v.swap(next);
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
