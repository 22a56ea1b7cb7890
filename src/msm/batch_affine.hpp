#pragma once
// Batch-affine summation of many independent lists of affine points.
//
// The bucket method needs, for every bucket, the sum of the points that fall
// into it. An affine addition costs one inversion + 2M + 1S; with
// Montgomery's trick one inversion is shared by a whole batch of independent
// additions, leaving 5M + 1S per addition (plus 1/batch of an inversion),
// against 8M + 2S for the cheapest projective (XYZZ mixed) addition.
//
// Additions in one batch must be independent: no addition may use a result of
// the same batch, and no bucket may be written twice. Instead of a
// scheduler with a queue of deferred (conflicting) points, the points are
// first sorted by bucket (counting sort), so each bucket owns a contiguous
// segment; every round then adds disjoint pairs inside every segment
// (segment lengths halve), so all additions of a round are independent by
// construction, whatever the distribution: one bucket holding every point
// (all scalars equal) costs log2(n) rounds of n/2, n/4, ... additions.
// Special cases inside a batch: P + P (doubling: slope 3x^2 / 2y), P + (-P)
// (the result is the identity, represented by a null reference), and the
// identity itself (passed through without an addition).
//
// Points are addressed through tagged references: a pointer to an affine
// point plus a "negate" bit (signed digits cost nothing), 0 meaning the
// identity. Results of a round live in an arena owned by the summer.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include "ec/point.hpp"
#include "msm/field_ops.hpp"
#include "msm/ifma_kernels.hpp"
#include "platform/raw_array.hpp"

namespace cuzk::msm::detail {

using platform::RawArray;

// Affine point that is never the identity (the identity is a null Ref).
template <class C>
struct Pt {
  typename C::Base x, y;
};

using Ref = uintptr_t;

template <class C>
inline const Pt<C>* ref_ptr(Ref r) {
  return reinterpret_cast<const Pt<C>*>(r & ~Ref(1));
}
inline bool ref_neg(Ref r) { return r & 1; }
template <class C>
inline Ref make_ref(const Pt<C>* p, bool neg) {
  return reinterpret_cast<Ref>(p) | Ref(neg);
}

template <class C>
inline void prefetch_pt(const Pt<C>* p) {
  const char* c = reinterpret_cast<const char*>(p);
  for (size_t off = 0; off < sizeof(Pt<C>); off += 64) __builtin_prefetch(c + off);
  __builtin_prefetch(c + sizeof(Pt<C>) - 1);
}

template <class C>
inline ec::Affine<C> to_affine(Ref r) {
  if (!r) return ec::Affine<C>::identity();
  const Pt<C>* p = ref_ptr<C>(r);
  return ec::Affine<C>::from_xy(p->x, ref_neg(r) ? -p->y : p->y);
}

// *dst = the point r refers to (r != 0), which may be *dst itself, negated.
template <class C>
inline void store(Pt<C>* dst, Ref r) {
  const Pt<C>* q = ref_ptr<C>(r);
  if (q != dst) {
    dst->x = q->x;
    dst->y = ref_neg(r) ? fops::neg(q->y) : q->y;
  } else if (ref_neg(r)) {
    dst->y = fops::neg(dst->y);
  }
}

// jobs[first, first + cnt) by the eight-lane kernel of curve C. The kernel
// skips the rare pairs with equal x; they are finished here: equal points are
// resubmitted as doublings (through `dbl`), and for opposite points (whose
// sum is the identity, and whose out is left untouched) on_identity(i) is
// called with the job's index. `special` is scratch.
template <class C, class OnIdentity>
void ifma_add_jobs(const ifma::JobList& jobs, size_t first, size_t cnt, ifma::JobList& dbl,
                   std::vector<uint32_t>& special, OnIdentity&& on_identity) {
  constexpr bool ext = !std::is_same_v<typename C::Base, ff::Fp>;
  static_assert(sizeof(Pt<C>) == (ext ? 24 : 12) * sizeof(uint64_t), "x then y, 6-limb components");
  const auto kernel = [](const ifma::JobList& j, size_t f, size_t n, uint32_t* sp) {
    if constexpr (ext) return ifma::g2_add_batch(j, f, n, sp);
    else return ifma::g1_add_batch(j, f, n, sp);
  };
  special.resize(cnt);
  const size_t ns = kernel(jobs, first, cnt, special.data());
  if (!ns) [[likely]]
    return;
  dbl.clear();
  dbl.set_raw_b(jobs.raw_b());
  for (size_t k = 0; k < ns; k++) {
    const size_t i = first + special[k];
    const auto* A = reinterpret_cast<const Pt<C>*>(jobs.a(i));
    Pt<C> B;  // a raw operand may lie at any alignment, its y not moved in yet
    std::memcpy(static_cast<void*>(&B), jobs.b(i), sizeof B);
    if (jobs.raw_b()) ifma::points_to_domain(reinterpret_cast<uint64_t*>(&B), 1, sizeof B / sizeof(ff::Fp));
    const bool sa = jobs.flags(i) & ifma::NEG_A, sb = jobs.flags(i) & ifma::NEG_B;
    const bool equal = (A->y == B.y) ? (sa == sb) : (sa != sb);
    if (!equal || A->y.is_zero()) on_identity(i);  // P + (-P)
    else dbl.push(jobs.a(i), jobs.b(i), jobs.out(i), uint8_t(jobs.flags(i) | ifma::DBL));
  }
  dbl.pad();
  kernel(dbl, 0, dbl.size(), special.data());
}

// Sums segments of references with rounds of batch-affine additions.
// Usage: fill `refs` and `segs` (each segment non-empty), call run(fin, batch):
// fin(id, ref) is called once per segment with its sum (0 = identity); the
// referenced point stays valid until the next run()/clear().
template <class C>
class TreeSummer {
 public:
  using Base = typename C::Base;
  struct Seg {
    uint32_t id, begin, end;
  };

