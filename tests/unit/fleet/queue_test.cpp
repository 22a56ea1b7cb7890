// fleet::Queue against a real server: idempotent enqueue, claim order,
// SKIP LOCKED under concurrent claimers, leases, retries, reservation,
// cancel, retention, depth, and a restarted database.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "unit/fleet/fleet_fixture.hpp"

namespace {

using namespace std::chrono_literals;
using cuzk::fleet::CancelOutcome;
using cuzk::fleet::ClaimedJob;
using cuzk::fleet::ClaimRequest;
using cuzk::fleet::CompleteOutcome;
using cuzk::fleet::Database;
using cuzk::fleet::FailOutcome;
using cuzk::fleet::JobSpec;
using cuzk::fleet::JobState;
using cuzk::fleet::Queue;
using cuzk::fleet::QueueError;

// engine::Priority values
constexpr int kLow = 1, kNormal = 2, kHigh = 3, kCritical = 4;
// engine::ProofKind values
constexpr int kPorep = 1, kWinning = 4;

class QueueTest : public cuzk::test::FleetTest {
 protected:
  void SetUp() override {
    FleetTest::SetUp();
    if (!IsSkipped()) q_ = std::make_unique<Queue>(db());
  }
  Queue& q() { return *q_; }

  JobSpec job(const std::string& id, int priority = kNormal, const std::string& circuit = "c",
              const std::string& payload = "payload") {
    JobSpec s;
    s.job_id = id;
    s.kind = kPorep;
    s.priority = priority;
    s.circuit_id = circuit;
    s.payload = payload.empty() ? id : payload;
    return s;
  }
  ClaimRequest claimer(const std::string& daemon, int slots, std::chrono::milliseconds lease = 30s) {
    ClaimRequest r;
    r.daemon_id = daemon;
    r.free_slots = slots;
    r.lease = lease;
    return r;
  }
  static std::vector<std::string> ids(const std::vector<ClaimedJob>& jobs) {
    std::vector<std::string> out;
    for (const auto& j : jobs) out.push_back(j.job_id);
    return out;
  }

  std::unique_ptr<Queue> q_;
};

TEST_F(QueueTest, EnqueueIsIdempotentOnJobId) {
  std::string big(3 << 20, 'x');  // payloads are stored as bytea, once
  big[12345] = '\0';
  auto a = q().enqueue(job("j1", kNormal, "c", big));
  EXPECT_TRUE(a.created);
  auto again = q().enqueue(job("j1", kNormal, "c", big));
  EXPECT_FALSE(again.created);
  EXPECT_EQ(again.state, JobState::Queued);
  EXPECT_EQ(db().exec("rows", "SELECT count(*) FROM cuzk_jobs").integer(0, 0), 1);

  try {
    q().enqueue(job("j1", kNormal, "c", "another payload"));
    FAIL() << "a different payload under the same id was accepted";
  } catch (const QueueError& e) {
    EXPECT_EQ(e.code(), QueueError::Code::AlreadyExists);
    EXPECT_NE(std::string(e.what()).find("different payload"), std::string::npos) << e.what();
  }
  // The claimer gets the payload back byte for byte.
  auto c = q().claim(claimer("d1", 1));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].payload, big);

  // A done job with the same payload is returned as it is.
  ASSERT_EQ(q().complete("d1", "j1", "proof"), CompleteOutcome::Completed);
  auto done = q().enqueue(job("j1", kNormal, "c", big));
  EXPECT_FALSE(done.created);
  EXPECT_EQ(done.state, JobState::Done);
  EXPECT_THROW(q().enqueue(job("j1", kNormal, "c", "other")), QueueError);

  // A failed job is replaced by a retry under the same id (Curio semantics).
  q().enqueue(job("j2"));
  ASSERT_EQ(q().claim(claimer("d1", 1)).size(), 1u);
  ASSERT_EQ(q().fail("d1", "j2", "bad input", false), FailOutcome::Failed);
  auto retry = q().enqueue(job("j2", kHigh, "c", "fixed payload"));
  EXPECT_TRUE(retry.created);
  auto info = q().get("j2");
  ASSERT_TRUE(info);
  EXPECT_EQ(info->state, JobState::Queued);
  EXPECT_EQ(info->attempts, 0);
  EXPECT_EQ(info->priority, kHigh);
  EXPECT_EQ(info->last_error, "");

  EXPECT_THROW(q().enqueue(job("")), QueueError);
}

