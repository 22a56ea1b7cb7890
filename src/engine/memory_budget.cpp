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

Reservation MemoryBudget::acquire(uint64_t bytes, const std::function<bool()>& give_up) {
  std::unique_lock lk(mu_);
  bool reclaimed = false;
  while (!fits(bytes)) {
    if (give_up && give_up()) return {};
    if (reclaimer_ && !reclaimed) {
      // Reclaim outside the lock: it releases reservations, which lock mu_.
      reclaimed = true;
      uint64_t need = used_ + bytes - limit_;
      lk.unlock();
      reclaimer_(need);
      lk.lock();
      continue;
    }
    cv_.wait_for(lk, std::chrono::milliseconds(50));
    reclaimed = false;
  }
  used_ += bytes;
  peak_ = std::max(peak_, used_);
  return Reservation(this, bytes);
}

bool MemoryBudget::try_acquire(uint64_t bytes, Reservation& out) {
  out.release();  // before locking: releasing locks mu_ too
  std::lock_guard lk(mu_);
  if (!fits(bytes)) return false;
  used_ += bytes;
  peak_ = std::max(peak_, used_);
  out = Reservation(this, bytes);
  return true;
}

void MemoryBudget::give_back(uint64_t bytes) {
  {
    std::lock_guard lk(mu_);
    used_ -= std::min(bytes, used_);
  }
  cv_.notify_all();
}

uint64_t MemoryBudget::used() const {
  std::lock_guard lk(mu_);
  return used_;
}
uint64_t MemoryBudget::peak() const {
  std::lock_guard lk(mu_);
  return peak_;
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
