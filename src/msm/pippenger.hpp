#pragma once
// The MSM engine behind msm.hpp (included by msm.cpp only).
//
// Stages, all inside one oneTBB task_arena:
//  0. classify (parallel): identity points and zero scalars are dropped,
//     scalar-1 points go to the "ones" list, the rest to the "big" list;
//     the largest scalar decides the number of bits to window.
//  1. ones: summed by batch-affine addition trees (parallel parts).
//  2. big scalars, in super-chunks bounded by memory:
//     A. (parallel over scalars) GLV split k = k1 + k2*lambda, entries
//        P and phi(P) copied into a contiguous array, signed Booth digits of
//        every window precomputed (int32 per entry and window);
//     B. (parallel over tasks = window group x bucket range) per mini-chunk:
//        counting sort of the entries by bucket, then batch-affine rounds
//        sum every bucket's segment together with the bucket's previous
//        value (or XYZZ mixed additions for the XYZZ accumulator).
//  3. (per window, as soon as the window's last accumulation task ends)
//     bucket reduction sum_i i*B_i: two-level (columns/rows sums by
//     batch-affine trees, then short XYZZ running sums).
//  4. Horner over the windows, plus the ones sum.
#include <tbb/enumerable_thread_specific.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "msm/batch_affine.hpp"
#include "msm/bucket_scheduler.hpp"
#include "msm/cost_model.hpp"
#include "msm/glv.hpp"
#include "msm/msm.hpp"
#include "platform/cpu_features.hpp"

namespace cuzk::msm::detail {

using arith::Limbs;

class StageTimer {
 public:
  StageTimer() : t_(std::chrono::steady_clock::now()) {}
  // Milliseconds since construction or the previous lap.
  double lap() {
    auto now = std::chrono::steady_clock::now();
    double ms = std::chrono::duration<double, std::milli>(now - t_).count();
    t_ = now;
    return ms;
  }

 private:
  std::chrono::steady_clock::time_point t_;
};

// Up to kMaxParts spans indexed as one sequence (msm_parts: no copy). The
// part is found by comparing against the parts' ends: with few parts and
// mostly sequential indices, the branches predict well.
template <class T>
class Concat {
 public:
  Concat() = default;
  explicit Concat(std::span<const T> s) { add(s); }
  void add(std::span<const T> s) {
    if (n_ == kMaxParts) throw std::invalid_argument("msm: more than kMaxParts parts");
    data_[n_] = s.data();
    begin_[n_] = size();
    end_[n_] = begin_[n_] + s.size();
    n_++;
  }
  size_t size() const { return n_ ? end_[n_ - 1] : 0; }
  const T& operator[](size_t i) const {
    size_t p = 0;
    while (i >= end_[p]) p++;
    return data_[p][i - begin_[p]];
  }

