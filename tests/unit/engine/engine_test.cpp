// Scheduler, pipeline and service semantics of the Engine, with the fake
// proof kind (fake_kind.hpp) so every timing and ordering is controlled.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "engine_fixture.hpp"

using namespace cuzk::engine;
using namespace std::chrono_literals;
using cuzk::engine::test::fake_proof;
using cuzk::engine::test::FakeHandler;

using cuzk::engine::test::Fixture;
using cuzk::engine::test::req;
using cuzk::engine::test::small_config;

TEST(Engine, ProvesAllPartitionsInOrderWithTimelineEvents) {
  Fixture f(small_config());
  auto sub = f.engine->submit(req({"5,5", "5,5", "5,5"}, "job-a"));
  EXPECT_EQ(sub.job_id.rfind("job-a#", 0), 0u) << sub.job_id;  // "<request_id>#<n>"
  auto r = f.engine->await("job-a", std::nullopt);
  ASSERT_EQ(r.status, JobStatus::Completed) << r.error_message;
  ASSERT_EQ(r.proof.size(), 3u * 192);
  for (uint32_t p = 0; p < 3; p++) EXPECT_EQ(r.proof.substr(192 * p, 192), fake_proof("5,5", p));
  EXPECT_GE(r.synthesis_ms, 15u);
  EXPECT_GE(r.total_ms, r.queue_wait_ms);
  for (auto ev : {"SYNTH_START", "SYNTH_END", "GPU_QUEUE", "GPU_PICKUP", "GPU_START", "GPU_LOCK",
                  "GPU_UNLOCK", "GPU_END"})
    EXPECT_EQ(f.events.of(ev).size(), 3u) << ev;
  EXPECT_EQ(f.events.of("ASSEMBLE_END").size(), 1u);
  EXPECT_NE(f.events.of("ASSEMBLE_END")[0].find("verified=1"), std::string::npos);
  EXPECT_EQ(f.events.of("SRS_LOAD_END").size(), 1u);
  // Detail formats of docs/PROTOCOL.md §3.
  EXPECT_NE(f.events.of("SYNTH_END")[0].find("," + sub.job_id + ",partition="), std::string::npos);
  EXPECT_NE(f.events.of("GPU_END")[0].find(",gpu_ms="), std::string::npos);
  EXPECT_EQ(f.engine->status().total_proofs_completed, 1u);
}

TEST(Engine, InterlockSerializesTheDevicePhase) {
  Fixture f(small_config());
  f.engine->submit(req({"1,20", "1,20", "1,20", "1,20"}, "j"));
  ASSERT_EQ(f.engine->await("j", std::nullopt).status, JobStatus::Completed);
  EXPECT_EQ(f.handler->max_active.load(), 1);  // two workers, one device: never both inside
}

TEST(Engine, AJobIsItsRequestIdAndPayload) {
  Fixture f(small_config());
  auto a = f.engine->submit(req({"1,1"}, "dup"));
  auto b = f.engine->submit(req({"1,1"}, "dup"));
  EXPECT_EQ(a.job_id, b.job_id);
  EXPECT_EQ(a.job_id.rfind("dup#", 0), 0u) << a.job_id;
  // Another payload under the same id is another job, not a refusal.
  auto c = f.engine->submit(req({"2,2"}, "dup"));
  EXPECT_NE(c.job_id, a.job_id);
  EXPECT_EQ(f.engine->await(a.job_id, std::nullopt).proof, fake_proof("1,1", 0));
  EXPECT_EQ(f.engine->await(c.job_id, std::nullopt).proof, fake_proof("2,2", 0));
  EXPECT_EQ(f.events.of("GPU_END").size(), 2u);  // each proved once
  // Still deduplicated after completion; the bare id names the newest job.
  EXPECT_EQ(f.engine->submit(req({"1,1"}, "dup")).job_id, a.job_id);
  EXPECT_EQ(f.engine->await("dup", std::nullopt).job_id, c.job_id);
  EXPECT_EQ(f.engine->status().total_proofs_completed, 2u);
}