  std::vector<Ref> refs;
  std::vector<Seg> segs;
  // Every point (inputs and results) is in the IFMA kernels' Montgomery
  // domain and the additions run there, eight at a time (ifma_kernels.hpp;
  // the caller checks platform::use_ifma()).
  bool ifma = false;

  void clear() {
    refs.clear();
    segs.clear();
  }

  // dst(id) may name where a segment's sum will be copied (or nullptr): its
  // last addition then writes there directly, saving the copy. It may be one
  // of the segment's own inputs (a bucket's previous value).
  template <class Fin>
  void run(Fin&& fin, size_t batch) {
    run(fin, batch, [](uint32_t) -> Pt<C>* { return nullptr; });
  }
  template <class Fin, class Dst>
  void run(Fin&& fin, size_t batch, Dst&& dst) {
    if (arena_.size() < refs.size()) arena_.reset(refs.size() + refs.size() / 4 + 64);
    size_t used = 0;
    while (!segs.empty()) {
      nref_.clear();
      nseg_.clear();
      jobs_.clear();
      kjobs_.clear();
      kslot_.clear();
      const size_t nsegs = segs.size();
      for (size_t si = 0; si < nsegs; si++) {
        // Finished segments are copied out by fin(): fetch their point early.
        if (si + 8 < nsegs) {
          const Seg& f = segs[si + 8];
          if (f.end - f.begin == 1 && refs[f.begin]) prefetch_pt(ref_ptr<C>(refs[f.begin]));
        }
        const Seg& s = segs[si];
        if (s.end - s.begin == 1) {
          fin(s.id, refs[s.begin]);
          continue;
        }
        uint32_t nb = uint32_t(nref_.size());
        uint32_t i = s.begin;
        Pt<C>* last = s.end - s.begin == 2 ? dst(s.id) : nullptr;
        for (; i + 1 < s.end; i += 2) {
          Ref a = refs[i], b = refs[i + 1];
          if (!a) {
            nref_.push_back(b);
          } else if (!b) {
            nref_.push_back(a);
          } else if (ifma) {  // straight into the kernel's job list
            Pt<C>* out = last ? last : arena_.data() + used++;
            kslot_.push_back(uint32_t(nref_.size()));
            kjobs_.push(limbs(a), limbs(b), reinterpret_cast<uint64_t*>(out),
                        uint8_t((ref_neg(a) ? ifma::NEG_A : 0) | (ref_neg(b) ? ifma::NEG_B : 0)));
            nref_.push_back(make_ref<C>(out, false));
          } else {
            jobs_.push_back({a, b, last ? last : arena_.data() + used++, uint32_t(nref_.size()), 0});
            nref_.push_back(0);
          }
        }
        if (i < s.end) nref_.push_back(refs[i]);
        nseg_.push_back({s.id, nb, uint32_t(nref_.size())});
      }
      const size_t njobs = ifma ? kjobs_.size() : jobs_.size();
      if (ifma) kjobs_.pad();
      // The IFMA kernel starts its batches at whole groups of eight jobs.
      const size_t step = ifma ? (batch + 7) / 8 * 8 : batch;
      for (size_t first = 0; first < njobs; first += step) {
        const size_t cnt = std::min(step, njobs - first);
        if (ifma) exec_ifma(first, cnt);
        else exec(first, cnt);
      }
      refs.swap(nref_);
      segs.swap(nseg_);
    }
  }