 private:
  const T* data_[kMaxParts] = {};
  size_t begin_[kMaxParts] = {}, end_[kMaxParts] = {};
  size_t n_ = 0;
};

inline void reduce_mod_r(Limbs<4>& k) {
  while (arith::compare(k, ff::Fr::MODULUS) >= 0) arith::sub_from(k, ff::Fr::MODULUS);
}

// Scalar sources: operator()(i) gives the canonical integer (< r); quick(i)
// classifies without conversion where it can: 0 (zero), 1 (one), -1 (other).
struct FrScalars {
  Concat<ff::Fr> s;
  Limbs<4> operator()(size_t i) const { return s[i].to_canonical(); }
  int quick(size_t i) const {
    const auto& v = s[i].v;  // Montgomery form: 0 -> 0, 1 -> R
    if (arith::is_zero(v)) return 0;
    if (v == ff::Fr::R1) return 1;
    return -1;
  }
};
struct CanonicalScalars {
  std::span<const Limbs<4>> s;
  Limbs<4> operator()(size_t i) const {
    Limbs<4> k = s[i];
    reduce_mod_r(k);
    return k;
  }
  int quick(size_t) const { return -1; }
};

template <size_t K>
inline uint64_t bits_at(const Limbs<K>& k, unsigned pos, unsigned len) {
  unsigned limb = pos / 64, sh = pos % 64;
  if (limb >= K) return 0;
  uint64_t x = k[limb] >> sh;
  if (sh + len > 64 && limb + 1 < K) x |= k[limb + 1] << (64 - sh);
  return x & ((uint64_t(1) << len) - 1);
}

// Signed window digit (Booth recoding): d_w = v_w + b_{cw-1} - 2^c * b_{cw+c-1},
// in [-2^(c-1), 2^(c-1)]; sum_w d_w 2^(cw) = k when k < 2^(cW - 1).
template <size_t K>
inline int32_t booth_digit(const Limbs<K>& k, unsigned w, unsigned c) {
  unsigned pos = w * c;
  uint64_t v = bits_at(k, pos, c);
  uint64_t low = pos ? (k[(pos - 1) / 64] >> ((pos - 1) % 64)) & 1 : 0;
  return int32_t(v + low) - int32_t((v >> (c - 1)) << c);
}

// The same digits' job for a GLV half (< 2^127): d_w in [1 - 2^(c-1),
// 2^(c-1)] by a running carry, the top window (no carry out) in [0, its
// bucket count]; sum_w d_w 2^(cw) = k. Written negated when neg, to
// out[w * stride]. Cheaper than booth_digit per window.
inline void signed_digits(unsigned __int128 k, unsigned c, int W, bool neg, int32_t* out, size_t stride) {
  const uint32_t half = uint32_t(1) << (c - 1), mask = (uint32_t(1) << c) - 1;
  uint32_t carry = 0;
  for (int w = 0; w < W; w++) {
    int32_t d = int32_t((uint32_t(k) & mask) + carry);
    k >>= c;
    carry = w + 1 < W && d > int32_t(half);
    d -= int32_t(carry << c);
    out[size_t(w) * stride] = neg ? -d : d;
  }
}

template <class C>
inline const CurveCosts& curve_costs() {
  if constexpr (std::is_same_v<typename C::Base, ff::Fp>)
    return G1_COSTS;
  else
    return G2_COSTS;
}

// acc += (neg ? -q : q), XYZZ += affine, madd-2008-s (8M + 2S) over the
// inlined field helpers; the rare cases (identity, equal x) go to ec::Xyzz.
template <class C>
inline void xyzz_madd(ec::Xyzz<C>& acc, const Pt<C>& q, bool neg) {
  using Base = typename C::Base;
  if (acc.is_identity()) [[unlikely]] {
    acc = {q.x, neg ? fops::neg(q.y) : q.y, Base::one(), Base::one()};
    return;
  }
  const Base qy = neg ? fops::neg(q.y) : q.y;
  const Base P = fops::sub(fops::mul(q.x, acc.ZZ), acc.X);
  const Base R = fops::sub(fops::mul(qy, acc.ZZZ), acc.Y);
  if (P.is_zero()) [[unlikely]] {
    acc = acc.add_mixed(ec::Affine<C>::from_xy(q.x, qy));
    return;
  }
  const Base PP = fops::sqr(P), PPP = fops::mul(P, PP), Q = fops::mul(acc.X, PP);
  Base X3 = fops::sub(fops::sub(fops::sqr(R), PPP), fops::dbl(Q));
  acc.Y = fops::sub(fops::mul(R, fops::sub(Q, X3)), fops::mul(acc.Y, PPP));
  acc.X = X3;
  acc.ZZ = fops::mul(acc.ZZ, PP);
  acc.ZZZ = fops::mul(acc.ZZZ, PPP);
}

template <class C>
class Engine {
 public:
  using Base = typename C::Base;
  using Aff = ec::Affine<C>;
  using Jac = ec::Jacobian<C>;
  using Xz = ec::Xyzz<C>;
  using P = Pt<C>;

  Engine(const Concat<Aff>& pts, const Options& opt, const Tuning& tu) : pts_(pts), opt_(opt), tu_(tu) {}

  template <class ScalarAt>
  Jac run(const ScalarAt& scalar_at, Plan* plan) {
    const size_t n = pts_.size();
    T_ = unsigned(std::max(1, tbb::this_task_arena::max_concurrency()));
    ifma_ = tu_.ifma && platform::use_ifma();
    // The IFMA kernel's additions are cheaper, so the shared inversion needs
    // a larger batch to stay a small share.
    batch_ = tu_.batch ? tu_.batch : (sizeof(Base) > 48 ? 1024 : 2048) * (ifma_ ? 2 : 1);
    Plan pl;
    pl.n = n;
    pl.threads = T_;
    if (n == 0) {
      if (plan) *plan = pl;
      return Jac::identity();
    }
    StageTimer tm;
    classify(scalar_at, pl);
    pl.ms_classify = tm.lap();

    Jac ones_sum = Jac::identity();
    if (!ones_.empty()) ones_sum = sum_points(ones_);
    pl.ms_ones = tm.lap();

    Jac big_sum = Jac::identity();
    if (nbig_) big_sum = run_big(scalar_at, pl);
    if (plan) *plan = pl;
    return big_sum.add(ones_sum);
  }

