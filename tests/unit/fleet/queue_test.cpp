// fleet::Queue against a real server: idempotent enqueue, claim order,
// SKIP LOCKED under concurrent claimers, leases, retries, reservation,
// cancel, retention, depth, and a restarted database.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "unit/fleet/queue_fixture.hpp"

namespace {

using namespace cuzk::test;  // QueueTest and its constants

TEST_F(QueueTest, AJobIsItsRequestIdAndPayload) {
  std::string big(3 << 20, 'x');  // payloads are stored as bytea, once
  big[12345] = '\0';
  auto a = q().enqueue(job("j1", kNormal, "c", big));
  EXPECT_TRUE(a.created);
  EXPECT_EQ(a.job_id.rfind("j1#", 0), 0u) << a.job_id;   // "<request_id>#<n>"
  auto again = q().enqueue(job("j1", kHigh, "c", big));  // priority is not part of the identity
  EXPECT_FALSE(again.created);
  EXPECT_EQ(again.job_id, a.job_id);
  EXPECT_EQ(again.state, JobState::Queued);
  EXPECT_EQ(db().exec("rows", "SELECT count(*) FROM cuzk_jobs").integer(0, 0), 1);

  // Another payload under the same request id is another job (a WindowPoSt
  // deadline's partitions share one id).
  auto other = q().enqueue(job("j1", kNormal, "c", "another payload"));
  EXPECT_TRUE(other.created);
  EXPECT_NE(other.job_id, a.job_id);
  EXPECT_EQ(other.job_id.rfind("j1#", 0), 0u) << other.job_id;
  // The claimer gets the payload back byte for byte.
  auto c = q().claim(claimer("d1", 1));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].job_id, a.job_id);
  EXPECT_EQ(c[0].request_id, "j1");
  EXPECT_EQ(c[0].payload, big);

  // A done job with the same payload is returned as it is; its payload is
  // no longer stored.
  ASSERT_EQ(q().complete("d1", a.job_id, "proof"), CompleteOutcome::Completed);
  auto done = q().enqueue(job("j1", kNormal, "c", big));
  EXPECT_FALSE(done.created);
  EXPECT_EQ(done.job_id, a.job_id);
  EXPECT_EQ(done.state, JobState::Done);
  EXPECT_TRUE(db().exec("payload", "SELECT payload IS NULL FROM cuzk_jobs WHERE job_id = $1",
                        {cuzk::fleet::Param::text(a.job_id)})
                  .boolean(0, 0));

  // After FAILED (or CANCELLED) the same payload starts a new job, a retry.
  const auto j2 = q().enqueue(job("j2", kNormal, "c", "p2")).job_id;
  ASSERT_EQ(q().claim(claimer("d1", 1)).size(), 1u);  // "j1"'s other job
  ASSERT_EQ(ids(q().claim(claimer("d1", 1))), std::vector<std::string>{j2});
  ASSERT_EQ(q().fail("d1", j2, "bad input", false), FailOutcome::Failed);
  auto retry = q().enqueue(job("j2", kHigh, "c", "p2"));
  EXPECT_TRUE(retry.created);
  EXPECT_NE(retry.job_id, j2);
  auto info = q().get("j2");  // a bare request id: its newest job
  ASSERT_TRUE(info);
  EXPECT_EQ(info->job_id, retry.job_id);
  EXPECT_EQ(info->request_id, "j2");
  EXPECT_EQ(info->state, JobState::Queued);
  EXPECT_EQ(info->attempts, 0);
  EXPECT_EQ(info->priority, kHigh);
  EXPECT_EQ(info->last_error, "");
  EXPECT_EQ(q().get(j2)->state, JobState::Failed);  // the job id: that job
  ASSERT_EQ(q().cancel(retry.job_id).outcome, CancelOutcome::Cancelled);
  EXPECT_TRUE(q().enqueue(job("j2", kHigh, "c", "p2")).created);

  // A request without an id of its own is named by its (unique) request id.
  auto uuid = job("7f0e-uuid", kNormal, "c", "p3");
  uuid.name_is_request_id = true;
  EXPECT_EQ(q().enqueue(uuid).job_id, "7f0e-uuid");
  EXPECT_FALSE(q().enqueue(uuid).created);

  EXPECT_THROW(q().enqueue(job("")), QueueError);
}