 private:
  enum : uint8_t { ADD = 0, DBL = 1, INF = 2 };
  struct Job {
    Ref a, b;
    Pt<C>* out;
    uint32_t slot;
    uint8_t kind;
  };
  std::vector<Ref> nref_;
  std::vector<Seg> nseg_;
  std::vector<Job> jobs_;
  RawArray<Pt<C>> arena_;
  std::vector<ff::Fp> pre_, nrm_;
  std::vector<Base> den_;
  // IFMA path: the kernel's jobs, their result slots in nref_, scratch.
  ifma::JobList kjobs_, dbl_;
  std::vector<uint32_t> kslot_, special_;

  static constexpr size_t PF = 6;

  // Equal x coordinates (rare): the first limb almost always differs, so it
  // is tested inline before the full comparison (a memcmp call).
  static bool same_x(const Pt<C>* A, const Pt<C>* B) {
    if constexpr (kExt) return A->x.c0.v[0] == B->x.c0.v[0] && A->x == B->x;
    else return A->x.v[0] == B->x.v[0] && A->x == B->x;
  }

  // jobs_[first, first + cnt): *out = a + b, nref_[slot] = its ref.
  //
  // Montgomery's trick runs over Fp for both curves: for G2 the denominator
  // d in Fp2 is inverted as conj(d) / N(d) with N(d) = d0^2 + d1^2 in Fp,
  // so the prefix products and the inversion are Fp operations (7 Fp
  // multiplications per element instead of 9).
  //
  // Signs cost no field operation: with both operands negated the sum of the
  // magnitudes is computed and its reference negated; with one negated
  // operand it is made the second one (B) and, for lambda' = (yA + yB) /
  // (xB - xA) = -lambda, y3 = lambda' * (x3 - xA) - yA.
  static constexpr bool kExt = !std::is_same_v<Base, ff::Fp>;
  CUZK_MSM_INLINE static ff::Fp norm(const Base& d) {
    if constexpr (kExt) return fops::add(fops::sqr(d.c0), fops::sqr(d.c1));
    else return d;
  }
  // 1/d from 1/N(d).
  CUZK_MSM_INLINE static Base inv_from_norm(const Base& d, const ff::Fp& inv_n) {
    if constexpr (kExt) return {fops::mul(d.c0, inv_n), fops::neg(fops::mul(d.c1, inv_n))};
    else return inv_n;
  }

  // One addition of exec()'s walk back, in steps (two are interleaved).
  // One code path for the sign cases (the kernel is large: keep it small
  // enough for the instruction cache). The job's out may alias its A or B:
  // both are read before store() writes it.
  struct AddStep {
    const Job& j;
    const Pt<C>* A;
    const Pt<C>* B;
    bool na, same;  // (neg a, neg b) is never (1, 0)
    Base inv_i, lam, x3, y3;
    CUZK_MSM_INLINE explicit AddStep(const Job& job)
        : j(job),
          A(ref_ptr<C>(job.a)),
          B(ref_ptr<C>(job.b)),
          na(ref_neg(job.a)),
          same(na == ref_neg(job.b)) {}
    CUZK_MSM_INLINE void slope() {
      lam = fops::mul(same ? fops::sub(B->y, A->y) : fops::add(B->y, A->y), inv_i);
    }
    CUZK_MSM_INLINE void x() { x3 = fops::sub(fops::sub(fops::sqr(lam), A->x), B->x); }
    CUZK_MSM_INLINE void y() {
      const Base* u = same ? &A->x : &x3;
      const Base* v = same ? &x3 : &A->x;
      y3 = fops::sub(fops::mul(lam, fops::sub(*u, *v)), A->y);
    }
    CUZK_MSM_INLINE void store(std::vector<Ref>& nref) {
      j.out->x = x3;
      j.out->y = y3;
      nref[j.slot] = make_ref<C>(j.out, same && na);
    }
  };

  // P + P given 1/(2y) (rare: out of line).
  // (o may alias A.)
  [[gnu::noinline]] static void finish_double(const Pt<C>* A, bool neg, const Base& inv_i, Pt<C>& o) {
    Base ya = neg ? fops::neg(A->y) : A->y;
    Base xx = fops::sqr(A->x);
    Base lam = fops::mul(fops::add(fops::dbl(xx), xx), inv_i);
    Base x3 = fops::sub(fops::sqr(lam), fops::dbl(A->x));
    Base y3 = fops::sub(fops::mul(lam, fops::sub(A->x, x3)), ya);
    o.x = x3;
    o.y = y3;
  }