 private:
  Concat<Aff> pts_;
  Options opt_;
  Tuning tu_;
  unsigned T_ = 1;
  size_t batch_ = 2048;
  bool ifma_ = false;  // the points of the affine stages live in the IFMA domain
  int sched_mode_ = 0;  // BucketScheduler fills: 0 no window, 1 windows of many buckets, 2 every window
  static constexpr uint32_t kMinScheduledSpan = 2048;
  // How the task range [lo, hi) of window w is filled: 0 = sorted trees;
  // 1 = scheduled straight into its buckets (>= 2048 of them, or forced);
  // k > 1 = scheduled into k copies of its buckets, 4096 in all, then added
  // up: a narrower window that a task covers whole (the top window: few
  // buckets, many entries each), whose sorted trees would gather entries at
  // random from the whole chunk. Windows of fewer than 64 buckets stay sorted.
  uint32_t bucket_copies(int w, uint32_t lo, uint32_t hi) const {
    const uint32_t span = hi - lo;
    if (sched_mode_ == 2 || (sched_mode_ == 1 && span >= kMinScheduledSpan)) return 1;
    return sched_mode_ == 1 && lo == 0 && hi == M_[w] && span >= 64 ? 4096 / span : 0;
  }

  // In place: into / out of the IFMA kernels' domain (G1 only).
  static constexpr size_t kFpPerPoint = sizeof(P) / sizeof(ff::Fp);
  void to_kernel_domain(P* p, size_t n) const {
    if (ifma_) ifma::fp_to_domain(reinterpret_cast<uint64_t*>(p), n * kFpPerPoint);
  }
  void from_kernel_domain(P* p, size_t n) const {
    if (ifma_) ifma::fp_from_domain(reinterpret_cast<uint64_t*>(p), n * kFpPerPoint);
  }

  std::vector<uint32_t> ones_, big_;  // big_ stays empty when every scalar is big
  size_t nbig_ = 0;
  uint32_t big_at(size_t s) const { return big_.empty() ? uint32_t(s) : big_[s]; }
  unsigned max_bits_ = 0;

  // window plan
  bool glv_ = false;
  unsigned bits_ = 0;
  int c_ = 0, W_ = 0;
  bool affine_ = true;
  std::vector<uint32_t> M_;  // buckets per window

  // ---------------------------------------------------------------- stage 0
  template <class ScalarAt>
  void classify(const ScalarAt& scalar_at, Plan& pl) {
    const size_t n = pts_.size();
    const size_t BLK = 4096;
    const size_t nblk = (n + BLK - 1) / BLK;
    std::vector<uint8_t> cls(n);
    std::vector<uint32_t> n1(nblk), nb(nblk), mb(nblk);
    std::vector<uint32_t> nz(nblk);
    const bool split_ones = tu_.split_ones;
    tbb::parallel_for(size_t(0), nblk, [&](size_t b) {
      uint32_t c1 = 0, cb = 0, cz = 0, bits = 0;
      for (size_t i = b * BLK, e = std::min(n, i + BLK); i < e; i++) {
        uint8_t k = 0;
        const int q = pts_[i].infinity ? 0 : scalar_at.quick(i);
        if (q == 0) {
          k = 0;
        } else if (q == 1 && split_ones) {
          k = 1;
        } else {
          Limbs<4> s = scalar_at(i);
          size_t bl = arith::bit_length(s);
          if (bl == 0) {
            k = 0;
          } else if (bl == 1 && split_ones) {
            k = 1;
          } else {
            k = 2;
            bits = std::max<uint32_t>(bits, uint32_t(bl));
          }
        }
        cls[i] = k;
        c1 += k == 1;
        cb += k == 2;
        cz += k == 0;
      }
      n1[b] = c1;
      nb[b] = cb;
      mb[b] = bits;
      nz[b] = cz;
    });
    size_t t1 = 0, tb = 0, tz = 0;
    std::vector<size_t> o1(nblk), ob(nblk);
    for (size_t b = 0; b < nblk; b++) {
      o1[b] = t1;
      ob[b] = tb;
      t1 += n1[b];
      tb += nb[b];
      tz += nz[b];
      max_bits_ = std::max(max_bits_, mb[b]);
    }
    ones_.resize(t1);
    nbig_ = tb;
    if (tb != n) big_.resize(tb);
    tbb::parallel_for(size_t(0), nblk, [&](size_t b) {
      size_t p1 = o1[b], pb = ob[b];
      for (size_t i = b * BLK, e = std::min(n, i + BLK); i < e; i++) {
        if (cls[i] == 1) ones_[p1++] = uint32_t(i);
        if (cls[i] == 2 && tb != n) big_[pb++] = uint32_t(i);
      }
    });
    pl.zeros = tz;
    pl.ones = t1;
    pl.big = tb;
  }

  // ------------------------------------------------------- ones: sum trees
  struct SumWork {
    TreeSummer<C> ts;
    std::vector<P> buf;
  };

