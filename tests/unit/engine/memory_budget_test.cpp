// The memory budget's line: waiters served in the pipeline's order
// (priority, then age, then partition), woken by releases, never overtaken
// by later or non-blocking requests; give-ups and the reclaimer; the
// recycling pool's buffers charged to it and taken over by the next partition.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/memory_budget.hpp"
#include "platform/large_vector.hpp"

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

// A recycling pool that reports to a budget as the platform's does, with
// buffers that are only sizes; it frees blocks first, then vectors, the
// largest first.
struct FakePool {
  using Kind = cuzk::platform::RecycleAccount::Kind;
  MemoryBudget& b;
  std::mutex mu;
  std::vector<uint64_t> vectors, blocks;
  std::vector<uint64_t> asked;  // what free_some was asked for

  explicit FakePool(MemoryBudget& budget) : b(budget) {
    b.set_pool_freer([this](uint64_t want, bool blocks_only) { return free_some(want, blocks_only); });
  }
  std::vector<uint64_t>& of(Kind k) { return k == Kind::Vector ? vectors : blocks; }
  void put(uint64_t n, Kind k = Kind::Vector) {
    std::lock_guard lk(mu);
    of(k).push_back(n);
    b.pool_account().pooled(n, k);
  }
  void take(uint64_t n, Kind k = Kind::Vector) {
    std::lock_guard lk(mu);
    auto& v = of(k);
    auto it = std::find(v.begin(), v.end(), n);
    ASSERT_NE(it, v.end());
    v.erase(it);
    b.pool_account().reused(n, k);
  }
  uint64_t free_some(uint64_t want, bool blocks_only) {
    std::lock_guard lk(mu);
    asked.push_back(want);
    uint64_t freed = 0;
    for (Kind k : {Kind::Block, Kind::Vector}) {
      if (blocks_only && k == Kind::Vector) break;
      auto& v = of(k);
      std::sort(v.begin(), v.end());
      while (freed < want && !v.empty()) {
        freed += v.back();
        b.pool_account().freed(v.back(), k);
        v.pop_back();
      }
    }
    return freed;
  }
};

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

TEST(MemoryBudget, PooledBuffersAreChargedAndAPartitionTakesThemOver) {
  MemoryBudget b(100);
  FakePool pool(b);
  pool.put(80);
  EXPECT_EQ(b.used(), 80u);
  EXPECT_EQ(b.pooled(), 80u);
  // Only the pool stands in the way of a partition that reuses it: granted
  // at once, the pool's charge becoming its own.
  Reservation r = b.acquire(80, {}, key(2, 1), /*reuses_pooled=*/true);
  EXPECT_EQ(r.bytes(), 80u);
  EXPECT_EQ(r.pledged(), 80u);
  EXPECT_EQ(b.used(), 80u);
  EXPECT_EQ(b.pooled(), 0u);
  EXPECT_EQ(b.pledged(), 80u);
  pool.take(80);
  EXPECT_EQ(b.pledged(), 0u);
  EXPECT_EQ(b.used(), 80u);
  r.release();
  EXPECT_EQ(b.used(), 0u);
  EXPECT_TRUE(pool.asked.empty()) << "nothing was freed";
}

// The next partition waits while the last one holds its bytes, and is let in
// when they go to the pool, without the pool being freed.
TEST(MemoryBudget, TheNextPartitionIsGrantedWhenTheLastOnesBuffersArePooled) {
  MemoryBudget b(100);
  FakePool pool(b);
  Reservation last = b.acquire(80, {}, key(2, 1, 0), true);
  std::atomic<bool> granted{false};
  uint64_t pledged = 0;
  std::thread next([&] {
    Reservation r = b.acquire(80, {}, key(2, 1, 1), true);
    pledged = r.pledged();
    granted = true;
    pool.take(80);
  });
  wait_for_waiters(b, 1);
  pool.put(80);  // the last partition lets its buffer go, its bytes still reserved
  std::this_thread::sleep_for(20ms);
  EXPECT_FALSE(granted);
  EXPECT_EQ(b.used(), 160u) << "counted twice for a moment";
  last.release();
  next.join();
  EXPECT_TRUE(granted);
  EXPECT_EQ(pledged, 80u);
  EXPECT_EQ(b.used(), 0u);
  EXPECT_EQ(b.pooled(), 0u);
  EXPECT_TRUE(pool.asked.empty());
}

