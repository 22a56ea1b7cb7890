#pragma once
// malloc's heap in transparent huge pages, for one-shot processes.
//
// A `cuzk prove` run touches ~45 MB of memory that malloc hands out in
// blocks under 4 MiB (NTT twiddles, the witness, bucket arrays, batch
// scratch), each page of it fresh: on the development VM that was ~12,000
// paravirtual page faults, about a tenth of the run's CPU time. Reserving
// one heap up front with huge pages advised turns them into a few dozen
// 2 MiB faults (scripts/ab-prove.sh on the 2^16-constraint proof: 510 →
// 430 ms wall, 930 → 800 ms of CPU).
//
// The daemon does not call this: it proves over and over, so its pages are
// faulted once and reused (platform/large_vector.hpp's pool), and one
// malloc arena for all its threads would serialise its allocations.
#include <cstddef>
#include <cstdint>

namespace cuzk::platform {

struct HugeHeap {
  bool applied = false;  // false: not glibc, turned off, or malloc refused
  uintptr_t begin = 0;   // the advised part of the heap: [begin, begin + bytes)
  size_t bytes = 0;
};

// Call once, early, before other threads start: sets malloc to one arena
// (all threads), blocks below `mmap_threshold` (≤ 32 MiB) from the heap, no
// trimming, grows the heap by `reserve` bytes and advises huge pages over
// that fresh part. Memory is only reserved (pages come on first touch).
// CUZK_NO_HUGE_HEAP=1 turns it off (A/B measurements).
HugeHeap reserve_huge_page_heap(size_t reserve = size_t(128) << 20, size_t mmap_threshold = size_t(32) << 20);

}  // namespace cuzk::platform
