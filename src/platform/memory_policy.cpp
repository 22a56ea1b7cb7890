#include "platform/memory_policy.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace cuzk::platform {

void keep_freed_memory() {
#if defined(__GLIBC__)
  // Large blocks from the heap (no per-block mmap), and no trimming of the
  // heap's top: freed memory stays mapped for the next allocation.
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, -1);
#endif
}

}  // namespace cuzk::platform
