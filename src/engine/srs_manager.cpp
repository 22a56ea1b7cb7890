#include "engine/srs_manager.hpp"

#include <algorithm>

#include "timeline/event_names.hpp"

namespace cuzk::engine {

using Clock = std::chrono::steady_clock;

SrsManager::Handle& SrsManager::Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    reset();
    mgr_ = o.mgr_;
    id_ = std::move(o.id_);
    res_ = std::move(o.res_);
    load_ms_ = o.load_ms_;
    o.mgr_ = nullptr;
  }
  return *this;
}

void SrsManager::Handle::reset() {
  if (mgr_ && res_) mgr_->release(id_);
  mgr_ = nullptr;
  res_.reset();
}

SrsManager::Handle SrsManager::Handle::share() const {
  if (!mgr_ || !res_) return {};
  mgr_->add_ref(id_);
  return Handle(mgr_, id_, res_, 0);
}

SrsManager::SrsManager(MemoryBudget& budget, std::chrono::milliseconds min_idle, TimelineEmitter& tl)
    : budget_(budget), min_idle_(min_idle), tl_(tl) {}

uint64_t SrsManager::load_locked(std::unique_lock<std::mutex>& lk, const std::string& id, Entry& e,
                                 const std::string& job_id, int priority) {
  e.loading = true;
  KindHandler* h = e.handler;
  auto t0 = Clock::now();
  lk.unlock();
  tl_.emit(timeline::events::kSrsLoadStart, job_id, "circuit=" + id);
  std::shared_ptr<CircuitResources> res;
  Reservation rsv;
  platform::MappedFile mapped;
  std::exception_ptr err;
  try {
    std::string path = h->param_path(id);
    mapped = platform::MappedFile(path);
    // Charge the budget before decoding; reclaim may evict other idle circuits.
    const WorkKey key{priority, 0, 0, 0};
    rsv = budget_.acquire(std::max<uint64_t>(h->estimate_size(id), 1), {}, key);
    res = h->load(id, mapped.bytes());
    // Correct the estimate to the real size.
    uint64_t real = res->size_bytes();
    if (real < rsv.bytes()) {
      rsv.release_part(rsv.bytes() - real);
    } else if (real > rsv.bytes()) {
      rsv.merge(budget_.acquire(real - rsv.bytes(), {}, key));
    }
  } catch (...) {
    err = std::current_exception();
  }
  uint64_t ms = uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count());
  tl_.emit(timeline::events::kSrsLoadEnd, job_id,
           "circuit=" + id + ",load_ms=" + std::to_string(ms) + (err ? ",error=1" : ""));
  lk.lock();
  e.loading = false;
  if (err) {
    cv_.notify_all();
    std::rethrow_exception(err);
  }
  e.res = std::move(res);
  e.reservation = std::move(rsv);
  e.mapped = std::move(mapped);
  e.last_used = Clock::now();
  cv_.notify_all();
  return ms;
}

SrsManager::Handle SrsManager::acquire(const std::string& id, KindHandler& handler, const std::string& job_id,
                                       int priority) {
  std::unique_lock lk(mu_);
  Entry& e = entries_[id];
  e.handler = &handler;
  uint64_t waited_ms = 0;
  auto t0 = Clock::now();
  for (;;) {
    if (e.res) break;
    if (e.loading) {
      cv_.wait(lk);
      continue;
    }
    // Pin before loading so a concurrent reclaim can't pick this entry.
    e.refs++;
    try {
      load_locked(lk, id, e, job_id, priority);
    } catch (...) {
      e.refs--;
      throw;
    }
    e.refs--;
  }
  waited_ms = uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count());
  e.refs++;
  e.last_used = Clock::now();
  return Handle(this, id, e.res, waited_ms);
}

SrsManager::Handle SrsManager::acquire_if_hot(const std::string& id) {
  std::lock_guard lk(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end() || !it->second.res) return {};
  it->second.refs++;
  it->second.last_used = Clock::now();
  return Handle(this, id, it->second.res, 0);
}

