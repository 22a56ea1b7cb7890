#pragma once
// Byte budget shared by resident parameters and the synthesis working set.
// Work acquires a reservation before it allocates and waits (back-pressure)
// instead of running the machine out of memory. Waiters are served in the
// pipeline's order (WorkKey: priority, then age, then partition), woken when
// bytes are released: a CRITICAL partition takes the next bytes before a
// NORMAL one that has not started yet, and nobody overtakes the first waiter.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>

#include "engine/work_queue.hpp"

namespace cuzk::engine {

class MemoryBudget;

// Owns `bytes` of the budget until released (RAII). May be released in parts.
class Reservation {
 public:
  Reservation() = default;
  Reservation(MemoryBudget* b, uint64_t bytes) : budget_(b), bytes_(bytes) {}
  Reservation(Reservation&& o) noexcept { *this = std::move(o); }
  Reservation& operator=(Reservation&& o) noexcept;
  Reservation(const Reservation&) = delete;
  Reservation& operator=(const Reservation&) = delete;
  ~Reservation() { release(); }

  uint64_t bytes() const { return bytes_; }
  void release_part(uint64_t bytes);
  void release() { release_part(bytes_); }
  // Takes over another reservation of the same budget.
  void merge(Reservation&& o) {
    if (!budget_) budget_ = o.budget_;
    bytes_ += o.bytes_;
    o.bytes_ = 0;
    o.budget_ = nullptr;
  }

 private:
  MemoryBudget* budget_ = nullptr;
  uint64_t bytes_ = 0;
};

class MemoryBudget {
 public:
  explicit MemoryBudget(uint64_t limit_bytes) : limit_(limit_bytes) {}

  // Blocks until `bytes` fit and every waiter ahead of `key` was served. A
  // request larger than the whole budget is granted alone (when nothing else
  // is reserved) rather than deadlocking. `give_up` is checked when the
  // waiter is woken (releases, poke()); when it returns true the call returns
  // an empty reservation (e.g. the job was cancelled).
  Reservation acquire(uint64_t bytes, const std::function<bool()>& give_up = {}, WorkKey key = {});
  // Non-blocking; fails (bytes()==0) when the bytes do not fit or someone is
  // waiting (it never overtakes a waiter).
  bool try_acquire(uint64_t bytes, Reservation& out);

  // Wakes waiters so they re-check `give_up` (e.g. after a job ended).
  void poke();

  // Waiting acquires (for status and tests).
  size_t waiters() const;

  uint64_t limit() const { return limit_; }
  uint64_t used() const;
  uint64_t peak() const;

  // Called when an acquire must wait: lets the owner free memory (e.g. evict
  // idle parameters). Returns bytes it freed (through their reservations).
  void set_reclaimer(std::function<void(uint64_t needed)> fn) { reclaimer_ = std::move(fn); }

 private:
  friend class Reservation;
  struct Waiter {
    uint64_t bytes = 0;
    bool granted = false;
    std::condition_variable cv;
  };
  void give_back(uint64_t bytes);
  bool fits(uint64_t bytes) const { return used_ + bytes <= limit_ || used_ == 0; }
  // Grants waiters in order while the first one fits. Under mu_.
  void grant_locked();
  void wake_first_locked();
  static constexpr std::chrono::milliseconds kReclaimRetry{500};

  const uint64_t limit_;
  mutable std::mutex mu_;
  std::multimap<WorkKey, Waiter*> waiting_;
  uint64_t next_tiebreak_ = 0;
  uint64_t used_ = 0;
  uint64_t peak_ = 0;
  std::function<void(uint64_t)> reclaimer_;
};

// Total physical memory from /proc/meminfo (bytes), 0 if unknown.
uint64_t physical_memory_bytes();

// The memory limit of this process's cgroup (v2 memory.max, or v1
// memory.limit_in_bytes), the smallest along the path up to the root;
// 0 when there is none. `fs_root` prefixes /proc and /sys (tests).
uint64_t cgroup_memory_limit_bytes(const std::string& fs_root = "");

// What this process may use: physical memory, capped by its cgroup limit.
uint64_t usable_memory_bytes();

}  // namespace cuzk::engine
