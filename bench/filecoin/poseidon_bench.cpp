// Poseidon on the CPU: the native hash (trees, vanilla proofs) and the
// witness-only gadget (pre-compiled synthesis of every Poseidon circuit:
// WindowPoSt and WinningPoSt are mostly these), per arity, with the dense
// mixing on AVX-512 IFMA (1) or on the scalar kernels (0), alternating.
//   build/bench/bench_poseidon --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <vector>

#include "filecoin/hash/poseidon.hpp"
#include "filecoin/hash/poseidon_constants.hpp"
#include "gadgets/poseidon.hpp"
#include "platform/cpu_features.hpp"
#include "platform/large_vector.hpp"
#include "r1cs/witness_cs.hpp"

using namespace cuzk;
using ff::Fr;

namespace {

constexpr size_t kHashes = 256;  // per iteration

// Switches the IFMA mixing for one benchmark; skips where the CPU has none.
bool use_ifma_for(benchmark::State& st, bool on) {
  static const bool has = platform::use_ifma();
  if (on && !has) {
    st.SkipWithError("this CPU has no AVX-512 IFMA");
    return false;
  }
  platform::set_use_ifma(on && has);
  return true;
}

void label(benchmark::State& st, size_t arity, bool ifma) {
  st.SetLabel("arity " + std::to_string(arity) + (ifma ? ", ifma" : ", scalar"));
  st.counters["per_hash"] =  // seconds
      benchmark::Counter(double(kHashes),
                         benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_PoseidonHash(benchmark::State& st) {
  const size_t arity = size_t(st.range(0));
  const bool ifma = st.range(1) != 0;
  if (!use_ifma_for(st, ifma)) return;
  const auto& c = filecoin::poseidon_constants(arity);
  std::vector<Fr> s(arity);
  for (size_t i = 0; i < arity; i++) s[i] = Fr::from_u64(3 * i + 1);
  for (auto _ : st)
    for (size_t k = 0; k < kHashes; k++) s[k % arity] = filecoin::poseidon_hash(c, s, Fr::zero());
  benchmark::DoNotOptimize(s.data());
  label(st, arity, ifma);
}

void BM_PoseidonWitness(benchmark::State& st) {
  const size_t arity = size_t(st.range(0));
  const bool ifma = st.range(1) != 0;
  if (!use_ifma_for(st, ifma)) return;
  const auto& c = filecoin::poseidon_constants(arity);
  for (auto _ : st) {
    st.PauseTiming();  // a system over the last iteration's buffers (pages already there)
    r1cs::WitnessCS cs(1, kHashes * 2 * (arity + 1) * c.full_rounds * 4);
    std::vector<gadgets::AllocatedNum> pre;
    for (size_t i = 0; i < arity; i++) {
      const Fr v = Fr::from_u64(7 * i + 3);
      pre.push_back({cs.alloc("x", [&] { return v; }), v});
    }
    st.ResumeTiming();
    for (size_t k = 0; k < kHashes; k++) pre[k % arity] = gadgets::poseidon_hash(cs, pre, c, Fr::zero());
    st.PauseTiming();
    std::vector<uint8_t> tags;
    std::vector<Fr> w = cs.take_aux_then_inputs(&tags);
    platform::recycle_large(w);
    platform::recycle_large(tags);
    st.ResumeTiming();
  }
  label(st, arity, ifma);
}

}  // namespace

BENCHMARK(BM_PoseidonHash)->ArgsProduct({{2, 4, 8, 11}, {1, 0}})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PoseidonWitness)->ArgsProduct({{2, 4, 8, 11}, {1, 0}})->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