TEST_F(QueueTest, ClaimOrderIsPriorityThenHotCircuitThenAge) {
  // Enqueued oldest first.
  q().enqueue(job("normal-cold-1", kNormal, "porep-32g", "a"));
  q().enqueue(job("low-hot", kLow, "snap", "b"));
  q().enqueue(job("normal-hot-1", kNormal, "snap", "c"));
  q().enqueue(job("critical-cold", kCritical, "winning", "d"));
  q().enqueue(job("normal-cold-2", kNormal, "porep-32g", "e"));
  q().enqueue(job("normal-hot-2", kNormal, "snap", "f"));
  q().enqueue(job("high-cold", kHigh, "window", "g"));
  q().enqueue(job("high-hot", kHigh, "snap", "h"));

  auto req = claimer("d1", 3);
  req.hot_circuits = {"snap", "unused \"quoted\" id"};
  auto first = q().claim(req);
  EXPECT_EQ(ids(first), (std::vector<std::string>{"critical-cold", "high-hot", "high-cold"}));
  auto rest = q().claim(req);
  EXPECT_EQ(ids(rest), (std::vector<std::string>{"normal-hot-1", "normal-hot-2", "normal-cold-1"}));
  // One at a time keeps the same order.
  EXPECT_EQ(ids(q().claim(claimer("d2", 1))), std::vector<std::string>{"normal-cold-2"});
  EXPECT_EQ(ids(q().claim(claimer("d2", 1))), std::vector<std::string>{"low-hot"});
  EXPECT_TRUE(q().claim(claimer("d2", 1)).empty());
  EXPECT_TRUE(q().claim(claimer("d2", 0)).empty());

  auto info = q().get("critical-cold");
  ASSERT_TRUE(info);
  EXPECT_EQ(info->state, JobState::Claimed);
  EXPECT_EQ(info->claimed_by, "d1");
  EXPECT_EQ(info->attempts, 1);
  EXPECT_GT(info->lease_remaining_s, 20);
}

