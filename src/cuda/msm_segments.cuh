#pragma once
// One thread's share of the MSM's segmented reduction, apart from what is
// summed: k_segmented_sum (cuda/msm_kernels.cuh) runs it on XYZZ points, and
// the tests run it on the host with integers, to check over whole levels
// that every key is finished by exactly one thread (the kernels' writes to
// out[key] take no atomics).
//
// The m inputs carry keys in ascending order (kNoKey entries are skipped).
// Thread t takes inputs [t * per, (t + 1) * per) and sums them by key. A run
// of one key that lies wholly in the range is finished: ops.finish(key,
// sum). The first and the last run, whose key may continue in a
// neighbour's range, go to the partial slots 2t and 2t + 1 (ops.partial),
// the next level's inputs; unused slots get kNoKey (ops.clear). With
// `exact` the neighbours' keys are looked at, so that a run which starts and
// ends in the range is finished even at the range's ends (valid only when
// no input is kNoKey). A range that covers all m inputs finishes all its
// runs, so repeated levels end with one thread.
//
// Ops: using Value; Value zero(); Value add(Value acc, uint32_t j) (input j
// added); finish(key, Value); partial(slot, key, Value); clear(slot).
#include <cstdint>

#include "cuda/fp_device.cuh"
#include "cuda/msm_launch.hpp"
#include "cuda/namespace.hpp"

CUZK_CUDA_NAMESPACE_BEGIN
namespace msm_dev {

template <class Ops>
CUZK_HD void segmented_sum_range(const uint32_t* keys, const Ops& ops, uint32_t m, uint32_t per, bool exact,
                                 uint32_t t) {
  const uint64_t lo64 = uint64_t(t) * per;
  if (lo64 >= m) return;
  const uint32_t lo = uint32_t(lo64), hi = uint32_t(lo64 + per < m ? lo64 + per : m);
  ops.clear(2 * t);
  ops.clear(2 * t + 1);
  uint32_t j = lo;
  bool first = true;
  for (;;) {
    while (j < hi && keys[j] == kNoKey) j++;
    if (j >= hi) break;
    const uint32_t k = keys[j];
    typename Ops::Value acc = ops.zero();
    for (; j < hi; j++) {
      const uint32_t kj = keys[j];
      if (kj == kNoKey) continue;
      if (kj != k) break;
      acc = ops.add(acc, j);
    }
    const bool last = j >= hi;
    const bool starts = !first || lo == 0 || (exact && keys[lo - 1] != k);
    const bool ends = !last || hi == m || (exact && keys[hi] != k);
    if (starts && ends) ops.finish(k, acc);
    else ops.partial(first ? 2 * t : 2 * t + 1, k, acc);
    first = false;
  }
}

// The levels of one reduction of m inputs (host code): calls
// level(l, size, per, exact, last) for l = 0, 1, ... until a level runs as
// one thread (last). Level 0 reads the m inputs (per_first, exact_first);
// level l > 0 reads the 2 * threads slots that level l - 1 wrote (per_rest,
// not exact). Level l writes its slots to buffer l % 2 unless it is the
// last, so buffer 0 needs 2 * ceil(m / per_first) slots and buffer 1 the
// slots of level 1 (msm_plan::level1_slots / level2_slots). per_rest >= 4
// makes every level at least halve the slots. Returns the number of levels.
template <class Level>
unsigned run_levels(uint64_t m, uint32_t per_first, bool exact_first, uint32_t per_rest, Level&& level) {
  if (m == 0) return 0;
  uint64_t size = m;
  uint32_t per = per_first;
  bool exact = exact_first;
  for (unsigned l = 0;; l++) {
    const uint64_t threads = (size + per - 1) / per;
    const bool last = threads == 1;
    level(l, size, per, exact, last);
    if (last) return l + 1;
    size = 2 * threads;
    per = per_rest;
    exact = false;
  }
}

}  // namespace msm_dev
CUZK_CUDA_NAMESPACE_END
