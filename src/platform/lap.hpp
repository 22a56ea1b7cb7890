#pragma once
// Phase timing of the provers: each call adds the wall time since the
// previous one to a field of a times struct; a no-op without one, so that an
// untimed proof pays no clock reads.
#include <chrono>

namespace cuzk::platform {

template <class Times>
class Lap {
 public:
  explicit Lap(Times* t) : t_(t), last_(t ? Clock::now() : Clock::time_point{}) {}
  void operator()(double Times::*field) {
    if (!t_) return;
    auto now = Clock::now();
    t_->*field += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }

 private:
  using Clock = std::chrono::steady_clock;
  Times* t_;
  Clock::time_point last_;
};

}  // namespace cuzk::platform