TEST(Engine, AwaitTimeoutLeavesJobRunning) {
  Fixture f(small_config());
  f.engine->submit(req({"200,1"}, "slow"));
  auto r = f.engine->await("slow", 20ms);
  EXPECT_EQ(r.status, JobStatus::Timeout);
  EXPECT_EQ(f.engine->await("slow", std::nullopt).status, JobStatus::Completed);
}

TEST(Engine, UnknownIdsAndKinds) {
  Fixture f(small_config());
  EXPECT_THROW(f.engine->await("nope", 1ms), ServiceError);
  EXPECT_THROW(f.engine->cancel("nope"), ServiceError);
  ProofRequest bad = req({"1,1"});
  bad.kind = ProofKind::WinningPost;
  try {
    f.engine->submit(bad);
    FAIL();
  } catch (const ServiceError& e) {
    EXPECT_EQ(e.code(), ServiceError::Code::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("winning-post"), std::string::npos);
  }
  ProofRequest unknown_circuit = req({"1,1"});
  unknown_circuit.circuit_id = "nosuch";
  try {
    f.engine->submit(unknown_circuit);
    FAIL();
  } catch (const ServiceError& e) {
    EXPECT_EQ(e.code(), ServiceError::Code::NotFound);
  }
}

TEST(Engine, FailingPartitionFailsOnlyItsJob) {
  for (const char* flag : {"fail-synth", "fail-device", "fail-finish"}) {
    Fixture f(small_config());
    f.engine->submit(req({"1,1", std::string("5,1,") + flag, "50,1", "50,1"}, "bad"));
    f.engine->submit(req({"1,1", "1,1"}, "good"));
    auto bad = f.engine->await("bad", std::nullopt);
    EXPECT_EQ(bad.status, JobStatus::Failed) << flag;
    EXPECT_NE(bad.error_message.find("partition 1"), std::string::npos) << bad.error_message;
    EXPECT_NE(bad.error_message.find("injected"), std::string::npos) << bad.error_message;
    EXPECT_EQ(f.engine->await("good", std::nullopt).status, JobStatus::Completed) << flag;
    auto st = f.engine->status();
    EXPECT_EQ(st.total_proofs_failed, 1u);
    EXPECT_EQ(st.total_proofs_completed, 1u);
  }
}

TEST(Engine, CancelPendingAndRunning) {
  EngineConfig c = small_config();
  c.max_parallel_synthesis = 1;
  Fixture f(c);
  f.engine->submit(req({"100,1", "100,1", "100,1"}, "running"));
  f.engine->submit(req({"1,1"}, "queued"));
  std::this_thread::sleep_for(30ms);
  std::thread waiter(
      [&] { EXPECT_EQ(f.engine->await("running", std::nullopt).status, JobStatus::Cancelled); });
  EXPECT_TRUE(f.engine->cancel("running"));
  waiter.join();
  EXPECT_EQ(f.engine->await("queued", std::nullopt).status, JobStatus::Completed);
  // A job cancelled before it starts.
  f.engine->submit(req({"300,1"}, "blocker"));
  std::this_thread::sleep_for(30ms);
  f.engine->submit(req({"1,1"}, "victim"));
  EXPECT_FALSE(f.engine->cancel("victim"));
  EXPECT_EQ(f.engine->await("victim", std::nullopt).status, JobStatus::Cancelled);
  EXPECT_FALSE(f.engine->cancel("victim"));  // already final
  EXPECT_EQ(f.engine->await("blocker", std::nullopt).status, JobStatus::Completed);
  // Cancelled partitions of "running" never reached the device after the cancel.
  size_t running_ends = 0;
  for (auto& l : f.events.of("GPU_END")) running_ends += l.find(",running#") != std::string::npos;
  EXPECT_LE(running_ends, 1u);
}

