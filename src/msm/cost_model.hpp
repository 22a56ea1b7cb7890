#pragma once
// Window-size cost model of the MSM (see src/msm/README.md).
//
// All costs are in base-field multiplications of G1 (Fp muls). For E
// entries (half-scalars after GLV) of b bits in a layout of W windows,
// window w with M_w = 2^lg_w buckets (WindowLayout below):
// Batch-affine accumulator, per window:
//   E * A_aff                                  bucket additions
//   + (E / batch + rounds * tasks) * INV       the shared inversions
//   + R * M * A_aff + (m + M/m) * (madd + add) bucket reduction, two-level
//                                              (m = 2^floor(log2(M)/2))
// XYZZ accumulator, per window:
//   E * madd + M * 2 * add                     (running-sum reduction)
// plus (b - lg_top) doublings and W additions to combine the windows.
// The constants are per-curve operation counts measured against the Fp
// multiplication (Fp2 mul = 3 Fp mul + adds); A_aff includes the measured
// bookkeeping (sorting, references, memory) of the batch-affine path.
// R = kReducePerBucket: the two-level reduction is two affine additions per
// bucket, but a task trace of 2^18-point G1 MSMs timed it at 2.3-2.4 A_aff
// a bucket (13- to 15-bit windows: the move out of the kernels' domain and
// the trees' bookkeeping); with 2, nine windows looked cheaper than ten at
// 2^16 points and measured 3-4% slower.
// A batch-affine window whose buckets do not fit one core's L2 cache pays
// A_aff * (1 + kL2Miss * f) per bucket addition, f = 1 - L2 / bucket bytes
// the share of its buckets that cannot stay in L2. On the Xeon VM of
// 2026-12-02 G1 windows of 13 and 16 bits ran level at 2^18 points where the model
// without it put 16 bits 11% ahead, and 16 bits led by 12% at 2^19; on an
// AMD EPYC (Zen 5) VM (1 MiB L2, 32 MiB L3) 14- and 16-bit windows cost the
// same per addition, and at 2^20 points eight 16-bit windows beat nine of
// 15 and 14 bits by 8%. kL2Miss = 0.15 keeps both: nine balanced windows at
// 2^17-2^19 points, eight of 16 bits from 2^20. Smaller windows also take
// fewer fresh pages, which a one-shot prover (cuzk prove --zkey) pays for.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cuzk::msm::detail {

struct CurveCosts {
  double a_aff;  // one batch-affine addition, inversion excluded
  double madd;   // XYZZ mixed addition
  double add;    // XYZZ full addition
  double dbl;    // Jacobian doubling
  double inv;    // one field inversion
};

inline constexpr double kL2Miss = 0.15;
inline constexpr double kReducePerBucket = 2.4;

// Where the buckets live: bytes per bucket and the L2 cache they should fit
// (0 = ignore the cache).
struct BucketMemory {
  double bucket_bytes = 0;
  double l2_bytes = 0;
  bool out_of_l2(double buckets) const { return l2_bytes > 0 && buckets * bucket_bytes > l2_bytes; }
  // The share of a window's buckets beyond L2 (0 when they fit).
  double l2_miss(double buckets) const {
    return out_of_l2(buckets) ? 1.0 - l2_bytes / (buckets * bucket_bytes) : 0.0;
  }
};

// Fp mul = 1, Fp add ~ 0.1; Fp2 mul ~ 3.5, Fp2 sqr ~ 2.3, Fp2 add ~ 0.2.
inline constexpr CurveCosts G1_COSTS{7.6, 11.0, 15.0, 8.0, 700.0};
inline constexpr CurveCosts G2_COSTS{21.0, 33.0, 45.0, 22.0, 712.0};

// The windows of b-bit scalars: window w has 2^lg[w] buckets and is
// lg[w] + 1 bits wide, from bit shift(w) (a signed digit spends one bit on
// the borrow); the top window holds the bits left, b - shift(top) = lg[top],
// and its digit is at most 2^lg[top]. So sum lg = b - (W - 1) for any W.
// Uniform windows of c bits leave the top window what remains, often a bit
// or two: a whole pass of additions over all entries into a couple of
// buckets (127-bit GLV halves at c = 14: nine windows reach bit 126, the
// tenth holds one bit and the carry). Balanced windows spread the same bits
// over W windows whose bucket counts differ by at most a factor of two.
struct WindowLayout {
  std::vector<uint8_t> lg;  // log2 of each window's bucket count

  int windows() const { return int(lg.size()); }
  unsigned width(int w) const { return unsigned(lg[size_t(w)]) + 1; }
  unsigned shift(int w) const {
    unsigned s = 0;
    for (int v = 0; v < w; v++) s += width(v);
    return s;
  }
  std::vector<uint8_t> widths() const {
    std::vector<uint8_t> r(lg.size());
    for (size_t w = 0; w < lg.size(); w++) r[w] = uint8_t(lg[w] + 1);
    return r;
  }
  int max_width() const {
    int m = 0;
    for (uint8_t e : lg) m = std::max(m, int(e) + 1);
    return m;
  }
};

