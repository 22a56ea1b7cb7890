// Lifetimes under concurrency: whatever a running stage reads (parameters,
// the parsed payload) stays alive until that stage is done, whatever
// happens to its job; parameter loads run off the dispatcher so a CRITICAL
// job is not held up by another job's load; the budget follows cgroups.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "engine_fixture.hpp"

using namespace cuzk::engine;
using namespace cuzk::engine::test;
namespace fs = std::filesystem;

TEST(Lifetime, CancelEvictAndReloadWhilePartitionsRun) {
  EngineConfig c = small_config();
  c.max_parallel_synthesis = 2;
  for (int round = 0; round < 5; round++) {
    Fixture f(c);
    f.engine->submit(req({"5,150", "5,150", "60,1", "60,1"}, "victim"));
    // Wait until a partition is inside the device phase.
    for (int i = 0; i < 200 && f.events.of("GPU_LOCK").empty(); i++) std::this_thread::sleep_for(2ms);
    ASSERT_FALSE(f.events.of("GPU_LOCK").empty());
    EXPECT_TRUE(f.engine->cancel("victim"));
    // Partitions still on the device or in synthesis pin the parameters.
    EXPECT_THROW(f.engine->evict("fake"), ServiceError) << "round " << round;
    // Once they drain, the parameters are free to go, and to come back.
    bool evicted = false;
    for (int i = 0; i < 300 && !evicted; i++) {
      try {
        evicted = f.engine->evict("fake").was_loaded;
      } catch (const ServiceError&) {
        std::this_thread::sleep_for(2ms);
      }
    }
    EXPECT_TRUE(evicted);
    EXPECT_FALSE(f.engine->preload("fake").already_loaded);
    f.engine->submit(req({"1,1", "1,1"}, "after"));
    EXPECT_EQ(f.engine->await("after", std::nullopt).status, JobStatus::Completed);
    EXPECT_EQ(f.handler->loads.load(), 2);
    EXPECT_EQ(f.handler->reads_after_free.load(), 0) << "a stage read freed parameters";
  }
}

TEST(Lifetime, FailuresAndCancelsNeverFreeWhatAStageReads) {
  EngineConfig c = small_config();
  c.max_parallel_synthesis = 3;
  c.eviction_min_idle = 0ms;
  Fixture f(c);
  // Jobs that fail or are cancelled mid-flight while others evict: every
  // partition still running must keep its parameters.
  for (int i = 0; i < 20; i++) {
    std::string id = "j" + std::to_string(i);
    f.engine->submit(req({"3,5", i % 3 == 0 ? "3,5,fail-synth" : "3,5", "3,5"}, id));
    if (i % 4 == 1) f.engine->cancel(id);
    try {
      f.engine->evict("fake");
    } catch (const ServiceError&) {
    }
  }
  for (int i = 0; i < 20; i++) f.engine->await("j" + std::to_string(i), std::nullopt);
  EXPECT_EQ(f.handler->reads_after_free.load(), 0);
}

TEST(Lifetime, CriticalJobIsDispatchedWhileAnotherJobsParametersLoad) {
  EngineConfig c = small_config();
  c.synthesis_concurrency = 1;
  Fixture f(c);
  f.handler->slow_circuit = "fake";
  f.handler->slow_load = 600ms;
  f.engine->preload("fake2");
  f.engine->submit(req({"1,1"}, "normal", Priority::Normal));  // its parameters load for 600 ms
  std::this_thread::sleep_for(20ms);
  ProofRequest crit = req({"1,1"}, "crit", Priority::Critical);
  crit.circuit_id = "fake2";
  f.engine->submit(crit);
  ASSERT_EQ(f.engine->await("crit", std::nullopt).status, JobStatus::Completed);
  // The critical job was assembled before the normal job's load ended.
  auto assembled = f.events.of("ASSEMBLE_END");
  ASSERT_FALSE(assembled.empty());
  EXPECT_NE(assembled[0].find(",crit#"), std::string::npos) << "first assembled: " << assembled[0];
  for (auto& l : f.events.of("SRS_LOAD_END")) {
    if (l.find("circuit=fake,") != std::string::npos) {
      EXPECT_LE(event_ms(assembled[0]), event_ms(l));
    }
  }
  auto r = f.engine->await("normal", std::nullopt);
  EXPECT_EQ(r.status, JobStatus::Completed);
  EXPECT_GE(r.srs_load_ms, 500u);
}

TEST(Lifetime, BudgetFollowsCgroupLimits) {
  const fs::path root = fs::temp_directory_path() / ("cuzk-cgroup-" + std::to_string(::getpid()));
  auto write = [&](const fs::path& rel, const std::string& text) {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
  };
  // cgroup v2: the smallest limit on the path counts; "max" is none.
  write("proc/self/cgroup", "0::/system.slice/cuzk.service\n");
  write("sys/fs/cgroup/system.slice/cuzk.service/memory.max", "max\n");
  write("sys/fs/cgroup/system.slice/memory.max", "17179869184\n");
  EXPECT_EQ(cgroup_memory_limit_bytes(root.string()), 17179869184ull);
  write("sys/fs/cgroup/system.slice/cuzk.service/memory.max", "8589934592\n");
  EXPECT_EQ(cgroup_memory_limit_bytes(root.string()), 8589934592ull);
  fs::remove_all(root);
  // cgroup v1: memory controller line; the unlimited sentinel is no limit.
  write("proc/self/cgroup", "12:cpu,cpuacct:/\n4:memory:/docker/abc\n");
  write("sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes", "9223372036854771712\n");
  EXPECT_EQ(cgroup_memory_limit_bytes(root.string()), 0u);
  write("sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes", "4294967296\n");
  EXPECT_EQ(cgroup_memory_limit_bytes(root.string()), 4294967296ull);
  fs::remove_all(root);
  EXPECT_EQ(cgroup_memory_limit_bytes(root.string()), 0u);  // no cgroup file at all
  // This machine: the usable memory never exceeds physical memory.
  EXPECT_LE(usable_memory_bytes(), physical_memory_bytes());
  EXPECT_GT(usable_memory_bytes(), 0u);
}