TEST(Engine, CriticalOvertakesQueuedNormalWork) {
  EngineConfig c = small_config();
  c.max_parallel_synthesis = 1;
  c.synthesis_concurrency = 8;
  Fixture f(c);
  for (int i = 0; i < 4; i++)
    f.engine->submit(req({"40,1", "40,1"}, "n" + std::to_string(i), Priority::Normal));
  std::this_thread::sleep_for(20ms);
  f.engine->submit(req({"1,1"}, "crit", Priority::Critical));
  std::vector<std::string> order;
  std::mutex mu;
  std::vector<std::thread> ts;
  for (std::string id : {"n0", "n1", "n2", "n3", "crit"})
    ts.emplace_back([&, id] {
      f.engine->await(id, std::nullopt);
      std::lock_guard lk(mu);
      order.push_back(id);
    });
  for (auto& t : ts) t.join();
  auto pos = [&](const std::string& id) { return std::find(order.begin(), order.end(), id) - order.begin(); };
  EXPECT_LT(pos("crit"), pos("n1"));
  EXPECT_LT(pos("crit"), pos("n2"));
  EXPECT_LT(pos("crit"), pos("n3"));
}

TEST(Engine, MemoryBudgetBoundsConcurrentPartitions) {
  EngineConfig c = small_config();
  c.max_parallel_synthesis = 6;
  c.total_budget_bytes = (4ull << 20) + (2ull << 20);  // SRS (4 MiB) + two 1 MiB partitions
  Fixture f(c, 1ull << 20);
  f.engine->submit(req({"10,5", "10,5", "10,5", "10,5", "10,5", "10,5"}, "mem"));
  ASSERT_EQ(f.engine->await("mem", std::nullopt).status, JobStatus::Completed);
  EXPECT_LE(f.engine->budget().peak(), c.total_budget_bytes);
  EXPECT_GE(f.engine->budget().peak(), 5ull << 20);
}

TEST(Engine, PreloadEvictAndTiers) {
  Fixture f(small_config());
  auto tier_of = [&] {
    for (auto& s : f.engine->status().loaded_srs)
      if (s.circuit_id == "fake") return s.tier;
    return SrsTier::Cold;
  };
  EXPECT_EQ(tier_of(), SrsTier::Cold);
  EXPECT_FALSE(f.engine->preload("fake").already_loaded);
  EXPECT_EQ(tier_of(), SrsTier::Hot);
  EXPECT_TRUE(f.engine->preload("fake").already_loaded);
  EXPECT_EQ(f.handler->loads.load(), 1);
  auto ev = f.engine->evict("fake");
  EXPECT_TRUE(ev.was_loaded);
  EXPECT_EQ(ev.freed_bytes, 4u << 20);
  EXPECT_EQ(tier_of(), SrsTier::Warm);  // still mapped
  EXPECT_FALSE(f.engine->evict("fake").was_loaded);
  EXPECT_THROW(f.engine->preload("other"), ServiceError);
  // Evicting while a job holds the circuit is refused.
  f.engine->submit(req({"150,1"}, "holder"));
  std::this_thread::sleep_for(60ms);
  EXPECT_THROW(f.engine->evict("fake"), ServiceError);
  EXPECT_EQ(f.engine->await("holder", std::nullopt).status, JobStatus::Completed);
}

TEST(Engine, StatusCountsPartitionsInFlight) {
  EngineConfig c = small_config();
  c.max_parallel_synthesis = 1;
  Fixture f(c);
  f.engine->submit(req({"150,1", "150,1", "150,1"}, "s"));
  std::this_thread::sleep_for(60ms);
  auto st = f.engine->status();
  uint32_t pending = 0, running = 0;
  for (auto& q : st.queues)
    if (q.proof_kind == "generic-r1cs") pending = q.pending, running = q.in_progress;
  EXPECT_EQ(running, 1u);
  EXPECT_EQ(pending, 2u);
  // One device with its two workers, listed once.
  ASSERT_EQ(st.devices.size(), 1u);
  EXPECT_EQ(st.devices[0].workers, 2u);
  EXPECT_EQ(st.devices[0].busy_workers, 0u);  // the partition is still synthesizing
  EXPECT_TRUE(st.devices[0].host_memory);
  EXPECT_EQ(st.workers.size(), 2u);
  auto js = f.engine->status_json();
  EXPECT_NE(js.find("\"synthesizing\""), std::string::npos);
  // The engine lets spent buffers be reused, charged to its proving budget
  // (the pool may hold as much as that budget).
  const auto status = nlohmann::json::parse(js);
  const auto& recycled = status["memory"]["recycled"];
  EXPECT_EQ(recycled["limit"].get<uint64_t>(), f.engine->budget().limit());
  EXPECT_LT(recycled["limit"].get<uint64_t>(), st.budget_limit_bytes);  // the payload pool is apart
  EXPECT_TRUE(recycled["held"].is_number_unsigned());
  EXPECT_TRUE(recycled["charged"].is_number_unsigned());
  EXPECT_TRUE(recycled["pledged"].is_number_unsigned());
  auto m = f.engine->metrics_text();
  EXPECT_NE(m.find("cuzk_queue_depth 2"), std::string::npos);
  f.engine->await("s", std::nullopt);
  EXPECT_NE(f.engine->metrics_text().find("cuzk_proofs_completed{proof_kind=\"generic-r1cs\"} 1"),
            std::string::npos);
}