TEST_F(QueueTest, ConcurrentClaimersNeverShareAJob) {
  constexpr int kJobs = 200, kThreads = 4;
  db().exec("bulk",
            "INSERT INTO cuzk_jobs (job_id, kind, priority, circuit_id, payload, payload_digest) "
            "SELECT 'job-' || i, 1, 1 + i % 4, 'c' || (i % 3), 'p', 'd' FROM generate_series(1, $1::int) i",
            {cuzk::fleet::Param::integer(kJobs)});
  std::mutex mu;
  std::map<std::string, std::vector<std::string>> claimed;  // job -> daemons
  std::vector<std::string> errors;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      try {
        Database conn(uri_);
        Queue queue(conn);
        const std::string me = "daemon-" + std::to_string(t);
        auto req = claimer(me, 1 + t % 3);
        req.hot_circuits = {"c" + std::to_string(t % 3)};
        for (;;) {
          auto got = queue.claim(req);
          if (got.empty()) break;
          std::lock_guard lk(mu);
          for (const auto& j : got) claimed[j.job_id].push_back(me);
        }
      } catch (const std::exception& e) {
        std::lock_guard lk(mu);
        errors.push_back(e.what());
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_TRUE(errors.empty()) << errors.front();
  EXPECT_EQ(claimed.size(), size_t(kJobs));
  std::set<std::string> daemons;
  for (const auto& [id, who] : claimed) {
    EXPECT_EQ(who.size(), 1u) << id << " claimed " << who.size() << " times";
    daemons.insert(who.front());
  }
  EXPECT_EQ(db().exec("check", "SELECT count(*) FROM cuzk_jobs WHERE state = 'claimed' AND attempts = 1")
                .integer(0, 0),
            kJobs);
  EXPECT_GE(daemons.size(), 2u) << "only one claimer got work: not a concurrency test";
}

TEST_F(QueueTest, ExpiredLeaseIsReclaimedAndALateResultDiscarded) {
  q().enqueue(job("j"));
  auto got = q().claim(claimer("dead", 1, 300ms));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_TRUE(q().renew_lease("dead", "j", 300ms));
  EXPECT_FALSE(q().renew_lease("other", "j", 300ms)) << "renewed a lease it does not hold";
  EXPECT_TRUE(q().reclaim_expired().empty()) << "reclaimed a live lease";
  std::this_thread::sleep_for(450ms);

  // Expired but not yet reclaimed: the holder can no longer complete it.
  EXPECT_FALSE(q().renew_lease("dead", "j", 300ms));
  EXPECT_EQ(q().complete("dead", "j", "late proof"), CompleteOutcome::LeaseLost);

  auto back = q().reclaim_expired();
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].job_id, "j");
  EXPECT_EQ(back[0].daemon_id, "dead");
  EXPECT_EQ(back[0].state, JobState::Queued);
  auto info = q().get("j");
  ASSERT_TRUE(info);
  EXPECT_EQ(info->state, JobState::Queued);
  EXPECT_NE(info->last_error.find("lease of daemon dead expired"), std::string::npos) << info->last_error;

  auto again = q().claim(claimer("alive", 1));
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].attempt, 2);
  EXPECT_EQ(q().complete("dead", "j", "late proof"), CompleteOutcome::LeaseLost);
  EXPECT_EQ(q().complete("alive", "j", "good proof"), CompleteOutcome::Completed);
  EXPECT_EQ(q().complete("alive", "j", "good proof"), CompleteOutcome::Completed) << "a repeated completion";
  EXPECT_EQ(q().complete("dead", "j", "late proof"), CompleteOutcome::LeaseLost);
  info = q().get("j");
  ASSERT_TRUE(info && info->result);
  EXPECT_EQ(*info->result, "good proof");
  EXPECT_EQ(info->state, JobState::Done);
  EXPECT_EQ(info->claimed_by, "alive");
  EXPECT_EQ(q().complete("alive", "nope", "x"), CompleteOutcome::NotFound);
}

TEST_F(QueueTest, RetriesUpToTheLimitWithTheReason) {
  auto spec = job("j");
  spec.max_attempts = 3;
  q().enqueue(spec);
  ASSERT_EQ(q().claim(claimer("d1", 1)).size(), 1u);
  EXPECT_EQ(q().fail("d2", "j", "not mine"), FailOutcome::LeaseLost);
  EXPECT_EQ(q().fail("d1", "j", "GPU fell off the bus"), FailOutcome::Requeued);
  auto info = q().get("j");
  EXPECT_EQ(info->state, JobState::Queued);
  EXPECT_EQ(info->last_error, "GPU fell off the bus");
  EXPECT_EQ(info->claimed_by, "");

  ASSERT_EQ(q().claim(claimer("d2", 1)).size(), 1u);
  EXPECT_EQ(q().fail("d2", "j", "out of memory"), FailOutcome::Requeued);
  auto third = q().claim(claimer("d1", 1));
  ASSERT_EQ(third.size(), 1u);
  EXPECT_EQ(third[0].attempt, 3);
  EXPECT_EQ(q().fail("d1", "j", "synthesis failed"), FailOutcome::Failed);
  info = q().get("j");
  EXPECT_EQ(info->state, JobState::Failed);
  EXPECT_EQ(info->attempts, 3);
  EXPECT_EQ(info->last_error, "synthesis failed");
  EXPECT_TRUE(q().claim(claimer("d1", 1)).empty());
  EXPECT_EQ(q().fail("d1", "missing", "x"), FailOutcome::NotFound);

  // A non-retryable failure ends the job at once.
  q().enqueue(job("bad", kNormal, "c", "bad"));
  ASSERT_EQ(q().claim(claimer("d1", 1)).size(), 1u);
  EXPECT_EQ(q().fail("d1", "bad", "invalid vanilla proof", false), FailOutcome::Failed);

  // Expired leases count as attempts too.
  auto once = job("once", kNormal, "c", "once");
  once.max_attempts = 1;
  q().enqueue(once);
  ASSERT_EQ(q().claim(claimer("d1", 1, 50ms)).size(), 1u);
  std::this_thread::sleep_for(150ms);
  auto back = q().reclaim_expired();
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].state, JobState::Failed);
  info = q().get("once");
  EXPECT_EQ(info->state, JobState::Failed);
  EXPECT_EQ(info->last_error, "lease of daemon d1 expired (attempt 1 of 1)");
}

