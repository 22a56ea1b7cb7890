// PoRep partition synthesis (witness + a/b/c) on one core, for the 2 KiB and
// 8 MiB circuits sealed here, and the blank counting pass. Reports
// constraints per second ("rate", over CPU time: the machine may be shared)
// and the ProvingAssignment's size. Synth2KiB is the steady state of a
// prover (each ProvingAssignment sized like the previous one);
// Synth2KiBCold forgets that sizing first, as the first synthesis in a
// process, so its vectors grow as they fill.
// Synth2KiBGadgets/Synth2KiBPce: the gadget path against pre-compiled
// constraints (PCE recorded once, then witness-only synthesis and packed
// matrix-vector products) on 1 and 2 threads, rate per core.
//   build/bench/bench_filecoin --benchmark_filter=Synth2KiB
//   build/bench/bench_filecoin --benchmark_filter='Synth2KiB(Gadgets|Pce)' --benchmark_repetitions=3
//   CUZK_BENCH_8MIB=1 build/bench/bench_filecoin      (seals an 8 MiB sector first, ~1 min)
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <random>

#include "filecoin/porep/c2.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/tree/fr32.hpp"
#include "groth16/prover.hpp"
#include <oneapi/tbb/task_arena.h>

#include "r1cs/counting_cs.hpp"
#include "r1cs/pce.hpp"
#include "r1cs/proving_assignment.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

// One sealed sector per registered proof id, sealed on first use.
const SealCommitPhase1Output& c1_for(uint64_t id) {
  static std::map<uint64_t, SealCommitPhase1Output> cache;
  auto it = cache.find(id);
  if (it != cache.end()) return it->second;
  SealInputs in;
  in.config = *porep_config(id);
  std::mt19937_64 g(id);
  std::vector<uint8_t> raw(in.config.sector_size / 128 * 127);
  for (auto& b : raw) b = uint8_t(g());
  in.padded_data = fr32_pad(raw);
  Domain seed;
  seed.fill(5);
  return cache[id] = seal_commit_phase1(seal_precommit(in), seed);
}

void synth(benchmark::State& st, uint64_t id, bool cold = false) {
  const auto& c1 = c1_for(id);
  const PorepConfig cfg = *porep_config(id);
  size_t rows = 0, bytes = 0;
  for (auto _ : st) {
    if (cold) r1cs::ProvingAssignment::forget_size_hint();
    auto circuit = porep_partition_circuit(c1, cfg, 0);
    groth16::Assignment a = groth16::synthesize(circuit);
    rows = a.num_constraints();
    bytes = 32 * (a.a.size() * 3 + a.aux_assignment.size() + a.input_assignment.size());
    benchmark::DoNotOptimize(a.c.data());
  }
  st.counters["constraints"] = double(rows);
  st.counters["rate"] = benchmark::Counter(double(rows), benchmark::Counter::kIsIterationInvariantRate);
  st.counters["assignment_MiB"] = double(bytes) / (1 << 20);
}

void count(benchmark::State& st, uint64_t id) {
  const PorepConfig cfg = *porep_config(id);
  size_t n = 0;
  for (auto _ : st) {
    r1cs::CountingCS cs;
    porep_blank_circuit(cfg).synthesize(cs);
    n = cs.num_constraints();
  }
  st.counters["constraints"] = double(n);
  st.counters["rate"] = benchmark::Counter(double(n), benchmark::Counter::kIsIterationInvariantRate);
}

// Gadgets against pre-compiled constraints (r1cs/pce.hpp), both inside a
// oneTBB arena of `threads` threads; one partition at a time. rate_per_core =
// constraints / (wall time x threads), the figure that says whether
// synthesis keeps a device fed.
void synth_mode(benchmark::State& st, uint64_t id, bool pce_mode) {
  const auto& c1 = c1_for(id);
  const PorepConfig cfg = *porep_config(id);
  const int threads = int(st.range(0));
  tbb::task_arena arena(threads);
  static std::map<uint64_t, r1cs::PrecompiledCircuit> pces;
  if (pce_mode && !pces.count(id))
    pces.emplace(id, r1cs::PrecompiledCircuit::record(porep_blank_circuit(cfg)));
  size_t rows = 0;
  for (auto _ : st) {
    auto circuit = porep_partition_circuit(c1, cfg, 0);
    const auto t0 = std::chrono::steady_clock::now();
    arena.execute([&] {
      r1cs::ProvingAssignment a;
      if (pce_mode) a = pces.at(id).synthesize(circuit);
      else circuit.synthesize(a);
      rows = a.num_constraints();
      benchmark::DoNotOptimize(a.c.data());
    });
    st.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  st.counters["constraints"] = double(rows);
  st.counters["rate_per_core"] =
      benchmark::Counter(double(rows) / threads, benchmark::Counter::kIsIterationInvariantRate);
  if (pce_mode) st.counters["pce_MiB"] = double(pces.at(id).bytes()) / (1 << 20);
}

void BM_Synth2KiB(benchmark::State& st) { synth(st, 5); }
void BM_Synth2KiBGadgets(benchmark::State& st) { synth_mode(st, 5, false); }
void BM_Synth2KiBPce(benchmark::State& st) { synth_mode(st, 5, true); }
void BM_Synth8MiBPce(benchmark::State& st) {
  if (!std::getenv("CUZK_BENCH_8MIB")) {
    st.SkipWithError("set CUZK_BENCH_8MIB=1 (seals an 8 MiB sector first)");
    return;
  }
  synth_mode(st, 6, true);
}
void BM_Synth2KiBCold(benchmark::State& st) { synth(st, 5, true); }
void BM_Synth8MiB(benchmark::State& st) {
  if (!std::getenv("CUZK_BENCH_8MIB")) {
    st.SkipWithError("set CUZK_BENCH_8MIB=1 (seals an 8 MiB sector first)");
    return;
  }
  synth(st, 6);
}
void BM_Count2KiB(benchmark::State& st) { count(st, 5); }
void BM_Count8MiB(benchmark::State& st) { count(st, 6); }

}  // namespace

BENCHMARK(BM_Synth2KiB)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Synth2KiBCold)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Synth2KiBGadgets)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Synth2KiBPce)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Synth8MiBPce)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK(BM_Synth8MiB)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_Count2KiB)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Count8MiB)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
