#pragma once
// What a kernel sees under the SIMT emulator: CUDA's built-in variables
// (threadIdx, blockIdx, blockDim, gridDim, warpSize), block barriers, warp
// shuffles and votes, atomics and the integer intrinsics, spelled as in CUDA.
// They live in cuzk::simt::cuda_api, not in the global namespace, so that a
// binary can hold both this build and nvcc's (whose runtime defines the same
// names globally); src/cuda code reaches them through the using-directive in
// CUZK_CUDA_NAMESPACE_BEGIN (cuda/compat.cuh).
//
// The built-in variables are per host thread: a host thread runs one block at
// a time, its threads as fibers, and the scheduler (simt/block.cpp) sets
// threadIdx before it resumes a fiber.
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace cuzk::simt::cuda_api {

struct uint3 {
  unsigned x, y, z;
};

struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return {x, y, z}; }
};

inline thread_local uint3 threadIdx{0, 0, 0};
inline thread_local uint3 blockIdx{0, 0, 0};
inline thread_local dim3 blockDim{1, 1, 1};
inline thread_local dim3 gridDim{1, 1, 1};
constexpr int warpSize = 32;

// A few of CUDA's vector types (same sizes and alignments).
struct alignas(8) uint2 {
  unsigned x, y;
};
struct alignas(16) uint4 {
  unsigned x, y, z, w;
};
struct alignas(8) int2 {
  int x, y;
};
struct alignas(16) int4 {
  int x, y, z, w;
};
struct alignas(16) ulonglong2 {
  unsigned long long x, y;
};
constexpr uint2 make_uint2(unsigned x, unsigned y) { return {x, y}; }
constexpr uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return {x, y, z}; }
constexpr uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return {x, y, z, w}; }
constexpr int2 make_int2(int x, int y) { return {x, y}; }
constexpr int4 make_int4(int x, int y, int z, int w) { return {x, y, z, w}; }
constexpr ulonglong2 make_ulonglong2(unsigned long long x, unsigned long long y) { return {x, y}; }

}  // namespace cuzk::simt::cuda_api

namespace cuzk::simt::detail {

// Implemented by the block scheduler (simt/block.cpp, simt/warp.cpp); each may suspend the
// calling fiber until the other threads it waits for arrive.
enum class BarrierKind : int { plain, count, all, any };
int block_barrier(BarrierKind kind, int predicate);

enum class WarpOp : uint8_t {
  sync,
  shfl_idx,
  shfl_up,
  shfl_down,
  shfl_xor,
  ballot,
  any,
  all,
  reduce_add,
  reduce_min_u,
  reduce_max_u,
  reduce_min_s,
  reduce_max_s,
  reduce_and,
  reduce_or,
  reduce_xor,
  match_any,
  match_all,
};
// One lane's part in a warp-wide operation over the lanes of `mask`; the
// result for this lane (the value read, the ballot, ...). `arg` is the source
// lane, delta or lane mask of a shuffle, `width` its segment width.
uint64_t warp_op(WarpOp op, unsigned mask, uint64_t value, unsigned arg, unsigned width);
// The lanes of the caller's warp that call __activemask at the same place
// (`site`), once every live lane of the warp waits somewhere or has exited:
// what a GPU reports for code where lanes diverge and reconverge.
unsigned active_mask(uint64_t site);
// Ends the kernel with a launch failure (the fiber is abandoned, not unwound).
[[noreturn]] void kernel_trap(const char* why);

template <class T>
uint64_t to_bits(const T& v) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                "warp shuffles take trivially copyable types of at most 8 bytes");
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
template <class T>
T from_bits(uint64_t b) {
  T v;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}

// Read-modify-write with a compare-and-swap loop (for the atomics the
// hardware has but GCC's builtins lack: float add, inc/dec with wrap).
template <class T, class F>
T atomic_update(T* address, F f) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  U* a = reinterpret_cast<U*>(address);
  U old = __atomic_load_n(a, __ATOMIC_RELAXED);
  for (;;) {
    T cur;
    std::memcpy(&cur, &old, sizeof(T));
    const T next = f(cur);
    U nb;
    std::memcpy(&nb, &next, sizeof(T));
    if (__atomic_compare_exchange_n(a, &old, nb, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) return cur;
  }
}

}  // namespace cuzk::simt::detail

