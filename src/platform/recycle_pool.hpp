#pragma once
// Large buffers handed back for reuse (recycle_large, RawArray) and taken
// again by reserve_large or a new RawArray: a buffer whose pages are already
// resident costs no page faults and no kernel page clears, which on the
// development VM are most of the cost of first writes (synthesis of a 2 KiB
// PoRep partition, whose a/b/c/aux take 470 MB, ran 25% faster with them
// reused). Per element type; at most kSlots buffers and recycle_limit()
// bytes in all types together (set_recycle_limit). A request takes the
// smallest buffer that fits, and none more than twice its size.
//
// Where a RecycleAccount is set (the daemon's memory budget), every byte
// that enters or leaves the pool is reported to it, so that kept buffers
// count against the budget like any other memory, and the account's owner
// may free them under pressure (free_recycled).
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <new>
#include <shared_mutex>
#include <utility>
#include <vector>

namespace cuzk::platform {

// Told of every buffer that enters the pool, leaves it for reuse, or is
// freed from it, and whether it is a vector's (reserve_large, size_large:
// what synthesis takes) or a raw block's (RawArray: a device phase's
// scratch). Called under a pool's lock: it must not call into the pool.
class RecycleAccount {
 public:
  enum class Kind { Vector, Block };
  virtual ~RecycleAccount() = default;
  virtual void pooled(size_t bytes, Kind kind) = 0;
  virtual void reused(size_t bytes, Kind kind) = 0;
  virtual void freed(size_t bytes, Kind kind) = 0;
};

namespace detail {
inline std::atomic<size_t> g_recycle_limit{0};
inline std::atomic<size_t> g_recycled_bytes{0};
// The account, and a lock that keeps it alive while a report is made (set
// and unset wait for reports in progress).
inline std::shared_mutex g_account_m;
inline RecycleAccount* g_account = nullptr;

enum class Report { Pooled, Reused, Freed };
inline void report(Report r, size_t bytes, RecycleAccount::Kind kind) {
  std::shared_lock lock(g_account_m);
  if (!g_account) return;
  switch (r) {
    case Report::Pooled: g_account->pooled(bytes, kind); break;
    case Report::Reused: g_account->reused(bytes, kind); break;
    case Report::Freed: g_account->freed(bytes, kind); break;
  }
}

// The byte count is shared by every pool (each with its own lock): claim the
// bytes atomically, so the pools together stay within the limit.
inline bool claim_recycle_bytes(size_t bytes) {
  size_t held = g_recycled_bytes.load();
  do {
    if (held + bytes > g_recycle_limit.load()) return false;
  } while (!g_recycled_bytes.compare_exchange_weak(held, held + bytes));
  return true;
}

// Every vector pool that ever held a buffer, so that free_recycled reaches
// all element types: each frees up to the bytes asked, returns what it freed.
using TrimFn = size_t (*)(size_t);
inline std::mutex g_pools_m;
inline std::vector<TrimFn> g_pools;
inline bool register_pool(TrimFn trim) {
  std::lock_guard lock(g_pools_m);
  g_pools.push_back(trim);
  return true;
}

// Indices of `sizes` to free, the largest first, until `want` is reached.
inline std::vector<size_t> largest_first(const std::vector<size_t>& sizes, size_t want) {
  std::vector<size_t> order(sizes.size());
  for (size_t i = 0; i < order.size(); i++) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return sizes[x] > sizes[y]; });
  size_t got = 0, n = 0;
  while (n < order.size() && got < want) got += sizes[order[n++]];
  order.resize(n);
  std::sort(order.begin(), order.end(), std::greater<>());  // erase from the back
  return order;
}

