#include "engine/end_notifier.hpp"

namespace cuzk::engine {

EndNotifier::EndNotifier() : thread_([this] { loop(); }) {}

EndNotifier::~EndNotifier() {
  {
    std::lock_guard lk(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void EndNotifier::post(std::vector<Callback> fns, ProofResult result) {
  {
    std::lock_guard lk(mu_);
    items_.push_back({std::move(fns), std::move(result)});
    posted_++;
  }
  cv_.notify_all();
}

void EndNotifier::flush() {
  std::unique_lock lk(mu_);
  const uint64_t target = posted_;
  cv_.wait(lk, [&] { return delivered_ >= target; });
}

void EndNotifier::loop() {
  std::unique_lock lk(mu_);
  for (;;) {
    cv_.wait(lk, [&] { return stop_ || !items_.empty(); });
    if (items_.empty()) return;  // stopping, and everything delivered
    Item item = std::move(items_.front());
    items_.pop_front();
    lk.unlock();
    for (auto& fn : item.fns) {
      try {
        fn(item.result);
      } catch (...) {  // a caller's failure is its own; the others still hear
      }
    }
    lk.lock();
    delivered_++;
    cv_.notify_all();
  }
}

}  // namespace cuzk::engine
