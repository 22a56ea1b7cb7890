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
    o.budget_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}

void Reservation::release_part(uint64_t bytes) {
  bytes = std::min(bytes, bytes_);
  if (!budget_ || bytes == 0) return;
  bytes_ -= bytes;
  budget_->give_back(bytes);
}

Reservation MemoryBudget::acquire(uint64_t bytes, const std::function<bool()>& give_up, WorkKey key) {
  std::unique_lock lk(mu_);
  if (waiting_.empty() && fits(bytes)) {
    used_ += bytes;
    peak_ = std::max(peak_, used_);
    return Reservation(this, bytes);
  }
  Waiter me;
  me.bytes = bytes;
  key.tiebreak = next_tiebreak_++;
  auto pos = waiting_.emplace(key, &me);
  bool reclaimed = false;
  for (;;) {
    grant_locked();
    if (me.granted) return Reservation(this, bytes);
    if (give_up && give_up()) break;
    const bool first = waiting_.begin() == pos;
    if (first && reclaimer_ && !reclaimed) {
      // First in line and still short: let the owner free idle memory, outside
      // the lock (it releases reservations, which lock mu_).
      reclaimed = true;
      const uint64_t need = used_ + bytes > limit_ ? used_ + bytes - limit_ : 0;
      lk.unlock();
      reclaimer_(need);
      lk.lock();
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

void MemoryBudget::wake_first_locked() {
  if (!waiting_.empty()) waiting_.begin()->second->cv.notify_one();
}

void MemoryBudget::grant_locked() {
  while (!waiting_.empty()) {
    auto first = waiting_.begin();
    Waiter* w = first->second;
    if (!fits(w->bytes)) return;
    used_ += w->bytes;
    peak_ = std::max(peak_, used_);
    w->granted = true;
    waiting_.erase(first);
    w->cv.notify_one();
  }
}

bool MemoryBudget::try_acquire(uint64_t bytes, Reservation& out) {
  out.release();  // before locking: releasing locks mu_ too
  std::lock_guard lk(mu_);
  if (!waiting_.empty() || !fits(bytes)) return false;
  used_ += bytes;
  peak_ = std::max(peak_, used_);
  out = Reservation(this, bytes);
  return true;
}

void MemoryBudget::give_back(uint64_t bytes) {
  std::lock_guard lk(mu_);
  used_ -= std::min(bytes, used_);
  grant_locked();
  wake_first_locked();  // still short: it may reclaim what this release made idle
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