template <class T>
class Recycled {
 public:
  static constexpr size_t kSlots = 8;
  static void put(std::vector<T>&& v) {
    static const bool registered = register_pool(&trim);
    (void)registered;
    const size_t bytes = v.capacity() * sizeof(T);
    std::lock_guard lock(m_);
    if (pool_.size() >= kSlots) return;
    if (!claim_recycle_bytes(bytes)) return;
    pool_.push_back(std::move(v));  // with its elements: size_large() may keep them
    report(Report::Pooled, bytes, RecycleAccount::Kind::Vector);
  }
  // The smallest pooled buffer of cap to 2·cap elements, if any, with the
  // elements it was recycled with.
  static bool take(std::vector<T>& out, size_t cap) {
    std::lock_guard lock(m_);
    size_t best = pool_.size();
    for (size_t i = 0; i < pool_.size(); i++) {
      const size_t c = pool_[i].capacity();
      if (c >= cap && c / 2 <= cap && (best == pool_.size() || c < pool_[best].capacity())) best = i;
    }
    if (best == pool_.size()) return false;
    const size_t bytes = pool_[best].capacity() * sizeof(T);
    g_recycled_bytes -= bytes;
    report(Report::Reused, bytes, RecycleAccount::Kind::Vector);
    out.swap(pool_[best]);
    pool_.erase(pool_.begin() + std::ptrdiff_t(best));
    return true;
  }
  static void clear() { trim(SIZE_MAX); }
  // Frees pooled buffers, the largest first, until `want` bytes are freed.
  static size_t trim(size_t want) {
    std::vector<std::vector<T>> drop;  // freed after the lock is let go
    std::lock_guard lock(m_);
    std::vector<size_t> sizes;
    for (auto& v : pool_) sizes.push_back(v.capacity() * sizeof(T));
    size_t freed = 0;
    for (size_t i : largest_first(sizes, want)) {
      g_recycled_bytes -= sizes[i];
      report(Report::Freed, sizes[i], RecycleAccount::Kind::Vector);
      freed += sizes[i];
      drop.push_back(std::move(pool_[i]));
      pool_.erase(pool_.begin() + std::ptrdiff_t(i));
    }
    return freed;
  }

 private:
  static inline std::mutex m_;
  static inline std::vector<std::vector<T>> pool_;
};

// The same for raw aligned blocks (RawArray's buffers), any element type:
// they are only ever written in full before they are read. More slots: an
// MSM alone frees a dozen blocks of 0.25-4 MB (buckets, per-thread scratch).
class RecycledBlocks {
 public:
  struct Block {
    void* p = nullptr;
    size_t bytes = 0;
    size_t align = 0;
  };
  static constexpr size_t kSlots = 64;
  static bool put(const Block& b) {
    std::lock_guard lock(m_);
    if (closed_ || pool_.size() >= kSlots || !claim_recycle_bytes(b.bytes)) return false;
    pool_.push_back(b);
    report(Report::Pooled, b.bytes, RecycleAccount::Kind::Block);
    return true;
  }
  // The smallest pooled block of bytes to 2·bytes with at least that
  // alignment, if any.
  static bool take(Block& out, size_t bytes, size_t align) {
    std::lock_guard lock(m_);
    size_t best = pool_.size();
    for (size_t i = 0; i < pool_.size(); i++) {
      const Block& b = pool_[i];
      if (b.bytes >= bytes && b.bytes / 2 <= bytes && b.align >= align &&
          (best == pool_.size() || b.bytes < pool_[best].bytes))
        best = i;
    }
    if (best == pool_.size()) return false;
    out = pool_[best];
    g_recycled_bytes -= out.bytes;
    report(Report::Reused, out.bytes, RecycleAccount::Kind::Block);
    pool_.erase(pool_.begin() + std::ptrdiff_t(best));
    return true;
  }
  static void clear() { trim(SIZE_MAX); }
  static size_t trim(size_t want) {
    std::vector<Block> drop;
    {
      std::lock_guard lock(m_);
      std::vector<size_t> sizes;
      for (const Block& b : pool_) sizes.push_back(b.bytes);
      for (size_t i : largest_first(sizes, want)) {
        g_recycled_bytes -= pool_[i].bytes;
        report(Report::Freed, pool_[i].bytes, RecycleAccount::Kind::Block);
        drop.push_back(pool_[i]);
        pool_.erase(pool_.begin() + std::ptrdiff_t(i));
      }
    }
    size_t freed = 0;
    for (const Block& b : drop) {
      freed += b.bytes;
      ::operator delete[](b.p, std::align_val_t(b.align));
    }
    return freed;
  }