  Jac sum_points(const std::vector<uint32_t>& idx) {
    const size_t len = idx.size();
    const size_t MINI = tu_.mini_chunk ? tu_.mini_chunk : (size_t(1) << 16);
    size_t parts = std::min<size_t>((len + 8191) / 8192, 4 * T_);
    parts = std::max<size_t>(parts, 1);
    std::vector<Jac> res(parts);
    tbb::enumerable_thread_specific<SumWork> work;
    tbb::parallel_for(size_t(0), parts, [&](size_t p) {
      SumWork& wk = work.local();
      size_t lo = len * p / parts, hi = len * (p + 1) / parts;
      P acc;
      bool have = false;
      for (size_t s = lo; s < hi; s += MINI) {
        size_t e = std::min(hi, s + MINI);
        wk.buf.resize(e - s);
        auto& ts = wk.ts;
        ts.clear();
        ts.ifma = ifma_;
        if (have) ts.refs.push_back(make_ref<C>(&acc, false));
        for (size_t i = s; i < e; i++) {
          const Aff& a = pts_[idx[i]];
          wk.buf[i - s] = P{a.x, a.y};
          ts.refs.push_back(make_ref<C>(&wk.buf[i - s], false));
        }
        to_kernel_domain(wk.buf.data(), e - s);
        ts.segs.push_back({0, 0, uint32_t(ts.refs.size())});
        ts.run(
            [&](uint32_t, Ref r) {
              have = r != 0;
              if (r) store(&acc, r);
            },
            batch_, [&](uint32_t) { return &acc; });
      }
      if (have) from_kernel_domain(&acc, 1);
      res[p] = have ? Jac::from_affine(Aff::from_xy(acc.x, acc.y)) : Jac::identity();
    });
    Jac r = Jac::identity();
    for (auto& x : res) r = r.add(x);
    return r;
  }

