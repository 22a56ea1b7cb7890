#pragma once
// When a synthesis worker may take its next partition: never while a
// finalizer runs a proof's CPU tail if pipeline.throttle_synthesis_during_tail
// is set (the tail and synthesis compete for the same cores), and only while
// the partitions queued for the device plus those being synthesized stay
// under pipeline.max_gpu_queue_depth (0: no bound) — synthesized partitions
// hold memory until the device takes them. A partition counts from its pop
// (taken under the queue's lock: two workers cannot pass together) until it
// is in the device queue, has failed or was dropped. Lock-free: the
// synthesis queue evaluates may_take under its own lock and is notified
// when a count falls.
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace cuzk::engine {

class SynthesisPacer {
 public:
  SynthesisPacer(bool throttle_during_tail, uint32_t max_device_queue)
      : throttle_during_tail_(throttle_during_tail), max_device_queue_(max_device_queue) {}

  bool may_take(size_t device_queued) const {
    if (throttle_during_tail_ && tails_.load() > 0) return false;
    return max_device_queue_ == 0 || device_queued + synthesizing_.load() < max_device_queue_;
  }
  void took() { synthesizing_++; }
  void released() { synthesizing_--; }
  void tail_started() { tails_++; }
  void tail_ended() { tails_--; }
  uint32_t synthesizing() const { return synthesizing_.load(); }

 private:
  const bool throttle_during_tail_;
  const uint32_t max_device_queue_;
  std::atomic<uint32_t> synthesizing_{0};
  std::atomic<uint32_t> tails_{0};
};

}  // namespace cuzk::engine
