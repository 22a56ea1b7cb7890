#pragma once
// Byte budget shared by resident parameters and the synthesis working set.
// Work acquires a reservation before it allocates and waits (back-pressure)
// instead of running the machine out of memory. Waiters are served in the
// pipeline's order (WorkKey: priority, then age, then partition), woken when
// bytes are released: a CRITICAL partition takes the next bytes before a
// NORMAL one that has not started yet, and nobody overtakes the first waiter.
//
// Spent buffers kept for reuse (platform/recycle_pool.hpp) are charged here
// while the pool holds them (pool_account()). A partition that will reuse
// them (acquire's reuses_pooled) counts the pooled vectors' bytes as its
// own: it is granted when its bytes fit beside everything but those, and
// that much of the pool's charge becomes its reservation's (pledged to it)
// instead of being freed, so the next partition of a circuit takes over the
// last one's buffers on a machine with room for one partition only. A
// partition pledged vectors it cannot use (another circuit's sizes) runs
// over the limit by at most those bytes until its synthesis ends (settle).
// Other requests that do not fit have the pool freed first (and a partition
// its blocks: scratch it does not take), before the reclaimer runs.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>

#include "engine/work_queue.hpp"
#include "platform/recycle_pool.hpp"

namespace cuzk::engine {

class MemoryBudget;

// Owns `bytes` of the budget until released (RAII). May be released in parts.
class Reservation {
 public:
  Reservation() = default;
  Reservation(MemoryBudget* b, uint64_t bytes, uint64_t pledged = 0)
      : budget_(b), bytes_(bytes), pledged_(pledged) {}
  Reservation(Reservation&& o) noexcept { *this = std::move(o); }
  Reservation& operator=(Reservation&& o) noexcept;
  Reservation(const Reservation&) = delete;
  Reservation& operator=(const Reservation&) = delete;
  ~Reservation() { release(); }

  uint64_t bytes() const { return bytes_; }
  // Bytes of it that were the recycling pool's when granted (pledged: the
  // holder is expected to take those buffers).
  uint64_t pledged() const { return pledged_; }
  // The holder has taken the pooled buffers it will take (a partition's
  // synthesis ended): pooled bytes still pledged to it, which it did not
  // take, are charged to the pool again. Release does it first.
  void settle();
  void release_part(uint64_t bytes);
  void release() { release_part(bytes_); }
  // Takes over another reservation of the same budget.
  void merge(Reservation&& o) {
    if (!budget_) budget_ = o.budget_;
    bytes_ += o.bytes_;
    pledged_ += o.pledged_;
    o.bytes_ = 0;
    o.pledged_ = 0;
    o.budget_ = nullptr;
  }

 private:
  MemoryBudget* budget_ = nullptr;
  uint64_t bytes_ = 0;
  uint64_t pledged_ = 0;
};

class MemoryBudget {
 public:
  explicit MemoryBudget(uint64_t limit_bytes) : limit_(limit_bytes) {}

  // Blocks until `bytes` fit and every waiter ahead of `key` was served. A
  // request larger than the whole budget is granted alone (when nothing else
  // is reserved) rather than deadlocking. `give_up` is checked when the
  // waiter is woken (releases, poke()); when it returns true the call returns
  // an empty reservation (e.g. the job was cancelled). `reuses_pooled`: the
  // caller will take pooled buffers (class comment).
  Reservation acquire(uint64_t bytes, const std::function<bool()>& give_up = {}, WorkKey key = {},
                      bool reuses_pooled = false);
  // Non-blocking; fails (bytes()==0) when the bytes do not fit or someone is
  // waiting (it never overtakes a waiter).
  bool try_acquire(uint64_t bytes, Reservation& out);

  // Wakes waiters so they re-check `give_up` (e.g. after a job ended).
  void poke();

  // Waiting acquires (for status and tests).
  size_t waiters() const;

  uint64_t limit() const { return limit_; }
  // Reserved and pooled bytes together; the most reserved at once (the pool
  // not counted).
  uint64_t used() const;
  uint64_t peak() const;
  // Bytes the recycling pool holds charged here (vectors and blocks), and
  // pooled bytes pledged to reservations.
  uint64_t pooled() const;
  uint64_t pledged() const;

