#pragma once
// AVX-512 IFMA kernels for the MSM's batch-affine additions over G1 and G2
// (src/msm/ifma_kernels.cpp; arithmetic in src/arith/ifma52.hpp).
//
// Eight additions run side by side, one per vector lane, so the field
// multiplications that dominate an affine addition cost about 2.3x less than
// with the scalar MULX kernel. The kernels work in their own Montgomery domain
// (radix 2^416, the natural one for eight 52-bit limbs); points enter and
// leave it through points_to_domain / points_from_domain, so the MSM converts
// its entries once, keeps its buckets in that domain, and converts the few sums
// it hands to the scalar code. Points keep the usual layout (x then y, six
// 64-bit limbs each, canonical), so references, copies, comparisons and
// negations work unchanged.
//
// Only call these when platform::use_ifma() says so (the CPU has AVX-512
// IFMA and VBMI2, and neither CUZK_NO_ASM nor CUZK_NO_IFMA is set).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ff/bls12_381.hpp"

namespace cuzk::msm::ifma {

inline constexpr uint8_t NEG_A = 1, NEG_B = 2, DBL = 4;

// A list of additions in structure-of-arrays form, the layout the kernels
// read eight jobs at a time (pointers straight from memory, the flags of a
// group as one 8-byte load). Job i: *out(i) = A' + B' with A = a(i),
// B = b(i), A' = (flags(i) & NEG_A ? -A : A), B' likewise; A, B and out are
// affine points (x then y: 12 limbs for G1, 24 for G2) in the kernel domain.
// With DBL set, A' == B' with y != 0 and out = 2A'. out may alias A or B:
// every input is read before any output is written. In a list whose B
// operands are raw (set_raw_b), every B is as the field layer keeps points,
// not in the kernel domain (its y not yet moved: points_to_domain below),
// and may lie at any alignment: the kernel moves B's y in as it loads it, so
// that points are added where they lie, without a converted copy.
class JobList {
 public:
  void clear() { n_ = padded_ = 0; }
  // Whether the B operands are raw (above); kept by clear().
  void set_raw_b(bool raw) { raw_b_ = raw; }
  bool raw_b() const { return raw_b_; }
  size_t size() const { return n_; }
  // Raw access for a loop that appends many jobs: room for `more` jobs past
  // size() (and the padding), the arrays' pointers and the count in a
  // struct the caller keeps in locals, then commit(). (A loop through push()
  // reloads the members after each store through a byte pointer, which may
  // alias them.)
  struct Appender {
    const uint64_t** a;
    const uint64_t** b;
    uint64_t** out;
    uint8_t* flags;
    size_t n;
    [[gnu::always_inline]] void push(const uint64_t* pa, const uint64_t* pb, uint64_t* po, uint8_t f) {
      a[n] = pa;
      b[n] = pb;
      out[n] = po;
      flags[n] = f;
      n++;
    }
  };
  Appender appender(size_t more) {
    while (n_ + more + 8 > a_.size()) grow();
    return {a_.data(), b_.data(), out_.data(), flags_.data(), n_};
  }
  void commit(const Appender& w) { n_ = w.n; }
  [[gnu::always_inline]] void push(const uint64_t* a, const uint64_t* b, uint64_t* out, uint8_t flags) {
    Appender w = appender(1);
    w.push(a, b, out, flags);
    commit(w);
  }
  const uint64_t* a(size_t i) const { return a_[i]; }
  const uint64_t* b(size_t i) const { return b_[i]; }
  uint64_t* out(size_t i) const { return out_[i]; }
  uint8_t flags(size_t i) const { return flags_[i]; }
  // The arrays themselves (for the kernels).
  const uint64_t* const* a_data() const { return a_.data(); }
  const uint64_t* const* b_data() const { return b_.data(); }
  uint64_t* const* out_data() const { return out_.data(); }
  const uint8_t* flags_data() const { return flags_.data(); }
  // Copies of the last job up to a multiple of eight entries, read (never
  // stored) by the kernels' last group. Idempotent; push() keeps working.
  void pad() {
    if (padded_ == n_ || n_ == 0) return;
    for (size_t i = n_; i % 8; i++) {
      a_[i] = a_[n_ - 1];
      b_[i] = b_[n_ - 1];
      out_[i] = out_[n_ - 1];
      flags_[i] = flags_[n_ - 1];
    }
    padded_ = n_;
  }
  bool padded() const { return padded_ == n_; }

 private:
  [[gnu::noinline]] void grow() {
    const size_t cap = std::max<size_t>(64, 2 * a_.size());
    a_.resize(cap);
    b_.resize(cap);
    out_.resize(cap);
    flags_.resize(cap);
  }
  std::vector<const uint64_t*> a_, b_;
  std::vector<uint64_t*> out_;
  std::vector<uint8_t> flags_;
  size_t n_ = 0, padded_ = 0;
  bool raw_b_ = false;
};

// The jobs [first, first + n) of `jobs` (first a multiple of 8; the list
// padded) with one shared inversion (Montgomery's trick; for G2 over the Fp
// norms of the denominators). Jobs without DBL whose points share x
// (A' = B' or A' = -B', rare) are not computed: their indices relative to
// first go to special[] (room for n) and their count is returned, for the
// caller to resubmit as doublings or to record as the identity.
size_t g1_add_batch(const JobList& jobs, size_t first, size_t n, uint32_t* special);
size_t g2_add_batch(const JobList& jobs, size_t first, size_t n, uint32_t* special);

// In place, n points (fp_per_point Fp elements each: 2 for G1, 4 for G2)
// into the form the kernels add, and back: in their Montgomery domain
// (radix 2^416, not the field layer's 2^384), the image on an isomorphic
// curve (ifma_kernels.cpp) whose x is the field layer's x as it is, so that
// only y changes (a 16-bit Montgomery step per Fp of y on the way in, a
// product on the way out; canonical results).
void points_to_domain(uint64_t* pts, size_t n, size_t fp_per_point);
void points_from_domain(uint64_t* pts, size_t n, size_t fp_per_point);

// In place, `pairs` GLV entry pairs (P, P'), fp_per_point Fp elements per
// point, P' holding a copy of P: into points_to_domain's form, P' becoming
// phi(P) = (beta x, y) on the way (its x is multiplied by beta, its y is a
// copy of P's converted y).
void glv_pairs_to_domain(uint64_t* elems, size_t pairs, size_t fp_per_point, const ff::Fp& beta);

}  // namespace cuzk::msm::ifma
