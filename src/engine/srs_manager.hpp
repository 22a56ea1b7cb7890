#pragma once
// Resident parameters per circuit, in three tiers:
//   HOT  — decoded in memory, charged to the memory budget, ready to prove;
//   WARM — parameter file memory-mapped (page cache), decoded on next use;
//   COLD — on disk only.
// Loads on demand (or PreloadSRS), evicts least-recently-used idle entries
// when the budget needs room, and never evicts what a running job holds.
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/backend.hpp"
#include "engine/memory_budget.hpp"
#include "engine/timeline_emitter.hpp"
#include "platform/mapped_file.hpp"

namespace cuzk::engine {

class SrsManager {
 public:
  // Keeps a circuit HOT while alive.
  class Handle {
   public:
    Handle() = default;
    Handle(SrsManager* m, std::string id, std::shared_ptr<CircuitResources> r, uint64_t load_ms)
        : mgr_(m), id_(std::move(id)), res_(std::move(r)), load_ms_(load_ms) {}
    Handle(Handle&& o) noexcept { *this = std::move(o); }
    Handle& operator=(Handle&& o) noexcept;
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    ~Handle() { reset(); }
    void reset();
    // Another pin on the same circuit (one per partition in flight).
    Handle share() const;

    CircuitResources& resources() const { return *res_; }
    uint64_t load_ms() const { return load_ms_; }  // time this acquire waited for a load
    explicit operator bool() const { return res_ != nullptr; }

   private:
    SrsManager* mgr_ = nullptr;
    std::string id_;
    std::shared_ptr<CircuitResources> res_;
    uint64_t load_ms_ = 0;
  };

  SrsManager(MemoryBudget& budget, std::chrono::milliseconds min_idle, TimelineEmitter& tl);

  // Blocks while another thread loads the same circuit. Throws on load errors.
  // A load waits for budget at `priority` (the job's), ahead of that
  // priority's partitions.
  Handle acquire(const std::string& circuit_id, KindHandler& handler, const std::string& job_id,
                 int priority = kDefaultLoadPriority);
  static constexpr int kDefaultLoadPriority = 2;  // NORMAL
  // A pin when the circuit is HOT now, else an empty handle; never loads.
  Handle acquire_if_hot(const std::string& circuit_id);
  PreloadResult preload(const std::string& circuit_id, KindHandler& handler);
  // Throws ServiceError(FailedPrecondition) while the circuit is in use.
  EvictResult evict(const std::string& circuit_id);
  // Evicts idle HOT entries, least recently used first, until `needed` bytes
  // are freed or none is evictable. Returns bytes freed.
  uint64_t reclaim(uint64_t needed);

  // Circuit ids whose parameters are HOT now (no file system calls).
  std::vector<std::string> hot_circuits() const;
  // Lists the parameter directory (file system calls) before taking the lock.
  std::vector<SrsStatus> status(const std::vector<KindHandler*>& handlers) const;

 private:
  struct Entry {
    KindHandler* handler = nullptr;
    std::shared_ptr<CircuitResources> res;  // non-null = HOT
    Reservation reservation;
    platform::MappedFile mapped;  // open = at least WARM
    uint32_t refs = 0;
    bool loading = false;
    std::chrono::steady_clock::time_point last_used{};
  };
  void add_ref(const std::string& id);
  void release(const std::string& id);
  // Loads under the entry's loading flag; returns load time in ms.
  uint64_t load_locked(std::unique_lock<std::mutex>& lk, const std::string& id, Entry& e,
                       const std::string& job_id, int priority);

  MemoryBudget& budget_;
  std::chrono::milliseconds min_idle_;
  TimelineEmitter& tl_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, Entry> entries_;
};

}  // namespace cuzk::engine