TEST(MemoryBudget, OtherRequestsHaveThePoolFreedBeforeTheReclaimerRuns) {
  MemoryBudget b(100);
  FakePool pool(b);
  std::atomic<int> reclaims{0};
  b.set_reclaimer([&](uint64_t) { reclaims++; });
  pool.put(30);
  pool.put(50);
  Reservation r = b.acquire(50, {}, key(2, 1));
  EXPECT_EQ(r.bytes(), 50u);
  ASSERT_EQ(pool.asked, (std::vector<uint64_t>{30}));
  EXPECT_EQ(pool.vectors, (std::vector<uint64_t>{30}));  // the larger one went
  EXPECT_EQ(b.used(), 80u);
  EXPECT_EQ(reclaims.load(), 0);
  // Non-blocking requests too (a pre-compiled circuit's load).
  Reservation s;
  EXPECT_TRUE(b.try_acquire(40, s));
  EXPECT_EQ(b.pooled(), 0u);
  EXPECT_EQ(b.used(), 90u);
  // Where the pool is not enough, the reclaimer is asked for the rest.
  Reservation t = b.acquire(10, {}, key(2, 2));
  EXPECT_EQ(b.used(), 100u);
  EXPECT_EQ(reclaims.load(), 0);
  std::thread u([&] { Reservation x = b.acquire(20, {}, key(2, 3)); });
  wait_for_waiters(b, 1);
  t.release();
  s.release();
  u.join();
  EXPECT_GE(reclaims.load(), 1);
}

// A partition that did not take what was pledged to it (another circuit's
// buffers) gives it back to the pool when its synthesis ends, and the pool
// gives way where that puts the budget over its limit.
TEST(MemoryBudget, AnUntakenPledgeReturnsToThePoolWhichGivesWay) {
  MemoryBudget b(100);
  FakePool pool(b);
  pool.put(30);
  pool.put(30);
  Reservation other = b.acquire(30);
  Reservation r = b.acquire(60, {}, key(2, 1), true);
  EXPECT_EQ(r.pledged(), 60u);
  EXPECT_EQ(b.used(), 90u);
  pool.take(30);
  EXPECT_EQ(b.pledged(), 30u);
  r.settle();  // it allocated the other 30 afresh
  EXPECT_EQ(r.pledged(), 0u);
  EXPECT_EQ(b.pledged(), 0u);
  ASSERT_EQ(pool.asked, (std::vector<uint64_t>{20}));
  EXPECT_TRUE(pool.vectors.empty());
  EXPECT_EQ(b.pooled(), 0u);
  EXPECT_EQ(b.used(), 90u);
  // Release settles too: a pledge never taken is the pool's again.
  pool.put(10);
  other.release();
  r.release();
  Reservation q = b.acquire(10, {}, key(2, 2), true);
  EXPECT_EQ(q.pledged(), 10u);
  q.release();
  EXPECT_EQ(b.pooled(), 10u);
  EXPECT_EQ(b.used(), 10u);
  EXPECT_EQ(b.peak(), 90u) << "the pool is not counted in the peak";
}

// The same with the platform's pool: the second partition gets the first
// one's buffer itself, in a budget with room for one partition.
TEST(MemoryBudget, TheNextPartitionReusesTheLastOnesBufferFromThePlatformPool) {
  struct Elem {
    uint64_t x[4];
  };
  const uint64_t part = uint64_t(32) << 20;
  MemoryBudget b(part + (uint64_t(8) << 20));
  charge_recycling_to(b);
  struct Stop {
    MemoryBudget& b;
    ~Stop() { stop_charging_recycling(b); }
  } stop{b};

  const Elem* first = nullptr;
  for (uint32_t p = 0; p < 2; p++) {
    Reservation r = b.acquire(part, {}, key(2, 1, p), true);
    EXPECT_EQ(r.pledged(), p == 0 ? 0u : part);
    std::vector<Elem> w;
    cuzk::platform::size_large(w, part / sizeof(Elem));
    if (p == 0) first = w.data();
    else EXPECT_EQ(w.data(), first) << "a fresh buffer, not the last partition's";
    r.settle();
    EXPECT_EQ(b.pledged(), 0u);
    EXPECT_EQ(b.used(), part);
    cuzk::platform::recycle_large(w);
  }
  EXPECT_EQ(b.pooled(), part);
  // A load that needs the room has the buffer freed.
  Reservation load;
  EXPECT_TRUE(b.try_acquire(part, load));
  EXPECT_EQ(cuzk::platform::recycled_bytes(), 0u);
  EXPECT_EQ(b.used(), part);
}