TEST(Engine, ShutdownAnswersEveryWaiter) {
  EngineConfig c = small_config();
  c.max_parallel_synthesis = 1;
  Fixture f(c);
  // "b" goes in once "a" synthesizes: it then cannot start before "a"'s
  // second partition does (6 s on), and the shutdown comes well before. (Sent
  // together, the two waited for their parameters side by side, and "b" was
  // sometimes dispatched first, before the shutdown, and completed: one
  // ThreadSanitizer run in three.)
  f.engine->submit(req({"6000,1", "6000,1"}, "a"));
  for (int i = 0; i < 1000 && f.events.of("SYNTH_START").empty(); i++) std::this_thread::sleep_for(10ms);
  ASSERT_EQ(f.events.of("SYNTH_START").size(), 1u) << "\"a\" never started its first partition";
  f.engine->submit(req({"100,1"}, "b"));
  std::this_thread::sleep_for(20ms);
  std::vector<JobStatus> got(2);
  std::thread wa([&] { got[0] = f.engine->await("a", std::nullopt).status; });
  std::thread wb([&] { got[1] = f.engine->await("b", std::nullopt).status; });
  std::this_thread::sleep_for(10ms);
  f.engine->shutdown(30000ms);
  wa.join();
  wb.join();
  EXPECT_EQ(got[0], JobStatus::Completed);  // running: finished within grace
  EXPECT_EQ(got[1], JobStatus::Cancelled);  // queued: cancelled
  EXPECT_THROW(f.engine->submit(req({"1,1"})), ServiceError);
}

TEST(Engine, JobsWaitingOnOneParameterLoadStartInSubmissionOrder) {
  EngineConfig c = small_config();
  c.max_parallel_synthesis = 1;
  Fixture f(c);
  f.handler->slow_circuit = "fake";
  f.handler->slow_load = 100ms;
  // Sent together on cold parameters: both wait for one load, and the older
  // job starts first once it ends.
  f.engine->submit(req({"30,1"}, "older"));
  f.engine->submit(req({"30,1"}, "younger"));
  ASSERT_EQ(f.engine->await("younger", std::nullopt).status, JobStatus::Completed);
  ASSERT_EQ(f.engine->await("older", std::nullopt).status, JobStatus::Completed);
  auto starts = f.events.of("SYNTH_START");
  ASSERT_EQ(starts.size(), 2u);
  EXPECT_NE(starts[0].find(",older#"), std::string::npos) << starts[0];
  EXPECT_EQ(f.handler->loads.load(), 1);
}

TEST(Engine, PipelineDisabledRunsOneJobAtATime) {
  EngineConfig c = small_config();
  c.pipeline_enabled = false;
  Fixture f(c);
  f.engine->submit(req({"10,10", "10,10"}, "p1"));
  f.engine->submit(req({"10,10", "10,10"}, "p2"));
  ASSERT_EQ(f.engine->await("p2", std::nullopt).status, JobStatus::Completed);
  // Every p1 event precedes every p2 synthesis.
  auto lines = f.events.of("SYNTH_START");
  auto ends = f.events.of("GPU_END");
  auto ts = [](const std::string& l) -> uint64_t { return std::stoull(l.substr(9, l.find(',', 9) - 9)); };
  uint64_t last_p1 = 0, first_p2 = UINT64_MAX;
  for (auto& l : ends)
    if (l.find(",p1#") != std::string::npos) last_p1 = std::max(last_p1, ts(l));
  for (auto& l : lines)
    if (l.find(",p2#") != std::string::npos) first_p2 = std::min(first_p2, ts(l));
  EXPECT_LE(last_p1, first_p2);
}

