// SnapDeals (EmptySectorUpdate) on the CPU: synthesis of one partition
// (witness + a/b/c) on one core, constraints per second over CPU time, and
// the Groth16 proof of one partition (development parameters made once per
// circuit: about two minutes at 2 KiB on 2 cores). 8 MiB needs
// CUZK_BENCH_8MIB=1 (sealing and encoding take seconds, the 10 M-constraint
// setup a quarter of an hour on 2 cores).
//   build/bench/bench_snap --benchmark_filter=Synth
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>

#include "filecoin/snap/prove.hpp"
#include "filecoin/snap/update.hpp"
#include "groth16/prover.hpp"
#include "groth16/rng.hpp"
#include "groth16/setup.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

struct Prepared {
  SnapPublic pub;
  SnapPartitionProof partition0;
};

// A CC sector sealed and updated with zero-free data on first use; partition 0's proof.
const Prepared& prepared(uint64_t id) {
  static std::map<uint64_t, Prepared> cache;
  if (auto it = cache.find(id); it != cache.end()) return it->second;
  const SnapConfig c = *snap_config(id);
  SealInputs in;
  in.config = *porep_config_for_size(c.sector_size);
  in.sector_num = 200 + id;
  std::vector<uint8_t> data(c.sector_size);
  for (size_t i = 0; i < data.size(); i++) data[i] = i % 32 == 31 ? 0 : uint8_t(i * 131 + 7);
  SnapUpdate u = encode_sector_update(c, seal_precommit(in), data);
  return cache[id] = Prepared{u.public_inputs(), snap_partition_proof(u, 0)};
}

bool skip_8mib(benchmark::State& st, uint64_t id) {
  if (id == 0 || std::getenv("CUZK_BENCH_8MIB")) return false;
  st.SkipWithError("set CUZK_BENCH_8MIB=1 (seals an 8 MiB sector; proving needs its 10 M-constraint setup)");
  return true;
}

void BM_SnapSynth(benchmark::State& st) {
  const uint64_t id = uint64_t(st.range(0));
  if (skip_8mib(st, id)) return;
  const SnapConfig c = *snap_config(id);
  const Prepared& p = prepared(id);
  size_t rows = 0;
  for (auto _ : st) {
    groth16::Assignment a = groth16::synthesize(EmptySectorUpdateCircuit(c, 0, p.pub, p.partition0));
    rows = a.num_constraints();
    benchmark::DoNotOptimize(a.c.data());
  }
  st.SetLabel(std::string(c.name));
  st.counters["constraints"] = double(rows);
  st.counters["rate"] = benchmark::Counter(double(rows), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_SnapProvePartition(benchmark::State& st) {
  const uint64_t id = uint64_t(st.range(0));
  if (skip_8mib(st, id)) return;
  const SnapConfig c = *snap_config(id);
  static std::map<uint64_t, groth16::Parameters> params;
  groth16::SecureRng rng;
  if (!params.count(id))
    params[id] = groth16::generate_parameters(EmptySectorUpdateCircuit(c), groth16::ToxicWaste::random(rng));
  const Prepared& p = prepared(id);
  for (auto _ : st) benchmark::DoNotOptimize(prove_snap_partition(c, 0, p.pub, p.partition0, params[id]));
  st.SetLabel(std::string(c.name));
}

}  // namespace

// 0: update 2 KiB (1 partition), 1: update 8 MiB (partition 0 of 4).
BENCHMARK(BM_SnapSynth)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SnapProvePartition)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);
BENCHMARK_MAIN();
