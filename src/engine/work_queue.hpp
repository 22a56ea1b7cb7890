#pragma once
// A blocking priority queue of pipeline work. Order: higher priority first,
// then lower job sequence (older job), then lower partition, so jobs finish
// in submission order and a CRITICAL job overtakes queued work at every
// queue it passes through.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <map>

namespace cuzk::engine {

struct WorkKey {
  int priority = 0;
  uint64_t job_seq = 0;
  uint32_t partition = 0;
  uint64_t tiebreak = 0;  // insertion order, keeps the key unique

  // "Less" = popped first.
  friend bool operator<(const WorkKey& a, const WorkKey& b) {
    if (a.priority != b.priority) return a.priority > b.priority;
    if (a.job_seq != b.job_seq) return a.job_seq < b.job_seq;
    if (a.partition != b.partition) return a.partition < b.partition;
    return a.tiebreak < b.tiebreak;
  }
};

template <class T>
class WorkQueue {
 public:
  void push(WorkKey key, T item) {
    {
      std::lock_guard lk(mu_);
      key.tiebreak = next_tiebreak_++;
      items_.emplace(key, std::move(item));
    }
    cv_.notify_one();
  }

  // Blocks until an item is available or the queue is closed (then nullopt).
  std::optional<T> pop() {
    std::unique_lock lk(mu_);
    cv_.wait(lk, [&] { return closed_ || !items_.empty(); });
    if (items_.empty()) return std::nullopt;
    auto node = items_.extract(items_.begin());
    return std::move(node.mapped());
  }

  // Like pop(), but also waits while `gate()` is false (re-checked on
  // notify()). `on_pop` runs under the queue's lock with the item taken, so
  // what the gate counts can include it before any other popper looks.
  template <class Gate, class OnPop>
  std::optional<T> pop_when(Gate gate, OnPop on_pop) {
    std::unique_lock lk(mu_);
    cv_.wait(lk, [&] { return closed_ || (!items_.empty() && gate()); });
    if (items_.empty()) return std::nullopt;
    auto node = items_.extract(items_.begin());
    on_pop();
    return std::move(node.mapped());
  }
  template <class Gate>
  std::optional<T> pop_when(Gate gate) {
    return pop_when(gate, [] {});
  }

  // Removes every item matching pred; returns them (so their resources are
  // released by the caller, outside the lock).
  template <class Pred>
  std::deque<T> remove_if(Pred pred) {
    std::deque<T> out;
    std::lock_guard lk(mu_);
    for (auto it = items_.begin(); it != items_.end();) {
      if (pred(it->first, it->second)) {
        out.push_back(std::move(it->second));
        it = items_.erase(it);
      } else {
        ++it;
      }
    }
    return out;
  }

  template <class Fn>
  void for_each(Fn fn) const {
    std::lock_guard lk(mu_);
    for (const auto& [k, v] : items_) fn(k, v);
  }

  // The key popped next, if any.
  std::optional<WorkKey> top_key() const {
    std::lock_guard lk(mu_);
    if (items_.empty()) return std::nullopt;
    return items_.begin()->first;
  }

  size_t size() const {
    std::lock_guard lk(mu_);
    return items_.size();
  }

  // Wakes waiters so pop_when() re-evaluates its gate.
  void notify() { cv_.notify_all(); }

  void close() {
    {
      std::lock_guard lk(mu_);
      closed_ = true;
    }
    cv_.notify_all();
  }

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::multimap<WorkKey, T> items_;
  uint64_t next_tiebreak_ = 0;
  bool closed_ = false;
};

}  // namespace cuzk::engine
