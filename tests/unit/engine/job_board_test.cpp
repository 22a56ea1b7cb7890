// JobBoard on its own: a job's life through the board's methods, the
// synthesis_concurrency gate, proofs in partition order, ending (fail,
// cancel, shutdown) exactly once with its callbacks, and admission's gate.
#include "engine/job_board.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace cuzk::engine {
namespace {

struct BoardFixture : ::testing::Test {
  Deallocator dealloc;
  MemoryBudget budget{1 << 20};
  EndNotifier notifier;
  JobBoard board{1, dealloc, budget, notifier};

  std::shared_ptr<Job> admit(const std::string& request_id, uint32_t parts, Priority pr = Priority::Normal) {
    auto job = std::make_shared<Job>();
    job->request_id = request_id;
    job->kind = ProofKind::GenericR1cs;
    job->priority = pr;
    job->partitions = parts;
    job->proofs.resize(parts);
    job->states.assign(parts, PartState::Pending);
    job->synth_ms.assign(parts, 0);
    job->gpu_ms.assign(parts, 0);
    job->submitted = Clock::now();
    board.admitting([&](JobTable& t) {
      job->seq = t.take_seq();
      job->id = job_name(request_id, job->seq);
      t.add(job);
    });
    return job;
  }
  static std::string job_name(const std::string& r, uint64_t seq) { return r + "#" + std::to_string(seq); }
  std::vector<std::unique_ptr<PartitionItem>> start(const std::shared_ptr<Job>& job) {
    std::vector<std::unique_ptr<PartitionItem>> items;
    EXPECT_EQ(board.wait_to_start(
                  job, [] { return true; }, items),
              JobBoard::Start::Go);
    return items;
  }
};

TEST_F(BoardFixture, AJobsLifeEndsWithItsProofsInPartitionOrder) {
  auto job = admit("r", 3);
  auto items = start(job);
  ASSERT_EQ(items.size(), 3u);
  for (uint32_t p = 0; p < 3; p++) {
    EXPECT_EQ(items[p]->partition, p);
    EXPECT_EQ(items[p]->job, job);
  }
  for (uint32_t p : {2u, 0u, 1u}) {
    ASSERT_TRUE(board.synthesis_started(*job, p));
    board.synthesis_ended(*job, p, 10 + p);
    board.device_started(*job, p);
    board.device_ended(*job, p, 100 + p);
  }
  EXPECT_FALSE(board.proved(*job, 2, "C"));
  EXPECT_FALSE(board.proved(*job, 0, "A"));
  auto all = board.proved(*job, 1, "B");
  ASSERT_TRUE(all);
  EXPECT_EQ(*all, "ABC");
  EXPECT_TRUE(board.complete(*job, *all));
  EXPECT_FALSE(board.complete(*job, "again"));
  EXPECT_FALSE(board.fail(*job, "late"));
  const ProofResult r = board.await(job->id, std::chrono::milliseconds(0));
  EXPECT_EQ(r.status, JobStatus::Completed);
  EXPECT_EQ(r.proof, "ABC");
  EXPECT_EQ(r.synthesis_ms, 10u + 11 + 12);
  EXPECT_EQ(r.gpu_compute_ms, 100u + 101 + 102);
  EXPECT_EQ(board.with_table([](const JobTable& t, const JobCounts& c) { return c.completed + t.live(); }),
            1u);
}

TEST_F(BoardFixture, TheNextJobStartsOnceEveryPartitionOfTheFirstHasStarted) {
  auto first = admit("a", 2);
  auto second = admit("b", 1);
  auto items = start(first);
  std::vector<std::unique_ptr<PartitionItem>> more;
  // synthesis_concurrency 1: the second waits (overtaken() ends the wait at once).
  EXPECT_EQ(board.wait_to_start(
                second, [] { return true; }, more),
            JobBoard::Start::Overtaken);
  EXPECT_TRUE(more.empty());
  ASSERT_TRUE(board.synthesis_started(*first, 0));
  EXPECT_EQ(board.wait_to_start(
                second, [] { return true; }, more),
            JobBoard::Start::Overtaken);
  ASSERT_TRUE(board.synthesis_started(*first, 1));
  EXPECT_EQ(board.wait_to_start(
                second, [] { return true; }, more),
            JobBoard::Start::Go);
  EXPECT_EQ(more.size(), 1u);
}

TEST_F(BoardFixture, AWaitingJobIsLetThroughWhenThePreparingOneEnds) {
  auto first = admit("a", 2);
  auto second = admit("b", 1);
  auto items = start(first);
  JobBoard::Start got = JobBoard::Start::Gone;
  std::vector<std::unique_ptr<PartitionItem>> more;
  std::thread waiter([&] {
    got = board.wait_to_start(
        second, [] { return false; }, more);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_TRUE(board.fail(*first, "partition 0: synthesis failed: x"));
  waiter.join();
  EXPECT_EQ(got, JobBoard::Start::Go);
  EXPECT_FALSE(board.synthesis_started(*first, 1));  // ended: its partitions do not start
}

TEST_F(BoardFixture, EndingAJobPostsItsCallbacksOnceWithTheResult) {
  auto job = admit("r", 1);
  std::mutex mu;
  std::vector<ProofResult> heard;
  board.on_end(job->id, [&](ProofResult r) {
    std::lock_guard lk(mu);
    heard.push_back(std::move(r));
  });
  EXPECT_TRUE(board.fail(*job, "boom"));
  EXPECT_FALSE(board.fail(*job, "boom again"));
  notifier.flush();
  ASSERT_EQ(heard.size(), 1u);
  EXPECT_EQ(heard[0].status, JobStatus::Failed);
  EXPECT_EQ(heard[0].error_message, "boom");
  // After the end: at once, on this thread.
  bool now = false;
  board.on_end(job->id, [&](ProofResult r) { now = r.status == JobStatus::Failed; });
  EXPECT_TRUE(now);
  EXPECT_EQ(job->states[0], PartState::Failed);
}

TEST_F(BoardFixture, CancelByRequestIdEndsEveryLiveJobOfIt) {
  auto a = admit("wdpost-1000-0-[1 2]", 1);
  auto b = admit("wdpost-1000-0-[1 2]", 1);
  auto other = admit("porep-1000-7", 1);
  auto items = start(a);
  ASSERT_TRUE(board.synthesis_started(*a, 0));
  auto cancelled = board.cancel("wdpost-1000-0-[1 2]");
  ASSERT_EQ(cancelled.size(), 2u);
  EXPECT_TRUE(cancelled[0].second);   // a had started
  EXPECT_FALSE(cancelled[1].second);  // b had not
  EXPECT_TRUE(a->ended && b->ended);
  EXPECT_FALSE(other->ended);
  EXPECT_EQ(board.await(b->id, std::nullopt).status, JobStatus::Cancelled);
  EXPECT_TRUE(board.cancel("wdpost-1000-0-[1 2]").empty());  // nothing live is left
  EXPECT_THROW(board.cancel("nope"), ServiceError);
}

TEST_F(BoardFixture, ShutdownRefusesNewJobsAndEndsWhatIsLeft) {
  auto running = admit("run", 1);
  auto queued = admit("queued", 1);
  auto items = start(running);
  EXPECT_TRUE(board.stop_accepting());
  EXPECT_THROW(board.require_accepting(), ServiceError);
  EXPECT_THROW(admit("late", 1), ServiceError);
  EXPECT_FALSE(board.dispatchable(*queued));
  board.end_undispatched("daemon shutting down");
  EXPECT_TRUE(queued->ended);
  EXPECT_FALSE(running->ended);
  board.end_all_after(std::chrono::milliseconds(5), "daemon shutting down");
  EXPECT_TRUE(running->ended);
  EXPECT_TRUE(board.stopping());
  EXPECT_EQ(board.await(running->id, std::nullopt).error_message, "daemon shutting down");
  EXPECT_FALSE(board.stop_accepting());  // a second shutdown has nothing to do
}

TEST_F(BoardFixture, AwaitTimesOutOnALiveJob) {
  auto job = admit("r", 1);
  const ProofResult r = board.await(job->id, std::chrono::milliseconds(5));
  EXPECT_EQ(r.status, JobStatus::Timeout);
  EXPECT_NE(r.error_message.find("timed out after 5 ms"), std::string::npos);
  EXPECT_THROW(board.await("unknown", std::chrono::milliseconds(0)), ServiceError);
}

}  // namespace
}  // namespace cuzk::engine