  // ------------------------------------------------------------- big MSM
  template <class ScalarAt>
  Jac run_big(const ScalarAt& scalar_at, Plan& pl) {
    const size_t nbig = nbig_;
    glv_ = tu_.glv && max_bits_ > 127;
    bits_ = glv_ ? 127 : max_bits_;
    const size_t eps = glv_ ? 2 : 1;
    int acc_mode = tu_.accumulator == Accumulator::Auto          ? 0
                   : tu_.accumulator == Accumulator::BatchAffine ? 1
                                                                 : 2;
    int forced = opt_.window_bits;
    if (forced < 0 || forced > 16) throw std::invalid_argument("msm: window_bits must be 0..16");
    WindowChoice wc = choose_window(curve_costs<C>(), double(nbig * eps), bits_, forced, acc_mode,
                                    double(batch_), double(T_));
    c_ = wc.c;
    W_ = wc.windows;
    affine_ = wc.batch_affine;
    if (!affine_) ifma_ = false;  // XYZZ buckets use the scalar kernels
    pl.ifma = ifma_;
    M_.resize(W_);
    for (int w = 0; w < W_; w++)
      M_[w] = w + 1 < W_ ? (uint32_t(1) << (c_ - 1))
                         : (uint32_t(1) << (bits_ - unsigned(c_) * unsigned(W_ - 1)));
    pl.scalar_bits = bits_;
    pl.glv = glv_;
    pl.window_bits = c_;
    pl.windows = W_;
    pl.accumulator = affine_ ? Accumulator::BatchAffine : Accumulator::Xyzz;
    pl.model_cost = wc.cost;

    // Buckets.
    std::vector<RawArray<P>> abk;
    std::vector<std::vector<uint8_t>> filled;
    std::vector<std::vector<Xz>> xbk;
    if (affine_) {
      abk.resize(W_);
      filled.resize(W_);
      for (int w = 0; w < W_; w++) {
        abk[w].reset(M_[w]);
        filled[w].assign(M_[w], 0);
      }
    } else {
      xbk.resize(W_);
      for (int w = 0; w < W_; w++) xbk[w].assign(M_[w], Xz::identity());
    }

    // Super-chunks bounded by ~64 MiB of entries + digits.
    size_t per_scalar = eps * (sizeof(P) + 4 * size_t(W_));
    size_t SC = tu_.super_chunk ? tu_.super_chunk : std::max<size_t>(1024, (size_t(64) << 20) / per_scalar);
    SC = std::min(SC, nbig);
    RawArray<P> entries(SC * eps);
    RawArray<int32_t> digits(SC * eps * W_);

    // Task partition: window groups x bucket ranges.
    const size_t Esc_max = SC * eps;
    int g = int(std::clamp<size_t>((32768 + Esc_max - 1) / Esc_max, 1, size_t(W_)));
    int ngroups = (W_ + g - 1) / g;
    uint32_t Mmax = uint32_t(1) << (c_ - 1);
    // Bucket ranges per window group: the smallest R giving a task count that is
    // a multiple of the thread count and at least four tasks per thread (equal
    // tasks, nothing left for one thread at the end), within limits: a range
    // of >= 256 buckets, and >= ~4096 entries per task and mini-chunk.
    uint32_t R = 1;
    if (T_ > 1) {
      const uint32_t cap = std::max<uint32_t>(
          1, std::min<uint32_t>(Mmax / 256, uint32_t(std::max<size_t>(1, Esc_max * g / 4096))));
      R = std::min<uint32_t>(cap, uint32_t((4 * T_ + ngroups - 1) / ngroups));
      for (uint32_t r = 1; r <= cap; r++) {
        if ((uint64_t(ngroups) * r) % T_ == 0 && uint64_t(ngroups) * r >= 4 * T_) {
          R = r;
          break;
        }
      }
    }
    struct Task {
      int w0, w1;
      uint32_t b0, b1;
    };
    std::vector<Task> tasks;
    for (int gi = 0; gi < ngroups; gi++)
      for (uint32_t r = 0; r < R; r++)
        tasks.push_back({gi * g, std::min(W_, (gi + 1) * g), uint32_t(uint64_t(Mmax) * r / R),
                         uint32_t(uint64_t(Mmax) * (r + 1) / R)});

    // Direct scheduling (with IFMA kernels), window by window: see bucket_copies().
    {
      const bool can = ifma_ && affine_;
      sched_mode_ = !can || tu_.bucketing == Bucketing::Sorted     ? 0
                    : tu_.bucketing == Bucketing::Scheduled ? 2
                                                            : 1;
      pl.scheduled = false;
      for (int w = 0; w < W_; w++) pl.scheduled |= bucket_copies(w, 0, std::min(Mmax / R, M_[w])) > 0;
    }
    struct AccWork {
      TreeSummer<C> ts;
      std::vector<uint32_t> cnt;
      BucketScheduler<C> sched;
      std::vector<uint32_t> left;
      RawArray<P> copies;  // bucket copies of a narrow window
      std::vector<uint8_t> copy_fl;
    };
    tbb::enumerable_thread_specific<AccWork> work;
    const size_t MINI = tu_.mini_chunk ? tu_.mini_chunk : (size_t(1) << 16);

    // Stage 3 for one window: sum_i i * B_i.
    std::vector<Jac> wsum(W_);
    tbb::enumerable_thread_specific<TreeSummer<C>> red_work;
    const auto reduce_window = [&](int w) {
      wsum[w] = affine_ ? reduce_affine(red_work.local(), abk[w].data(), filled[w].data(), M_[w])
                        : reduce_xyzz(xbk[w]);
    };

    StageTimer tm;
    for (size_t s0 = 0; s0 < nbig; s0 += SC) {
      const size_t ns = std::min(SC, nbig - s0);
      const size_t E = ns * eps;
      // Stage A: entries and digits.
      tbb::parallel_for(tbb::blocked_range<size_t>(0, ns, 1024), [&](const auto& rg) {
        for (size_t s = rg.begin(); s < rg.end(); s++) {
          const uint32_t idx = big_at(s0 + s);
          const Aff& a = pts_[idx];
          Limbs<4> k = scalar_at(idx);
          if (glv_) {
            glv::Split sp = glv::split(k);
            entries[2 * s] = P{a.x, a.y};
            signed_digits(sp.k1, unsigned(c_), W_, sp.neg1, digits.data() + 2 * s, E);
            if (sp.k2) {
              // phi(P) = (beta x, y); the IFMA conversion multiplies by beta itself.
              entries[2 * s + 1] = ifma_ ? P{a.x, a.y} : P{a.x * glv::beta<C>(), a.y};
              signed_digits(sp.k2, unsigned(c_), W_, sp.neg2, digits.data() + 2 * s + 1, E);
            } else {
              entries[2 * s + 1] = P{};  // never read (all digits 0); keeps the conversion defined
              for (int w = 0; w < W_; w++) digits[size_t(w) * E + 2 * s + 1] = 0;
            }
          } else {
            entries[s] = P{a.x, a.y};
            for (int w = 0; w < W_; w++) digits[size_t(w) * E + s] = booth_digit(k, unsigned(w), unsigned(c_));
          }
        }
        if (ifma_ && glv_)
          ifma::glv_pairs_to_domain(reinterpret_cast<uint64_t*>(entries.data() + 2 * rg.begin()),
                                    rg.end() - rg.begin(), kFpPerPoint, glv::beta<C>());
        else
          to_kernel_domain(entries.data() + eps * rg.begin(), eps * (rg.end() - rg.begin()));
      });
      pl.ms_split += tm.lap();
      // Stage B: accumulate. After the last super-chunk, stage 3 (the
      // reduction of a window) starts as soon as the window's last
      // accumulation task ends, in the same task group: a thread that runs
      // out of accumulation work reduces finished windows instead of waiting
      // at a barrier for the other's last task (a task is a whole window,
      // an eighth of a large MSM, and the development VM's two threads
      // differ in speed by 10-15%).
      const auto accumulate = [&](const Task& tk) {
        if (affine_)
          accumulate_affine(work.local(), tk.w0, tk.w1, tk.b0, tk.b1, entries.data(), digits.data(), E, MINI,
                            abk, filled);
        else
          accumulate_xyzz(tk.w0, tk.w1, tk.b0, tk.b1, entries.data(), digits.data(), E, xbk);
      };
      if (s0 + ns < nbig) {
        tbb::parallel_for(
            tbb::blocked_range<size_t>(0, tasks.size(), 1),
            [&](const auto& rg) {
              for (size_t t = rg.begin(); t < rg.end(); t++) accumulate(tasks[t]);
            },
            tbb::simple_partitioner());
        pl.ms_accumulate += tm.lap();
        continue;
      }
      std::unique_ptr<std::atomic<uint32_t>[]> open(new std::atomic<uint32_t>[ngroups]);
      for (int gi = 0; gi < ngroups; gi++) open[gi] = R;
      tbb::task_group tg;
      for (size_t t = 0; t < tasks.size(); t++)
        tg.run([&, t] {
          accumulate(tasks[t]);
          if (open[t / R].fetch_sub(1) == 1)
            for (int w = tasks[t].w0; w < tasks[t].w1; w++) tg.run([&, w] { reduce_window(w); });
        });
      tg.wait();
      pl.ms_accumulate += tm.lap();  // the reductions included
    }
    // Stage 4: Horner.
    Jac r = wsum[W_ - 1];
    for (int w = W_ - 2; w >= 0; w--) {
      for (int i = 0; i < c_; i++) r = r.dbl();
      r = r.add(wsum[w]);
    }
    return r;
  }