TEST_F(QueueTest, ReservedSlotsAreKeptForCriticalAndHigh) {
  for (int i = 0; i < 5; ++i)
    q().enqueue(job("porep-" + std::to_string(i), kNormal, "porep", std::to_string(i)));
  auto req = claimer("d1", 1);
  req.reserved_slots = 1;
  EXPECT_TRUE(q().claim(req).empty()) << "a NORMAL job took the reserved slot";

  req.free_slots = 3;
  EXPECT_EQ(q().claim(req).size(), 2u) << "NORMAL jobs may use all but the reserved slot";

  auto winning = job("winning", kCritical, "winning", "w");
  winning.kind = kWinning;
  q().enqueue(winning);
  q().enqueue(job("window", kHigh, "window", "wi"));
  req.free_slots = 1;
  EXPECT_EQ(ids(q().claim(req)), std::vector<std::string>{"winning"});
  EXPECT_EQ(ids(q().claim(req)), std::vector<std::string>{"window"});
  EXPECT_TRUE(q().claim(req).empty());

  // Urgent jobs first; the rest only if the reservation still holds after them.
  q().enqueue(job("high-2", kHigh, "window", "h2"));
  req.free_slots = 3;
  EXPECT_EQ(ids(q().claim(req)), (std::vector<std::string>{"high-2", "porep-2"}));
  // Without a reservation the slot goes to NORMAL work.
  EXPECT_EQ(q().claim(claimer("d2", 1)).size(), 1u);
}

TEST_F(QueueTest, CancelQueuedAndRunningJobs) {
  q().enqueue(job("queued", kNormal, "c", "1"));
  q().enqueue(job("running", kHigh, "c", "2"));
  ASSERT_EQ(ids(q().claim(claimer("d1", 1))), std::vector<std::string>{"running"});
  EXPECT_EQ(q().cancel("queued"), CancelOutcome::Cancelled);
  EXPECT_EQ(q().cancel("running"), CancelOutcome::WasRunning);
  EXPECT_EQ(q().cancel("running"), CancelOutcome::AlreadyEnded);
  EXPECT_EQ(q().cancel("nope"), CancelOutcome::NotFound);
  EXPECT_TRUE(q().claim(claimer("d2", 4)).empty()) << "a cancelled job was claimed";
  EXPECT_FALSE(q().renew_lease("d1", "running", 30s)) << "the running daemon must learn of the cancel";
  EXPECT_EQ(q().complete("d1", "running", "proof"), CompleteOutcome::Cancelled);
  EXPECT_EQ(q().get("running")->state, JobState::Cancelled);
  EXPECT_FALSE(q().get("running")->result.has_value());
  EXPECT_FALSE(q().get("nope").has_value());
}

TEST_F(QueueTest, StatesOfManyJobsInOneStatement) {
  q().enqueue(job("a \"quoted\", id", kNormal, "c", "1"));
  q().enqueue(job("b", kHigh, "c", "2"));
  q().enqueue(job("c", kLow, "c", "3"));
  ASSERT_EQ(ids(q().claim(claimer("d1", 1))), std::vector<std::string>{"b"});
  EXPECT_EQ(q().complete("d1", "b", "proof"), CompleteOutcome::Completed);
  EXPECT_EQ(q().cancel("c"), CancelOutcome::Cancelled);
  const auto s = q().states({"c", "missing", "a \"quoted\", id", "b"});
  ASSERT_EQ(s.size(), 3u);  // sorted by id, unknown ids left out
  EXPECT_EQ(s[0], std::make_pair(std::string("a \"quoted\", id"), JobState::Queued));
  EXPECT_EQ(s[1], std::make_pair(std::string("b"), JobState::Done));
  EXPECT_EQ(s[2], std::make_pair(std::string("c"), JobState::Cancelled));
  EXPECT_TRUE(q().states({}).empty());
}

