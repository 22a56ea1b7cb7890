// What engine_report.cpp adds for the dashboard and the alert rules: queues
// by kind and priority with the oldest wait, partitions by state, the jobs
// that ended last, in /status and /metrics. The fake kind makes the waits
// and the order exact.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <thread>

#include "engine_fixture.hpp"

namespace {

using namespace cuzk::engine;
using namespace std::chrono_literals;
using cuzk::engine::test::Fixture;
using cuzk::engine::test::req;
using cuzk::engine::test::small_config;
using Clock = std::chrono::steady_clock;

// The value of one sample ("name{labels}") of a Prometheus text, or -1 when absent.
double sample(const std::string& text, const std::string& series) {
  const std::string key = "\n" + series + " ";
  const auto p = ("\n" + text).find(key);
  if (p == std::string::npos) return -1;
  return std::stod(text.substr(p + key.size() - 1));
}

double secs_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

TEST(EngineReport, QueuedJobsAndTheirWaitByPriority) {
  EngineConfig c = small_config();
  c.max_parallel_synthesis = 1;
  c.synthesis_concurrency = 8;
  Fixture f(c);
  // "run" holds the only synthesis slot for 600 ms; "crit" and "low" wait behind it.
  f.engine->submit(req({"600,1"}, "run", Priority::Normal));
  std::this_thread::sleep_for(50ms);
  const auto crit_submitted = Clock::now();
  f.engine->submit(req({"1,1"}, "crit", Priority::Critical));
  f.engine->submit(req({"1,1", "1,1"}, "low", Priority::Low));
  std::this_thread::sleep_for(150ms);

  const double lower = secs_since(crit_submitted);
  const std::string m = f.engine->metrics_text();
  const auto js = nlohmann::json::parse(f.engine->status_json());
  const double upper = secs_since(crit_submitted);
  ASSERT_LT(upper, 0.55) << "the machine is too slow for this test's timing";

  EXPECT_EQ(sample(m, "cuzk_queued_jobs{priority=\"critical\"}"), 1);
  EXPECT_EQ(sample(m, "cuzk_queued_jobs{priority=\"low\"}"), 1);
  EXPECT_EQ(sample(m, "cuzk_queued_jobs{priority=\"normal\"}"), 0);  // "run" has started
  EXPECT_EQ(sample(m, "cuzk_queued_jobs{priority=\"high\"}"), 0);
  const double crit_wait = sample(m, "cuzk_queue_oldest_wait_seconds{priority=\"critical\"}");
  EXPECT_GE(crit_wait, lower - 0.01);
  EXPECT_LE(crit_wait, upper + 0.01);
  EXPECT_EQ(sample(m, "cuzk_queue_oldest_wait_seconds{priority=\"normal\"}"), 0);
  EXPECT_EQ(sample(m, "cuzk_queue_oldest_wait_seconds{priority=\"high\"}"), 0);
  EXPECT_EQ(sample(m, "cuzk_partitions{state=\"synthesizing\"}"), 1);
  EXPECT_EQ(sample(m, "cuzk_partitions{state=\"pending\"}"), 3);
  EXPECT_EQ(sample(m, "cuzk_partitions{state=\"gpu\"}"), 0);

  // /status: one row per (kind, priority) with live jobs.
  std::map<std::string, nlohmann::json> rows;
  for (const auto& r : js["queues"]) rows[r["priority"].get<std::string>()] = r;
  ASSERT_EQ(rows.size(), 3u) << js["queues"].dump();
  EXPECT_EQ(rows["critical"]["proof_kind"], "generic-r1cs");
  EXPECT_EQ(rows["critical"]["queued_jobs"], 1);
  EXPECT_EQ(rows["critical"]["running_jobs"], 0);
  EXPECT_EQ(rows["critical"]["pending_partitions"], 1);
  EXPECT_NEAR(rows["critical"]["oldest_wait_secs"].get<double>(), crit_wait, upper - lower + 0.01);
  EXPECT_EQ(rows["low"]["pending_partitions"], 2);
  EXPECT_EQ(rows["normal"]["queued_jobs"], 0);
  EXPECT_EQ(rows["normal"]["running_jobs"], 1);
  for (const auto& p : js["pipelines"]) {
    if (p["job_id"] == "run") {
      EXPECT_EQ(p["priority"], "normal");
    }
  }

  for (const char* id : {"run", "crit", "low"})
    EXPECT_EQ(f.engine->await(id, std::nullopt).status, JobStatus::Completed);
  const std::string after = f.engine->metrics_text();
  EXPECT_EQ(sample(after, "cuzk_queued_jobs{priority=\"critical\"}"), 0);
  EXPECT_EQ(sample(after, "cuzk_queue_oldest_wait_seconds{priority=\"critical\"}"), 0);
  EXPECT_EQ(sample(after, "cuzk_partitions{state=\"pending\"}"), 0);
}

TEST(EngineReport, RecentJobsNewestFirstWithTheirOutcome) {
  Fixture f(small_config());
  f.engine->submit(req({"1,1"}, "first"));
  ASSERT_EQ(f.engine->await("first", std::nullopt).status, JobStatus::Completed);
  f.engine->submit(req({"1,1,fail-device"}, "broken"));
  ASSERT_EQ(f.engine->await("broken", std::nullopt).status, JobStatus::Failed);
  f.engine->submit(req({"1,1"}, "last"));
  ASSERT_EQ(f.engine->await("last", std::nullopt).status, JobStatus::Completed);
  const auto js = nlohmann::json::parse(f.engine->status_json());
  const auto& recent = js["recent"];
  ASSERT_EQ(recent.size(), 3u) << recent.dump();
  EXPECT_EQ(recent[0]["request_id"], "last");
  EXPECT_EQ(recent[0]["job_id"].get<std::string>().rfind("last#", 0), 0u);
  EXPECT_EQ(recent[0]["status"], "completed");
  EXPECT_EQ(recent[1]["request_id"], "broken");
  EXPECT_EQ(recent[1]["job_id"].get<std::string>().rfind("broken#", 0), 0u);
  EXPECT_EQ(recent[1]["status"], "failed");
  EXPECT_EQ(recent[2]["request_id"], "first");
  EXPECT_EQ(recent[2]["job_id"].get<std::string>().rfind("first#", 0), 0u);
  EXPECT_EQ(recent[2]["proof_kind"], "generic-r1cs");
  EXPECT_EQ(recent[2]["priority"], "normal");
  EXPECT_LE(recent[0]["ended_secs_ago"].get<double>(), recent[2]["ended_secs_ago"].get<double>());
  EXPECT_GE(recent[0]["total_secs"].get<double>(), 0.0);
  EXPECT_TRUE(js["queues"].empty());
  // Counters by kind: every kind has a series, 0 until its first proof.
  const std::string m = f.engine->metrics_text();
  EXPECT_EQ(sample(m, "cuzk_proofs_completed{proof_kind=\"generic-r1cs\"}"), 2);
  EXPECT_EQ(sample(m, "cuzk_proofs_failed{proof_kind=\"generic-r1cs\"}"), 1);
  EXPECT_EQ(sample(m, "cuzk_proofs_completed{proof_kind=\"porep-c2\"}"), 0);
  EXPECT_EQ(sample(m, "cuzk_proofs_failed{proof_kind=\"winning-post\"}"), 0);
}

}  // namespace
