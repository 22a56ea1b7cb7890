// Warp shuffles, votes and reductions against a direct computation of CUDA's
// documented rules (CUDA C++ Programming Guide, "Warp Shuffle Functions"):
// each lane's result computed here from every lane's input.
#include <cstdint>
#include <vector>

#include "simt_test_util.hpp"

namespace cuzk::simt::test {
namespace {

enum Shfl : int { kIdx, kUp, kDown, kXor };

template <class T>
T input_of(unsigned t) {
  return T(t * 2654435761u % 1000003u) + T(t) / T(4);  // distinct per thread, fractional for floats
}

template <class T>
__global__ void shuffle(int kind, int arg, int width, T* out) {
  const T v = input_of<T>(threadIdx.x);
  T r{};
  switch (kind) {
    case kIdx: r = __shfl_sync(0xffffffffu, v, arg + int(threadIdx.x % 32 % 3), width); break;
    case kUp: r = __shfl_up_sync(0xffffffffu, v, unsigned(arg), width); break;
    case kDown: r = __shfl_down_sync(0xffffffffu, v, unsigned(arg), width); break;
    case kXor: r = __shfl_xor_sync(0xffffffffu, v, arg, width); break;
  }
  out[threadIdx.x] = r;
}

// The lane (of the warp) whose value lane `lane` receives, as the guide words it.
unsigned expected_source(int kind, unsigned lane, int arg, unsigned width) {
  const unsigned base = lane / width * width, in_seg = lane % width;
  switch (kind) {
    case kIdx: return base + unsigned(arg + int(lane % 3)) % width;          // srcLane % width in the segment
    case kUp: return in_seg >= unsigned(arg) ? lane - unsigned(arg) : lane;  // below the segment: own value
    case kDown: return in_seg + unsigned(arg) < width ? lane + unsigned(arg) : lane;
    case kXor: {
      const unsigned src = lane ^ unsigned(arg);
      return src < base + width ? src : lane;  // later segments: own value; earlier ones are readable
    }
  }
  return lane;
}

template <class T>
void check_shuffles() {
  const unsigned threads = 128;
  for (int kind : {kIdx, kUp, kDown, kXor})
    for (unsigned width : {1u, 2u, 4u, 8u, 16u, 32u})
      for (int arg : {0, 1, 3, 5, 16, 31}) {
        DeviceArray<T> d(threads);
        ASSERT_EQ(LAUNCH(shuffle<T>, 1, threads, 0, nullptr, kind, arg, int(width), d.get()), cudaSuccess);
        const auto out = d.host();
        for (unsigned t = 0; t < threads; t++) {
          const unsigned src = t / 32 * 32 + expected_source(kind, t % 32, arg, width);
          ASSERT_EQ(out[t], input_of<T>(src))
              << "kind " << kind << " width " << width << " arg " << arg << " thread " << t;
        }
      }
}

TEST(SimtWarp, ShufflesInt) { check_shuffles<int>(); }
TEST(SimtWarp, ShufflesFloat) { check_shuffles<float>(); }
TEST(SimtWarp, ShufflesDouble) { check_shuffles<double>(); }
TEST(SimtWarp, ShufflesU64) { check_shuffles<unsigned long long>(); }

// A warp sum by butterfly: the standard reduction idiom.
__global__ void warp_sum(const unsigned* in, unsigned* out) {
  unsigned v = in[threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  out[threadIdx.x] = v;
}

TEST(SimtWarp, ButterflySum) {
  std::vector<unsigned> in(96);
  for (unsigned i = 0; i < in.size(); i++) in[i] = i * i + 1;
  DeviceArray<unsigned> din(in), dout(in.size());
  ASSERT_EQ(LAUNCH(warp_sum, 1, 96, 0, nullptr, din.get(), dout.get()), cudaSuccess);
  const auto out = dout.host();
  for (unsigned t = 0; t < 96; t++) {
    unsigned s = 0;
    for (unsigned l = 0; l < 32; l++) s += in[t / 32 * 32 + l];
    ASSERT_EQ(out[t], s);
  }
}

struct Votes {
  unsigned ballot, any, all, active, radd, rmin, rmax, rand, ror, rxor, match_any, match_all;
  int smin, smax, match_pred;
};

// Votes and reductions over the lanes of `mask` (the others skip them).
__global__ void votes(const int* pred, const unsigned* val, unsigned mask, Votes* out) {
  const unsigned lane = threadIdx.x % 32;
  Votes v{};
  v.active = __activemask();
  if ((mask >> lane) & 1u) {
    const int p = pred[threadIdx.x];
    const unsigned x = val[threadIdx.x];
    v.ballot = __ballot_sync(mask, p);
    v.any = unsigned(__any_sync(mask, p));
    v.all = unsigned(__all_sync(mask, p));
    v.radd = __reduce_add_sync(mask, x);
    v.rmin = __reduce_min_sync(mask, x);
    v.rmax = __reduce_max_sync(mask, x);
    v.smin = __reduce_min_sync(mask, int(x));
    v.smax = __reduce_max_sync(mask, int(x));
    v.rand = __reduce_and_sync(mask, x);
    v.ror = __reduce_or_sync(mask, x);
    v.rxor = __reduce_xor_sync(mask, x);
    v.match_any = __match_any_sync(mask, x % 4);
    v.match_all = __match_all_sync(mask, x % 4 == 9 ? 1u : p != 0 ? 2u : 2u, &v.match_pred);
    __syncwarp(mask);
  }
  out[threadIdx.x] = v;
}

TEST(SimtWarp, VotesAndReductions) {
  const unsigned threads = 64;
  for (unsigned mask : {0xffffffffu, 0x0000ffffu, 0xa5a5a5a5u, 0x00000001u}) {
    std::vector<int> pred(threads);
    std::vector<unsigned> val(threads);
    for (unsigned t = 0; t < threads; t++) {
      pred[t] = int((t * 7) % 5 == 0);
      val[t] = (t * 2654435761u) ^ (t % 2 ? 0x80000000u : 0u);
    }
    DeviceArray<int> dp(pred);
    DeviceArray<unsigned> dv(val);
    DeviceArray<Votes> dout(threads);
    ASSERT_EQ(LAUNCH(votes, 1, threads, 0, nullptr, dp.get(), dv.get(), mask, dout.get()), cudaSuccess);
    const auto out = dout.host();
    for (unsigned t = 0; t < threads; t++) {
      const unsigned lane = t % 32, w = t / 32 * 32;
      EXPECT_EQ(out[t].active, 0xffffffffu);
      if (!((mask >> lane) & 1u)) continue;
      unsigned ballot = 0, add = 0, mn = ~0u, mx = 0, a = ~0u, o = 0, x = 0, same = 0;
      int smn = INT32_MAX, smx = INT32_MIN;
      for (unsigned l = 0; l < 32; l++) {
        if (!((mask >> l) & 1u)) continue;
        const unsigned v = val[w + l];
        if (pred[w + l]) ballot |= 1u << l;
        add += v;
        mn = std::min(mn, v);
        mx = std::max(mx, v);
        smn = std::min(smn, int(v));
        smx = std::max(smx, int(v));
        a &= v;
        o |= v;
        x ^= v;
        if (v % 4 == val[t] % 4) same |= 1u << l;
      }
      EXPECT_EQ(out[t].ballot, ballot);
      EXPECT_EQ(out[t].any, unsigned(ballot != 0));
      EXPECT_EQ(out[t].all, unsigned(ballot == mask));
      EXPECT_EQ(out[t].radd, add);
      EXPECT_EQ(out[t].rmin, mn);
      EXPECT_EQ(out[t].rmax, mx);
      EXPECT_EQ(out[t].smin, smn);
      EXPECT_EQ(out[t].smax, smx);
      EXPECT_EQ(out[t].rand, a);
      EXPECT_EQ(out[t].ror, o);
      EXPECT_EQ(out[t].rxor, x);
      EXPECT_EQ(out[t].match_any, same);
      EXPECT_EQ(out[t].match_all, mask);  // every lane passes 2
      EXPECT_EQ(out[t].match_pred, 1);
    }
  }
}

// A partial warp (block of 40: lanes 8..31 of warp 1 do not exist) and lanes
// that exit early: the full mask still completes, over the lanes present.
__global__ void partial_warp(unsigned* out) {
  if (threadIdx.x % 32 >= 20 && threadIdx.x < 32) return;  // lanes 20..31 of warp 0 exit
  out[threadIdx.x] = __activemask();
  out[64 + threadIdx.x] = __ballot_sync(0xffffffffu, 1);
  out[128 + threadIdx.x] = __shfl_sync(0xffffffffu, threadIdx.x * 10, 3);
}

TEST(SimtWarp, ExitedAndMissingLanes) {
  std::vector<unsigned> zero(192, 0);
  DeviceArray<unsigned> d(zero);
  ASSERT_EQ(LAUNCH(partial_warp, 1, 40, 0, nullptr, d.get()), cudaSuccess);
  const auto out = d.host();
  for (unsigned t = 0; t < 40; t++) {
    if (t >= 20 && t < 32) continue;
    const unsigned present = t < 32 ? 0x000fffffu : 0x000000ffu;
    EXPECT_EQ(out[t], present) << t;
    EXPECT_EQ(out[64 + t], present) << t;
    EXPECT_EQ(out[128 + t], (t / 32 * 32 + 3) * 10) << t;
  }
}

// Lanes that take different branches see only the lanes on their branch.
__global__ void divergent_active(unsigned* out) {
  const unsigned lane = threadIdx.x % 32;
  unsigned m;
  if (lane % 3 == 0) m = __activemask();
  else m = __activemask();
  out[threadIdx.x] = m;
  out[64 + threadIdx.x] = __activemask();  // reconverged
}

TEST(SimtWarp, DivergentActivemask) {
  DeviceArray<unsigned> d(128);
  ASSERT_EQ(LAUNCH(divergent_active, 1, 64, 0, nullptr, d.get()), cudaSuccess);
  const auto out = d.host();
  unsigned threes = 0;
  for (unsigned l = 0; l < 32; l += 3) threes |= 1u << l;
  for (unsigned t = 0; t < 64; t++) {
    EXPECT_EQ(out[t], t % 32 % 3 == 0 ? threes : ~threes) << t;
    EXPECT_EQ(out[64 + t], 0xffffffffu) << t;
  }
}

}  // namespace
}  // namespace cuzk::simt::test