TEST_F(QueueTest, RetentionDeletesOnlyEndedJobs) {
  for (const char* id : {"done", "failed", "cancelled", "queued", "claimed"})
    q().enqueue(job(id, kNormal, "c", id));
  // Equal priorities and no hot circuits: claimed by age, "done" and "failed" first.
  ASSERT_EQ(q().claim(claimer("d", 2)).size(), 2u);  // done, failed
  ASSERT_EQ(q().complete("d", "done", "p"), CompleteOutcome::Completed);
  ASSERT_EQ(q().fail("d", "failed", "x", false), FailOutcome::Failed);
  ASSERT_EQ(q().cancel("cancelled"), CancelOutcome::Cancelled);
  ASSERT_EQ(q().claim(claimer("d", 1)).size(), 1u);  // queued -> claimed
  EXPECT_EQ(q().cleanup(1h), 0) << "deleted jobs younger than the retention";
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(q().cleanup(0s), 3);
  EXPECT_FALSE(q().get("done"));
  EXPECT_FALSE(q().get("failed"));
  EXPECT_FALSE(q().get("cancelled"));
  EXPECT_TRUE(q().get("queued"));
  EXPECT_TRUE(q().get("claimed"));
}

TEST_F(QueueTest, DepthByKindAndPriority) {
  for (int i = 0; i < 3; ++i)
    q().enqueue(job("p" + std::to_string(i), kNormal, "c", "p" + std::to_string(i)));
  auto w = job("w", kCritical, "c", "w");
  w.kind = kWinning;
  q().enqueue(w);
  ASSERT_EQ(ids(q().claim(claimer("d", 2))), (std::vector<std::string>{"w", "p0"}));
  std::map<std::tuple<int, int, JobState>, int64_t> d;
  for (const auto& r : q().depth()) d[{r.kind, r.priority, r.state}] = r.jobs;
  EXPECT_EQ(d.size(), 3u);
  EXPECT_EQ((d[{kPorep, kNormal, JobState::Queued}]), 2);
  EXPECT_EQ((d[{kPorep, kNormal, JobState::Claimed}]), 1);
  EXPECT_EQ((d[{kWinning, kCritical, JobState::Claimed}]), 1);
}

TEST_F(QueueTest, HeartbeatRegistersTheDaemon) {
  q().heartbeat("d1", {"porep-32g", "odd \"id\" with \\ and ,"}, 4);
  q().heartbeat("d1", {"porep-32g", "odd \"id\" with \\ and ,"}, 2);
  auto r = db().exec("read",
                     "SELECT capacity, array_length(hot_circuits, 1), hot_circuits[2] FROM cuzk_daemons "
                     "WHERE daemon_id = 'd1'");
  ASSERT_EQ(r.rows(), 1);
  EXPECT_EQ(r.integer(0, 0), 2);
  EXPECT_EQ(r.integer(0, 1), 2);
  EXPECT_EQ(r.text(0, 2), "odd \"id\" with \\ and ,");
}

TEST_F(QueueTest, SurvivesARestartedDatabase) {
  q().enqueue(job("a", kNormal, "c", "a"));
  server().restart();
  q().enqueue(job("b", kHigh, "c", "b"));  // a transaction, rerun on the new connection
  server().restart();
  auto got = q().claim(claimer("d1", 2));
  EXPECT_EQ(ids(got), (std::vector<std::string>{"b", "a"}));
  EXPECT_TRUE(q().renew_lease("d1", "a", 30s));
  server().restart();
  EXPECT_EQ(q().complete("d1", "a", "proof"), CompleteOutcome::Completed);
  auto info = q().get("a");
  ASSERT_TRUE(info && info->result);
  EXPECT_EQ(*info->result, "proof");
  EXPECT_EQ(db().reconnects(), 3u);
}

}  // namespace