inline int windows_for(unsigned bits, int c) { return int((bits + 1 + c - 1) / c); }

inline double top_buckets(unsigned bits, int c) {
  int W = windows_for(bits, c);
  return std::ldexp(1.0, int(bits) - c * (W - 1));
}

// c-bit windows, the top one holding what is left (c = 1..16).
inline WindowLayout uniform_layout(unsigned bits, int c) {
  const int W = windows_for(bits, c);
  WindowLayout l;
  l.lg.assign(size_t(W), uint8_t(c - 1));
  l.lg.back() = uint8_t(int(bits) - c * (W - 1));
  return l;
}

// W windows as equal as possible, the wider ones at the bottom; empty where
// W cannot hold b bits in windows of 2 to 16 bits (lg 1..15).
inline WindowLayout balanced_layout(unsigned bits, int W) {
  WindowLayout l;
  const int total = int(bits) - (W - 1);
  if (W < 1 || total < W) return l;
  const int q = total / W, r = total % W;
  if (q + (r > 0) > 15) return l;
  l.lg.assign(size_t(W), uint8_t(q));
  for (int w = 0; w < r; w++) l.lg[size_t(w)] = uint8_t(q + 1);
  return l;
}

struct WindowChoice {
  int c = 0;  // the widest window
  int windows = 0;
  bool batch_affine = true;
  double cost = 0;
  WindowLayout layout;
};

// Estimated cost of one configuration. `tasks` = number of parallel
// accumulation tasks per window (bucket ranges), each paying its own last,
// poorly filled inversion batches.
inline double model_cost(const CurveCosts& k, double entries, const WindowLayout& layout, bool affine,
                         double batch, double tasks, const BucketMemory& mem = {}) {
  const int W = layout.windows();
  double total = 0;
  for (int w = 0; w < W; w++) {
    double M = std::ldexp(1.0, layout.lg[size_t(w)]);
    double E = entries * (1.0 - 1.0 / (2.0 * M + 1.0));  // zero digits skipped
    if (affine) {
      double per_bucket = E / M;
      double rounds = 2.0 + std::log2(1.0 + per_bucket);
      const double a_aff = k.a_aff * (1.0 + kL2Miss * mem.l2_miss(M));
      total += E * a_aff + (E / batch + rounds * tasks) * k.inv;
      double m = std::ldexp(1.0, int(std::log2(M)) / 2);
      total += kReducePerBucket * M * k.a_aff + (m + M / m) * (k.madd + k.add) + 4.0 * k.inv;
    } else {
      total += E * k.madd + 2.0 * M * k.add;
    }
  }
  total += double(layout.shift(W - 1)) * k.dbl + W * k.add;
  return total;
}
inline double model_cost(const CurveCosts& k, double entries, unsigned bits, int c, bool affine, double batch,
                         double tasks, const BucketMemory& mem = {}) {
  return model_cost(k, entries, uniform_layout(bits, c), affine, batch, tasks, mem);
}

// The cheapest layout: uniform windows of 1..16 bits, or balanced ones of
// any count; forced_c > 0 takes uniform c-bit windows, forced_windows > 0
// that many balanced ones.
inline WindowChoice choose_window(const CurveCosts& k, double entries, unsigned bits, int forced_c,
                                  int accumulator /*0 auto, 1 affine, 2 xyzz*/, double batch, double tasks,
                                  const BucketMemory& mem = {}, int forced_windows = 0) {
  WindowChoice best;
  best.cost = INFINITY;
  const auto consider = [&](WindowLayout layout) {
    if (layout.lg.empty()) return;
    for (int a = 0; a < 2; a++) {
      bool affine = a == 0;
      if (accumulator == 1 && !affine) continue;
      if (accumulator == 2 && affine) continue;
      double cost = model_cost(k, entries, layout, affine, batch, tasks, mem);
      if (cost < best.cost) best = {layout.max_width(), layout.windows(), affine, cost, layout};
    }
  };
  int c_lo = forced_c > 0 ? forced_c : 1, c_hi = forced_c > 0 ? forced_c : 16;
  if (forced_windows > 0) {
    consider(balanced_layout(bits, forced_windows));  // none (cost infinite) where W cannot hold the bits
    return best;
  }
  for (int c = c_lo; c <= c_hi; c++) consider(uniform_layout(bits, c));
  if (forced_c <= 0)
    for (int W = 1; W <= int(bits) + 1; W++) consider(balanced_layout(bits, W));
  return best;
}

}  // namespace cuzk::msm::detail
