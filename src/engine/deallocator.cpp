#include "engine/deallocator.hpp"

namespace cuzk::engine {

Deallocator::Deallocator(size_t max_pending) : max_pending_(max_pending), thread_([this] { run(); }) {}

Deallocator::~Deallocator() {
  {
    std::lock_guard lk(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void Deallocator::push(std::shared_ptr<void> p) {
  {
    std::lock_guard lk(mu_);
    if (q_.size() < max_pending_) {
      q_.push_back(std::move(p));
      cv_.notify_one();
      return;
    }
    freed_++;
  }
  p.reset();  // queue full: free here
}

void Deallocator::run() {
  std::unique_lock lk(mu_);
  for (;;) {
    cv_.wait(lk, [&] { return stop_ || !q_.empty(); });
    if (q_.empty()) return;
    auto p = std::move(q_.front());
    q_.pop_front();
    lk.unlock();
    p.reset();
    lk.lock();
    freed_++;
  }
}

size_t Deallocator::freed_count() const {
  std::lock_guard lk(mu_);
  return freed_;
}

}  // namespace cuzk::engine
