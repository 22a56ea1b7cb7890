// JobTable: jobs by job id and request id, reuse of a resubmission,
// retention by count and age, and JobCounts.
#include "engine/job_table.hpp"

#include <gtest/gtest.h>

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;

std::shared_ptr<Job> make_job(const std::string& id, const std::string& request_id, uint8_t digest) {
  auto j = std::make_shared<Job>();
  j->id = id;
  j->request_id = request_id;
  j->digest.fill(digest);
  return j;
}

void end(JobTable& t, Job& j, JobStatus st, Clock::time_point at) {
  j.ended = true;
  j.status = st;
  j.finished_at = at;
  t.ended(j);
}

TEST(JobTable, ResolvesJobIdsAndTheNewestJobOfARequestId) {
  JobTable t;
  auto a = make_job("wdpost-1-0-b0#1", "wdpost-1-0-b0", 1),
       b = make_job("wdpost-1-0-b0#2", "wdpost-1-0-b0", 2);
  auto c = make_job("uuid-c", "", 3);
  t.add(a);
  t.add(b);
  t.add(c);
  EXPECT_EQ(t.live(), 3u);
  EXPECT_EQ(t.resolve("wdpost-1-0-b0#1"), a);
  EXPECT_EQ(t.resolve("wdpost-1-0-b0"), b);  // the newest of the request id
  EXPECT_EQ(t.resolve("uuid-c"), c);
  EXPECT_THROW(t.resolve("wdpost-1-0-b1"), ServiceError);
  EXPECT_EQ(t.named("wdpost-1-0-b0"), (std::vector<std::shared_ptr<Job>>{a, b}));
  EXPECT_EQ(t.named("wdpost-1-0-b0#2"), (std::vector<std::shared_ptr<Job>>{b}));
  EXPECT_TRUE(t.named("nothing").empty());
  EXPECT_EQ(t.take_seq(), 1u);
  EXPECT_EQ(t.take_seq(), 2u);
}

TEST(JobTable, AResubmissionReusesALiveOrCompletedJobOfEqualPayloadOnly) {
  JobTable t;
  auto a = make_job("porep-1-7#1", "porep-1-7", 9);
  t.add(a);
  PayloadDigest same, other;
  same.fill(9);
  other.fill(8);
  EXPECT_EQ(t.reusable("porep-1-7", same), a);  // live
  EXPECT_EQ(t.reusable("porep-1-7", other), nullptr);
  EXPECT_EQ(t.reusable("porep-1-8", same), nullptr);
  end(t, *a, JobStatus::Failed, Clock::now());
  EXPECT_EQ(t.reusable("porep-1-7", same), nullptr);  // a failed job is retried by a new one
  auto retry = make_job("porep-1-7#2", "porep-1-7", 9);
  t.add(retry);
  end(t, *retry, JobStatus::Completed, Clock::now());
  EXPECT_EQ(t.reusable("porep-1-7", same), retry);
  EXPECT_EQ(t.live(), 0u);
  // A cancelled job is retried by a new one too.
  auto cancelled = make_job("porep-1-9#3", "porep-1-9", 9);
  t.add(cancelled);
  end(t, *cancelled, JobStatus::Cancelled, Clock::now());
  EXPECT_EQ(t.reusable("porep-1-9", same), nullptr);
}

TEST(JobTable, RetentionDropsTheOldestEndedByCountAndByAge) {
  JobTable t;
  const auto t0 = Clock::now();
  std::vector<std::shared_ptr<Job>> jobs;
  for (int i = 0; i < 4; i++) {
    jobs.push_back(make_job("j" + std::to_string(i), "r", uint8_t(i)));
    t.add(jobs.back());
  }
  end(t, *jobs[2], JobStatus::Completed, t0);
  end(t, *jobs[0], JobStatus::Cancelled, t0 + 1s);
  end(t, *jobs[1], JobStatus::Completed, t0 + 2s);
  EXPECT_EQ(t.recently_ended(2), (std::vector<std::shared_ptr<Job>>{jobs[1], jobs[0]}));
  t.prune(t0 + 2s, 2, 1h);  // over the count: the first to end goes
  EXPECT_EQ(t.all().size(), 3u);
  EXPECT_THROW(t.resolve("j2"), ServiceError);
  EXPECT_EQ(t.named("r"), (std::vector<std::shared_ptr<Job>>{jobs[0], jobs[1], jobs[3]}));
  t.prune(t0 + 2s + 500ms, 10, 1s);  // j0 ended 1.5 s before: too old
  EXPECT_EQ(t.named("r"), (std::vector<std::shared_ptr<Job>>{jobs[1], jobs[3]}));
  t.prune(t0 + 1h, 0, 0s);  // every ended job; the live one stays
  EXPECT_EQ(t.all().size(), 1u);
  EXPECT_EQ(t.resolve("r"), jobs[3]);
  EXPECT_EQ(t.live(), 1u);
}

TEST(JobCounts, CompletedFailedByKindAndTheDurationHistogram) {
  JobCounts c;
  c.record("porep-c2", JobStatus::Completed, 0.3);
  c.record("porep-c2", JobStatus::Completed, 45);
  c.record("window-post", JobStatus::Failed, 2);
  c.record("window-post", JobStatus::Cancelled, 2);
  EXPECT_EQ(c.completed, 2u);
  EXPECT_EQ(c.failed, 1u);
  EXPECT_EQ(c.completed_by_kind["porep-c2"], 2u);
  EXPECT_EQ(c.failed_by_kind["window-post"], 1u);
  EXPECT_DOUBLE_EQ(c.duration_sum_s, 45.3);
  EXPECT_EQ(c.duration_buckets[0], 0u);  // ≤ 0.1 s
  EXPECT_EQ(c.duration_buckets[1], 1u);  // ≤ 0.5 s
  EXPECT_EQ(c.duration_buckets[6], 1u);  // ≤ 30 s
  EXPECT_EQ(c.duration_buckets[7], 2u);  // ≤ 60 s: cumulative
}

}  // namespace
}  // namespace cuzk::engine