  template <class Work>
  void accumulate_affine(Work& wk, int w0, int w1, uint32_t b0, uint32_t b1, const P* entries,
                         const int32_t* digits, size_t E, size_t MINI, std::vector<RawArray<P>>& abk,
                         std::vector<std::vector<uint8_t>>& filled) {
    auto& ts = wk.ts;
    ts.ifma = ifma_;
    // Scheduled windows: each entry straight into its bucket (or a copy of
    // it); the few that met a busy bucket twice go through the trees after.
    bool any_sorted = false;
    for (int w = w0; w < w1; w++) {
      const uint32_t lo = b0, hi = std::min(b1, M_[w]);
      if (lo >= hi) continue;
      const uint32_t span = hi - lo;
      const uint32_t copies = bucket_copies(w, lo, hi);
      if (!copies) {
        any_sorted = true;
        continue;
      }
      const int32_t* dg = digits + size_t(w) * E;
      // Half the trees' batch: the kernel's scratch for a batch (1.5 MB at
      // 4096 G1 additions) then leaves room in L2 for the buckets and
      // entries it reads (chain16: CPU -1 to -4.6% in three 16-30-run A/Bs).
      const size_t batch = std::max<size_t>(1, std::min<size_t>(batch_ / 2, span * copies / 4));
      wk.left.clear();
      if (copies > 1) {
        if (wk.copies.size() < size_t(span) * copies) wk.copies.reset(size_t(span) * copies);
        wk.copy_fl.assign(size_t(span) * copies, 0);
        wk.sched.run(entries, dg, E, 0, span, wk.copies.data(), wk.copy_fl.data(), batch, wk.left, copies);
        // Bucket b = its current value + its filled copies.
        ts.clear();
        for (uint32_t b = 0; b < span; b++) {
          const uint32_t begin = uint32_t(ts.refs.size());
          if (filled[w][b]) ts.refs.push_back(make_ref<C>(abk[w].data() + b, false));
          for (uint32_t k = 0; k < copies; k++)
            if (wk.copy_fl[size_t(k) * span + b]) ts.refs.push_back(make_ref<C>(wk.copies.data() + size_t(k) * span + b, false));
          if (ts.refs.size() > begin) ts.segs.push_back({uint32_t(w) << 16 | b, begin, uint32_t(ts.refs.size())});
        }
        if (!ts.segs.empty()) sum_segments(ts, abk, filled);
      } else {
        wk.sched.run(entries, dg, E, lo, span, abk[w].data(), filled[w].data(), batch, wk.left);
      }
      if (wk.left.empty()) continue;
      ts.clear();
      add_segments(ts, wk.cnt, w, lo, hi, entries, dg, abk, filled, [&](auto&& f) {
        for (uint32_t e : wk.left) f(e);
      });
      sum_segments(ts, abk, filled);
    }
    if (!any_sorted) return;
    // The others: entries sorted by bucket, mini-chunk by mini-chunk.
    for (size_t e0 = 0; e0 < E; e0 += MINI) {
      const size_t e1 = std::min(E, e0 + MINI);
      ts.clear();
      for (int w = w0; w < w1; w++) {
        const uint32_t lo = b0, hi = std::min(b1, M_[w]);
        if (lo >= hi || bucket_copies(w, lo, hi)) continue;
        add_segments(ts, wk.cnt, w, lo, hi, entries, digits + size_t(w) * E, abk, filled, [&](auto&& f) {
          for (size_t j = e0; j < e1; j++) f(j);
        });
      }
      if (!ts.segs.empty()) sum_segments(ts, abk, filled);
    }
  }

