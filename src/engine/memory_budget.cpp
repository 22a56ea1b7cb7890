#include "engine/memory_budget.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>

namespace cuzk::engine {

Reservation& Reservation::operator=(Reservation&& o) noexcept {
  if (this != &o) {
    release();
    budget_ = o.budget_;
    bytes_ = o.bytes_;
    pledged_ = o.pledged_;
    o.budget_ = nullptr;
    o.bytes_ = 0;
    o.pledged_ = 0;
  }
  return *this;
}

void Reservation::settle() {
  if (!budget_ || pledged_ == 0) return;
  const uint64_t pledged = pledged_;
  pledged_ = 0;
  budget_->settle(pledged);
}

void Reservation::release_part(uint64_t bytes) {
  settle();
  bytes = std::min(bytes, bytes_);
  if (!budget_ || bytes == 0) return;
  bytes_ -= bytes;
  budget_->give_back(bytes);
}

Reservation MemoryBudget::acquire(uint64_t bytes, const std::function<bool()>& give_up, WorkKey key,
                                  bool reuses_pooled) {
  std::unique_lock lk(mu_);
  if (waiting_.empty() && fits(bytes, reuses_pooled)) {
    const uint64_t pledged = grant(bytes, reuses_pooled);
    return Reservation(this, bytes, pledged);
  }
  Waiter me;
  me.bytes = bytes;
  me.reuses_pooled = reuses_pooled;
  key.tiebreak = next_tiebreak_++;
  auto pos = waiting_.emplace(key, &me);
  bool reclaimed = false;
  for (;;) {
    grant_locked();
    if (me.granted) return Reservation(this, bytes, me.pledged);
    if (give_up && give_up()) break;
    const bool first = waiting_.begin() == pos;
    if (first && (reclaimer_ || pool_freer_) && !reclaimed) {
      // First in line and still short: free the pool's buffers (its blocks
      // only, for a request that reuses the vectors), then let the owner free
      // idle memory; outside the lock (both release bytes, which locks mu_).
      reclaimed = true;
      const auto need = [&] {
        const uint64_t other = in_the_way(reuses_pooled);
        return other + bytes > limit_ ? other + bytes - limit_ : 0;
      };
      // Freed bytes that were pledged to a partition do not make room: free
      // on while the pool gives something.
      while (pool_freer_ && pooled_blocks_ + (reuses_pooled ? 0 : pooled_vectors_) > 0 && need()) {
        const uint64_t n = need();
        lk.unlock();
        const uint64_t got = pool_freer_(n, reuses_pooled);
        lk.lock();
        grant_locked();
        if (me.granted || !got) break;
      }
      if (me.granted) continue;
      if (const uint64_t n = need(); n && reclaimer_) {
        lk.unlock();
        reclaimer_(n);
        lk.lock();
      }
      continue;
    }
    // Others wait to be granted or poked. The first waiter also retries the
    // reclaimer now and then: parameters become evictable by growing idle
    // (memory.eviction_min_idle), which no release announces.
    if (first && reclaimer_) me.cv.wait_for(lk, kReclaimRetry);
    else me.cv.wait(lk);
    reclaimed = false;
  }
  waiting_.erase(pos);
  // Leaving may let the next waiter in (it was held behind this one).
  grant_locked();
  wake_first_locked();
  return {};
}

uint64_t MemoryBudget::grant(uint64_t bytes, bool reuses_pooled) {
  const uint64_t pledged = reuses_pooled ? std::min(pooled_vectors_, bytes) : 0;
  pooled_vectors_ -= pledged;
  pledged_ += pledged;
  used_ += bytes - pledged;
  peak_ = std::max(peak_, used_ - pooled_vectors_ - pooled_blocks_);
  return pledged;
}

void MemoryBudget::wake_first_locked() {
  if (!waiting_.empty()) waiting_.begin()->second->cv.notify_one();
}

void MemoryBudget::grant_locked() {
  while (!waiting_.empty()) {
    auto first = waiting_.begin();
    Waiter* w = first->second;
    if (!fits(w->bytes, w->reuses_pooled)) return;
    w->pledged = grant(w->bytes, w->reuses_pooled);
    w->granted = true;
    waiting_.erase(first);
    w->cv.notify_one();
  }
}

bool MemoryBudget::try_acquire(uint64_t bytes, Reservation& out) {
  out.release();  // before locking: releasing locks mu_ too
  std::unique_lock lk(mu_);
  if (!waiting_.empty()) return false;
  if (!fits(bytes, false) && pool_freer_ && pooled_vectors_ + pooled_blocks_ > 0) {
    // Pooled buffers are in the way: free them.
    const uint64_t need = used_ + bytes - limit_;
    lk.unlock();
    pool_freer_(need, false);
    lk.lock();
    if (!waiting_.empty()) return false;
  }
  if (!fits(bytes, false)) return false;
  grant(bytes, false);
  out = Reservation(this, bytes);
  return true;
}

void MemoryBudget::give_back(uint64_t bytes) {
  std::lock_guard lk(mu_);
  used_ -= std::min(bytes, used_);
  grant_locked();
  wake_first_locked();  // still short: it may reclaim what this release made idle
}

void MemoryBudget::settle(uint64_t pledged) {
  uint64_t over = 0;
  {
    std::lock_guard lk(mu_);
    // Pledged bytes are not told apart by holder: at most this holder's
    // pledge goes back to the pool (if another's buffers were taken in its
    // place, they are charged twice until that holder releases).
    const uint64_t back = std::min(pledged, pledged_);
    pledged_ -= back;
    pooled_vectors_ += back;
    used_ += back;
    // The holder allocated afresh what it did not take: the pool gives way.
    if (used_ > limit_) over = std::min(back, used_ - limit_);
    else if (back) wake_first_locked();  // a request that frees the pool may go on
  }
  if (over && pool_freer_) pool_freer_(over, false);
}

void MemoryBudget::unpool_locked(uint64_t bytes, platform::RecycleAccount::Kind kind) {
  using Kind = platform::RecycleAccount::Kind;
  if (kind == Kind::Vector) {
    // Pledged bytes first: they are a reservation's already (a buffer a
    // holder was counting on and that went elsewhere or was freed means the
    // holder allocates that much afresh, within its reservation).
    const uint64_t from_pledges = std::min(pledged_, bytes);
    pledged_ -= from_pledges;
    bytes -= from_pledges;
  }
  uint64_t& pooled = kind == Kind::Vector ? pooled_vectors_ : pooled_blocks_;
  const uint64_t charged = std::min(pooled, bytes);
  if (!charged) return;
  pooled -= charged;
  used_ -= std::min(charged, used_);
  grant_locked();
  wake_first_locked();
}

void MemoryBudget::PoolAccount::pooled(size_t bytes, Kind kind) {
  // Charged on entry, while the bytes may still be reserved by the work
  // that let the buffer go (until it releases them): counted twice for a
  // moment rather than not at all.
  std::lock_guard lk(b_.mu_);
  (kind == Kind::Vector ? b_.pooled_vectors_ : b_.pooled_blocks_) += bytes;
  b_.used_ += bytes;
}

// A taker other than a holder of pledges has its own reservation cover the
// buffer from now on: the pool's charge ends either way.
void MemoryBudget::PoolAccount::reused(size_t bytes, Kind kind) {
  std::lock_guard lk(b_.mu_);
  b_.unpool_locked(bytes, kind);
}

void MemoryBudget::PoolAccount::freed(size_t bytes, Kind kind) {
  std::lock_guard lk(b_.mu_);
  b_.unpool_locked(bytes, kind);
}

void MemoryBudget::poke() {
  std::lock_guard lk(mu_);
  for (auto& [key, w] : waiting_) w->cv.notify_one();
}

size_t MemoryBudget::waiters() const {
  std::lock_guard lk(mu_);
  return waiting_.size();
}

uint64_t MemoryBudget::used() const {
  std::lock_guard lk(mu_);
  return used_;
}
uint64_t MemoryBudget::peak() const {
  std::lock_guard lk(mu_);
  return peak_;
}
uint64_t MemoryBudget::pooled() const {
  std::lock_guard lk(mu_);
  return pooled_vectors_ + pooled_blocks_;
}
uint64_t MemoryBudget::pledged() const {
  std::lock_guard lk(mu_);
  return pledged_;
}

void charge_recycling_to(MemoryBudget& budget) {
  // Buffers pooled so far are another account's or none's: freed (reported
  // to that account) before this one is told of the pool's bytes.
  platform::set_recycle_limit(0);
  platform::free_recycled(SIZE_MAX);
  budget.set_pool_freer([](uint64_t bytes, bool blocks_only) {
    return uint64_t(blocks_only ? platform::free_recycled_blocks(bytes) : platform::free_recycled(bytes));
  });
  platform::set_recycle_account(&budget.pool_account());
  platform::set_recycle_limit(budget.limit());
}

void stop_charging_recycling(MemoryBudget& budget) {
  if (platform::recycle_account() != &budget.pool_account()) return;  // another's now
  // No buffer enters the pool any more (work freed later, by the engine's
  // deallocator, is freed outright), then what it holds is freed and
  // reported, then the account goes.
  platform::set_recycle_limit(0);
  platform::free_recycled(SIZE_MAX);
  platform::unset_recycle_account(&budget.pool_account());
}

namespace {

// A limit file's value: a byte count, or "max" / a huge v1 sentinel (none).
uint64_t read_limit(const std::string& path) {
  std::ifstream in(path);
  std::string v;
  if (!(in >> v) || v == "max") return 0;
  try {
    uint64_t x = std::stoull(v);
    return x >= (1ull << 62) ? 0 : x;
  } catch (const std::exception&) {
    return 0;
  }
}

// The smallest limit in `dir` and its parents up to `top` (inclusive).
uint64_t min_limit_up(std::string top, std::string rel, const char* file) {
  uint64_t best = 0;
  for (;;) {
    uint64_t v = read_limit(top + rel + "/" + file);
    if (v && (!best || v < best)) best = v;
    if (rel.empty() || rel == "/") break;
    rel = rel.substr(0, rel.find_last_of('/'));
  }
  return best;
}

}  // namespace

uint64_t cgroup_memory_limit_bytes(const std::string& fs_root) {
  std::ifstream in(fs_root + "/proc/self/cgroup");
  std::string line;
  uint64_t best = 0;
  auto take = [&](uint64_t v) {
    if (v && (!best || v < best)) best = v;
  };
  while (std::getline(in, line)) {
    // "<id>:<controllers>:<path>"; v2 has id 0 and no controllers.
    size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (!path.empty() && path.back() == '/') path.pop_back();
    if (controllers.empty()) {
      take(min_limit_up(fs_root + "/sys/fs/cgroup", path, "memory.max"));
    } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
      // Inside a container the host path may not exist: the mount root is ours.
      take(min_limit_up(fs_root + "/sys/fs/cgroup/memory", path, "memory.limit_in_bytes"));
    }
  }
  return best;
}

uint64_t usable_memory_bytes() {
  uint64_t mem = physical_memory_bytes(), cg = cgroup_memory_limit_bytes();
  return cg && (!mem || cg < mem) ? cg : mem;
}

uint64_t physical_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  uint64_t kb = 0;
  std::string unit;
  while (in >> key >> kb >> unit)
    if (key == "MemTotal:") return kb * 1024;
  return 0;
}

}  // namespace cuzk::engine
