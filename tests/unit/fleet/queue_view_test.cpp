// The queue's read-only views: depth by kind and priority, the daemons'
// heartbeats, and the fleet view (/status and the dashboard's Fleet panel).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <thread>

#include "unit/fleet/queue_fixture.hpp"

namespace {

using namespace cuzk::test;  // QueueTest and its constants

TEST_F(QueueTest, DepthByKindAndPriority) {
  for (int i = 0; i < 3; ++i)
    q().enqueue(named("p" + std::to_string(i), kNormal, "c", "p" + std::to_string(i)));
  auto w = named("w", kCritical, "c", "w");
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

TEST_F(QueueTest, FleetViewListsTheDaemonsWithTheirLeases) {
  q().heartbeat("d1", {}, 3);
  q().heartbeat("d2", {}, 2);
  q().heartbeat("d-old", {}, 1);
  db().exec("test: age",
            "UPDATE cuzk_daemons SET heartbeat = heartbeat - interval '1 hour' "
            "WHERE daemon_id = 'd-old'");
  for (const char* id : {"a", "b", "c", "d"}) q().enqueue(named(id, kNormal, "c", id));
  ASSERT_EQ(ids(q().claim(claimer("d1", 1, 20s))), (std::vector<std::string>{"a"}));
  ASSERT_EQ(ids(q().claim(claimer("d1", 1, 30s))), (std::vector<std::string>{"b"}));
  ASSERT_EQ(ids(q().claim(claimer("ghost", 1, 1ms))), (std::vector<std::string>{"c"}));  // never registered
  std::this_thread::sleep_for(20ms);

  const auto v = q().fleet_view();
  EXPECT_FALSE(v.truncated);
  std::vector<std::string> names;
  for (const auto& d : v.daemons) names.push_back(d.daemon_id);
  ASSERT_EQ(names, (std::vector<std::string>{"d-old", "d1", "d2", "ghost"}));
  const auto& old = v.daemons[0];
  ASSERT_TRUE(old.heartbeat_age_s);
  EXPECT_NEAR(*old.heartbeat_age_s, 3600, 60);
  EXPECT_TRUE(old.jobs.empty());
  const auto& d1 = v.daemons[1];
  ASSERT_TRUE(d1.heartbeat_age_s);
  EXPECT_GE(*d1.heartbeat_age_s, 0);
  EXPECT_LT(*d1.heartbeat_age_s, 30);
  EXPECT_EQ(d1.capacity, 3);
  ASSERT_EQ(d1.jobs.size(), 2u);
  // Soonest expiry first; each lease at most what the claim gave it.
  EXPECT_EQ(d1.jobs[0].job_id, "a");
  EXPECT_GT(d1.jobs[0].lease_remaining_s, 10);
  EXPECT_LE(d1.jobs[0].lease_remaining_s, 20);
  EXPECT_EQ(d1.jobs[1].job_id, "b");
  EXPECT_GT(d1.jobs[1].lease_remaining_s, 20);
  EXPECT_LE(d1.jobs[1].lease_remaining_s, 30);
  for (const auto& j : d1.jobs) {
    EXPECT_EQ(j.attempts, 1);
    EXPECT_EQ(j.max_attempts, 3);
    EXPECT_EQ(j.kind, kPorep);
    EXPECT_EQ(j.priority, kNormal);
    EXPECT_EQ(j.circuit_id, "c");
  }
  EXPECT_EQ(v.daemons[2].capacity, 2);
  EXPECT_TRUE(v.daemons[2].jobs.empty());
  const auto& ghost = v.daemons[3];
  EXPECT_FALSE(ghost.heartbeat_age_s);
  ASSERT_EQ(ghost.jobs.size(), 1u);
  EXPECT_EQ(ghost.jobs[0].job_id, "c");
  EXPECT_LT(ghost.jobs[0].lease_remaining_s, 0);  // expired, not yet reclaimed

  // Limits: the most recently seen daemons and the soonest leases.
  const auto few = q().fleet_view(2, 1);
  EXPECT_TRUE(few.truncated);
  names.clear();
  size_t jobs = 0;
  for (const auto& d : few.daemons) {
    names.push_back(d.daemon_id);
    jobs += d.jobs.size();
  }
  EXPECT_EQ(names, (std::vector<std::string>{"d1", "d2", "ghost"}));
  EXPECT_EQ(jobs, 1u);
  EXPECT_EQ(few.daemons[2].jobs.at(0).job_id, "c");
}

}  // namespace