  // Appends to ts one segment per bucket of window w in [lo, hi) that the
  // entries each(f) names (f(j) for each) fall into: the bucket's current
  // value (if any), then those entries, grouped by a counting sort.
  template <class Each>
  void add_segments(TreeSummer<C>& ts, std::vector<uint32_t>& counts, int w, uint32_t lo, uint32_t hi,
                    const P* entries, const int32_t* dg, const std::vector<RawArray<P>>& abk,
                    const std::vector<std::vector<uint8_t>>& filled, Each&& each) {
    const uint32_t span = hi - lo;
    counts.assign(span, 0);
    uint32_t* cnt = counts.data();
    each([&](size_t j) {
      int32_t d = dg[j];
      uint32_t b = uint32_t(d < 0 ? -d : d) - 1 - lo;  // wraps for d == 0 or b < lo
      if (b < span) cnt[b]++;
    });
    const P* bk = abk[w].data();
    const uint8_t* fl = filled[w].data();
    const size_t seg0 = ts.segs.size();
    size_t pos = ts.refs.size();
    for (uint32_t b = 0; b < span; b++) {
      uint32_t k = cnt[b];
      if (!k) continue;
      size_t begin = pos;
      pos += fl[lo + b];       // slot for the bucket's current value
      cnt[b] = uint32_t(pos);  // fill cursor
      pos += k;
      ts.segs.push_back({uint32_t(w) << 16 | (lo + b), uint32_t(begin), uint32_t(pos)});
    }
    ts.refs.resize(pos);
    for (size_t t = seg0; t < ts.segs.size(); t++) {
      uint32_t b = ts.segs[t].id & 0xffff;
      if (fl[b]) ts.refs[ts.segs[t].begin] = make_ref<C>(bk + b, false);
    }
    Ref* refs = ts.refs.data();
    each([&](size_t j) {
      int32_t d = dg[j];
      uint32_t b = uint32_t(d < 0 ? -d : d) - 1 - lo;
      if (b < span) refs[cnt[b]++] = make_ref<C>(entries + j, d < 0);
    });
  }

  // Sums ts's segments into their buckets (segment id = window << 16 | bucket).
  void sum_segments(TreeSummer<C>& ts, std::vector<RawArray<P>>& abk, std::vector<std::vector<uint8_t>>& filled) {
    ts.run(
        [&](uint32_t id, Ref r) {
          const uint32_t w = id >> 16, b = id & 0xffff;
          P* dst = abk[w].data() + b;
          filled[w][b] = r != 0;
          if (r) store(dst, r);
        },
        batch_, [&](uint32_t id) { return abk[id >> 16].data() + (id & 0xffff); });
  }

  void accumulate_xyzz(int w0, int w1, uint32_t b0, uint32_t b1, const P* entries,
                       const int32_t* digits, size_t E, std::vector<std::vector<Xz>>& xbk) {
    for (int w = w0; w < w1; w++) {
      const uint32_t lo = b0, hi = std::min(b1, M_[w]);
      if (lo >= hi) continue;
      const uint32_t span = hi - lo;
      const int32_t* dg = digits + size_t(w) * E;
      Xz* bk = xbk[w].data();
      for (size_t j = 0; j < E; j++) {
        int32_t d = dg[j];
        uint32_t b = uint32_t(d < 0 ? -d : d) - 1 - lo;
        if (b >= span) continue;
        if (j + 8 < E) {
          int32_t dn = dg[j + 8];
          uint32_t bn = uint32_t(dn < 0 ? -dn : dn) - 1 - lo;
          if (bn < span) __builtin_prefetch(bk + lo + bn);
        }
        xyzz_madd(bk[lo + b], entries[j], d < 0);
      }
    }
  }