  static const uint64_t* limbs(Ref r) { return reinterpret_cast<const uint64_t*>(ref_ptr<C>(r)); }

  // kjobs_[first, first + cnt) by the eight-lane kernel (results already
  // referenced from nref_); a pair that cancels leaves a null reference.
  void exec_ifma(size_t first, size_t cnt) {
    ifma_add_jobs<C>(kjobs_, first, cnt, dbl_, special_, [&](size_t i) { nref_[kslot_[i]] = 0; });
  }

  void exec(size_t first, size_t cnt) {
    if (pre_.size() < cnt) {
      pre_.resize(cnt);
      den_.resize(cnt);
      if constexpr (kExt) nrm_.resize(cnt);
    }
    Job* jobs = jobs_.data() + first;
    ff::Fp* pre = pre_.data();
    Base* dens = den_.data();
    ff::Fp* nrm = nullptr;
    if constexpr (kExt) nrm = nrm_.data();
    for (size_t i = 0; i < PF && i < cnt; i++) {
      prefetch_pt(ref_ptr<C>(jobs[i].a));
      prefetch_pt(ref_ptr<C>(jobs[i].b));
    }
    ff::Fp acc = ff::Fp::one();
    auto push = [&](size_t i) CUZK_MSM_LAMBDA_INLINE {
      ff::Fp nv = norm(dens[i]);
      if constexpr (kExt) nrm[i] = nv;
      acc = fops::mul(acc, nv);
    };
    for (size_t i = 0; i < cnt; i++) {
      if (i + PF < cnt) {
        prefetch_pt(ref_ptr<C>(jobs[i + PF].a));
        prefetch_pt(ref_ptr<C>(jobs[i + PF].b));
      }
      Job& j = jobs[i];
      if (ref_neg(j.a) && !ref_neg(j.b)) std::swap(j.a, j.b);
      const Pt<C>* A = ref_ptr<C>(j.a);
      const Pt<C>* B = ref_ptr<C>(j.b);
      pre[i] = acc;
      if (!same_x(A, B)) [[likely]] {
        j.kind = ADD;
        dens[i] = fops::sub(B->x, A->x);
        push(i);
        continue;
      }
      // Same x: the points are equal or opposite (after the signs).
      bool sa = ref_neg(j.a), sb = ref_neg(j.b);
      bool equal = (A->y == B->y) ? (sa == sb) : (sa != sb);
      if (equal && !A->y.is_zero()) {
        j.kind = DBL;
        dens[i] = sa ? fops::neg(fops::dbl(A->y)) : fops::dbl(A->y);
        push(i);
      } else {
        j.kind = INF;
      }
    }
    ff::Fp inv = acc.inverse_vartime();
    const auto next_inv = [&](size_t i) CUZK_MSM_LAMBDA_INLINE {
      Base inv_i = inv_from_norm(dens[i], fops::mul(inv, pre[i]));
      if constexpr (kExt) inv = fops::mul(inv, nrm[i]);
      else inv = fops::mul(inv, dens[i]);
      return inv_i;
    };
    for (size_t i = cnt; i-- > 0;) {
      // Two additions at once, step by step: one addition's products form a
      // chain (lambda, lambda^2, then y3), each waiting for the last, and
      // the next addition's chain lies beyond what the core looks ahead.
      // (Without IFMA: G1 2^18 2% faster, G2 level; G2 with only its single
      // path of steps measured 2-4% slower.)
      if (i > 0 && jobs[i].kind == ADD && jobs[i - 1].kind == ADD) [[likely]] {
        AddStep s1(jobs[i]), s0(jobs[i - 1]);
        s1.inv_i = next_inv(i);
        s0.inv_i = next_inv(i - 1);
        s1.slope();
        s0.slope();
        s1.x();
        s0.x();
        s1.y();
        s0.y();
        s1.store(nref_);
        s0.store(nref_);
        i--;
        continue;
      }
      const Job& j = jobs[i];
      if (j.kind == INF) [[unlikely]] {
        nref_[j.slot] = 0;
        continue;
      }
      const Base inv_i = next_inv(i);
      if (j.kind == ADD) [[likely]] {
        AddStep st(j);
        st.inv_i = inv_i;
        st.slope();
        st.x();
        st.y();
        st.store(nref_);
      } else {
        finish_double(ref_ptr<C>(j.a), ref_neg(j.a), inv_i, *j.out);  // (out may alias a)
        nref_[j.slot] = make_ref<C>(j.out, false);
      }
    }
  }
};

}  // namespace cuzk::msm::detail