// A worker takes the device first and the best waiting partition second: a
// CRITICAL partition that arrives while NORMAL ones wait for the device goes
// next, not after the partitions other workers had picked up.
TEST(Lifetime, CriticalPartitionIsNextOnTheDevice) {
  EngineConfig c = small_config();
  c.gpu_workers_per_device = 2;
  c.max_parallel_synthesis = 2;
  Fixture f(c);
  f.engine->submit(req({"1,150", "1,150", "1,150"}, "normal", Priority::Normal));
  for (int i = 0; i < 200 && f.events.of("GPU_LOCK").empty(); i++) std::this_thread::sleep_for(2ms);
  std::this_thread::sleep_for(30ms);  // partitions 1 and 2 are synthesized and waiting
  f.engine->submit(req({"1,1"}, "crit", Priority::Critical));
  ASSERT_EQ(f.engine->await("normal", std::nullopt).status, JobStatus::Completed);
  auto locks = f.events.of("GPU_LOCK");
  ASSERT_EQ(locks.size(), 4u);
  EXPECT_NE(locks[0].find(",normal#"), std::string::npos) << locks[0];
  EXPECT_NE(locks[1].find(",crit#"), std::string::npos) << "second on the device: " << locks[1];
}

// Memory pressure: the budget holds one partition, a NORMAL job of three
// partitions spends 2 s on the device each, and a CRITICAL job arrives while
// the NORMAL job's second partition waits for memory (its job still
// "preparing", which held the dispatcher before). The CRITICAL partition
// takes the next bytes: it starts before the NORMAL job's second partition.
TEST(Lifetime, CriticalTakesTheNextMemoryBeforeANormalPartitionThatHasNotStarted) {
  EngineConfig c = small_config();
  c.synthesis_concurrency = 1;
  constexpr uint64_t MiB = 1 << 20;
  c.payload_budget_bytes = 16 * MiB;
  c.total_budget_bytes = 16 * MiB + 4 * MiB + 8 * MiB + 2 * MiB;  // payloads, parameters, one partition
  Fixture f(c, 8 * MiB);
  auto normal = f.engine->submit(req({"10,2000", "10,2000", "10,2000"}, "porep-1000-1", Priority::Normal));
  for (int i = 0; i < 500 && f.events.of("GPU_LOCK").empty(); i++) std::this_thread::sleep_for(2ms);
  ASSERT_FALSE(f.events.of("GPU_LOCK").empty());
  const auto submitted = std::chrono::steady_clock::now();
  auto crit = f.engine->submit(req({"10,10"}, "winpost-1000-ab", Priority::Critical));
  ASSERT_EQ(f.engine->await(crit.job_id, std::nullopt).status, JobStatus::Completed);
  const auto crit_done = std::chrono::steady_clock::now();
  ASSERT_EQ(f.engine->await(normal.job_id, std::nullopt).status, JobStatus::Completed);
  // Two synthesis workers pop the NORMAL job's first two partitions together
  // and either may reach the budget first (the budget orders waiters, not
  // workers on their way to it): "second" is the second to start, not
  // partition 1.
  uint64_t crit_start = 0;
  std::vector<uint64_t> normal_starts;
  std::string starts;
  for (const auto& l : f.events.of("SYNTH_START")) {
    starts += l + "\n";
    if (l.find("," + crit.job_id + ",") != std::string::npos) crit_start = event_ms(l);
    if (l.find("," + normal.job_id + ",") != std::string::npos) normal_starts.push_back(event_ms(l));
  }
  ASSERT_GT(crit_start, 0u);
  ASSERT_EQ(normal_starts.size(), 3u) << starts;
  std::sort(normal_starts.begin(), normal_starts.end());
  const uint64_t normal_second_start = normal_starts[1];
  EXPECT_LT(crit_start, normal_second_start) << starts;
  // The budget holds one partition: the second waited for the first's device phase.
  EXPECT_GE(normal_second_start - normal_starts[0], 1500u) << starts;
  // It waited for the running partition's memory, about one device phase.
  const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(crit_done - submitted).count();
  EXPECT_LT(waited, 3500) << "the CRITICAL job waited for more than the running partition";
  std::printf(
      "CRITICAL job under memory pressure: done %lld ms after submission (SYNTH_START at %llu ms, "
      "the NORMAL job's second partition at %llu ms)\n",
      (long long)waited, (unsigned long long)crit_start, (unsigned long long)normal_second_start);
}
