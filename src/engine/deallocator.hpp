#pragma once
// Frees large buffers off the hot path on one bounded background thread (the
// seeds' "async deallocation": many threads freeing huge buffers at once
// caused TLB-shootdown storms). When the queue is full, the caller frees
// inline, so memory is never held back unboundedly.
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

namespace cuzk::engine {

class Deallocator {
 public:
  explicit Deallocator(size_t max_pending = 16);
  ~Deallocator();  // drains the queue

  template <class T>
  void defer(std::unique_ptr<T> p) {
    if (!p) return;
    push(std::shared_ptr<void>(std::move(p)));
  }
  // Drops one reference; the object is freed here only if it was the last.
  template <class T>
  void defer(std::shared_ptr<T> p) {
    if (p) push(std::shared_ptr<void>(std::move(p)));
  }
  size_t freed_count() const;

 private:
  void push(std::shared_ptr<void> p);
  void run();
  const size_t max_pending_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::shared_ptr<void>> q_;
  size_t freed_ = 0;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace cuzk::engine
