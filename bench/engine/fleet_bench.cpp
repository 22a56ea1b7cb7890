// What the fleet queue costs in throughput (docs/PERFORMANCE.md
// "Fleet mode"): K engines sharing one PostgreSQL queue through fleet::Bridge
// against the sum of K engines each given its share of the jobs directly.
//
// The jobs are the engine tests' fake kind (tests/unit/engine/fake_kind.hpp):
// one partition that sleeps `device_ms` on the device, so K "devices" run side
// by side on a 2-core machine without competing for its cores, and whatever
// separates the two rates is the queue: the bridges' claims, lease renewals
// and result writes, the database server, and the time a device waits for its
// next job. The database is a throwaway PostgreSQL server (the fleet tests'
// tests/unit/fleet/pg_server.hpp), on the same machine.
//
// Rate: the steady part of a batch, from the completion of the first 10% of
// the jobs to that of 90% (start-up and the uneven tail of a finite batch left
// out, the same way for both), timed by the engines' GPU_END events.
// Counters: jobs_per_s, cpu_ms_per_job (this process: engines, bridges and
// libpq, not the database server), and for the fleet the claims per daemon
// and database errors.
#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <algorithm>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "fleet/bridge.hpp"
#include "unit/engine/engine_fixture.hpp"
#include "unit/fleet/pg_server.hpp"

using namespace cuzk::engine;