TEST(Engine, IdleParametersAreEvictedWhenTheBudgetNeedsRoom) {
  EngineConfig c = small_config();
  // Room for one circuit's parameters (4 MiB) plus a partition, not two circuits.
  c.total_budget_bytes = (4ull << 20) + (2ull << 20);
  Fixture f(c, 1ull << 20);
  f.engine->submit(req({"1,1"}, "first"));
  ASSERT_EQ(f.engine->await("first", std::nullopt).status, JobStatus::Completed);
  ProofRequest second = req({"1,1"}, "second");
  second.circuit_id = "fake2";
  f.engine->submit(second);
  ASSERT_EQ(f.engine->await("second", std::nullopt).status, JobStatus::Completed);
  std::map<std::string, SrsTier> tiers;
  for (auto& s : f.engine->status().loaded_srs) tiers[s.circuit_id] = s.tier;
  EXPECT_EQ(tiers["fake2"], SrsTier::Hot);
  EXPECT_EQ(tiers["fake"], SrsTier::Warm);  // evicted (still mapped) to make room
  EXPECT_EQ(f.handler->loads.load(), 2);
  EXPECT_LE(f.engine->budget().peak(), c.total_budget_bytes);
}

TEST(Engine, BatchCollectorGroupsSameKindJobs) {
  EngineConfig c = small_config();
  c.max_batch_size = 3;
  c.max_batch_wait = 300ms;
  Fixture f(c);
  auto t0 = std::chrono::steady_clock::now();
  f.engine->submit(req({"1,1"}, "b1"));
  f.engine->submit(req({"1,1"}, "b2"));
  f.engine->submit(req({"1,1"}, "b3"));
  for (auto id : {"b1", "b2", "b3"})
    ASSERT_EQ(f.engine->await(id, std::nullopt).status, JobStatus::Completed);
  // A full batch is flushed at once, not after max_batch_wait.
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 250ms);
  auto batches = f.events.of("BATCH");
  ASSERT_EQ(batches.size(), 1u);
  EXPECT_NE(batches[0].find("jobs=3"), std::string::npos);
  // A lone job waits for max_batch_wait, then goes alone.
  t0 = std::chrono::steady_clock::now();
  f.engine->submit(req({"1,1"}, "lone"));
  ASSERT_EQ(f.engine->await("lone", std::nullopt).status, JobStatus::Completed);
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 280ms);
}

TEST(Engine, PacerBoundsSynthesizedPartitionsWaitingForTheDevice) {
  EngineConfig c = small_config();
  c.max_parallel_synthesis = 4;
  c.max_gpu_queue_depth = 1;
  c.gpu_workers_per_device = 1;
  Fixture f(c);
  f.engine->submit(req({"1,30", "1,30", "1,30", "1,30", "1,30", "1,30"}, "paced"));
  ASSERT_EQ(f.engine->await("paced", std::nullopt).status, JobStatus::Completed);
  // Count, over time, partitions synthesized but not yet picked up.
  std::vector<std::pair<uint64_t, int>> deltas;
  auto ts = [](const std::string& l) -> uint64_t { return std::stoull(l.substr(9, l.find(',', 9) - 9)); };
  for (auto& l : f.events.of("SYNTH_END")) deltas.push_back({ts(l), +1});
  for (auto& l : f.events.of("GPU_PICKUP")) deltas.push_back({ts(l), -1});
  std::sort(deltas.begin(), deltas.end(), [](auto& a, auto& b) {
    return a.first < b.first || (a.first == b.first && a.second < b.second);
  });
  int waiting = 0, peak = 0;
  for (auto& [t, d] : deltas) peak = std::max(peak, waiting += d);
  EXPECT_LE(peak, 2);  // depth 1 (+1 for millisecond ties between events)
}