TEST_F(QueueTest, IdenticalSubmissionsOnManyConnectionsAreOneJob) {
  constexpr int kThreads = 6;
  std::vector<std::string> got(kThreads), errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      try {
        Database conn(uri_);
        Queue queue(conn);
        for (int round = 0; round < 20; ++round) {
          auto r = queue.enqueue(job("same-" + std::to_string(round), kNormal, "c", "one payload"));
          if (round == 19) got[t] = r.job_id;
        }
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  for (auto& t : threads) t.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(errors[t], "");
    EXPECT_EQ(got[t], got[0]);
  }
  EXPECT_EQ(db().exec("rows", "SELECT count(*) FROM cuzk_jobs").integer(0, 0), 20);
}

TEST_F(QueueTest, ClaimOrderIsPriorityThenHotCircuitThenAge) {
  // Enqueued oldest first.
  q().enqueue(named("normal-cold-1", kNormal, "porep-32g", "a"));
  q().enqueue(named("low-hot", kLow, "snap", "b"));
  q().enqueue(named("normal-hot-1", kNormal, "snap", "c"));
  q().enqueue(named("critical-cold", kCritical, "winning", "d"));
  q().enqueue(named("normal-cold-2", kNormal, "porep-32g", "e"));
  q().enqueue(named("normal-hot-2", kNormal, "snap", "f"));
  q().enqueue(named("high-cold", kHigh, "window", "g"));
  q().enqueue(named("high-hot", kHigh, "snap", "h"));

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
            "INSERT INTO cuzk_jobs (job_id, request_id, kind, priority, circuit_id, payload, payload_digest) "
            "SELECT 'job-' || i, 'job-' || i, 1, 1 + i % 4, 'c' || (i % 3), 'p', 'd' "
            "FROM generate_series(1, $1::int) i",
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

TEST_F(QueueTest, AnExpiredLeaseStaysTheHoldersUntilAnotherDaemonReclaimsIt) {
  q().enqueue(named("j"));
  auto got = q().claim(claimer("slow", 1, 300ms));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_TRUE(q().renew_lease("slow", "j", 300ms));
  EXPECT_FALSE(q().renew_lease("other", "j", 300ms)) << "renewed a lease it does not hold";
  EXPECT_TRUE(q().reclaim_expired("other").empty()) << "reclaimed a live lease";
  std::this_thread::sleep_for(450ms);

  // Expired, and nobody took it: still the holder's (a stall of the holder
  // or of the database costs nothing), and never reclaimed by the holder.
  EXPECT_TRUE(q().reclaim_expired("slow").empty()) << "a daemon reclaimed its own job";
  EXPECT_TRUE(q().renew_lease("slow", "j", 300ms));
  std::this_thread::sleep_for(450ms);

  // Another daemon reclaims it: the holder has lost it.
  auto back = q().reclaim_expired("other");
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].job_id, "j");
  EXPECT_EQ(back[0].daemon_id, "slow");
  EXPECT_EQ(back[0].state, JobState::Queued);
  EXPECT_FALSE(q().renew_lease("slow", "j", 300ms));
  auto info = q().get("j");
  ASSERT_TRUE(info);
  EXPECT_EQ(info->state, JobState::Queued);
  EXPECT_NE(info->last_error.find("lease of daemon slow expired"), std::string::npos) << info->last_error;

  // A result that arrives while the job waits in the queue is kept: the
  // proof is as good as any.
  EXPECT_EQ(q().complete("slow", "j", "proof of slow"), CompleteOutcome::Completed);
  EXPECT_EQ(q().get("j")->state, JobState::Done);
  EXPECT_EQ(q().complete("slow", "j", "proof of slow"), CompleteOutcome::Completed)
      << "a repeated completion";

  // Once another daemon holds the job, a late result is discarded.
  q().enqueue(named("k", kNormal, "c", "k"));
  ASSERT_EQ(q().claim(claimer("slow", 1, 50ms)).size(), 1u);
  std::this_thread::sleep_for(150ms);
  ASSERT_EQ(q().reclaim_expired("alive").size(), 1u);
  auto again = q().claim(claimer("alive", 1));
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].attempt, 2);
  EXPECT_EQ(q().complete("slow", "k", "late proof"), CompleteOutcome::LeaseLost);
  EXPECT_EQ(q().complete("alive", "k", "good proof"), CompleteOutcome::Completed);
  EXPECT_EQ(q().complete("slow", "k", "late proof"), CompleteOutcome::LeaseLost);
  info = q().get("k");
  ASSERT_TRUE(info && info->result);
  EXPECT_EQ(*info->result, "good proof");
  EXPECT_EQ(info->claimed_by, "alive");
  EXPECT_EQ(q().complete("alive", "nope", "x"), CompleteOutcome::NotFound);
}