void SrsManager::add_ref(const std::string& id) {
  std::lock_guard lk(mu_);
  entries_[id].refs++;
}

void SrsManager::release(const std::string& id) {
  std::lock_guard lk(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return;
  if (it->second.refs) it->second.refs--;
  it->second.last_used = Clock::now();
}

PreloadResult SrsManager::preload(const std::string& id, KindHandler& handler) {
  std::unique_lock lk(mu_);
  Entry& e = entries_[id];
  e.handler = &handler;
  while (e.loading) cv_.wait(lk);
  if (e.res) return {true, 0};
  e.refs++;
  uint64_t ms = 0;
  try {
    ms = load_locked(lk, id, e, "preload", kDefaultLoadPriority);
  } catch (...) {
    e.refs--;
    throw;
  }
  e.refs--;
  return {false, ms};
}

EvictResult SrsManager::evict(const std::string& id) {
  std::shared_ptr<CircuitResources> dropped;
  Reservation freed;
  {
    std::lock_guard lk(mu_);
    auto it = entries_.find(id);
    if (it == entries_.end() || !it->second.res) return {false, 0};
    Entry& e = it->second;
    if (e.refs || e.loading)
      throw ServiceError(ServiceError::Code::FailedPrecondition,
                         "circuit " + id + " is in use by " + std::to_string(e.refs) + " job(s)");
    dropped = std::move(e.res);
    freed = std::move(e.reservation);
  }
  uint64_t bytes = freed.bytes();
  dropped.reset();
  freed.release();  // outside mu_: wakes budget waiters
  return {true, bytes};
}

uint64_t SrsManager::reclaim(uint64_t needed) {
  uint64_t total = 0;
  while (total < needed) {
    std::shared_ptr<CircuitResources> dropped;
    Reservation freed;
    {
      std::lock_guard lk(mu_);
      Entry* victim = nullptr;
      auto now = Clock::now();
      for (auto& [id, e] : entries_) {
        if (!e.res || e.refs || e.loading) continue;
        if (now - e.last_used < min_idle_) continue;
        if (!victim || e.last_used < victim->last_used) victim = &e;
      }
      if (!victim) break;
      dropped = std::move(victim->res);
      freed = std::move(victim->reservation);
    }
    total += freed.bytes();
    dropped.reset();
    freed.release();
  }
  return total;
}

std::vector<std::string> SrsManager::hot_circuits() const {
  std::lock_guard lk(mu_);
  std::vector<std::string> out;
  for (const auto& [id, e] : entries_)
    if (e.res) out.push_back(id);
  return out;
}

std::vector<SrsStatus> SrsManager::status(const std::vector<KindHandler*>& handlers) const {
  // Directory listings and file sizes first, outside the lock.
  std::vector<std::pair<std::string, uint64_t>> on_disk;
  for (KindHandler* h : handlers)
    for (const auto& id : h->list_circuits()) on_disk.emplace_back(id, h->estimate_size(id));
  std::vector<SrsStatus> out;
  std::lock_guard lk(mu_);
  for (const auto& [id, e] : entries_) {
    SrsStatus s;
    s.circuit_id = id;
    s.tier = e.res ? SrsTier::Hot : e.mapped.is_open() ? SrsTier::Warm : SrsTier::Cold;
    s.size_bytes = e.res ? e.res->size_bytes() : e.mapped.size();
    s.device_bytes = e.res ? e.res->device_bytes() : 0;
    s.ref_count = e.refs;
    out.push_back(s);
  }
  // Circuits present on disk but never touched: COLD.
  for (const auto& [id, bytes] : on_disk) {
    if (entries_.count(id)) continue;
    SrsStatus s;
    s.circuit_id = id;
    s.tier = SrsTier::Cold;
    s.size_bytes = bytes;
    out.push_back(s);
  }
  return out;
}

}  // namespace cuzk::engine
