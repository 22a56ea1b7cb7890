#pragma once
// The MSM's inputs as the bucket method reads them: spans (and packed
// points) indexed as one sequence without a copy, the two scalar sources
// (Fr elements, canonical integers), and stage 0, which sorts the scalars
// into zeros (dropped), ones (summed apart) and big ones (windowed).
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "arith/limbs.hpp"
#include "ec/bls12_381.hpp"
#include "msm/msm.hpp"

namespace cuzk::msm::detail {

using arith::Limbs;

// Up to kMaxParts parts laid end to end, indexed as one sequence (msm_parts:
// no copy). The part is found by comparing against the parts' ends: with few
// parts and mostly sequential indices, the branches predict well.
class PartIndex {
 public:
  size_t size() const { return n_ ? end_[n_ - 1] : 0; }

 protected:
  // Appends a part of len elements; returns its number.
  size_t append(size_t len) {
    if (n_ == kMaxParts) throw std::invalid_argument("msm: more than kMaxParts parts");
    begin_[n_] = size();
    end_[n_] = begin_[n_] + len;
    return n_++;
  }
  // The part holding element i, and i's offset in it.
  std::pair<size_t, size_t> locate(size_t i) const {
    size_t p = 0;
    while (i >= end_[p]) p++;
    return {p, i - begin_[p]};
  }
  // fn(p, k0, k1, i0) for each part p that [lo, hi) meets: its elements
  // [k0, k1) are the sequence's [i0, i0 + k1 - k0).
  template <class Fn>
  void for_runs(size_t lo, size_t hi, Fn&& fn) const {
    for (size_t p = 0; p < n_ && lo < hi; p++) {
      if (lo >= end_[p]) continue;
      const size_t stop = std::min(hi, end_[p]);
      fn(p, lo - begin_[p], stop - begin_[p], lo);
      lo = stop;
    }
  }

 private:
  size_t begin_[kMaxParts] = {}, end_[kMaxParts] = {};
  size_t n_ = 0;
};

// Spans of T as one sequence.
template <class T>
class Concat : public PartIndex {
 public:
  Concat() = default;
  explicit Concat(std::span<const T> s) { add(s); }
  void add(std::span<const T> s) { data_[append(s.size())] = s.data(); }
  const T& operator[](size_t i) const {
    const auto [p, k] = locate(i);
    return data_[p][k];
  }
  // fn(i, element i) for i in [lo, hi), in order, a part's run at a time.
  template <class Fn>
  void for_range(size_t lo, size_t hi, Fn&& fn) const {
    for_runs(lo, hi, [&](size_t p, size_t k0, size_t k1, size_t i0) {
      const T* d = data_[p];
      for (size_t k = k0; k < k1; k++) fn(i0 + (k - k0), d[k]);
    });
  }

 private:
  const T* data_[kMaxParts] = {};
};

// Point arrays (msm::Points: affine or packed) as one sequence, read in place.
template <class C>
class PointSeq : public PartIndex {
 public:
  using Base = typename C::Base;
  PointSeq() = default;
  explicit PointSeq(const Points<C>& p) { add(p); }
  void add(const Points<C>& p) { parts_[append(p.size())] = p; }
  bool is_identity(size_t i) const {
    const auto [p, k] = locate(i);
    const Points<C>& pt = parts_[p];
    return pt.is_packed() ? pt.packed().is_identity(k) : pt.affine()[k].infinity;
  }
  // Where point i's x and then y lie, as the field layer's limbs (both
  // kinds of array keep them so; a packed one at any alignment), for the
  // kernels that read points where they lie.
  const uint64_t* xy_address(size_t i) const {
    static_assert(offsetof(ec::Affine<C>, y) == sizeof(Base), "an affine point's y follows its x");
    const auto [p, k] = locate(i);
    const Points<C>& pt = parts_[p];
    const void* at = pt.is_packed()
                         ? static_cast<const void*>(pt.packed().data() + k * pt.packed().kPointBytes)
                         : static_cast<const void*>(&pt.affine()[k].x);
    return static_cast<const uint64_t*>(at);
  }
  // x and y of point i, which is not the identity.
  void load_xy(size_t i, Base& x, Base& y) const {
    const auto [p, k] = locate(i);
    const Points<C>& pt = parts_[p];
    if (pt.is_packed()) {
      pt.packed().load_xy(k, x, y);
    } else {
      x = pt.affine()[k].x;
      y = pt.affine()[k].y;
    }
  }

