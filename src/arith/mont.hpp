#pragma once
// Kernel dispatch: the x86-64 assembly (arith/mont_x86_64.hpp) where the CPU
// has BMI2+ADX (checked once at start-up, switchable for tests), else the
// portable twins. Addition and subtraction need no ADX but follow the same
// switch, so that "portable" (tests, --portable, CUZK_NO_ASM) means no
// assembly at all.
#include "arith/mont_portable.hpp"
#include "arith/mont_x86_64.hpp"
#include "platform/cpu_features.hpp"

namespace cuzk::arith {

#if CUZK_HAVE_MULX_ASM
template <size_t N>
inline constexpr bool has_asm_kernel = N == 4 || N == 6;
#else
template <size_t N>
inline constexpr bool has_asm_kernel = false;
#endif

namespace detail {
// Where the assembly exists the portable multiplication is the rare path: it
// stays out of line, so each call site inlines only the assembly and a flag
// test. (The portable addition and subtraction are small enough to inline.)
template <size_t N>
[[gnu::noinline]] void mont_mul_portable_call(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                              const uint64_t* p, uint64_t inv) {
  portable::mont_mul<N>(r, a, b, p, inv);
}

// The out-of-line result goes through a local buffer: were r itself passed
// to the call, the caller's temporary (a Field's return value) could no
// longer live in registers, and the assembly path too would pay a store plus
// a copy with a failed store-to-load forward on every operation (measured:
// a third of an Fr product in a dependent chain). The buffer is read back
// with volatile loads: plain ones made GCC's SLP vectorizer pack the limbs of
// *both* paths into a vector before storing them (vmovq/vpinsrq/vinserti128,
// ~8 cycles on the dependency chain: 10% of an Fp product, half of an Fp
// addition).
template <size_t N, class Fn>
[[gnu::always_inline]] inline void via_buffer(uint64_t* r, Fn fn) {
  uint64_t t[N];
  fn(t);
  for (size_t i = 0; i < N; i++) r[i] = static_cast<volatile uint64_t*>(t)[i];
}
}  // namespace detail

template <size_t N>
[[gnu::always_inline]] inline void mont_mul(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                            const uint64_t* p, uint64_t inv) {
#if CUZK_HAVE_MULX_ASM
  if constexpr (has_asm_kernel<N>) {
    if (__builtin_expect(platform::detail::g_use_adx, 1)) x86::mont_mul<N>(r, a, b, p, inv);
    else detail::via_buffer<N>(r, [&](uint64_t* t) { detail::mont_mul_portable_call<N>(t, a, b, p, inv); });
    return;
  }
#endif
  portable::mont_mul<N>(r, a, b, p, inv);
}

template <size_t N>
[[gnu::always_inline]] inline void mont_sqr(uint64_t* r, const uint64_t* a, const uint64_t* p, uint64_t inv) {
#if CUZK_HAVE_MULX_ASM
  if constexpr (has_asm_kernel<N>) {
    if (__builtin_expect(platform::detail::g_use_adx, 1)) x86::mont_sqr<N>(r, a, p, inv);
    else detail::via_buffer<N>(r, [&](uint64_t* t) { detail::mont_mul_portable_call<N>(t, a, a, p, inv); });
    return;
  }
#endif
  mont_mul<N>(r, a, a, p, inv);
}

template <size_t N>
[[gnu::always_inline]] inline void add_mod(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                           const uint64_t* p) {
#if CUZK_HAVE_MULX_ASM
  if constexpr (has_asm_kernel<N>) {
    if (__builtin_expect(platform::detail::g_use_adx, 1)) x86::add_mod<N>(r, a, b, p);
    else portable::add_mod<N>(r, a, b, p);
    return;
  }
#endif
  portable::add_mod<N>(r, a, b, p);
}

template <size_t N>
[[gnu::always_inline]] inline void sub_mod(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                           const uint64_t* p) {
#if CUZK_HAVE_MULX_ASM
  if constexpr (has_asm_kernel<N>) {
    if (__builtin_expect(platform::detail::g_use_adx, 1)) x86::sub_mod<N>(r, a, b, p);
    else portable::sub_mod<N>(r, a, b, p);
    return;
  }
#endif
  portable::sub_mod<N>(r, a, b, p);
}

}  // namespace cuzk::arith
