// DeviceStage on its own, with CPU devices and partitions whose device phase
// and tail are scripted: one partition at a time per device (the
// interlock), proofs and failures reported through StageEvents, the pacer's
// feedback, ended jobs' partitions dropped unrun, drop(), and the worker
// states GetStatus shows.
#include "engine/device_stage.hpp"

#include <gtest/gtest.h>

#include <condition_variable>
#include <future>
#include <thread>

#include "device/cpu_backend.hpp"

namespace cuzk::engine {
namespace {

struct Counters {
  std::atomic<int> on_device{0}, max_on_device{0}, device_runs{0};
};

struct ScriptedWork : PartitionWork {
  Counters* c;
  std::string proof;
  bool fail_device = false;
  std::shared_future<void> hold;  // the device phase waits for it when valid
  void device_phase(Device&) override {
    const int now = ++c->on_device;
    int prev = c->max_on_device.load();
    while (now > prev && !c->max_on_device.compare_exchange_weak(prev, now)) {
    }
    c->device_runs++;
    if (hold.valid()) hold.wait();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    --c->on_device;
    if (fail_device) throw std::runtime_error("injected");
  }
  std::string finish(Device&) override { return proof; }
};

struct Recorder : StageEvents, DeviceStage::Feedback {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::pair<uint32_t, std::string>> proofs;
  std::vector<std::string> failures;
  std::atomic<int> shrank{0}, tails_started{0}, tails_ended{0};
  void fail(const std::shared_ptr<Job>&, const std::string& msg) override {
    std::lock_guard lk(mu);
    failures.push_back(msg);
    cv.notify_all();
  }
  void proved(std::unique_ptr<PartitionItem> item, std::string proof, Device&) override {
    std::lock_guard lk(mu);
    proofs.emplace_back(item->partition, std::move(proof));
    cv.notify_all();
  }
  void device_queue_shrank() override { shrank++; }
  void tail_started() override { tails_started++; }
  void tail_ended() override { tails_ended++; }
  bool wait_for(size_t n) {
    std::unique_lock lk(mu);
    return cv.wait_for(lk, std::chrono::seconds(20), [&] { return proofs.size() + failures.size() >= n; });
  }
};

struct DeviceStageFixture : ::testing::Test {
  Deallocator dealloc;
  MemoryBudget budget{1 << 20};
  EndNotifier notifier;
  JobBoard board{1, dealloc, budget, notifier};
  TimelineEmitter tl{[](const std::string&) {}};
  Recorder rec;
  Counters counters;

