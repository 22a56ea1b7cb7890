// The MSM's segmented reduction (cuda/msm_segments.cuh), the code the
// kernels run, walked on the host with integer sums over every thread of
// every level: each key must be finished by exactly one thread (the kernels
// add to out[key] without atomics, and the emulator, running a block's
// threads one after another, would not show a race), with the sum of its
// inputs. Key layouts: one long run, all distinct, random runs; many work
// sizes per thread.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuda/msm_segments.cuh"

using namespace cuzk;
using cuda::msm_dev::kNoKey;

namespace {

struct Finished {
  std::vector<int64_t> sum;
  std::vector<int> by;  // the (level, thread) that finished the key, -1: none
  int twice = 0;        // keys finished a second time
};

// The integer twin of the kernels' PointSumOps.
struct IntOps {
  using Value = int64_t;
  const std::vector<int64_t>* in;
  Finished* fin;
  std::vector<uint32_t>* pkeys;  // null at the last level
  std::vector<int64_t>* pvals;
  int id;
  Value zero() const { return 0; }
  Value add(Value acc, uint32_t j) const { return acc + (*in)[j]; }
  void finish(uint32_t key, Value v) const {
    if (fin->by[key] != -1) fin->twice++;
    fin->by[key] = id;
    fin->sum[key] += v;
  }
  void partial(uint32_t slot, uint32_t key, Value v) const {
    (*pkeys)[slot] = key;
    (*pvals)[slot] = v;
  }
  void clear(uint32_t slot) const {
    if (pkeys) (*pkeys)[slot] = kNoKey;
  }
};

// Runs the levels as cuda/msm.cpp does and checks every key.
void check_reduction(const std::vector<uint32_t>& keys, uint32_t n_keys, uint32_t per_first, bool exact_first,
                     uint32_t per_rest, unsigned* levels_out = nullptr) {
  std::mt19937_64 rng(keys.size() * 31 + per_first);
  std::vector<int64_t> vals(keys.size());
  std::vector<int64_t> want(n_keys, 0);
  for (size_t j = 0; j < keys.size(); j++) {
    vals[j] = int64_t(rng() % 1000) + 1;
    want[keys[j]] += vals[j];
  }
  Finished fin{std::vector<int64_t>(n_keys, 0), std::vector<int>(n_keys, -1), 0};
  std::vector<uint32_t> slot_keys[2];
  std::vector<int64_t> slot_vals[2];
  const unsigned levels = cuda::msm_dev::run_levels(
      keys.size(), per_first, exact_first, per_rest,
      [&](unsigned l, uint64_t size, uint32_t per, bool exact, bool last) {
        const std::vector<uint32_t>& in_keys = l == 0 ? keys : slot_keys[(l - 1) % 2];
        const std::vector<int64_t>& in_vals = l == 0 ? vals : slot_vals[(l - 1) % 2];
        ASSERT_GE(in_keys.size(), size);
        const uint64_t threads = (size + per - 1) / per;
        // A copy: level l + 2 writes the buffer that level l + 1 reads.
        std::vector<uint32_t> k_in(in_keys.begin(), in_keys.begin() + std::ptrdiff_t(size));
        std::vector<int64_t> v_in(in_vals.begin(), in_vals.begin() + std::ptrdiff_t(size));
        std::vector<uint32_t>& pk = slot_keys[l % 2];
        std::vector<int64_t>& pv = slot_vals[l % 2];
        if (!last) {
          pk.assign(2 * threads, 0x12345678u);  // every slot must be written or cleared
          pv.assign(2 * threads, 0);
        }
        for (uint64_t t = 0; t < threads; t++) {
          const IntOps ops{&v_in, &fin, last ? nullptr : &pk, last ? nullptr : &pv, int(l * 1000000 + t)};
          cuda::msm_dev::segmented_sum_range(k_in.data(), ops, uint32_t(size), per, exact, uint32_t(t));
        }
        if (!last) {
          for (uint32_t k : pk) ASSERT_TRUE(k == kNoKey || k < n_keys) << "slot neither written nor cleared";
        }
      });
  EXPECT_EQ(fin.twice, 0) << "a key was finished by two threads";
  for (uint32_t k = 0; k < n_keys; k++) {
    ASSERT_EQ(fin.sum[k], want[k]) << "key " << k;
    ASSERT_EQ(fin.by[k] != -1, want[k] != 0) << "key " << k;
  }
  if (levels_out) *levels_out = levels;
}

std::vector<uint32_t> random_runs(size_t m, uint32_t max_run, uint32_t& n_keys, std::mt19937_64& rng) {
  std::vector<uint32_t> keys;
  uint32_t k = 0;
  while (keys.size() < m) {
    k += uint32_t(rng() % 3);  // gaps: keys without inputs
    const size_t run = std::min<size_t>(1 + rng() % max_run, m - keys.size());
    keys.insert(keys.end(), run, k);
    k++;
  }
  n_keys = k + 1;
  return keys;
}

}  // namespace

TEST(CudaMsmSegments, EveryKeyFinishedOnceWithItsSum) {
  std::mt19937_64 rng(1);
  for (size_t m : {1, 2, 3, 7, 64, 65, 1000, 4099}) {
    for (uint32_t max_run : {1u, 4u, 40u, 5000u}) {
      uint32_t n_keys = 0;
      const auto keys = random_runs(m, max_run, n_keys, rng);
      for (uint32_t per_first : {1u, 2u, 3u, 8u, 64u, 300u})
        for (uint32_t per_rest : {4u, 5u, 32u})
          for (bool exact : {true, false}) {
            SCOPED_TRACE(testing::Message() << "m " << m << " run " << max_run << " per " << per_first << "/"
                                            << per_rest << " exact " << exact);
            check_reduction(keys, n_keys, per_first, exact, per_rest);
          }
    }
  }
}

// One key over all inputs (all scalars equal, the scalar-1 sum): the levels
// form a tree of partial sums.
TEST(CudaMsmSegments, OneLongRunIsATree) {
  for (size_t m : {1, 2, 5, 100, 10000}) {
    const std::vector<uint32_t> keys(m, 0);
    unsigned levels = 0;
    check_reduction(keys, 1, 2, true, 4, &levels);
    if (m > 2) {
      EXPECT_GE(levels, 2u) << m;
    }
  }
}
