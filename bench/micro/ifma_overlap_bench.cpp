// Do the scalar (MULX) Montgomery products run beside the eight-lane IFMA
// ones on the same core? On a core whose vector unit the IFMA products keep
// busy (Zen 4 runs a 512-bit multiply-add as two 256-bit halves), the
// integer multiplier idles; if its products overlapped, an MSM kernel could
// add a few points on the integer side while eight go through the vector
// side. Each benchmark runs independent dependency chains of Fp products,
// vector and scalar mixed in one loop body, and reports the time per
// iteration: with perfect overlap "vec2 + scalarK" would cost max(vec2,
// scalarK), with none their sum.
//
//   build/bench/bench_micro --benchmark_filter=IfmaOverlap --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include "platform/cpu_features.hpp"

#if defined(__x86_64__)
#include "ec/ifma_fp.hpp"

namespace {

using cuzk::ff::Fp;
using namespace cuzk::ec::ifma_fp;

// kVec independent chains of eight-lane products and kScalar chains of
// scalar ones, one step of each per iteration.
template <int kVec, int kScalar>
CUZK_IFMA_TARGET void overlap_loop(benchmark::State& state) {
  V8 a[2], b;
  for (size_t j = 0; j < K; j++) {
    a[0].l[j] = bcast((0x9e3779b97f4a7ull * (j + 1)) & MASK52);
    a[1].l[j] = bcast((0x7f4a7c15f39cdull * (j + 3)) & MASK52);
    b.l[j] = bcast((0x2545f4914f6cdull * (j + 5)) & MASK52);
  }
  a[0].l[K - 1] = a[1].l[K - 1] = b.l[K - 1] = bcast(0x1234);  // below p
  Fp x[4] = {Fp::from_u64(11), Fp::from_u64(13), Fp::from_u64(17), Fp::from_u64(19)};
  const Fp y = Fp::from_u64(0x5851f42d4c957f2dull);
  for (auto _ : state) {
    if constexpr (kVec >= 1) a[0] = mul(a[0], b, MOD);
    if constexpr (kScalar >= 1) x[0] *= y;
    if constexpr (kVec >= 2) a[1] = mul(a[1], b, MOD);
    if constexpr (kScalar >= 2) x[1] *= y;
    if constexpr (kScalar >= 3) x[2] *= y;
    if constexpr (kScalar >= 4) x[3] *= y;
  }
  benchmark::DoNotOptimize(a);
  benchmark::DoNotOptimize(x);
}

template <int kVec, int kScalar>
void BM_IfmaOverlap(benchmark::State& state) {
  if (!cuzk::platform::use_ifma()) {
    state.SkipWithError("no AVX-512 IFMA on this CPU (or CUZK_NO_IFMA set)");
    return;
  }
  overlap_loop<kVec, kScalar>(state);
}

BENCHMARK(BM_IfmaOverlap<2, 0>)->Name("IfmaOverlap/vec2");
BENCHMARK(BM_IfmaOverlap<0, 1>)->Name("IfmaOverlap/scalar1");
BENCHMARK(BM_IfmaOverlap<0, 2>)->Name("IfmaOverlap/scalar2");
BENCHMARK(BM_IfmaOverlap<0, 4>)->Name("IfmaOverlap/scalar4");
BENCHMARK(BM_IfmaOverlap<2, 1>)->Name("IfmaOverlap/vec2+scalar1");
BENCHMARK(BM_IfmaOverlap<2, 2>)->Name("IfmaOverlap/vec2+scalar2");
BENCHMARK(BM_IfmaOverlap<2, 4>)->Name("IfmaOverlap/vec2+scalar4");

}  // namespace
#endif