namespace cuzk::simt::cuda_api {

// ---- block barriers ------------------------------------------------------------
inline void __syncthreads() { (void)detail::block_barrier(detail::BarrierKind::plain, 0); }
inline int __syncthreads_count(int p) { return detail::block_barrier(detail::BarrierKind::count, p); }
inline int __syncthreads_and(int p) { return detail::block_barrier(detail::BarrierKind::all, p); }
inline int __syncthreads_or(int p) { return detail::block_barrier(detail::BarrierKind::any, p); }

// ---- warp-level primitives -------------------------------------------------------
inline void __syncwarp(unsigned mask = 0xffffffffu) {
  (void)detail::warp_op(detail::WarpOp::sync, mask, 0, 0, 32);
}
// The default arguments are the caller's file and line (builtins of GCC and
// clang; std::source_location is missing from clang 14 with libstdc++).
inline unsigned __activemask(const char* file = __builtin_FILE(), unsigned line = __builtin_LINE()) {
  return detail::active_mask(reinterpret_cast<uintptr_t>(file) ^ (uint64_t(line) << 32));
}

template <class T>
T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize) {
  return detail::from_bits<T>(detail::warp_op(detail::WarpOp::shfl_idx, mask, detail::to_bits(var),
                                              unsigned(src_lane), unsigned(width)));
}
template <class T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize) {
  return detail::from_bits<T>(
      detail::warp_op(detail::WarpOp::shfl_up, mask, detail::to_bits(var), delta, unsigned(width)));
}
template <class T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize) {
  return detail::from_bits<T>(
      detail::warp_op(detail::WarpOp::shfl_down, mask, detail::to_bits(var), delta, unsigned(width)));
}
template <class T>
T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize) {
  return detail::from_bits<T>(detail::warp_op(detail::WarpOp::shfl_xor, mask, detail::to_bits(var),
                                              unsigned(lane_mask), unsigned(width)));
}

inline unsigned __ballot_sync(unsigned mask, int predicate) {
  return unsigned(detail::warp_op(detail::WarpOp::ballot, mask, predicate != 0, 0, 32));
}
inline int __any_sync(unsigned mask, int predicate) {
  return int(detail::warp_op(detail::WarpOp::any, mask, predicate != 0, 0, 32));
}
inline int __all_sync(unsigned mask, int predicate) {
  return int(detail::warp_op(detail::WarpOp::all, mask, predicate != 0, 0, 32));
}

// sm_80 warp reductions.
inline unsigned __reduce_add_sync(unsigned mask, unsigned v) {
  return unsigned(detail::warp_op(detail::WarpOp::reduce_add, mask, v, 0, 32));
}
inline int __reduce_add_sync(unsigned mask, int v) {
  return int(unsigned(detail::warp_op(detail::WarpOp::reduce_add, mask, unsigned(v), 0, 32)));
}
inline unsigned __reduce_min_sync(unsigned mask, unsigned v) {
  return unsigned(detail::warp_op(detail::WarpOp::reduce_min_u, mask, v, 0, 32));
}
inline int __reduce_min_sync(unsigned mask, int v) {
  return int(unsigned(detail::warp_op(detail::WarpOp::reduce_min_s, mask, unsigned(v), 0, 32)));
}
inline unsigned __reduce_max_sync(unsigned mask, unsigned v) {
  return unsigned(detail::warp_op(detail::WarpOp::reduce_max_u, mask, v, 0, 32));
}
inline int __reduce_max_sync(unsigned mask, int v) {
  return int(unsigned(detail::warp_op(detail::WarpOp::reduce_max_s, mask, unsigned(v), 0, 32)));
}
inline unsigned __reduce_and_sync(unsigned mask, unsigned v) {
  return unsigned(detail::warp_op(detail::WarpOp::reduce_and, mask, v, 0, 32));
}
inline unsigned __reduce_or_sync(unsigned mask, unsigned v) {
  return unsigned(detail::warp_op(detail::WarpOp::reduce_or, mask, v, 0, 32));
}
inline unsigned __reduce_xor_sync(unsigned mask, unsigned v) {
  return unsigned(detail::warp_op(detail::WarpOp::reduce_xor, mask, v, 0, 32));
}

// Lanes of `mask` holding the same value as the caller (match_any); all of
// `mask` when every lane holds the same value, else 0 (match_all, *pred 1/0).
template <class T>
unsigned __match_any_sync(unsigned mask, T value) {
  return unsigned(detail::warp_op(detail::WarpOp::match_any, mask, detail::to_bits(value), 0, 32));
}
template <class T>
unsigned __match_all_sync(unsigned mask, T value, int* pred) {
  const uint64_t r = detail::warp_op(detail::WarpOp::match_all, mask, detail::to_bits(value), 0, 32);
  *pred = int(r >> 32);
  return unsigned(r);
}

// ---- memory ordering -------------------------------------------------------------------
// Host atomics are sequentially consistent; fences are full fences.
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
template <class T>
T __ldg(const T* p) {
  return *p;
}
inline void __nanosleep(unsigned) {}
[[noreturn]] inline void __trap() { detail::kernel_trap("__trap()"); }