  // What the recycling pool reports to (platform::set_recycle_account).
  platform::RecycleAccount& pool_account() { return pool_account_; }
  // Frees pooled buffers worth at least the bytes asked (or all), only
  // blocks where `blocks_only`, blocks first otherwise; returns the bytes
  // freed, which the pool reports back through pool_account(). Called
  // without the budget's lock held.
  using PoolFreer = std::function<uint64_t(uint64_t bytes, bool blocks_only)>;
  void set_pool_freer(PoolFreer fn) { pool_freer_ = std::move(fn); }

  // Called when an acquire must wait: lets the owner free memory (e.g. evict
  // idle parameters). Returns bytes it freed (through their reservations).
  void set_reclaimer(std::function<void(uint64_t needed)> fn) { reclaimer_ = std::move(fn); }

 private:
  friend class Reservation;
  struct Waiter {
    uint64_t bytes = 0;
    bool reuses_pooled = false;
    bool granted = false;
    uint64_t pledged = 0;
    std::condition_variable cv;
  };
  class PoolAccount : public platform::RecycleAccount {
   public:
    explicit PoolAccount(MemoryBudget& b) : b_(b) {}
    void pooled(size_t bytes, Kind kind) override;
    void reused(size_t bytes, Kind kind) override;
    void freed(size_t bytes, Kind kind) override;

   private:
    MemoryBudget& b_;
  };
  void give_back(uint64_t bytes);
  void settle(uint64_t pledged);
  // Reserved bytes beside which `bytes` must fit: a request that reuses
  // pooled buffers does not count the pooled vectors.
  uint64_t in_the_way(bool reuses_pooled) const {
    return used_ - (reuses_pooled ? std::min(pooled_vectors_, used_) : 0);
  }
  bool fits(uint64_t bytes, bool reuses_pooled) const {
    const uint64_t other = in_the_way(reuses_pooled);
    return other + bytes <= limit_ || other == 0;
  }
  // Books a grant; returns the pooled bytes pledged to it. Under mu_.
  uint64_t grant(uint64_t bytes, bool reuses_pooled);
  // A pooled buffer left the pool: reused or freed. Under mu_.
  void unpool_locked(uint64_t bytes, platform::RecycleAccount::Kind kind);
  // Grants waiters in order while the first one fits. Under mu_.
  void grant_locked();
  void wake_first_locked();
  static constexpr std::chrono::milliseconds kReclaimRetry{500};

  const uint64_t limit_;
  mutable std::mutex mu_;
  std::multimap<WorkKey, Waiter*> waiting_;
  uint64_t next_tiebreak_ = 0;
  uint64_t used_ = 0;  // reservations and the pooled bytes
  uint64_t peak_ = 0;
  uint64_t pooled_vectors_ = 0;  // pool bytes charged to the pool: vectors,
  uint64_t pooled_blocks_ = 0;   // and blocks (never pledged)
  uint64_t pledged_ = 0;         // pooled vector bytes charged to reservations
  std::function<void(uint64_t)> reclaimer_;
  PoolFreer pool_freer_;
  PoolAccount pool_account_{*this};
};

// Turns the process's recycling pool on and charges it to `budget` (the
// daemon's setting; the pool may hold up to the budget's limit, the budget
// frees it when short); stop_charging_recycling frees what it holds and
// stops reporting to `budget`.
void charge_recycling_to(MemoryBudget& budget);
void stop_charging_recycling(MemoryBudget& budget);

// Total physical memory from /proc/meminfo (bytes), 0 if unknown.
uint64_t physical_memory_bytes();

// The memory limit of this process's cgroup (v2 memory.max, or v1
// memory.limit_in_bytes), the smallest along the path up to the root;
// 0 when there is none. `fs_root` prefixes /proc and /sys (tests).
uint64_t cgroup_memory_limit_bytes(const std::string& fs_root = "");

// What this process may use: physical memory, capped by its cgroup limit.
uint64_t usable_memory_bytes();

}  // namespace cuzk::engine