 private:
  // The blocks are freed at exit (a leak checker would report them once
  // the list is gone); an array freed after that frees its own.
  struct Pool : std::vector<Block> {
    ~Pool() {
      std::lock_guard lock(m_);
      closed_ = true;
      for (const Block& b : *this) ::operator delete[](b.p, std::align_val_t(b.align));
    }
  };
  static inline std::mutex m_;
  static inline bool closed_ = false;
  static inline Pool pool_;
};
}  // namespace detail

// Bytes the pool may hold (0, the default, disables recycling) and the
// bytes it holds now. Recycling pays in a process that proves over and over
// (the daemon sets it); in a one-shot run a buffer kept in the pool only
// makes the next allocation of another type take fresh pages instead of the
// freed ones (on the development VM, 0.4 s more for a 2 KiB PoRep proof).
inline void set_recycle_limit(size_t bytes) { detail::g_recycle_limit = bytes; }
inline size_t recycle_limit() { return detail::g_recycle_limit; }
inline size_t recycled_bytes() { return detail::g_recycled_bytes; }
// Sets the limit for a scope and then restores it (tests, benchmarks).
class ScopedRecycleLimit {
 public:
  explicit ScopedRecycleLimit(size_t bytes) : old_(recycle_limit()) { set_recycle_limit(bytes); }
  ~ScopedRecycleLimit() { set_recycle_limit(old_); }
  ScopedRecycleLimit(const ScopedRecycleLimit&) = delete;
  ScopedRecycleLimit& operator=(const ScopedRecycleLimit&) = delete;

 private:
  size_t old_;
};

// The account told of the pool's bytes from now on (nullptr: none); returns
// the one it replaces, once no report to that one is in progress. Bytes
// already pooled are not reported to it (free them first).
inline RecycleAccount* set_recycle_account(RecycleAccount* account) {
  std::unique_lock lock(detail::g_account_m);
  return std::exchange(detail::g_account, account);
}
inline RecycleAccount* recycle_account() {
  std::shared_lock lock(detail::g_account_m);
  return detail::g_account;
}
// Stops reporting to `account` if it is still the one set (waiting for
// reports in progress); true if it was.
inline bool unset_recycle_account(RecycleAccount* account) {
  std::unique_lock lock(detail::g_account_m);
  if (detail::g_account != account) return false;
  detail::g_account = nullptr;
  return true;
}

// Frees pooled RawArray blocks, the largest first, until at least `bytes`
// are freed or none are left; returns the bytes freed.
inline size_t free_recycled_blocks(size_t bytes) { return detail::RecycledBlocks::trim(bytes); }
// The same over the whole pool: blocks first (scratch, cheap to lose), then
// vectors, the largest first within an element type.
inline size_t free_recycled(size_t bytes) {
  size_t freed = free_recycled_blocks(bytes);
  std::vector<detail::TrimFn> pools;
  {
    std::lock_guard lock(detail::g_pools_m);
    pools = detail::g_pools;
  }
  for (detail::TrimFn trim : pools) {
    if (freed >= bytes) break;
    freed += trim(bytes - freed);
  }
  return freed;
}
// Frees the pooled buffers of element type T.
template <class T>
void drop_recycled() {
  detail::Recycled<T>::clear();
}
// Frees the pooled RawArray blocks.
inline void drop_recycled_blocks() { detail::RecycledBlocks::clear(); }

}  // namespace cuzk::platform
