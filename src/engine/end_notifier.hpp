#pragma once
// Delivers the callbacks of ended jobs (Engine::on_end) on one thread of its
// own: jobs end under the engine's lock, where no caller's code may run, and
// a waiter that wants to be told needs no thread of its own to block in
// Engine::await.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/service.hpp"

namespace cuzk::engine {

class EndNotifier {
 public:
  using Callback = std::function<void(ProofResult)>;

  EndNotifier();
  ~EndNotifier();  // delivers what was posted, then stops
  EndNotifier(const EndNotifier&) = delete;
  EndNotifier& operator=(const EndNotifier&) = delete;

  // Calls each of `fns` with (a copy of) `result` on the notifier's thread.
  void post(std::vector<Callback> fns, ProofResult result);
  // Returns once everything posted before the call has been delivered (not
  // to be called from a callback: it would wait for itself).
  void flush();

 private:
  void loop();

  struct Item {
    std::vector<Callback> fns;
    ProofResult result;
  };
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Item> items_;
  uint64_t posted_ = 0, delivered_ = 0;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace cuzk::engine
