#pragma once
// Window-size cost model of the MSM (see src/msm/README.md).
//
// All costs are in base-field multiplications of G1 (Fp muls). For a window
// of c bits over E entries (half-scalars after GLV) of b bits:
//   windows W = ceil((b + 1) / c)   (signed digits need one spare bit),
//   buckets per window M = 2^(c-1), the top window 2^(b - c(W-1)).
// Batch-affine accumulator, per window:
//   E * A_aff                                  bucket additions
//   + (E / batch + rounds * tasks) * INV       the shared inversions
//   + 2 * M * A_aff + (m + M/m) * (madd + add) bucket reduction, two-level
//                                              (m = 2^floor(log2(M)/2))
// XYZZ accumulator, per window:
//   E * madd + M * 2 * add                     (running-sum reduction)
// plus W * c doublings and W additions to combine the windows.
// The constants are per-curve operation counts measured against the Fp
// multiplication (Fp2 mul = 3 Fp mul + adds); A_aff includes the measured
// bookkeeping (sorting, references, memory) of the batch-affine path.
// A batch-affine window whose buckets do not fit one core's L2 cache pays
// kBucketsOutOfL2 times A_aff per bucket addition: on the development
// machine (1 MiB L2) G1 windows of 13 and 16 bits ran level at 2^18 points
// where the model without it put 16 bits 11% ahead, and 16 bits led by 12%
// at 2^19, not 16%. Smaller windows also take fewer fresh pages, which a
// one-shot prover (cuzk prove --zkey) pays for.
#include <cmath>
#include <cstddef>

namespace cuzk::msm::detail {

struct CurveCosts {
  double a_aff;  // one batch-affine addition, inversion excluded
  double madd;   // XYZZ mixed addition
  double add;    // XYZZ full addition
  double dbl;    // Jacobian doubling
  double inv;    // one field inversion
};

inline constexpr double kBucketsOutOfL2 = 1.15;

// Where the buckets live: bytes per bucket and the L2 cache they should fit
// (0 = ignore the cache).
struct BucketMemory {
  double bucket_bytes = 0;
  double l2_bytes = 0;
  bool out_of_l2(double buckets) const { return l2_bytes > 0 && buckets * bucket_bytes > l2_bytes; }
};

// Fp mul = 1, Fp add ~ 0.1; Fp2 mul ~ 3.5, Fp2 sqr ~ 2.3, Fp2 add ~ 0.2.
inline constexpr CurveCosts G1_COSTS{7.6, 11.0, 15.0, 8.0, 700.0};
inline constexpr CurveCosts G2_COSTS{21.0, 33.0, 45.0, 22.0, 712.0};

struct WindowChoice {
  int c = 0;
  int windows = 0;
  bool batch_affine = true;
  double cost = 0;
};

inline int windows_for(unsigned bits, int c) { return int((bits + 1 + c - 1) / c); }

inline double top_buckets(unsigned bits, int c) {
  int W = windows_for(bits, c);
  return std::ldexp(1.0, int(bits) - c * (W - 1));
}

// Estimated cost of one configuration. `tasks` = number of parallel
// accumulation tasks per window (bucket ranges), each paying its own last,
// poorly filled inversion batches.
inline double model_cost(const CurveCosts& k, double entries, unsigned bits, int c, bool affine, double batch,
                         double tasks, const BucketMemory& mem = {}) {
  const int W = windows_for(bits, c);
  double total = 0;
  for (int w = 0; w < W; w++) {
    double M = (w + 1 < W) ? std::ldexp(1.0, c - 1) : top_buckets(bits, c);
    double E = entries * (1.0 - 1.0 / (2.0 * M + 1.0));  // zero digits skipped
    if (affine) {
      double per_bucket = E / M;
      double rounds = 2.0 + std::log2(1.0 + per_bucket);
      const double a_aff = mem.out_of_l2(M) ? k.a_aff * kBucketsOutOfL2 : k.a_aff;
      total += E * a_aff + (E / batch + rounds * tasks) * k.inv;
      double m = std::ldexp(1.0, int(std::log2(M)) / 2);
      total += 2.0 * M * k.a_aff + (m + M / m) * (k.madd + k.add) + 4.0 * k.inv;
    } else {
      total += E * k.madd + 2.0 * M * k.add;
    }
  }
  total += W * (c * k.dbl + k.add);
  return total;
}

inline WindowChoice choose_window(const CurveCosts& k, double entries, unsigned bits, int forced_c,
                                  int accumulator /*0 auto, 1 affine, 2 xyzz*/, double batch, double tasks,
                                  const BucketMemory& mem = {}) {
  WindowChoice best;
  best.cost = INFINITY;
  int c_lo = forced_c > 0 ? forced_c : 1, c_hi = forced_c > 0 ? forced_c : 16;
  for (int c = c_lo; c <= c_hi; c++) {
    for (int a = 0; a < 2; a++) {
      bool affine = a == 0;
      if (accumulator == 1 && !affine) continue;
      if (accumulator == 2 && affine) continue;
      double cost = model_cost(k, entries, bits, c, affine, batch, tasks, mem);
      if (cost < best.cost) best = {c, windows_for(bits, c), affine, cost};
    }
  }
  return best;
}

}  // namespace cuzk::msm::detail
