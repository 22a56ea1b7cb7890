#pragma once
// Sums of many field elements for synthesis: limbs are added without a
// modular reduction per term (one 5-limb carry chain each) and reduced once
// in get(). The Montgomery form is linear, so the integer sum of the
// representations, reduced mod p, is the representation of the field sum.
// Also the bit/±1 shortcuts of coeff·value used by evaluation.
#include <algorithm>
#include <cstdint>

#include "ff/bls12_381.hpp"

namespace cuzk::r1cs {

namespace fr_detail {
inline constexpr auto kP = ff::Fr::MODULUS;
inline constexpr auto kOne = ff::Fr::one().v;  // R mod p
}  // namespace fr_detail

// Limb compares, cheaper than Fr's array equality (a memcmp call).
inline bool fr_is_zero(const ff::Fr& x) { return (x.v[0] | x.v[1] | x.v[2] | x.v[3]) == 0; }
inline bool fr_is_one(const ff::Fr& x) {
  using fr_detail::kOne;
  return x.v[0] == kOne[0] && x.v[1] == kOne[1] && x.v[2] == kOne[2] && x.v[3] == kOne[3];
}

// Whether x is 0 or 1, with `one` set to which: one test for the caller to
// branch on (nearly always true for witness values) and no branch on which
// of the two (on a random bit that would mispredict half the time).
inline bool fr_is_bit(const ff::Fr& x, bool& one) {
  using fr_detail::kOne;
  const uint64_t nonzero = x.v[0] | x.v[1] | x.v[2] | x.v[3];
  const uint64_t not_one = (x.v[0] ^ kOne[0]) | (x.v[1] ^ kOne[1]) | (x.v[2] ^ kOne[2]) | (x.v[3] ^ kOne[3]);
  one = not_one == 0;
  return std::min(nonzero, not_one) == 0;
}

// x where keep is true, else zero, without a branch (a random bit's branch
// mispredicts half the time).
inline void select_or_zero(const ff::Fr& x, bool keep, ff::Fr& out) {
  const uint64_t m = -uint64_t(keep);
  for (int l = 0; l < 4; l++) out.v[l] = x.v[l] & m;
}

// c = a·b (whatever c held), with the shortcuts of synthesis's values
// (bits, ONE): most products are a copy or a zero. b is nearly always 0 or 1
// (a bit or ONE), so that test is predictable and its outcome is a select.
inline void product_into(const ff::Fr& a, const ff::Fr& b, ff::Fr& c) {
  if (bool b1; fr_is_bit(b, b1)) [[likely]]
    select_or_zero(a, b1, c);
  else if (bool a1; fr_is_bit(a, a1)) select_or_zero(b, a1, c);
  else c = a * b;
}

class FrSum {
 public:
  void add(const ff::Fr& x) { add_limbs(x.v[0], x.v[1], x.v[2], x.v[3]); }
  // += x where keep is true, else += 0: no branch on keep.
  void add_if(const ff::Fr& x, bool keep) {
    const uint64_t m = -uint64_t(keep);
    add_limbs(x.v[0] & m, x.v[1] & m, x.v[2] & m, x.v[3] & m);
  }
  // -= x, as += p - x (x < p).
  void sub(const ff::Fr& x) {
    using fr_detail::kP;
    if (fr_is_zero(x)) return;
    unsigned __int128 t = (unsigned __int128)kP[0] - x.v[0];
    uint64_t d0 = uint64_t(t), br = uint64_t(t >> 64) & 1;
    t = (unsigned __int128)kP[1] - x.v[1] - br;
    uint64_t d1 = uint64_t(t);
    br = uint64_t(t >> 64) & 1;
    t = (unsigned __int128)kP[2] - x.v[2] - br;
    uint64_t d2 = uint64_t(t);
    br = uint64_t(t >> 64) & 1;
    uint64_t d3 = kP[3] - x.v[3] - br;
    add_limbs(d0, d1, d2, d3);
  }
  // += coeff·value. Witness values are mostly bits, so this is usually an
  // addition of coeff; other values take the out-of-line path (keeping the
  // sum in registers here).
  void add_product(const ff::Fr& coeff, const ff::Fr& value) {
    if (fr_is_zero(value)) return;
    if (fr_is_one(value)) add(coeff);
    else add(product(coeff, value));
  }
  // out = coeff·value: zero for 0, a copy for 1 (witness values are mostly
  // bits), else product().
  static void term_into(const ff::Fr& coeff, const ff::Fr& value, ff::Fr& out) {
    if (bool one; fr_is_bit(value, one)) [[likely]]
      select_or_zero(coeff, one, out);
    else out = product(coeff, value);
  }
  // coeff·value with the ±1 shortcuts.
  [[gnu::noinline]] static ff::Fr product(const ff::Fr& coeff, const ff::Fr& value) {
    if (fr_is_one(coeff)) return value;
    if (coeff == minus_one()) return -value;
    return coeff * value;
  }