TEST_F(QueueTest, ReclaimSkipsLeasesThatRanOutWhileItsStatementWaited) {
  // A stall (here a table lock held by another session) outlasts a lease.
  // The holder's renew and another daemon's reclaim both waited behind it;
  // when it ends, the reclaim must not take the lease that expired meanwhile.
  q().enqueue(named("held"));
  ASSERT_EQ(q().claim(claimer("holder", 1, 400ms)).size(), 1u);
  auto locker = connect();
  locker->exec("test: begin", "BEGIN");
  locker->exec("test: lock", "LOCK TABLE cuzk_jobs IN ACCESS EXCLUSIVE MODE");
  std::vector<cuzk::fleet::Reclaimed> back;
  std::thread other([&] {
    Database conn(uri_);
    Queue queue(conn);
    back = queue.reclaim_expired("other");
  });
  std::this_thread::sleep_for(800ms);  // the lease runs out during the stall
  locker->exec("test: commit", "COMMIT");
  other.join();
  EXPECT_TRUE(back.empty()) << "reclaimed a lease that expired during the stall";
  EXPECT_TRUE(q().renew_lease("holder", "held", 400ms));
  EXPECT_EQ(q().get("held")->attempts, 1);
}

TEST_F(QueueTest, ReleaseGivesTheAttemptBackAndCapabilitiesFilterClaims) {
  auto spec = named("j");
  spec.max_attempts = 1;
  q().enqueue(spec);
  for (int i = 0; i < 5; i++) {  // a daemon that cannot serve it hands it back, again and again
    ASSERT_EQ(q().claim(claimer("d1", 1)).size(), 1u);
    EXPECT_FALSE(q().release("d2", "j", "not mine"));
    EXPECT_TRUE(q().release("d1", "j", "d1: no parameters"));
  }
  auto info = q().get("j");
  EXPECT_EQ(info->state, JobState::Queued);
  EXPECT_EQ(info->attempts, 0);
  EXPECT_EQ(info->last_error, "d1: no parameters");

  // Claims take only circuits the daemon has parameters for and payloads
  // that fit.
  q().enqueue(named("small-other", kNormal, "other", "abc"));
  q().enqueue(named("big", kNormal, "c", std::string(5000, 'b')));
  auto req = claimer("d1", 4);
  req.circuits = std::vector<std::string>{"c", "unused"};
  req.max_payload_bytes = 1000;
  EXPECT_EQ(ids(q().claim(req)), std::vector<std::string>{"j"});
  req.circuits = std::vector<std::string>{};
  EXPECT_TRUE(q().claim(req).empty()) << "a daemon without parameters claimed a job";
  req.circuits.reset();
  EXPECT_EQ(ids(q().claim(req)), std::vector<std::string>{"small-other"});
  req.max_payload_bytes = -1;
  EXPECT_EQ(ids(q().claim(req)), std::vector<std::string>{"big"});

  // A crashed daemon's claims (it restarts under the same id and holds
  // nothing) go back as expired leases; a claim the daemon does not know of
  // (a lost reply) goes back without the attempt.
  auto back = q().reclaim_own("d1", {"big"}, true);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].job_id, "j");
  EXPECT_EQ(back[0].state, JobState::Failed);  // its one attempt is spent
  EXPECT_EQ(back[1].job_id, "small-other");
  EXPECT_EQ(back[1].state, JobState::Queued);
  EXPECT_EQ(q().get("small-other")->attempts, 1);
  EXPECT_EQ(q().get("big")->state, JobState::Claimed);
  back = q().reclaim_own("d1", {}, false);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(q().get("big")->attempts, 0);
  EXPECT_EQ(q().get("big")->state, JobState::Queued);
}

