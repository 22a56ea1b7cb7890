// Fleet mode in one process: fleet::Bridge over real engines (the fake proof kind) sharing one PostgreSQL database
// (the fleet tests' server, tests/unit/fleet/pg_server.hpp): submissions go
// through the queue, any daemon answers for any job, bad input is refused at
// submit, a lost lease stops the local run and another daemon finishes the
// job, cancels cross daemons, CRITICAL work takes the reserved slot, and the
// /metrics fleet gauges.
#include <gtest/gtest.h>

#include <atomic>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "fleet/bridge.hpp"
#include "unit/engine/engine_fixture.hpp"
#include "fleet/database.hpp"
#include "fleet/queue.hpp"
#include "unit/fleet/pg_server.hpp"

namespace cuzk::engine::test {
namespace {

bool g_pg_used = false;
struct PgEnvironment : ::testing::Environment {
  void TearDown() override {
    if (g_pg_used) cuzk::test::PgServer::stop_shared();
  }
};
[[maybe_unused]] auto* const pg_env = ::testing::AddGlobalTestEnvironment(new PgEnvironment);

class FleetBridgeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_pg_used = true;
    auto& s = cuzk::test::PgServer::shared();
    if (!s.running()) GTEST_SKIP() << s.skip_reason();
    uri_ = s.fresh_database(::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  // Until the queue shows the job claimed by some daemon (at most 4 s).
  static void wait_claimed(fleet::Queue& q, const std::string& id) {
    for (int i = 0; i < 200 && q.get(id)->state != fleet::JobState::Claimed; i++)
      std::this_thread::sleep_for(20ms);
  }
  EngineConfig::Fleet fleet_cfg(const std::string& id) {
    EngineConfig::Fleet f;
    f.database = uri_;
    f.daemon_id = id;
    f.lease = 1500ms;
    f.poll_interval = 50ms;
    return f;
  }
  struct Daemon {
    std::unique_ptr<Fixture> fx;
    std::unique_ptr<fleet::Bridge> bridge;
  };
  Daemon start(const std::string& id, uint32_t slots = 0, uint32_t reserved = 1,
               std::vector<std::string> circuits = {"fake", "fake2"},
               std::chrono::milliseconds lease = 1500ms) {
    Daemon d;
    d.fx = std::make_unique<Fixture>(small_config());
    d.fx->handler->circuits = std::move(circuits);
    auto f = fleet_cfg(id);
    f.lease = lease;
    f.slots = slots;
    f.reserved_slots = reserved;
    d.bridge = std::make_unique<fleet::Bridge>(*d.fx->engine, f);
    return d;
  }
  std::unique_ptr<fleet::Database> db() { return std::make_unique<fleet::Database>(uri_); }

  std::string uri_;
};

// Completions counted by two daemons' claim loops, once they reach `want`
// or after 5 s: a loop counts a completion after the queue has taken it, so
// an awaiter may see the job DONE a moment before the counter moves.
template <class Daemon>
uint64_t completions(Daemon& a, Daemon& b, uint64_t want) {
  uint64_t n = 0;
  for (int i = 0; i < 500; i++) {
    n = a.bridge->counters().completed + b.bridge->counters().completed;
    if (n >= want) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return n;
}

TEST_F(FleetBridgeTest, JobsGoThroughTheQueueAndAnyDaemonAnswers) {
  auto a = start("daemon-a"), b = start("daemon-b");
  std::vector<std::string> ids;
  for (int i = 0; i < 8; i++) {
    const std::string spec = std::to_string(20 + i) + ",10";
    auto& via = i % 2 ? a : b;
    ids.push_back(via.bridge->submit(req({spec, spec + "0"}, "job-" + std::to_string(i))).job_id);
  }
  // Each job has its own id, "<request_id>#<n>"; a repeated submission with
  // the same payload (to either daemon, at another priority) is the same job.
  EXPECT_EQ(ids[0].rfind("job-0#", 0), 0u) << ids[0];
  EXPECT_EQ(a.bridge->submit(req({"20,10", "20,100"}, "job-0", Priority::High)).job_id, ids[0]);
  EXPECT_EQ(b.bridge->submit(req({"20,10", "20,100"}, "job-0")).job_id, ids[0]);
  auto conn = db();
  fleet::Queue q(*conn);
  std::set<std::string> holders;
  EXPECT_EQ(conn->exec("test: rows", "SELECT count(*) FROM cuzk_jobs").integer(0, 0), 8);
  for (int i = 0; i < 8; i++) {
    auto& asker = i % 3 ? a : b;  // not necessarily the daemon it was submitted to
    auto r = asker.bridge->await(ids[i], 20s);
    ASSERT_EQ(r.status, JobStatus::Completed) << ids[i] << ": " << r.error_message;
    const std::string spec = std::to_string(20 + i) + ",10";
    EXPECT_EQ(r.proof, fake_proof(spec, 0) + fake_proof(spec + "0", 1));
    auto info = q.get(ids[i]);
    ASSERT_TRUE(info);
    EXPECT_EQ(info->state, fleet::JobState::Done);
    EXPECT_EQ(info->attempts, 1);
    holders.insert(info->claimed_by);
  }
  for (const auto& h : holders) EXPECT_TRUE(h == "daemon-a" || h == "daemon-b") << h;
  EXPECT_EQ(completions(a, b, 8), 8u);
  const auto ca = a.bridge->counters(), cb = b.bridge->counters();
  EXPECT_EQ(ca.claims + cb.claims, 8u);
  EXPECT_EQ(ca.discarded_late + cb.discarded_late, 0u);
  // The fleet gauges and counters are on /metrics.
  std::this_thread::sleep_for(1200ms);  // the depth gauge refreshes every second
  const std::string m = a.bridge->metrics_text();
  EXPECT_NE(m.find("cuzk_proofs_completed_total"), std::string::npos);  // the engine's own
  EXPECT_NE(m.find("cuzk_fleet_claims_total " + std::to_string(ca.claims)), std::string::npos) << m;
  EXPECT_NE(m.find("cuzk_fleet_completed_total " + std::to_string(ca.completed)), std::string::npos);
  EXPECT_NE(m.find("cuzk_fleet_lease_expiries_total 0"), std::string::npos);
  EXPECT_NE(m.find("cuzk_fleet_results_discarded_total 0"), std::string::npos);
  EXPECT_NE(m.find("# TYPE cuzk_fleet_queue_jobs gauge"), std::string::npos);
  EXPECT_NE(a.bridge->status_json().find("\"daemon_id\":\"daemon-a\""), std::string::npos);
  // An unknown id is NOT_FOUND on any daemon.
  try {
    a.bridge->await("nobody", 10ms);
    FAIL();
  } catch (const ServiceError& e) {
    EXPECT_EQ(e.code(), ServiceError::Code::NotFound);
  }
}

TEST_F(FleetBridgeTest, BadInputIsRefusedAtSubmitAndNeverQueued) {
  auto a = start("daemon-a");
  auto r = req({"1,1"}, "bad-circuit");
  r.circuit_id = "no-such-circuit";
  try {
    a.bridge->submit(r);
    FAIL();
  } catch (const ServiceError& e) {
    EXPECT_EQ(e.code(), ServiceError::Code::NotFound);
  }
  auto bad_id = req({"1,1"}, "comma,id");
  EXPECT_THROW(a.bridge->submit(bad_id), ServiceError);
  auto conn = db();
  fleet::Queue q(*conn);
  EXPECT_FALSE(q.get("bad-circuit"));
  EXPECT_FALSE(q.get("comma,id"));
  // A job whose partition fails is retried up to max_attempts, then FAILED
  // with the reason.
  const std::string id = a.bridge->submit(req({"1,1,fail-device"}, "fails")).job_id;
  auto res = a.bridge->await(id, 20s);
  EXPECT_EQ(res.status, JobStatus::Failed);
  EXPECT_NE(res.error_message.find("injected device failure"), std::string::npos) << res.error_message;
  EXPECT_EQ(q.get(id)->attempts, 3);
}

TEST_F(FleetBridgeTest, LostLeaseStopsTheLocalRunAndAnotherDaemonFinishes) {
  auto a = start("daemon-a");
  const std::string id = a.bridge->submit(req({"3000,10"}, "long")).job_id;
  auto conn = db();
  fleet::Queue q(*conn);
  wait_claimed(q, id);
  ASSERT_EQ(q.get(id)->claimed_by, "daemon-a");
  // Daemon A's lease ran out and a daemon "ghost" took the job (as after a
  // stall of A); ghost then dies: its short lease expires and the job is
  // reclaimed and proved again.
  conn->exec("test: steal",
             "UPDATE cuzk_jobs SET claimed_by = 'ghost', attempts = attempts + 1, "
             "lease_expires = clock_timestamp() + interval '1 second' WHERE job_id = $1",
             {fleet::Param::text(id)});
  // A notices at its next renew (a third of the lease) and stops proving.
  for (int i = 0; i < 100 && a.bridge->counters().leases_lost == 0; i++) std::this_thread::sleep_for(20ms);
  EXPECT_EQ(a.bridge->counters().leases_lost, 1u);
  EXPECT_EQ(a.fx->engine->await(id, 2s).status, JobStatus::Cancelled);
  auto b = start("daemon-b");
  auto r = b.bridge->await(id, 30s);
  ASSERT_EQ(r.status, JobStatus::Completed) << r.error_message;
  EXPECT_EQ(r.proof, fake_proof("3000,10", 0));
  auto info = q.get(id);
  EXPECT_EQ(info->state, fleet::JobState::Done);
  EXPECT_EQ(info->attempts, 3);  // A, ghost, then A or B
  EXPECT_EQ(completions(a, b, 1), 1u);
  EXPECT_EQ(a.bridge->counters().lease_expiries + b.bridge->counters().lease_expiries, 1u);  // ghost's
  EXPECT_EQ(a.bridge->counters().discarded_late + b.bridge->counters().discarded_late, 0u);
}

TEST_F(FleetBridgeTest, CancelFromAnyDaemonStopsTheRunningJob) {
  auto a = start("daemon-a"), b = start("daemon-b", 1, 0);
  const std::string id = a.bridge->submit(req({"4000,10"}, "to-cancel")).job_id;
  auto conn = db();
  fleet::Queue q(*conn);
  wait_claimed(q, id);
  const std::string holder = q.get(id)->claimed_by;
  auto& other = holder == "daemon-a" ? b : a;
  auto& runner = holder == "daemon-a" ? a : b;
  // Running there: the holder's submitter has handed it to its engine.
  auto known = [&] {
    try {
      runner.fx->engine->await(id, 1ms);
      return true;
    } catch (const ServiceError&) {
      return false;
    }
  };
  for (int i = 0; i < 200 && !known(); i++) std::this_thread::sleep_for(10ms);
  ASSERT_TRUE(known());
  EXPECT_TRUE(other.bridge->cancel(id));
  EXPECT_EQ(other.bridge->await(id, 5s).status, JobStatus::Cancelled);
  // The holder's renew fails and it cancels its local run well before 4 s.
  EXPECT_EQ(runner.fx->engine->await(id, 3s).status, JobStatus::Cancelled);
  EXPECT_FALSE(a.bridge->cancel(id));  // already ended
  EXPECT_THROW(a.bridge->cancel("unknown"), ServiceError);
}

TEST_F(FleetBridgeTest, CriticalJobTakesTheReservedSlot) {
  // One daemon with 2 slots, 1 reserved: NORMAL jobs run one at a time, a
  // CRITICAL job starts at once beside them.
  auto a = start("daemon-a", 2, 1);
  std::vector<std::string> normal;
  for (int i = 0; i < 3; i++)
    normal.push_back(a.bridge->submit(req({"600,10"}, "normal-" + std::to_string(i))).job_id);
  std::this_thread::sleep_for(200ms);
  const std::string crit = a.bridge->submit(req({"50,10"}, "critical", Priority::Critical)).job_id;
  auto r = a.bridge->await(crit, 10s);
  ASSERT_EQ(r.status, JobStatus::Completed);
  // It did not wait for the NORMAL jobs ahead of it (600 ms each, one at a time).
  auto conn = db();
  fleet::Queue q(*conn);
  int normal_done = 0;
  for (auto& id : normal) normal_done += q.get(id)->state == fleet::JobState::Done;
  EXPECT_LE(normal_done, 1);
  for (auto& id : normal) EXPECT_EQ(a.bridge->await(id, 10s).status, JobStatus::Completed);
}

TEST_F(FleetBridgeTest, ShutdownRequeuesUnfinishedWork) {
  auto a = start("daemon-a");
  const std::string id = a.bridge->submit(req({"2000,10"}, "cut-short")).job_id;
  auto conn = db();
  fleet::Queue q(*conn);
  wait_claimed(q, id);
  a.bridge->shutdown(0ms);
  auto info = q.get(id);
  EXPECT_EQ(info->state, fleet::JobState::Queued);
  EXPECT_NE(info->last_error.find("daemon-a shut down"), std::string::npos) << info->last_error;
  EXPECT_EQ(info->attempts, 0) << "a shutdown cost the job an attempt";
  auto b = start("daemon-b");
  EXPECT_EQ(b.bridge->await(id, 20s).status, JobStatus::Completed);
}

TEST_F(FleetBridgeTest, SurvivesADatabaseRestart) {
  auto a = start("daemon-a"), b = start("daemon-b");
  std::vector<std::string> ids;
  for (int i = 0; i < 4; i++)
    ids.push_back(a.bridge->submit(req({"300,10"}, "before-" + std::to_string(i))).job_id);
  // Every connection of both daemons breaks; they reconnect on their own.
  cuzk::test::PgServer::shared().restart();
  for (int i = 0; i < 4; i++)
    ids.push_back(b.bridge->submit(req({"200,10"}, "after-" + std::to_string(i))).job_id);
  for (const auto& id : ids) {
    auto r = (id[0] == 'b' ? b : a).bridge->await(id, 30s);
    EXPECT_EQ(r.status, JobStatus::Completed) << id << ": " << r.error_message;
  }
  auto conn = db();
  auto rows = conn->exec("test: done", "SELECT count(*) FROM cuzk_jobs WHERE state = 'done'");
  EXPECT_EQ(rows.integer(0, 0), 8);
}

TEST_F(FleetBridgeTest, AwaitTimesOutAndManyWaitersShareOnePoller) {
  auto a = start("daemon-a"), b = start("daemon-b");
  const std::string id = a.bridge->submit(req({"800,10"}, "shared")).job_id;
  auto r = b.bridge->await(id, 50ms);
  EXPECT_EQ(r.status, JobStatus::Timeout);
  std::vector<std::thread> ts;
  std::atomic<int> completed{0};
  for (int i = 0; i < 8; i++)
    ts.emplace_back([&, i] {
      auto& via = i % 2 ? a : b;
      // In slices, as the gRPC server waits.
      for (int s = 0; s < 200; s++) {
        auto res = via.bridge->await(id, 100ms);
        if (res.status == JobStatus::Timeout) continue;
        if (res.status == JobStatus::Completed && res.proof == fake_proof("800,10", 0)) completed++;
        break;
      }
    });
  for (auto& t : ts) t.join();
  EXPECT_EQ(completed.load(), 8);
  // After the job ended: answered at once, in or out of the linger window.
  EXPECT_EQ(b.bridge->await(id, 0ms).status, JobStatus::Completed);
}

TEST_F(FleetBridgeTest, JobsOfOneRequestIdAreIndependentAndABareIdNamesThem) {
  auto a = start("daemon-a"), b = start("daemon-b");
  // Curio sends every partition of a WindowPoSt deadline under one request id.
  std::vector<std::string> ids;
  for (int p = 0; p < 3; p++) {
    auto& via = p % 2 ? a : b;
    ids.push_back(via.bridge->submit(req({std::to_string(300 + p) + ",10"}, "wdpost-1000-0-[90 90]")).job_id);
  }
  EXPECT_NE(ids[0], ids[1]);
  EXPECT_NE(ids[1], ids[2]);
  for (int p = 0; p < 3; p++) {
    auto r = (p % 2 ? b : a).bridge->await(ids[p], 20s);
    ASSERT_EQ(r.status, JobStatus::Completed) << r.error_message;
    EXPECT_EQ(r.job_id, ids[p]);
    EXPECT_EQ(r.proof, fake_proof(std::to_string(300 + p) + ",10", 0));
  }
  // A bare request id: the newest job (await), every live job (cancel).
  EXPECT_EQ(a.bridge->await("wdpost-1000-0-[90 90]", 1s).job_id, ids[2]);
  const auto long1 = a.bridge->submit(req({"2500,10"}, "rerun")).job_id;
  const auto long2 = b.bridge->submit(req({"2501,10"}, "rerun")).job_id;
  auto conn = db();
  fleet::Queue q(*conn);
  for (int i = 0; i < 200 && !(q.get(long1)->state == fleet::JobState::Claimed &&
                               q.get(long2)->state == fleet::JobState::Claimed);
       i++)
    std::this_thread::sleep_for(20ms);
  EXPECT_TRUE(b.bridge->cancel("rerun"));
  for (const auto& id : {long1, long2}) {
    EXPECT_EQ(a.bridge->await(id, 5s).status, JobStatus::Cancelled) << id;
    EXPECT_EQ(q.get(id)->state, fleet::JobState::Cancelled) << id;
  }
  EXPECT_FALSE(a.bridge->cancel("rerun"));  // nothing live any more
  // The local runs stopped at once or at their holder's next renew.
  for (auto* d : {&a, &b})
    for (const auto& id : {long1, long2}) {
      try {
        EXPECT_EQ(d->fx->engine->await(id, 3s).status, JobStatus::Cancelled);
      } catch (const ServiceError&) {  // not run on this daemon
      }
    }
}

TEST_F(FleetBridgeTest, AwaitAfterAResubmissionWaitsForTheNewJobWithoutSpinning) {
  auto a = start("daemon-a"), b = start("daemon-b");
  const auto first = a.bridge->submit(req({"2500,10"}, "again")).job_id;
  // A client awaiting by request id in slices, as the gRPC server does.
  EXPECT_EQ(b.bridge->await("again", 100ms).status, JobStatus::Timeout);
  a.bridge->cancel(first);
  EXPECT_EQ(b.bridge->await("again", 2s).status, JobStatus::Cancelled);
  // Within the linger of the watch: the same request and payload again.
  const auto second = a.bridge->submit(req({"2500,10"}, "again")).job_id;
  EXPECT_NE(second, first);
  const uint64_t before = b.bridge->client_statements();
  const auto t0 = std::chrono::steady_clock::now();
  auto r = b.bridge->await("again", 1s);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.status, JobStatus::Timeout) << r.error_message;
  EXPECT_EQ(r.job_id, second);
  EXPECT_GE(s, 0.95);
  EXPECT_LT(s, 1.5);
  // One look-up, then the poller's one statement per tick (poll_interval / 2).
  const uint64_t queries = b.bridge->client_statements() - before;
  EXPECT_LE(queries, 2u + 1000u / 25u) << queries << " statements for one await of 1 s";
  a.bridge->cancel("again");
}

TEST_F(FleetBridgeTest, ADatabaseStallLongerThanTheLeaseCostsNothing) {
  // Lease 3 s; a 6 s job; the job table locked for 4 s by another session,
  // so that every daemon's statements wait: both leases of the job run out
  // during the stall. When it ends the holder renews first and the other
  // daemon does not reclaim: the job ends once, on its first attempt.
  auto a = start("daemon-a", 0, 1, {"fake", "fake2"}, 3s), b = start("daemon-b", 0, 1, {"fake", "fake2"}, 3s);
  const auto id = a.bridge->submit(req({"6000,10"}, "stalled")).job_id;
  auto conn = db();
  fleet::Queue q(*conn);
  wait_claimed(q, id);
  ASSERT_EQ(q.get(id)->state, fleet::JobState::Claimed);
  std::this_thread::sleep_for(300ms);
  auto locker = db();
  locker->exec("test: begin", "BEGIN");
  locker->exec("test: lock", "LOCK TABLE cuzk_jobs IN ACCESS EXCLUSIVE MODE");
  std::this_thread::sleep_for(4s);
  locker->exec("test: commit", "COMMIT");
  auto r = b.bridge->await(id, 20s);
  ASSERT_EQ(r.status, JobStatus::Completed) << r.error_message;
  EXPECT_EQ(r.proof, fake_proof("6000,10", 0));
  auto info = q.get(id);
  EXPECT_EQ(info->attempts, 1);
  completions(a, b, 1);
  const auto ca = a.bridge->counters(), cb = b.bridge->counters();
  EXPECT_EQ(ca.leases_lost + cb.leases_lost, 0u);
  EXPECT_EQ(ca.lease_expiries + cb.lease_expiries, 0u);
  EXPECT_EQ(ca.discarded_late + cb.discarded_late, 0u);
  EXPECT_EQ(ca.completed + cb.completed, 1u);
  EXPECT_EQ(ca.claims + cb.claims, 1u);
  EXPECT_GE(ca.reclaim_holdoffs + cb.reclaim_holdoffs, 1u) << "the stall went unnoticed";
}

TEST_F(FleetBridgeTest, ADaemonWithoutParametersNeverTakesTheJobs) {
  // "empty" has no circuits and more free slots; it accepts submissions
  // (the request checks need no parameters) but claims nothing.
  auto empty = start("empty", 6, 1, {}), full = start("full", 2, 1);
  std::vector<std::string> ids;
  for (int i = 0; i < 5; i++)
    ids.push_back(empty.bridge->submit(req({"100,10"}, "p-" + std::to_string(i))).job_id);
  auto conn = db();
  fleet::Queue q(*conn);
  for (const auto& id : ids) {
    auto r = empty.bridge->await(id, 20s);
    ASSERT_EQ(r.status, JobStatus::Completed) << r.error_message;
    auto info = q.get(id);
    EXPECT_EQ(info->attempts, 1) << id;
    EXPECT_EQ(info->claimed_by, "full") << id;
  }
  EXPECT_EQ(empty.bridge->counters().claims, 0u);
  EXPECT_EQ(full.bridge->counters().released, 0u);
}

TEST_F(FleetBridgeTest, ARefusedClaimGoesBackWithoutAnAttempt) {
  // The engine refuses the claimed job (here: it is shutting down, as a
  // daemon whose engine stopped first); the job goes back with no attempt
  // spent, and another daemon proves it.
  auto a = start("daemon-a");
  a.fx->engine->shutdown(0ms);
  auto conn = db();
  fleet::Queue q(*conn);
  fleet::JobSpec spec;  // as a submission to any daemon records it
  const ProofRequest r = req({"100,10"}, "refused", Priority::Normal);
  spec.request_id = r.request_id;
  spec.kind = int(r.kind);
  spec.priority = int(r.priority);
  spec.circuit_id = "fake";
  spec.payload = encode_request(r);
  spec.payload_digest = request_digest(r);
  const auto id = q.enqueue(spec).job_id;
  for (int i = 0; i < 200 && a.bridge->counters().released == 0; i++) std::this_thread::sleep_for(20ms);
  EXPECT_GE(a.bridge->counters().released, 1u);
  a.bridge->shutdown(0ms);
  EXPECT_EQ(q.get(id)->state, fleet::JobState::Queued);
  EXPECT_EQ(q.get(id)->attempts, 0);
  auto b = start("daemon-b");
  EXPECT_EQ(b.bridge->await(id, 20s).status, JobStatus::Completed);
  EXPECT_EQ(q.get(id)->attempts, 1);
}

TEST_F(FleetBridgeTest, StatusListsTheDaemonsOfTheFleetWithTheirLeases) {
  auto a = start("daemon-a", 0, 1, {"fake", "fake2"}, 3s), b = start("daemon-b", 0, 1, {"fake", "fake2"}, 3s);
  const auto id = a.bridge->submit(req({"5000,10"}, "held")).job_id;
  auto conn = db();
  fleet::Queue q(*conn);
  wait_claimed(q, id);
  const auto info = q.get(id);
  ASSERT_EQ(info->state, fleet::JobState::Claimed);
  const std::string holder = info->claimed_by;
  // Both daemons are in the registry after their first heartbeat, and the
  // depth gauge after a second; /status reads the fleet at most once a second.
  nlohmann::json f;
  for (int i = 0; i < 150; i++) {
    f = nlohmann::json::parse(b.bridge->status_json())["fleet"];
    if (f.contains("daemons") && f["daemons"].size() == 2 && f["queue"]["claimed"] == 1) break;
    std::this_thread::sleep_for(20ms);
  }
  EXPECT_EQ(f["daemon_id"], "daemon-b");
  EXPECT_EQ(f["lease_s"], 3.0);
  EXPECT_FALSE(f.contains("view_error")) << f.dump();
  EXPECT_EQ(f["view_truncated"], false);
  EXPECT_EQ(f["queue"]["claimed"], 1);
  EXPECT_EQ(f["queue"]["queued"], 0);
  ASSERT_EQ(f["daemons"].size(), 2u) << f.dump();
  for (const auto& d : f["daemons"]) {
    const std::string name = d["daemon_id"];
    SCOPED_TRACE(name);
    EXPECT_EQ(d["this_daemon"], name == "daemon-b");
    ASSERT_TRUE(d["heartbeat_age_s"].is_number());
    EXPECT_LT(d["heartbeat_age_s"].get<double>(), 3.0);  // beats every second
    if (name != holder) {
      EXPECT_TRUE(d["jobs"].empty());
      continue;
    }
    ASSERT_EQ(d["jobs"].size(), 1u);
    const auto& j = d["jobs"][0];
    EXPECT_EQ(j["job_id"], id);
    EXPECT_EQ(j["proof_kind"], "generic-r1cs");
    EXPECT_EQ(j["circuit_id"], "fake");
    EXPECT_EQ(j["attempts"], 1);
    EXPECT_EQ(j["max_attempts"], 3);
    // Renewed every third of the 3 s lease: in the future, at most a lease away.
    EXPECT_GT(j["lease_remaining_s"].get<double>(), 0.0);
    EXPECT_LE(j["lease_remaining_s"].get<double>(), 3.0);
  }
  std::set<std::string> names;
  for (const auto& d : f["daemons"]) names.insert(d["daemon_id"].get<std::string>());
  EXPECT_EQ(names, (std::set<std::string>{"daemon-a", "daemon-b"}));

  // A database that does not answer: /status answers within the view's
  // deadline (2 s) with the error instead of the daemons.
  auto locker = db();
  locker->exec("test: begin", "BEGIN");
  locker->exec("test: lock", "LOCK TABLE cuzk_daemons IN ACCESS EXCLUSIVE MODE");
  std::this_thread::sleep_for(1100ms);  // the last read is stale now
  const auto t0 = std::chrono::steady_clock::now();
  const auto stalled = nlohmann::json::parse(b.bridge->status_json())["fleet"];
  const auto took = std::chrono::steady_clock::now() - t0;
  locker->exec("test: commit", "COMMIT");
  EXPECT_LT(took, 3s);
  EXPECT_GE(took, 1500ms);  // it did wait for the database, then gave up
  EXPECT_FALSE(stalled.contains("daemons")) << stalled.dump();
  ASSERT_TRUE(stalled.contains("view_error")) << stalled.dump();
  EXPECT_NE(stalled["view_error"].get<std::string>().find("fleet view"), std::string::npos) << stalled.dump();
  EXPECT_EQ(stalled["daemon_id"], "daemon-b");  // this daemon's figures stay
}

}  // namespace
}  // namespace cuzk::engine::test