 private:
  Points<C> parts_[kMaxParts];
};

inline void reduce_mod_r(Limbs<4>& k) {
  while (arith::compare(k, ff::Fr::MODULUS) >= 0) arith::sub_from(k, ff::Fr::MODULUS);
}

// Scalar sources: operator()(i) gives the canonical integer (< r);
// quick_range(lo, hi, fn) classifies scalars [lo, hi) without conversion
// where it can, calling fn(i, class): 0 (zero), 1 (one), -1 (other). Fr's -1
// is exact (a reduced Montgomery form is 0 or R only for 0 and 1), so a
// scalar it calls other needs no conversion once the window bits are known
// to be the most there can be.
struct FrScalars {
  static constexpr bool kQuickExact = true;
  Concat<ff::Fr> s;
  Limbs<4> operator()(size_t i) const { return s[i].to_canonical(); }
  // Where scalar i lies (stage A touches it ahead of its conversion).
  const void* address(size_t i) const { return &s[i]; }
  // fn(i, the class of scalar i) for i in [lo, hi), in order.
  template <class Fn>
  void quick_range(size_t lo, size_t hi, Fn&& fn) const {
    s.for_range(lo, hi, [&](size_t i, const ff::Fr& f) { fn(i, quick_of(f)); });
  }
  static int quick_of(const ff::Fr& f) {
    const auto& v = f.v;  // Montgomery form: 0 -> 0, 1 -> R
    // Without a branch: Filecoin's 0s, 1s and others come at random.
    uint64_t any = 0, off_one = 0;
    for (size_t k = 0; k < 4; k++) {
      any |= v[k];
      off_one |= v[k] ^ ff::Fr::R1[k];
    }
    return -1 + int(any == 0) + 2 * int(off_one == 0);
  }
};
// Canonical integers (below 2^256, reduced here), in one span (Seq =
// std::span<const Limbs<4>>) or several parts as one sequence (Concat).
template <class Seq>
struct CanonicalOf {
  static constexpr bool kQuickExact = false;
  Seq s;
  Limbs<4> operator()(size_t i) const {
    Limbs<4> k = s[i];
    reduce_mod_r(k);
    return k;
  }
  // Where scalar i lies (stage A touches it ahead of its conversion).
  const void* address(size_t i) const { return &s[i]; }
  template <class Fn>
  void quick_range(size_t lo, size_t hi, Fn&& fn) const {
    for (size_t i = lo; i < hi; i++) fn(i, -1);
  }
};
using CanonicalScalars = CanonicalOf<std::span<const Limbs<4>>>;
using CanonicalPartsScalars = CanonicalOf<Concat<Limbs<4>>>;

// Stage 0's answer: which points go to the ones sum, which to the windows.
struct ScalarClasses {
  std::vector<uint32_t> ones;  // indices of the points with scalar 1
  std::vector<uint32_t> big;   // indices of the others; empty when every scalar is big
  size_t nbig = 0;
  size_t zeros = 0;       // zero scalars, dropped (points at infinity: where the points are loaded)
  unsigned max_bits = 0;  // of the largest big scalar: the bits to window
  uint32_t big_at(size_t s) const { return big.empty() ? uint32_t(s) : big[s]; }
};

// Stage 0 (parallel over blocks of points): a scalar-1 point goes to the
// ones only with split_ones; otherwise it is big like any other.
template <class C, class ScalarAt>
ScalarClasses classify_scalars(const PointSeq<C>& pts, const ScalarAt& scalar_at, bool split_ones) {
  enum Class : uint8_t { kZero, kOne, kBig };
  constexpr uint32_t kMaxBits = 255;  // of a scalar below r
  const size_t n = pts.size();
  constexpr size_t BLK = 4096;
  const size_t nblk = (n + BLK - 1) / BLK;
  std::vector<uint8_t> cls(n);
  std::vector<uint32_t> n1(nblk), nb(nblk), mb(nblk);
  std::vector<uint32_t> nz(nblk);
  tbb::parallel_for(size_t(0), nblk, [&](size_t b) {
    const size_t lo = b * BLK, hi = std::min(n, lo + BLK);
    uint8_t* const cl = cls.data();
    const uint8_t one_class = uint8_t(split_ones ? kOne : kBig);
    // The classes quick_range() tells, a part's scalars at a time, in a loop
    // without a branch or a call (Filecoin's 0s, 1s and others come at
    // random: a branch on the class mispredicted every other scalar, and a
    // call kept the loop's variables in memory). No point is read
    // (identities are dropped where the points are loaded): the scalars
    // alone are a quarter of the bytes.
    scalar_at.quick_range(lo, hi, [cl, one_class](size_t i, int q) {
      cl[i] = q == 0 ? uint8_t(kZero) : q == 1 ? one_class : uint8_t(kBig);
    });
    // The bits to window: the lengths of big scalars, until one has the most
    // there can be (with an exact quick_range(), a few scalars a block); a
    // source without one converts every scalar here, also telling 0 and 1.
    uint32_t bits = 0;
    for (size_t i = lo; i < hi; i++) {
      if (cl[i] != kBig) continue;
      if (ScalarAt::kQuickExact && bits == kMaxBits) break;
      const size_t bl = arith::bit_length(scalar_at(i));
      if (bl == 0) cl[i] = kZero;
      else if (bl == 1 && split_ones) cl[i] = kOne;
      else bits = std::max<uint32_t>(bits, uint32_t(bl));
    }
    uint32_t c1 = 0, cb = 0, cz = 0;
    for (size_t i = lo; i < hi; i++) {
      c1 += cl[i] == kOne;
      cb += cl[i] == kBig;
      cz += cl[i] == kZero;
    }
    n1[b] = c1;
    nb[b] = cb;
    mb[b] = bits;
    nz[b] = cz;
  });
  ScalarClasses out;
  size_t t1 = 0, tb = 0, tz = 0;
  std::vector<size_t> o1(nblk), ob(nblk);
  for (size_t b = 0; b < nblk; b++) {
    o1[b] = t1;
    ob[b] = tb;
    t1 += n1[b];
    tb += nb[b];
    tz += nz[b];
    out.max_bits = std::max(out.max_bits, mb[b]);
  }
  out.ones.resize(t1);
  out.nbig = tb;
  if (tb != n) out.big.resize(tb);
  // The lists, block by block: each index written to both of a block's
  // buffers, the cursor of its class advanced (no branch on the class).
  tbb::parallel_for(size_t(0), nblk, [&](size_t b) {
    uint32_t one_buf[BLK], big_buf[BLK];
    uint32_t c1 = 0, cb = 0;
    for (size_t i = b * BLK, e = std::min(n, i + BLK); i < e; i++) {
      one_buf[c1] = big_buf[cb] = uint32_t(i);
      c1 += cls[i] == kOne;
      cb += cls[i] == kBig;
    }
    std::copy_n(one_buf, c1, out.ones.begin() + std::ptrdiff_t(o1[b]));
    if (tb != n) std::copy_n(big_buf, cb, out.big.begin() + std::ptrdiff_t(ob[b]));
  });
  out.zeros = tz;
  return out;
}

}  // namespace cuzk::msm::detail
