// The memory budget's line: waiters served in the pipeline's order
// (priority, then age, then partition), woken by releases, never overtaken
// by later or non-blocking requests; give-ups and the reclaimer.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/memory_budget.hpp"

using namespace cuzk::engine;
using namespace std::chrono_literals;

namespace {

// Waits until the budget has `n` waiters (each acquire registers itself
// before it blocks).
void wait_for_waiters(const MemoryBudget& b, size_t n) {
  for (int i = 0; i < 2000 && b.waiters() < n; i++) std::this_thread::sleep_for(1ms);
  ASSERT_EQ(b.waiters(), n);
}

WorkKey key(int priority, uint64_t seq, uint32_t partition = 0) {
  return WorkKey{priority, seq, partition, 0};
}

}  // namespace

TEST(MemoryBudget, WaitersAreServedByPriorityThenAgeNotByArrival) {
  MemoryBudget b(100);
  Reservation held = b.acquire(100);
  std::mutex mu;
  std::vector<std::string> order;
  std::vector<std::thread> ts;
  auto waiter = [&](std::string name, WorkKey k) {
    ts.emplace_back([&, name, k] {
      Reservation r = b.acquire(100, {}, k);
      std::lock_guard lk(mu);
      order.push_back(name);
      // r is released at the end of this scope: the next one goes.
    });
  };
  // Arrival order: normal (old), low, normal (older seq, later partition), critical.
  waiter("normal-7-p0", key(2, 7, 0));
  wait_for_waiters(b, 1);
  waiter("low-1", key(1, 1));
  wait_for_waiters(b, 2);
  waiter("normal-3-p2", key(2, 3, 2));
  wait_for_waiters(b, 3);
  waiter("critical-9", key(4, 9));
  wait_for_waiters(b, 4);
  held.release();
  for (auto& t : ts) t.join();
  EXPECT_EQ(order, (std::vector<std::string>{"critical-9", "normal-3-p2", "normal-7-p0", "low-1"}));
  EXPECT_EQ(b.used(), 0u);
}

TEST(MemoryBudget, NobodyOvertakesTheFirstInLine) {
  MemoryBudget b(100);
  Reservation held = b.acquire(60);
  std::atomic<bool> big_done{false};
  std::thread big([&] {
    Reservation r = b.acquire(80, {}, key(4, 1));  // needs 20 more than is free
    big_done = true;
  });
  wait_for_waiters(b, 1);
  // 30 bytes are free, but the CRITICAL waiter is first: a NORMAL request
  // that would fit waits, and a non-blocking one fails.
  Reservation r;
  EXPECT_FALSE(b.try_acquire(30, r));
  std::atomic<bool> small_done{false};
  std::thread small([&] {
    Reservation s = b.acquire(30, {}, key(2, 2));
    small_done = true;
  });
  wait_for_waiters(b, 2);
  std::this_thread::sleep_for(20ms);
  EXPECT_FALSE(small_done);
  EXPECT_FALSE(big_done);
  held.release();
  big.join();
  small.join();
  EXPECT_TRUE(b.try_acquire(30, r));  // nobody waits now
}

// A waiter sleeps until something happens (a release, a poke): it does not
// poll. Its give-up check runs once per wake, so over 300 quiet ms it runs
// once, on entry.
TEST(MemoryBudget, AWaiterSleepsUntilAReleaseWakesIt) {
  MemoryBudget b(10);
  Reservation held = b.acquire(10);
  std::atomic<int> checks{0};
  std::thread t([&] {
    Reservation r = b.acquire(
        10,
        [&] {
          checks++;
          return false;
        },
        key(2, 1));
    EXPECT_EQ(r.bytes(), 10u);
  });
  wait_for_waiters(b, 1);
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(checks.load(), 1);
  held.release();
  t.join();
  EXPECT_EQ(checks.load(), 1);  // granted by the release, no further check
}

TEST(MemoryBudget, AWaiterGivesUpWhenPokedAndLetsTheNextOneIn) {
  MemoryBudget b(100);
  Reservation held = b.acquire(50);
  std::atomic<bool> cancelled{false};
  Reservation first_result;
  std::thread first([&] {
    first_result = b.acquire(
        80, [&] { return cancelled.load(); }, key(4, 1));
  });
  wait_for_waiters(b, 1);
  std::atomic<bool> second_done{false};
  std::thread second([&] {
    Reservation r = b.acquire(40, {}, key(2, 2));  // fits, but waits behind the first
    second_done = true;
  });
  wait_for_waiters(b, 2);
  cancelled = true;
  b.poke();
  first.join();
  second.join();
  EXPECT_EQ(first_result.bytes(), 0u);  // gave up: nothing reserved
  EXPECT_TRUE(second_done);
  EXPECT_EQ(b.used(), 50u);
}

TEST(MemoryBudget, TheFirstWaiterAsksTheReclaimer) {
  MemoryBudget b(100);
  Reservation idle = b.acquire(70);  // e.g. idle parameters
  std::atomic<int> calls{0};
  b.set_reclaimer([&](uint64_t need) {
    calls++;
    EXPECT_EQ(need, 30u);
    idle.release();
  });
  Reservation r = b.acquire(60, {}, key(2, 1));
  EXPECT_EQ(r.bytes(), 60u);
  EXPECT_EQ(calls.load(), 1);
}

TEST(MemoryBudget, ARequestLargerThanTheBudgetRunsAlone) {
  MemoryBudget b(100);
  Reservation small = b.acquire(10);
  std::atomic<bool> done{false};
  std::thread t([&] {
    Reservation r = b.acquire(500, {}, key(2, 1));
    EXPECT_EQ(r.bytes(), 500u);
    done = true;
  });
  wait_for_waiters(b, 1);
  EXPECT_FALSE(done);
  small.release();
  t.join();
  EXPECT_TRUE(done);
}
