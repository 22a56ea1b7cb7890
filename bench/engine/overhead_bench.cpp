// Engine overhead per partition: queueing, dispatch, interlock, finalizer
// hand-off and assembly, measured with partitions whose synthesis and device
// work take no time (the fake kind of the engine tests), so the wall time per
// partition is all engine. Target: < 5 ms per partition.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>

#include "engine/engine.hpp"
#include "unit/engine/fake_kind.hpp"

using namespace cuzk::engine;

static void BM_EngineOverheadPerPartition(benchmark::State& state) {
  const int partitions = int(state.range(0));
  const int jobs = 20;
  auto param = std::filesystem::temp_directory_path() / "cuzk-overhead-bench.params";
  std::ofstream(param) << "fake";
  EngineConfig cfg;
  cfg.total_budget_bytes = 1ull << 30;
  cfg.max_parallel_synthesis = 2;
  cfg.synthesis_concurrency = 4;
  cfg.synthesis_threads = 1;
  cfg.gpu_threads = 1;
  auto h = std::make_unique<test::FakeHandler>();
  h->param_file = param.string();
  std::vector<std::unique_ptr<KindHandler>> hs;
  hs.push_back(std::move(h));
  Engine engine(cfg, std::move(hs), [](const std::string&) {});
  engine.preload("fake");
  uint64_t round = 0;
  for (auto _ : state) {
    std::vector<std::string> ids;
    for (int j = 0; j < jobs; j++) {
      ProofRequest r;
      r.kind = ProofKind::GenericR1cs;
      r.circuit_id = "fake";
      r.request_id = "r" + std::to_string(round) + "-" + std::to_string(j);
      r.vanilla_proofs.assign(partitions, "0,0");
      ids.push_back(engine.submit(r).job_id);
    }
    for (auto& id : ids)
      if (engine.await(id, std::nullopt).status != JobStatus::Completed) state.SkipWithError("job failed");
    round++;
  }
  // items_per_second = partitions per second; its inverse is the overhead.
  state.SetItemsProcessed(state.iterations() * jobs * partitions);
  state.counters["s_per_partition"] =
      benchmark::Counter(double(state.iterations() * jobs * partitions),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  std::filesystem::remove(param);
}
BENCHMARK(BM_EngineOverheadPerPartition)->Arg(1)->Arg(10)->Unit(benchmark::kMillisecond)->UseRealTime();
