#pragma once
// Large std::vectors in transparent huge pages: reserve_large(v, cap) gives
// v a buffer advised to use 2 MiB pages before anything is written to it,
// or a recycled one (recycle_large, below) whose pages are already there.
// On the development VM a first touch in 4 KiB pages costs a paravirtual
// page fault per page: for the prover's 128 MB of h scalars that was 0.8 s
// of a 2 KiB PoRep proof, against 0.05 s in huge pages. platform::RawArray
// uses the same advice for uninitialised arrays.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>
#include <type_traits>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace cuzk::platform {

// Asks for transparent huge pages over [p, p + bytes), before its first
// write; only a hint (no effect where unsupported).
inline void advise_huge_pages(void* p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (bytes) madvise(p, bytes, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

// Large buffers handed back for reuse (recycle_large) and taken again by
// reserve_large: a buffer whose pages are already resident costs no page
// faults and no kernel page clears, which on the development VM are most of
// the cost of first writes (synthesis of a 2 KiB PoRep partition, whose
// a/b/c/aux take 470 MB, ran 25% faster with them reused). Per element
// type; at most kSlots buffers and recycle_limit() bytes in all types
// together (set_recycle_limit). A request takes the smallest buffer that
// fits, and none more than twice its size.
namespace detail {
inline std::atomic<size_t> g_recycle_limit{0};
inline std::atomic<size_t> g_recycled_bytes{0};

// The byte count is shared by every pool (each with its own lock): claim the
// bytes atomically, so the pools together stay within the limit.
inline bool claim_recycle_bytes(size_t bytes) {
  size_t held = g_recycled_bytes.load();
  do {
    if (held + bytes > g_recycle_limit.load()) return false;
  } while (!g_recycled_bytes.compare_exchange_weak(held, held + bytes));
  return true;
}

template <class T>
class Recycled {
 public:
  static constexpr size_t kSlots = 8;
  static void put(std::vector<T>&& v) {
    const size_t bytes = v.capacity() * sizeof(T);
    std::lock_guard lock(m_);
    if (pool_.size() >= kSlots) return;
    if (!claim_recycle_bytes(bytes)) return;
    pool_.push_back(std::move(v));  // with its elements: size_large() may keep them
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
    g_recycled_bytes -= pool_[best].capacity() * sizeof(T);
    out.swap(pool_[best]);
    pool_.erase(pool_.begin() + std::ptrdiff_t(best));
    return true;
  }
  static void clear() {
    std::vector<std::vector<T>> drop;
    std::lock_guard lock(m_);
    for (auto& v : pool_) g_recycled_bytes -= v.capacity() * sizeof(T);
    drop.swap(pool_);
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
    pool_.erase(pool_.begin() + std::ptrdiff_t(best));
    return true;
  }
  static void clear() {
    std::vector<Block> drop;
    {
      std::lock_guard lock(m_);
      for (const Block& b : pool_) g_recycled_bytes -= b.bytes;
      drop.swap(pool_);
    }
    for (const Block& b : drop) ::operator delete[](b.p, std::align_val_t(b.align));
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

inline constexpr size_t kLargeBytes = size_t(4) << 20;  // buffers below this are left to malloc

// Offers v's buffer for reuse by a later reserve_large of the same element
// type (kept when large and the pool has room, else freed); v is left empty.
template <class T>
void recycle_large(std::vector<T>& v) {
  if (v.capacity() * sizeof(T) >= kLargeBytes) detail::Recycled<T>::put(std::move(v));
  std::vector<T>().swap(v);
}
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
// Frees the pooled buffers of element type T.
template <class T>
void drop_recycled() {
  detail::Recycled<T>::clear();
}
// Frees the pooled RawArray blocks.
inline void drop_recycled_blocks() { detail::RecycledBlocks::clear(); }

// v.reserve(cap), with huge-page advice for the new buffer, or a recycled
// buffer large enough.
template <class T>
void reserve_large(std::vector<T>& v, size_t cap) {
  constexpr size_t kSmall = kLargeBytes;  // small pages below this offset
  if (cap <= v.capacity()) return;
  if (cap * sizeof(T) <= kSmall) {
    v.reserve(cap);
    return;
  }
  std::vector<T> next;
  if (detail::Recycled<T>::take(next, cap)) {
    next.clear();
    next.insert(next.end(), v.begin(), v.end());
    v.swap(next);
    return;
  }
  next.reserve(cap);
  // Keeping the head in small pages means a large reservation that is
  // barely used costs no 2 MiB page clears.
  auto begin = (reinterpret_cast<uintptr_t>(next.data()) + kSmall) & ~uintptr_t(4095);
  auto end = reinterpret_cast<uintptr_t>(next.data() + cap);
  if (end > begin) advise_huge_pages(reinterpret_cast<void*>(begin), end - begin);
  next.insert(next.end(), v.begin(), v.end());
  v.swap(next);
}

// An empty v given a recycled buffer of cap to 2·cap elements with the
// elements it was recycled with (whatever values), if the pool holds one;
// false (v unchanged) otherwise.
template <class T>
bool take_recycled(std::vector<T>& v, size_t cap) {
  static_assert(std::is_trivially_copyable_v<T>, "old contents are kept as they are");
  return v.empty() && cap * sizeof(T) > kLargeBytes && detail::Recycled<T>::take(v, cap);
}

// An empty v sized to n elements, in a large buffer of at least `cap`, for
// a caller that then writes every one of them: from a recycled buffer they
// hold whatever it held (no pass over the memory to zero it first), in a new
// one they are zero. Meant for trivially copyable elements such as field
// elements.
template <class T>
void size_large(std::vector<T>& v, size_t n, size_t cap = 0) {
  static_assert(std::is_trivially_copyable_v<T>, "old contents are kept as they are");
  cap = std::max(cap, n);
  if (v.capacity() < cap) take_recycled(v, cap);
  reserve_large(v, cap);  // nothing to do when the recycled one fits
  v.resize(n);            // a shrink writes nothing; growth zero-fills only the new tail
}

// n value-initialised elements in such a buffer.
template <class T>
std::vector<T> large_vector(size_t n) {
  std::vector<T> v;
  reserve_large(v, n);
  v.resize(n);
  return v;
}

}  // namespace cuzk::platform
