#include "platform/process_heap.hpp"

#include <cstdint>
#include <cstdlib>

#include "platform/cpu_features.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace cuzk::platform {

HugeHeap reserve_huge_page_heap(size_t reserve, size_t mmap_threshold) {
  HugeHeap r;
  if (env_flag("CUZK_NO_HUGE_HEAP")) return r;
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
  constexpr uintptr_t kHuge = uintptr_t(2) << 20;
  // Each of these only fails for an out-of-range value; then nothing is set
  // that would make the heap worse than the default.
  if (!mallopt(M_ARENA_MAX, 1)) return r;                         // worker threads share the advised heap
  if (!mallopt(M_MMAP_THRESHOLD, int(mmap_threshold))) return r;  // also stops its dynamic growth
  mallopt(M_TRIM_THRESHOLD, int(1u << 30));                       // freed blocks stay, pages and all
  mallopt(M_TOP_PAD, int(reserve));
  // A block larger than all the heap's free memory together comes from the
  // top of the heap (never from an mmap: M_MMAP_MAX 0 for that one call),
  // which grows by the block + the pad. The block is then shrunk in place
  // to end at the first 2 MiB boundary (less the next block's 16-byte
  // header) and kept: the next block starts on that boundary, not in the
  // small pages of a partial huge page. Its bytes are never touched.
  const size_t probe = (mallinfo2().fordblks + 2 * kHuge) & ~(kHuge - 1);
  mallopt(M_MMAP_MAX, 0);
  void* p = std::malloc(probe);
  mallopt(M_MMAP_MAX, 65536);  // glibc's default
  if (!p) return r;
  const auto at = reinterpret_cast<uintptr_t>(p);
  auto begin = (at + 64 + kHuge - 1) & ~(kHuge - 1);  // ≥ 64 bytes above: room for the block
  auto end = reinterpret_cast<uintptr_t>(sbrk(0)) & ~(kHuge - 1);
  static void* filler = nullptr;              // reachable, so no leak is reported
  filler = std::realloc(p, begin - at - 16);  // shrinks in place
  if (!filler) std::free(p);
  // A block that did not come from the heap's top (malloc fell back to
  // mmap) leaves no fresh heap to advise.
  if (at >= end || end - begin > reserve + probe) begin = end;
  mallopt(M_TOP_PAD, 128 << 10);  // glibc's default again for growth past the reserve
  if (end <= begin || madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE) != 0) return r;
  r.applied = true;
  r.begin = begin;
  r.bytes = end - begin;
#else
  (void)reserve;
  (void)mmap_threshold;
#endif
  return r;
}

}  // namespace cuzk::platform