TEST_F(QueueTest, RetriesUpToTheLimitWithTheReason) {
  auto spec = named("j");
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
  q().enqueue(named("bad", kNormal, "c", "bad"));
  ASSERT_EQ(q().claim(claimer("d1", 1)).size(), 1u);
  EXPECT_EQ(q().fail("d1", "bad", "invalid vanilla proof", false), FailOutcome::Failed);

  // Expired leases count as attempts too.
  auto once = named("once", kNormal, "c", "once");
  once.max_attempts = 1;
  q().enqueue(once);
  ASSERT_EQ(q().claim(claimer("d1", 1, 50ms)).size(), 1u);
  std::this_thread::sleep_for(150ms);
  auto back = q().reclaim_expired("d2");
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].state, JobState::Failed);
  info = q().get("once");
  EXPECT_EQ(info->state, JobState::Failed);
  EXPECT_EQ(info->last_error, "lease of daemon d1 expired (attempt 1 of 1)");
}

TEST_F(QueueTest, ReservedSlotsAreKeptForCriticalAndHigh) {
  for (int i = 0; i < 5; ++i)
    q().enqueue(named("porep-" + std::to_string(i), kNormal, "porep", std::to_string(i)));
  auto req = claimer("d1", 1);
  req.reserved_slots = 1;
  EXPECT_TRUE(q().claim(req).empty()) << "a NORMAL job took the reserved slot";

  req.free_slots = 3;
  EXPECT_EQ(q().claim(req).size(), 2u) << "NORMAL jobs may use all but the reserved slot";

  auto winning = named("winning", kCritical, "winning", "w");
  winning.kind = kWinning;
  q().enqueue(winning);
  q().enqueue(named("window", kHigh, "window", "wi"));
  req.free_slots = 1;
  EXPECT_EQ(ids(q().claim(req)), std::vector<std::string>{"winning"});
  EXPECT_EQ(ids(q().claim(req)), std::vector<std::string>{"window"});
  EXPECT_TRUE(q().claim(req).empty());

  // Urgent jobs first; the rest only if the reservation still holds after them.
  q().enqueue(named("high-2", kHigh, "window", "h2"));
  req.free_slots = 3;
  EXPECT_EQ(ids(q().claim(req)), (std::vector<std::string>{"high-2", "porep-2"}));
  // Without a reservation the slot goes to NORMAL work.
  EXPECT_EQ(q().claim(claimer("d2", 1)).size(), 1u);
}

TEST_F(QueueTest, CancelQueuedAndRunningJobs) {
  q().enqueue(named("queued", kNormal, "c", "1"));
  q().enqueue(named("running", kHigh, "c", "2"));
  ASSERT_EQ(ids(q().claim(claimer("d1", 1))), std::vector<std::string>{"running"});
  EXPECT_EQ(q().cancel("queued").outcome, CancelOutcome::Cancelled);
  const auto running = q().cancel("running");
  EXPECT_EQ(running.outcome, CancelOutcome::WasRunning);
  EXPECT_EQ(running.cancelled, (std::vector<std::pair<std::string, std::string>>{{"running", "d1"}}));
  EXPECT_EQ(q().cancel("running").outcome, CancelOutcome::AlreadyEnded);
  EXPECT_EQ(q().cancel("nope").outcome, CancelOutcome::NotFound);
  EXPECT_TRUE(q().claim(claimer("d2", 4)).empty()) << "a cancelled job was claimed";
  EXPECT_FALSE(q().renew_lease("d1", "running", 30s)) << "the running daemon must learn of the cancel";
  EXPECT_EQ(q().complete("d1", "running", "proof"), CompleteOutcome::Cancelled);
  EXPECT_EQ(q().get("running")->state, JobState::Cancelled);
  EXPECT_FALSE(q().get("running")->result.has_value());
  EXPECT_FALSE(q().get("nope").has_value());
}