// ---- integer intrinsics ---------------------------------------------------------------
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(unsigned(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(unsigned(x))) << 32) | __brev(unsigned(x >> 32));
}
inline unsigned __umulhi(unsigned a, unsigned b) { return unsigned((uint64_t(a) * b) >> 32); }
inline int __mulhi(int a, int b) { return int((int64_t(a) * b) >> 32); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
inline long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
// Byte i of the result is byte (s >> 4i) & 7 of the 8 bytes {y:x}.
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  const uint64_t v = (uint64_t(y) << 32) | x;
  unsigned r = 0;
  for (int i = 0; i < 4; i++) r |= unsigned((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return r;
}
// The 64-bit {hi:lo} shifted by (shift & 31): high word (left) or low word (right).
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
  return unsigned((((uint64_t(hi) << 32) | lo) << (shift & 31)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
  return unsigned((((uint64_t(hi) << 32) | lo) >> (shift & 31)));
}

// CUDA's min/max on integers (usual arithmetic conversions, as its mixed
// signed/unsigned overloads do) and on floating point (fminf/fmaxf).
template <class A, class B>
requires std::is_integral_v<A> && std::is_integral_v<B>
constexpr std::common_type_t<A, B> min(A a, B b) {
  using C = std::common_type_t<A, B>;
  return C(a) < C(b) ? C(a) : C(b);
}
template <class A, class B>
requires std::is_integral_v<A> && std::is_integral_v<B>
constexpr std::common_type_t<A, B> max(A a, B b) {
  using C = std::common_type_t<A, B>;
  return C(a) < C(b) ? C(b) : C(a);
}
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }

// ---- atomics (blocks run concurrently on host threads: real atomics) ----------
#define CUZK_SIMT_ATOMIC_RMW(name, builtin, T) \
  inline T name(T* address, T val) { return builtin(address, val, __ATOMIC_SEQ_CST); }
#define CUZK_SIMT_ATOMIC_INTS(name, builtin)    \
  CUZK_SIMT_ATOMIC_RMW(name, builtin, int)      \
  CUZK_SIMT_ATOMIC_RMW(name, builtin, unsigned) \
  CUZK_SIMT_ATOMIC_RMW(name, builtin, unsigned long long)
CUZK_SIMT_ATOMIC_INTS(atomicAdd, __atomic_fetch_add)
CUZK_SIMT_ATOMIC_INTS(atomicSub, __atomic_fetch_sub)
CUZK_SIMT_ATOMIC_INTS(atomicAnd, __atomic_fetch_and)
CUZK_SIMT_ATOMIC_INTS(atomicOr, __atomic_fetch_or)
CUZK_SIMT_ATOMIC_INTS(atomicXor, __atomic_fetch_xor)
CUZK_SIMT_ATOMIC_INTS(atomicExch, __atomic_exchange_n)
CUZK_SIMT_ATOMIC_RMW(atomicExch, __atomic_exchange_n, long long)
#undef CUZK_SIMT_ATOMIC_INTS
#undef CUZK_SIMT_ATOMIC_RMW

inline float atomicAdd(float* address, float val) {
  return detail::atomic_update(address, [val](float x) { return x + val; });
}
inline double atomicAdd(double* address, double val) {
  return detail::atomic_update(address, [val](double x) { return x + val; });
}
inline float atomicExch(float* address, float val) {
  return detail::atomic_update(address, [val](float) { return val; });
}

#define CUZK_SIMT_ATOMIC_MINMAX(T)                                                   \
  inline T atomicMin(T* address, T val) {                                            \
    return detail::atomic_update(address, [val](T x) { return val < x ? val : x; }); \
  }                                                                                  \
  inline T atomicMax(T* address, T val) {                                            \
    return detail::atomic_update(address, [val](T x) { return val > x ? val : x; }); \
  }
CUZK_SIMT_ATOMIC_MINMAX(int)
CUZK_SIMT_ATOMIC_MINMAX(unsigned)
CUZK_SIMT_ATOMIC_MINMAX(long long)
CUZK_SIMT_ATOMIC_MINMAX(unsigned long long)
#undef CUZK_SIMT_ATOMIC_MINMAX

// ((old >= val) ? 0 : old + 1) and (((old == 0) || (old > val)) ? val : old - 1).
inline unsigned atomicInc(unsigned* address, unsigned val) {
  return detail::atomic_update(address, [val](unsigned x) { return x >= val ? 0u : x + 1; });
}
inline unsigned atomicDec(unsigned* address, unsigned val) {
  return detail::atomic_update(address, [val](unsigned x) { return (x == 0 || x > val) ? val : x - 1; });
}

#define CUZK_SIMT_ATOMIC_CAS(T)                                                                     \
  inline T atomicCAS(T* address, T compare, T val) {                                                \
    __atomic_compare_exchange_n(address, &compare, val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
    return compare;                                                                                 \
  }
CUZK_SIMT_ATOMIC_CAS(int)
CUZK_SIMT_ATOMIC_CAS(unsigned)
CUZK_SIMT_ATOMIC_CAS(unsigned long long)
CUZK_SIMT_ATOMIC_CAS(unsigned short)
#undef CUZK_SIMT_ATOMIC_CAS

}  // namespace cuzk::simt::cuda_api
