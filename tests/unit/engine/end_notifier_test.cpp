// The end callbacks of jobs (Engine::on_end, engine/end_notifier.hpp): each
// callback once, with what await answers, on the notifier's thread or at
// once for a job that has ended; failures, cancels and shutdown call back
// too; a throwing callback does not keep the others from hearing.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/end_notifier.hpp"
#include "engine_fixture.hpp"

using namespace cuzk::engine;
using namespace std::chrono_literals;
using cuzk::engine::test::Fixture;
using cuzk::engine::test::req;
using cuzk::engine::test::small_config;

namespace {

// Collects callback results; wait_for(n) blocks until n have arrived.
struct Heard {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<ProofResult> results;
  std::vector<std::thread::id> threads;
  EndNotifier::Callback callback() {
    return [this](ProofResult r) {
      std::lock_guard lk(mu);
      results.push_back(std::move(r));
      threads.push_back(std::this_thread::get_id());
      cv.notify_all();
    };
  }
  bool wait_for(size_t n) {
    std::unique_lock lk(mu);
    return cv.wait_for(lk, 10s, [&] { return results.size() >= n; });
  }
};

}  // namespace

TEST(EndCallbacks, EachCallbackHearsTheEndOnceWithWhatAwaitAnswers) {
  Fixture f(small_config());
  const auto id = f.engine->submit(req({"60,1", "60,1"}, "cb")).job_id;
  Heard heard;
  f.engine->on_end(id, heard.callback());
  f.engine->on_end("cb", heard.callback());  // by the bare request id too
  ASSERT_TRUE(heard.wait_for(2));
  const ProofResult awaited = f.engine->await(id, std::nullopt);
  ASSERT_EQ(awaited.status, JobStatus::Completed);
  for (const ProofResult& r : heard.results) {
    EXPECT_EQ(r.job_id, id);
    EXPECT_EQ(r.status, JobStatus::Completed);
    EXPECT_EQ(r.proof, awaited.proof);
    EXPECT_EQ(r.total_ms, awaited.total_ms);
  }
  for (auto t : heard.threads) EXPECT_NE(t, std::this_thread::get_id());  // the notifier's
  // After the end: at once, on the caller's thread.
  f.engine->on_end(id, heard.callback());
  ASSERT_EQ(heard.results.size(), 3u);
  EXPECT_EQ(heard.threads[2], std::this_thread::get_id());
  EXPECT_EQ(heard.results[2].proof, awaited.proof);
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(heard.results.size(), 3u);  // never twice
  EXPECT_THROW(f.engine->on_end("no-such-job", heard.callback()), ServiceError);
}

TEST(EndCallbacks, FailuresCancelsAndShutdownCallBack) {
  EngineConfig c = small_config();
  c.max_parallel_synthesis = 1;
  Fixture f(c);
  Heard failed, cancelled, cut;
  f.engine->on_end(f.engine->submit(req({"1,1,fail-synth"}, "bad")).job_id, failed.callback());
  ASSERT_TRUE(failed.wait_for(1));
  EXPECT_EQ(failed.results[0].status, JobStatus::Failed);
  EXPECT_NE(failed.results[0].error_message.find("injected"), std::string::npos);

  const auto run = f.engine->submit(req({"400,1"}, "running")).job_id;
  f.engine->on_end(run, cancelled.callback());
  std::this_thread::sleep_for(30ms);
  EXPECT_TRUE(f.engine->cancel(run));
  ASSERT_TRUE(cancelled.wait_for(1));
  EXPECT_EQ(cancelled.results[0].status, JobStatus::Cancelled);

  f.engine->on_end(f.engine->submit(req({"400,1"}, "long")).job_id, cut.callback());
  std::this_thread::sleep_for(30ms);
  f.engine->shutdown(0ms);
  f.engine->flush_end_callbacks();  // delivered by the time flush returns
  ASSERT_EQ(cut.results.size(), 1u);
  EXPECT_EQ(cut.results[0].status, JobStatus::Cancelled);
  EXPECT_NE(cut.results[0].error_message.find("shutting down"), std::string::npos);
}

TEST(EndNotifier, DeliversInOrderAndAThrowingCallbackStopsNoOther) {
  std::vector<int> order;
  std::atomic<int> calls{0};
  {
    EndNotifier n;
    for (int i = 0; i < 20; i++) {
      std::vector<EndNotifier::Callback> fns;
      fns.push_back([](ProofResult) { throw std::runtime_error("a caller's bug"); });
      fns.push_back([&, i](ProofResult r) {
        order.push_back(i);
        EXPECT_EQ(r.job_id, "j" + std::to_string(i));
        calls++;
      });
      ProofResult r;
      r.job_id = "j" + std::to_string(i);
      n.post(std::move(fns), std::move(r));
    }
    n.flush();
    EXPECT_EQ(calls.load(), 20);
    ProofResult last;
    last.job_id = "j20";
    n.post({[&](ProofResult) { calls++; }}, last);
  }  // the destructor delivers what was posted
  EXPECT_EQ(calls.load(), 21);
  ASSERT_EQ(order.size(), 20u);
  for (int i = 0; i < 20; i++) EXPECT_EQ(order[i], i);
}
