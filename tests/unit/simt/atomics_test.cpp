// Atomics from many blocks at once (blocks run concurrently on host threads):
// totals that come out exact only if every read-modify-write is atomic.
#include <algorithm>
#include <vector>

#include "simt_test_util.hpp"

namespace cuzk::simt::test {
namespace {

constexpr unsigned kBlocks = 64, kThreads = 256, kBins = 37;

struct Totals {
  int add_int, sub_int;
  unsigned add_u, and_u, or_u, xor_u, inc_u, dec_u;
  unsigned long long add_ull, max_ull, min_ull;
  int max_int, min_int;
  unsigned cas_count;
  int lock;
  unsigned long long locked_sum;  // updated under a spin lock built from atomicCAS/atomicExch
  float add_f;
  double add_d;
  unsigned hist[kBins];
};

__global__ void hammer(Totals* t) {
  const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&t->add_int, int(id % 7) - 3);
  atomicSub(&t->sub_int, 2);
  atomicAdd(&t->add_u, id);
  atomicAnd(&t->and_u, ~(1u << (id % 32)) | (id % 64 < 32 ? 0u : ~0u));
  atomicOr(&t->or_u, 1u << (id % 29));
  atomicXor(&t->xor_u, id);
  atomicInc(&t->inc_u, 1000u);
  atomicDec(&t->dec_u, 500u);
  atomicAdd(&t->add_ull, (unsigned long long)id << 20);
  atomicMax(&t->max_ull, (unsigned long long)(id * 2654435761u));
  atomicMin(&t->min_ull, (unsigned long long)(id * 2654435761u) | 1ull << 40);
  atomicMax(&t->max_int, int(id) - 5000);
  atomicMin(&t->min_int, 7000 - int(id));
  atomicAdd(&t->add_f, 0.5f);
  atomicAdd(&t->add_d, 0.25);
  atomicAdd(&t->hist[(id * 2654435761u) % kBins], 1u);
  // CAS loop: count threads whose id is a multiple of 3.
  if (id % 3 == 0) {
    unsigned old = t->cas_count, seen;
    do {
      seen = old;
      old = atomicCAS(&t->cas_count, seen, seen + 1);
    } while (old != seen);
  }
  // One thread per warp takes the lock (a lane spinning while its warp-mates
  // wait for it would deadlock a GPU warp as well as this emulator).
  if (threadIdx.x % 32 == 0) {
    while (atomicCAS(&t->lock, 0, 1) != 0) {
    }
    __threadfence();
    t->locked_sum += id;
    __threadfence();
    atomicExch(&t->lock, 0);
  }
}

TEST(SimtAtomics, ManyBlocksAtOnce) {
  Totals init{};
  init.and_u = ~0u;
  init.min_ull = ~0ull;
  init.max_int = -1000000;
  init.min_int = 1000000;
  DeviceArray<Totals> d(std::vector<Totals>{init});
  ASSERT_EQ(LAUNCH(hammer, kBlocks, kThreads, 0, nullptr, d.get()), cudaSuccess);
  const Totals t = d.host()[0];

  const unsigned n = kBlocks * kThreads;
  Totals e = init;  // the same updates, one after another
  for (unsigned id = 0; id < n; id++) {
    e.add_int += int(id % 7) - 3;
    e.sub_int -= 2;
    e.add_u += id;
    e.and_u &= ~(1u << (id % 32)) | (id % 64 < 32 ? 0u : ~0u);
    e.or_u |= 1u << (id % 29);
    e.xor_u ^= id;
    e.inc_u = e.inc_u >= 1000u ? 0 : e.inc_u + 1;
    e.dec_u = (e.dec_u == 0 || e.dec_u > 500u) ? 500u : e.dec_u - 1;
    e.add_ull += (unsigned long long)id << 20;
    e.max_ull = std::max(e.max_ull, (unsigned long long)(id * 2654435761u));
    e.min_ull = std::min(e.min_ull, (unsigned long long)(id * 2654435761u) | 1ull << 40);
    e.max_int = std::max(e.max_int, int(id) - 5000);
    e.min_int = std::min(e.min_int, 7000 - int(id));
    e.add_f += 0.5f;
    e.add_d += 0.25;
    e.hist[(id * 2654435761u) % kBins]++;
    if (id % 3 == 0) e.cas_count++;
    if (id % 32 == 0) e.locked_sum += id;
  }
  EXPECT_EQ(t.add_int, e.add_int);
  EXPECT_EQ(t.sub_int, e.sub_int);
  EXPECT_EQ(t.add_u, e.add_u);
  EXPECT_EQ(t.and_u, e.and_u);
  EXPECT_EQ(t.or_u, e.or_u);
  EXPECT_EQ(t.xor_u, e.xor_u);
  // inc/dec wrap: the order of updates changes nothing for these counts.
  EXPECT_EQ(t.inc_u, e.inc_u);
  EXPECT_EQ(t.dec_u, e.dec_u);
  EXPECT_EQ(t.add_ull, e.add_ull);
  EXPECT_EQ(t.max_ull, e.max_ull);
  EXPECT_EQ(t.min_ull, e.min_ull);
  EXPECT_EQ(t.max_int, e.max_int);
  EXPECT_EQ(t.min_int, e.min_int);
  EXPECT_EQ(t.add_f, e.add_f);  // halves up to 8192: exact in float
  EXPECT_EQ(t.add_d, e.add_d);
  EXPECT_EQ(t.cas_count, e.cas_count);
  EXPECT_EQ(t.locked_sum, e.locked_sum);
  EXPECT_EQ(t.lock, 0);
  for (unsigned b = 0; b < kBins; b++) EXPECT_EQ(t.hist[b], e.hist[b]) << b;
}

__global__ void exchange_and_cas(unsigned* u, unsigned long long* ull, int* i, float* f) {
  if (threadIdx.x != 0) return;
  u[1] = atomicExch(&u[0], 5u);
  u[3] = atomicCAS(&u[2], 9u, 10u);  // matches: swapped
  u[5] = atomicCAS(&u[4], 9u, 10u);  // does not match: unchanged
  ull[1] = atomicExch(&ull[0], 1ull << 50);
  ull[3] = atomicCAS(&ull[2], 3ull, 4ull);
  i[1] = atomicExch(&i[0], -8);
  f[1] = atomicExch(&f[0], 2.5f);
}

TEST(SimtAtomics, ExchangeAndCompareAndSwap) {
  DeviceArray<unsigned> u(std::vector<unsigned>{1, 0, 9, 0, 8, 0});
  DeviceArray<unsigned long long> ull(std::vector<unsigned long long>{7, 0, 3, 0});
  DeviceArray<int> i(std::vector<int>{-3, 0});
  DeviceArray<float> f(std::vector<float>{1.5f, 0});
  ASSERT_EQ(LAUNCH(exchange_and_cas, 1, 32, 0, nullptr, u.get(), ull.get(), i.get(), f.get()), cudaSuccess);
  EXPECT_EQ(u.host(), (std::vector<unsigned>{5, 1, 10, 9, 8, 8}));
  EXPECT_EQ(ull.host(), (std::vector<unsigned long long>{1ull << 50, 7, 4, 3}));
  EXPECT_EQ(i.host(), (std::vector<int>{-8, -3}));
  EXPECT_EQ(f.host(), (std::vector<float>{2.5f, 1.5f}));
}

}  // namespace
}  // namespace cuzk::simt::test
