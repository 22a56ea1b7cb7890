// WinningPoSt / WindowPoSt on the CPU: synthesis of one partition (witness +
// a/b/c) on one core, constraints per second over CPU time, and the whole
// Groth16 proof of a partition (development parameters made once per
// circuit). 2 KiB sectors are sealed in milliseconds; 8 MiB needs
// CUZK_BENCH_8MIB=1 (sealing ~1 min, Winning 8 MiB setup ~20 s).
//   build/bench/bench_post --benchmark_filter=2KiB
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>

#include "filecoin/post/prove.hpp"
#include "groth16/prover.hpp"
#include "groth16/rng.hpp"
#include "groth16/setup.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

const Domain& randomness() {
  static const Domain r = [] {
    Domain d;
    d.fill(0x42);
    d[31] &= 0x3f;
    return d;
  }();
  return r;
}

// Vanilla proofs of one partition, from sectors sealed on first use.
const std::vector<FallbackPoStSectorProof>& vanilla_for(uint64_t id) {
  static std::map<uint64_t, std::vector<FallbackPoStSectorProof>> cache;
  if (auto it = cache.find(id); it != cache.end()) return it->second;
  const PostConfig c = *post_config(id);
  std::vector<FallbackPoStSectorProof> out;
  const size_t sectors = c.kind == PostKind::Winning ? 1 : c.sector_count;
  for (size_t i = 0; i < sectors; i++) {
    SealInputs in;
    in.config = *porep_config_for_size(c.sector_size);
    in.sector_num = 100 + i;
    out.push_back(post_vanilla_proof(c, seal_precommit(in), randomness(), i));
  }
  return cache[id] = out;
}

bool skip_8mib(benchmark::State& st, uint64_t id) {
  if (post_config(id)->sector_size <= 2048 || std::getenv("CUZK_BENCH_8MIB")) return false;
  st.SkipWithError("set CUZK_BENCH_8MIB=1 (seals 8 MiB sectors first)");
  return true;
}

void BM_PostSynth(benchmark::State& st) {
  const uint64_t id = uint64_t(st.range(0));
  if (skip_8mib(st, id)) return;
  const auto& proofs = vanilla_for(id);
  size_t rows = 0;
  for (auto _ : st) {
    groth16::Assignment a = groth16::synthesize(FallbackPostCircuit(*post_config(id), proofs));
    rows = a.num_constraints();
    benchmark::DoNotOptimize(a.c.data());
  }
  st.SetLabel(std::string(post_config(id)->name));
  st.counters["constraints"] = double(rows);
  st.counters["rate"] = benchmark::Counter(double(rows), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_PostProve(benchmark::State& st) {
  const uint64_t id = uint64_t(st.range(0));
  if (skip_8mib(st, id)) return;
  const PostConfig c = *post_config(id);
  static std::map<uint64_t, groth16::Parameters> params;
  groth16::SecureRng rng;
  if (!params.count(id))
    params[id] = groth16::generate_parameters(FallbackPostCircuit(c), groth16::ToxicWaste::random(rng));
  const auto& proofs = vanilla_for(id);
  for (auto _ : st) benchmark::DoNotOptimize(prove_post_partition(c, proofs, params[id]));
  st.SetLabel(std::string(c.name));
}

}  // namespace

// 0 WinningPoSt 2 KiB, 10 WindowPoSt 2 KiB (V1_1), 1 Winning 8 MiB, 11 Window 8 MiB.
BENCHMARK(BM_PostSynth)->Arg(0)->Arg(10)->Arg(1)->Arg(11)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PostProve)->Arg(0)->Arg(10)->Arg(1)->Arg(11)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();