  // sum_{i=1..M} i * B_i with B_i = bk[i-1] (affine, filled flags).
  // Two levels: i = j*m + l; sum = sum_l l*C_l + m * sum_j j*R_j with column
  // sums C_l and row sums R_j computed by batch-affine trees (~2 affine
  // additions per bucket) and short XYZZ running sums over m + M/m terms.
  Jac reduce_affine(TreeSummer<C>& ts, const P* bk, const uint8_t* fl, uint32_t M) {
    auto running = [](auto&& get, uint32_t cnt) {
      // sum_{t=1..cnt} t * get(t)
      Xz s = Xz::identity(), acc = Xz::identity();
      for (uint32_t t = cnt; t >= 1; t--) {
        Aff a = get(t);
        if (!a.infinity) xyzz_madd(s, P{a.x, a.y}, false);
        acc = acc.add(s);
      }
      return acc.to_jacobian();
    };
    if (M < 16) {
      std::vector<P> b(bk, bk + M);
      from_kernel_domain(b.data(), M);
      return running([&](uint32_t i) { return fl[i - 1] ? Aff::from_xy(b[i - 1].x, b[i - 1].y) : Aff::identity(); },
                     M);
    }
    unsigned logM = 0;
    while ((uint32_t(1) << (logM + 1)) <= M) logM++;
    const unsigned h = logM / 2;
    const uint32_t m = uint32_t(1) << h;
    const uint32_t J = M / m;  // rows 1..J (row j covers i in [jm, jm + m - 1])
    std::vector<P> col(m), row(J + 1);
    std::vector<uint8_t> cf(m, 0), rf(J + 1, 0);
    ts.clear();
    ts.ifma = ifma_;
    for (uint32_t l = 1; l < m; l++) {
      uint32_t begin = uint32_t(ts.refs.size());
      for (uint32_t i = l; i <= M; i += m)
        if (fl[i - 1]) ts.refs.push_back(make_ref<C>(bk + i - 1, false));
      if (ts.refs.size() > begin) ts.segs.push_back({l, begin, uint32_t(ts.refs.size())});
    }
    for (uint32_t j = 1; j <= J; j++) {
      uint32_t begin = uint32_t(ts.refs.size());
      for (uint32_t i = j * m, e = std::min(M, j * m + m - 1); i <= e; i++)
        if (fl[i - 1]) ts.refs.push_back(make_ref<C>(bk + i - 1, false));
      if (ts.refs.size() > begin) ts.segs.push_back({m + j, begin, uint32_t(ts.refs.size())});
    }
    auto slot = [&](uint32_t id) { return id < m ? &col[id] : &row[id - m]; };
    ts.run(
        [&](uint32_t id, Ref r) {
          (id < m ? cf[id] : rf[id - m]) = r != 0;
          if (r) store(slot(id), r);
        },
        batch_, slot);
    from_kernel_domain(col.data(), m);
    from_kernel_domain(row.data(), J + 1);
    Jac tc = running([&](uint32_t l) { return cf[l] ? Aff::from_xy(col[l].x, col[l].y) : Aff::identity(); },
                     m - 1);
    Jac tr = running([&](uint32_t j) { return rf[j] ? Aff::from_xy(row[j].x, row[j].y) : Aff::identity(); }, J);
    for (unsigned i = 0; i < h; i++) tr = tr.dbl();
    return tc.add(tr);
  }

  Jac reduce_xyzz(const std::vector<Xz>& bk) {
    Xz s = Xz::identity(), acc = Xz::identity();
    for (size_t i = bk.size(); i-- > 0;) {
      s = s.add(bk[i]);
      acc = acc.add(s);
    }
    return acc.to_jacobian();
  }
};

template <class C, class ScalarAt>
ec::Jacobian<C> run_engine(const Concat<ec::Affine<C>>& points, size_t nscalars, const ScalarAt& at,
                           const Options& opt, const Tuning& tu, Plan* plan) {
  if (points.size() != nscalars) throw std::invalid_argument("msm: points and scalars differ in length");
  if (nscalars > UINT32_MAX) throw std::length_error("msm: more than 2^32 - 1 points");
  if (opt.window_bits < 0 || opt.window_bits > 16) throw std::invalid_argument("msm: window_bits must be 0..16");
  auto body = [&] {
    Engine<C> e(points, opt, tu);
    return e.run(at, plan);
  };
  if (opt.threads == 0) return body();
  // More threads than the machine has only makes oneTBB warn: clamp.
  const int threads = std::min<int>(int(std::min<unsigned>(opt.threads, 1u << 16)),
                                    std::max(1, tbb::info::default_concurrency()));
  tbb::task_arena arena(threads);
  return arena.execute(body);
}

}  // namespace cuzk::msm::detail