namespace {

constexpr int kDaemons = 3;
constexpr int kJobsPerDaemon = 24;

// Jobs per second between the device completions (GPU_END, the engines' own
// TIMELINE timestamps) at 10% and 90% of the batch: when a job leaves the
// device, not when a client hears of it, so the fleet's result polling does
// not blur the figure.
double steady_rate(const std::vector<std::unique_ptr<test::Fixture>*>& fixtures) {
  std::vector<uint64_t> done;
  for (auto* fx : fixtures)
    for (const auto& l : (*fx)->events.of("GPU_END")) done.push_back(test::event_ms(l));
  std::sort(done.begin(), done.end());
  if (done.size() < 10) return 0;
  const size_t lo = done.size() / 10, hi = done.size() - 1 - done.size() / 10;
  const double s = double(done[hi] - done[lo]) / 1000;
  return s > 0 ? double(hi - lo) / s : 0;
}

// Awaits every id on `via(i)` in parallel; "" or the last failure.
template <class Via>
std::string await_all(const std::vector<std::string>& ids, Via via) {
  std::vector<std::future<void>> waits;
  for (size_t i = 0; i < ids.size(); i++)
    waits.push_back(std::async(std::launch::async, [&, i] {
      const ProofResult r = via(i).await(ids[i], std::chrono::minutes(5));
      if (r.status != JobStatus::Completed) throw std::runtime_error(ids[i] + ": " + r.error_message);
    }));
  std::string error;
  for (auto& w : waits) {
    try {
      w.get();
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  return error;
}

// CPU time of this process (engines, bridges, libpq; not the database
// server), milliseconds.
double process_cpu_ms() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return (double(u.ru_utime.tv_sec) + double(u.ru_stime.tv_sec)) * 1e3 +
         (double(u.ru_utime.tv_usec) + double(u.ru_stime.tv_usec)) / 1e3;
}

void report(benchmark::State& state, double rate, size_t jobs, double cpu_ms) {
  if (rate <= 0) {
    state.SkipWithError("no steady rate");
    return;
  }
  state.SetIterationTime(double(jobs) / rate);
  state.counters["jobs_per_s"] = rate;
  state.counters["cpu_ms_per_job"] = cpu_ms / double(jobs);
}

std::string spec(int device_ms) { return "0," + std::to_string(device_ms); }
std::string job_id(const std::string& prefix, uint64_t round, int j) {
  return prefix + std::to_string(round) + "-" + std::to_string(j);
}

}  // namespace

// K engines, each proving its own K-th of the jobs: the sum of single daemons.
static void BM_SingleDaemons(benchmark::State& state) {
  const int device_ms = int(state.range(0));
  uint64_t round = 0;
  for (auto _ : state) {
    const double cpu0 = process_cpu_ms();
    std::vector<std::unique_ptr<test::Fixture>> daemons;
    for (int d = 0; d < kDaemons; d++)
      daemons.push_back(std::make_unique<test::Fixture>(test::small_config()));
    std::vector<std::string> ids;
    for (int j = 0; j < kDaemons * kJobsPerDaemon; j++)
      ids.push_back(daemons[size_t(j % kDaemons)]
                        ->engine->submit(test::req({spec(device_ms)}, job_id("s", round, j)))
                        .job_id);
    const std::string error =
        await_all(ids, [&](size_t i) -> Engine& { return *daemons[i % kDaemons]->engine; });
    if (!error.empty()) {
      state.SkipWithError(error.c_str());
      break;
    }
    std::vector<std::unique_ptr<test::Fixture>*> fxs;
    for (auto& d : daemons) fxs.push_back(&d);
    report(state, steady_rate(fxs), ids.size(), process_cpu_ms() - cpu0);
    round++;
  }
}

// The same K engines and jobs in fleet mode: every job submitted through one
// bridge (round robin), queued, claimed by whichever daemon has room, its
// result read back through the queue by the bridge it was submitted to.
static void BM_FleetDaemons(benchmark::State& state) {
  const int device_ms = int(state.range(0));
  auto& pg = cuzk::test::PgServer::shared();
  if (!pg.running()) {
    state.SkipWithError(("no PostgreSQL server: " + pg.skip_reason()).c_str());
    return;
  }
  uint64_t round = 0;
  for (auto _ : state) {
    const std::string uri = pg.fresh_database(std::string("fleet_bench_") + std::to_string(device_ms) + "_" +
                                              std::to_string(round));
    struct Daemon {
      std::unique_ptr<test::Fixture> fx;
      std::unique_ptr<cuzk::fleet::Bridge> bridge;
    };
    const double cpu0 = process_cpu_ms();
    std::vector<Daemon> daemons;
    for (int d = 0; d < kDaemons; d++) {
      Daemon dm;
      dm.fx = std::make_unique<test::Fixture>(test::small_config());
      EngineConfig::Fleet f;  // the defaults (lease, poll interval, slots) but the database and the id
      f.database = uri;
      f.daemon_id = "daemon-" + std::to_string(d);
      dm.bridge = std::make_unique<cuzk::fleet::Bridge>(*dm.fx->engine, f);
      daemons.push_back(std::move(dm));
    }
    std::vector<std::string> ids;
    for (int j = 0; j < kDaemons * kJobsPerDaemon; j++)
      ids.push_back(daemons[size_t(j % kDaemons)]
                        .bridge->submit(test::req({spec(device_ms)}, job_id("f", round, j)))
                        .job_id);
    const std::string error =
        await_all(ids, [&](size_t i) -> cuzk::fleet::Bridge& { return *daemons[i % kDaemons].bridge; });
    if (!error.empty()) {
      state.SkipWithError(error.c_str());
      break;
    }
    std::vector<std::unique_ptr<test::Fixture>*> fxs;
    for (auto& d : daemons) fxs.push_back(&d.fx);
    report(state, steady_rate(fxs), ids.size(), process_cpu_ms() - cpu0);
    uint64_t db_errors = 0;
    for (int d = 0; d < kDaemons; d++) {
      const auto c = daemons[size_t(d)].bridge->counters();
      state.counters[std::string("claims_daemon") + std::to_string(d)] = double(c.claims);
      db_errors += c.db_errors;
    }
    state.counters["db_errors"] = double(db_errors);
    for (auto& d : daemons) d.bridge->shutdown(std::chrono::seconds(5));
    round++;
  }
}

// Device time per job 50, 100, 500 ms; one batch per run (--benchmark_repetitions for medians).
void device_times(benchmark::internal::Benchmark* b) {
  b->Arg(50)->Arg(100)->Arg(500)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);
}
BENCHMARK(BM_SingleDaemons)->Apply(device_times);
BENCHMARK(BM_FleetDaemons)->Apply(device_times);

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  cuzk::test::PgServer::stop_shared();
  return 0;
}