TEST_F(QueueTest, ARequestIdNamesItsNewestJobOrAllItsLiveJobs) {
  const auto p0 = q().enqueue(job("wdpost", kHigh, "w", "partition 0")).job_id;
  const auto p1 = q().enqueue(job("wdpost", kHigh, "w", "partition 1")).job_id;
  const auto p2 = q().enqueue(job("wdpost", kHigh, "w", "partition 2")).job_id;
  ASSERT_EQ(ids(q().claim(claimer("d1", 1))), std::vector<std::string>{p0});
  ASSERT_EQ(q().complete("d1", p0, "proof 0"), CompleteOutcome::Completed);
  ASSERT_EQ(ids(q().claim(claimer("d1", 1))), std::vector<std::string>{p1});
  EXPECT_EQ(q().get("wdpost")->job_id, p2);  // the newest
  EXPECT_EQ(q().get(p0)->result.value_or(""), "proof 0");
  // By request id: every live job (p1 claimed, p2 queued), not the done one.
  auto c = q().cancel("wdpost");
  EXPECT_EQ(c.outcome, CancelOutcome::WasRunning);
  EXPECT_EQ(c.cancelled, (std::vector<std::pair<std::string, std::string>>{{p1, "d1"}, {p2, ""}}));
  EXPECT_EQ(q().get(p0)->state, JobState::Done);
  EXPECT_EQ(q().cancel("wdpost").outcome, CancelOutcome::AlreadyEnded);
  // By job id: that job only.
  const auto p3 = q().enqueue(job("wdpost", kHigh, "w", "partition 3")).job_id;
  const auto p4 = q().enqueue(job("wdpost", kHigh, "w", "partition 4")).job_id;
  EXPECT_EQ(q().cancel(p3).outcome, CancelOutcome::Cancelled);
  EXPECT_EQ(q().get(p4)->state, JobState::Queued);
  EXPECT_EQ(q().cancel(p3).outcome, CancelOutcome::AlreadyEnded);
}

TEST_F(QueueTest, StatesOfManyJobsInOneStatement) {
  q().enqueue(named("a \"quoted\", id", kNormal, "c", "1"));
  q().enqueue(named("b", kHigh, "c", "2"));
  q().enqueue(named("c", kLow, "c", "3"));
  ASSERT_EQ(ids(q().claim(claimer("d1", 1))), std::vector<std::string>{"b"});
  EXPECT_EQ(q().complete("d1", "b", "proof"), CompleteOutcome::Completed);
  EXPECT_EQ(q().cancel("c").outcome, CancelOutcome::Cancelled);
  const auto s = q().states({"c", "missing", "a \"quoted\", id", "b"});
  ASSERT_EQ(s.size(), 3u);  // sorted by id, unknown ids left out
  EXPECT_EQ(s[0], std::make_pair(std::string("a \"quoted\", id"), JobState::Queued));
  EXPECT_EQ(s[1], std::make_pair(std::string("b"), JobState::Done));
  EXPECT_EQ(s[2], std::make_pair(std::string("c"), JobState::Cancelled));
  EXPECT_TRUE(q().states({}).empty());
}

TEST_F(QueueTest, RetentionDeletesOnlyEndedJobs) {
  for (const char* id : {"done", "failed", "cancelled", "queued", "claimed"})
    q().enqueue(named(id, kNormal, "c", id));
  // Equal priorities and no hot circuits: claimed by age, "done" and "failed" first.
  ASSERT_EQ(q().claim(claimer("d", 2)).size(), 2u);  // done, failed
  ASSERT_EQ(q().complete("d", "done", "p"), CompleteOutcome::Completed);
  ASSERT_EQ(q().fail("d", "failed", "x", false), FailOutcome::Failed);
  ASSERT_EQ(q().cancel("cancelled").outcome, CancelOutcome::Cancelled);
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

TEST_F(QueueTest, SurvivesARestartedDatabase) {
  q().enqueue(named("a", kNormal, "c", "a"));
  server().restart();
  q().enqueue(named("b", kHigh, "c", "b"));  // a transaction, rerun on the new connection
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