  std::unique_ptr<DeviceStage> stage(size_t devices, uint32_t workers) {
    std::vector<std::unique_ptr<Device>> ds;
    for (size_t d = 0; d < devices; d++)
      ds.push_back(std::make_unique<Device>(uint32_t(d), std::make_unique<device::CpuBackend>(), 1));
    auto s = std::make_unique<DeviceStage>(std::move(ds), workers, board, dealloc, tl, rec);
    s->start(rec);
    return s;
  }
  static std::shared_ptr<Job> job(uint64_t seq, uint32_t parts) {
    auto j = std::make_shared<Job>();
    j->id = "job#" + std::to_string(seq);
    j->seq = seq;
    j->kind = ProofKind::GenericR1cs;
    j->partitions = parts;
    j->states.assign(parts, PartState::SynthDone);
    j->gpu_ms.assign(parts, 0);
    return j;
  }
  std::unique_ptr<PartitionItem> item(const std::shared_ptr<Job>& j, uint32_t p, bool fail = false,
                                      std::shared_future<void> hold = {}) {
    auto it = std::make_unique<PartitionItem>();
    it->job = j;
    it->partition = p;
    auto w = std::make_unique<ScriptedWork>();
    w->c = &counters;
    w->proof = "proof-" + std::to_string(p);
    w->fail_device = fail;
    w->hold = std::move(hold);
    it->work = std::move(w);
    return it;
  }
};

TEST_F(DeviceStageFixture, OnePartitionAtATimePerDeviceAndEveryProofReported) {
  auto s = stage(1, 3);
  auto j = job(1, 8);
  for (uint32_t p = 0; p < 8; p++) s->push(item(j, p));
  ASSERT_TRUE(rec.wait_for(8));
  EXPECT_EQ(counters.max_on_device.load(), 1);  // three workers, one interlock
  std::vector<std::string> got(8);
  for (auto& [p, proof] : rec.proofs) got[p] = proof;
  for (uint32_t p = 0; p < 8; p++) EXPECT_EQ(got[p], "proof-" + std::to_string(p));
  EXPECT_EQ(rec.shrank.load(), 8);
  s->close();
  s->join();
  EXPECT_EQ(rec.tails_started.load(), 8);
  EXPECT_EQ(rec.tails_ended.load(), 8);
  EXPECT_EQ(j->states[3], PartState::Gpu);  // the board heard of the device phase
}

TEST_F(DeviceStageFixture, TwoDevicesRunTwoPartitionsAtOnce) {
  auto s = stage(2, 1);
  std::promise<void> go;
  std::shared_future<void> hold = go.get_future().share();
  auto j = job(1, 2);
  s->push(item(j, 0, false, hold));
  s->push(item(j, 1, false, hold));
  for (int i = 0; i < 2000 && counters.on_device.load() < 2; i++)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(counters.on_device.load(), 2);
  std::vector<WorkerStatus> workers;
  auto devices = s->status(workers);
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[0].busy_workers + devices[1].busy_workers, 2u);
  EXPECT_EQ(devices[0].current_job_id, "job#1");
  ASSERT_EQ(workers.size(), 2u);
  EXPECT_GE(workers[0].current_partition, 0);
  go.set_value();
  ASSERT_TRUE(rec.wait_for(2));
  workers.clear();
  devices = s->status(workers);
  EXPECT_EQ(devices[0].busy_workers + devices[1].busy_workers, 0u);
  EXPECT_EQ(workers[0].current_partition, -1);
  EXPECT_GT(workers[0].busy_secs, 0.0);
  EXPECT_EQ(s->worker_count(), 2u);
  EXPECT_EQ(s->assigned_device(), "");  // two devices: none assigned
}

TEST_F(DeviceStageFixture, ADeviceFailureIsReportedNamingThePartition) {
  auto s = stage(1, 1);
  auto j = job(1, 2);
  s->push(item(j, 1, true));
  ASSERT_TRUE(rec.wait_for(1));
  ASSERT_EQ(rec.failures.size(), 1u);
  EXPECT_EQ(rec.failures[0], "partition 1: device phase failed: injected");
  EXPECT_TRUE(rec.proofs.empty());
}

TEST_F(DeviceStageFixture, AnEndedJobsPartitionsAreDroppedUnrunAndDropEmptiesTheQueue) {
  auto s = stage(1, 1);
  std::promise<void> go;
  std::shared_future<void> hold = go.get_future().share();
  auto busy = job(1, 1), ended = job(2, 2), dropped = job(3, 2), live = job(4, 1);
  s->push(item(busy, 0, false, hold));
  for (int i = 0; i < 2000 && counters.on_device.load() < 1; i++)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_EQ(counters.on_device.load(), 1);  // the only worker holds `busy`
  ended->ended = true;
  s->push(item(ended, 0));
  s->push(item(ended, 1));
  s->push(item(dropped, 0));
  s->push(item(dropped, 1));
  s->push(item(live, 0));
  EXPECT_EQ(s->queued(), 5u);
  s->drop(*dropped);
  EXPECT_EQ(s->queued(), 3u);
  go.set_value();
  ASSERT_TRUE(rec.wait_for(2));
  s->close();
  s->join();
  EXPECT_EQ(counters.device_runs.load(), 2);  // busy and live only
  EXPECT_EQ(rec.proofs.size(), 2u);
  EXPECT_TRUE(rec.failures.empty());
}

}  // namespace
}  // namespace cuzk::engine
