#pragma once
// Uninitialised array of implicit-lifetime objects (aggregates of limbs,
// points), 64-byte aligned; large ones on 2 MiB boundaries with transparent
// huge pages requested. For buffers that are written in full right after
// allocation, often by several threads: a std::vector would first value-
// initialise them on one thread, taking every page fault there (on the
// development VM, first touch of 130 MB costs 54 ms in 4 KiB pages, 15 ms in
// huge pages). Where recycling is on (set_recycle_limit, recycle_pool.hpp)
// a large buffer goes back to the pool when the array lets it go, and a new
// array takes one from there, its pages already resident (an MSM's entries
// and digits, 67 MB at 2^18 points, otherwise take fresh pages every call;
// on the development VM the first touch of never-used memory is the costly
// part: 0.8 s of the first 2^18 MSM of a process). Arrays from 256 KiB up
// are recycled, not only the huge ones: an MSM's buckets (1.5 MB a window)
// and its reductions' scratch (2 MB a thread) are freed with it, and taking
// them fresh again stalled a thread of the next MSM for 30 ms in page clears
// now and then (a tenth of a two-thread 2^18 G1 MSM).
#include <cstddef>
#include <memory>
#include <new>
#include <span>
#include <type_traits>

#include "platform/large_vector.hpp"

namespace cuzk::platform {

inline constexpr size_t kRecycledArrayBytes = size_t(256) << 10;  // smaller arrays are left to malloc

template <class T>
class RawArray {
  static_assert(std::is_trivially_destructible_v<T>, "elements are never destroyed");

 public:
  RawArray() = default;
  explicit RawArray(size_t n) { reset(n); }
  void reset(size_t n) {
    p_.reset();
    n_ = n;
    if (!n) return;
    const size_t bytes = n * sizeof(T);
    const size_t align = bytes >= (size_t(2) << 20) ? (size_t(2) << 20) : 64;
    detail::RecycledBlocks::Block b;
    if (bytes >= kRecycledArrayBytes && detail::RecycledBlocks::take(b, bytes, align)) {
      p_ = std::unique_ptr<T, Free>(static_cast<T*>(b.p), Free{b.align, b.bytes});
      return;
    }
    void* p = ::operator new[](bytes, std::align_val_t(align));
    if (align > 64) advise_huge_pages(p, bytes & ~(align - 1));
    p_ = std::unique_ptr<T, Free>(static_cast<T*>(p), Free{align, bytes});
  }
  T* data() const { return p_.get(); }
  T& operator[](size_t i) const { return p_.get()[i]; }
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  T* begin() const { return data(); }
  T* end() const { return data() + n_; }
  std::span<T> span() const { return {data(), n_}; }
  operator std::span<const T>() const { return {data(), n_}; }

 private:
  struct Free {
    size_t align = 64;
    size_t bytes = 0;  // of the block (a recycled one may exceed the array)
    void operator()(T* p) const {
      if (bytes >= kRecycledArrayBytes && detail::RecycledBlocks::put({p, bytes, align})) return;
      ::operator delete[](p, std::align_val_t(align));
    }
  };
  std::unique_ptr<T, Free> p_;
  size_t n_ = 0;
};

}  // namespace cuzk::platform