  ff::Fr get() const {
    ff::Fr r;
    store(r);
    return r;
  }
  // Writes the sum limb by limb: returning a fresh Fr by value costs a
  // store-forwarding stall (four scalar stores read back as one vector).
  void store(ff::Fr& out) const {
    // low < 2^256 < 3p: at most two subtractions of p.
    uint64_t r[4] = {l0_, l1_, l2_, l3_};
    for (int k = 0; k < 2 && !less_than_p(r); k++) sub_p(r);
    if (hi_) {  // hi·2^256 = hi·R, which is the Montgomery form of hi
      out = ff::Fr::from_mont({r[0], r[1], r[2], r[3]}) + ff::Fr::from_u64(hi_);
      return;
    }
    out.v[0] = r[0];
    out.v[1] = r[1];
    out.v[2] = r[2];
    out.v[3] = r[3];
  }

  static const ff::Fr& minus_one() {
    static const ff::Fr m = -ff::Fr::one();
    return m;
  }

 private:
  void add_limbs(uint64_t x0, uint64_t x1, uint64_t x2, uint64_t x3) {
#if defined(__x86_64__)
    // One add/adc chain, in registers. The 128-bit form below compiles to
    // stack spills of each partial sum in long loops (eval_sum), and
    // _addcarry_u64's output pointers to a store of each limb per term.
    asm("add %5, %0\n\tadc %6, %1\n\tadc %7, %2\n\tadc %8, %3\n\tadc $0, %4"
        : "+r"(l0_), "+r"(l1_), "+r"(l2_), "+r"(l3_), "+r"(hi_)
        : "r"(x0), "r"(x1), "r"(x2), "r"(x3)
        : "cc");
#else
    unsigned __int128 t = (unsigned __int128)l0_ + x0;
    l0_ = uint64_t(t);
    t = (unsigned __int128)l1_ + x1 + uint64_t(t >> 64);
    l1_ = uint64_t(t);
    t = (unsigned __int128)l2_ + x2 + uint64_t(t >> 64);
    l2_ = uint64_t(t);
    t = (unsigned __int128)l3_ + x3 + uint64_t(t >> 64);
    l3_ = uint64_t(t);
    hi_ += uint64_t(t >> 64);
#endif
  }
  static bool less_than_p(const uint64_t* r) {
    using fr_detail::kP;
    for (int i = 3; i >= 0; i--)
      if (r[i] != kP[i]) return r[i] < kP[i];
    return false;
  }
  static void sub_p(uint64_t* r) {
    using fr_detail::kP;
    uint64_t br = 0;
    for (int i = 0; i < 4; i++) {
      unsigned __int128 t = (unsigned __int128)r[i] - kP[i] - br;
      r[i] = uint64_t(t);
      br = uint64_t(t >> 64) & 1;
    }
  }

  uint64_t l0_ = 0, l1_ = 0, l2_ = 0, l3_ = 0;  // scalars, so they stay in registers
  uint64_t hi_ = 0;
};

}  // namespace cuzk::r1cs