// A buffer pledged to a partition and then freed (a load needed the room)
// stays counted in the partition's reservation: it allocates that much
// afresh. The budget never counts less than is there.
TEST(MemoryBudget, AFreedPledgedBufferStaysCountedInItsReservation) {
  MemoryBudget b(100);
  FakePool pool(b);
  pool.put(60);
  pool.put(20);
  Reservation p1 = b.acquire(60, {}, key(2, 1), true);
  EXPECT_EQ(p1.pledged(), 60u);
  EXPECT_EQ(b.used(), 80u);  // p1's 60 (the pooled 60) and the pooled 20
  // A request for 30: the pool frees its largest buffer, p1's.
  std::thread t([&] { Reservation r = b.acquire(30, {}, key(2, 2)); });
  t.join();
  // Physically: p1's 60 allocated afresh, the request's 30 (released now)
  // and the pool's remaining buffers; counted: at least that much.
  const uint64_t pool_left = std::accumulate(pool.vectors.begin(), pool.vectors.end(), uint64_t(0));
  EXPECT_GE(b.used(), 60u + pool_left);
  EXPECT_EQ(b.pooled() + b.pledged(), pool_left);
  p1.release();
  EXPECT_EQ(b.used(), b.pooled());
  EXPECT_EQ(b.pooled(), pool_left);
}

// A partition waiting for room frees the pool's blocks (scratch it does
// not take), never the vectors it is about to reuse.
TEST(MemoryBudget, APartitionFreesOnlyThePoolsBlocks) {
  MemoryBudget b(100);
  FakePool pool(b);
  pool.put(50);
  pool.put(30, FakePool::Kind::Block);
  Reservation other = b.acquire(20);
  EXPECT_EQ(b.used(), 100u);
  Reservation r = b.acquire(80, {}, key(2, 1), true);  // 20 + 80 fits once the block goes
  EXPECT_EQ(r.pledged(), 50u);
  EXPECT_EQ(pool.asked, (std::vector<uint64_t>{30}));
  EXPECT_TRUE(pool.blocks.empty());
  EXPECT_EQ(pool.vectors, (std::vector<uint64_t>{50}));
  EXPECT_EQ(b.used(), 100u);
}

// Switching the account to another budget frees what the pool holds
// (reported to the one charged for it), and stopping a budget that is no
// longer charged changes nothing.
TEST(MemoryBudget, ASecondBudgetTakesTheChargeOver) {
  struct Elem {
    uint64_t x[4];
  };
  const uint64_t mib8 = uint64_t(8) << 20;
  MemoryBudget b1(uint64_t(1) << 30), b2(uint64_t(1) << 30);
  charge_recycling_to(b1);
  std::vector<Elem> v(mib8 / sizeof(Elem));
  cuzk::platform::recycle_large(v);
  EXPECT_EQ(b1.pooled(), mib8);
  charge_recycling_to(b2);
  EXPECT_EQ(b1.pooled(), 0u);
  EXPECT_EQ(b1.used(), 0u);
  std::vector<Elem> w(mib8 / sizeof(Elem));
  cuzk::platform::recycle_large(w);
  EXPECT_EQ(b2.pooled(), mib8);
  stop_charging_recycling(b1);  // not charged any more: b2's pool stays
  EXPECT_EQ(cuzk::platform::recycled_bytes(), mib8);
  stop_charging_recycling(b2);
  EXPECT_EQ(cuzk::platform::recycled_bytes(), 0u);
  EXPECT_EQ(b2.used(), 0u);
  std::vector<Elem> x(mib8 / sizeof(Elem));
  cuzk::platform::recycle_large(x);  // recycling is off again
  EXPECT_EQ(cuzk::platform::recycled_bytes(), 0u);
}
