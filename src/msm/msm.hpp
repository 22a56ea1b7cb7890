#pragma once
// Multi-scalar multiplication  sum_i k_i * P_i  over BLS12-381 G1 and G2.
//
//   auto r = cuzk::msm::msm<ec::G1Curve>(points, scalars);            // Fr scalars
//   auto r = cuzk::msm::msm_canonical<ec::G1Curve>(points, limbs);    // canonical integers
//
// Pippenger's bucket method with signed (Booth) window digits, GLV splitting
// (127-bit half scalars), batch-affine bucket accumulation (one field
// inversion shared by thousands of independent affine additions), an XYZZ
// accumulator where that is cheaper (small inputs), a window size chosen by a
// cost model, and a fast path for Filecoin-like witnesses (0 skipped, 1 summed
// by a batch-affine addition tree, small scalars get fewer windows).
// Multi-threaded on oneTBB inside a task_arena of Options::threads threads.
// See src/msm/README.md for the design and the cost model.
//
// Inputs: any n >= 0 (n = 0 gives the identity); points at infinity, repeated
// points and opposite points are allowed. Points must lie in the prime-order
// subgroup (G1/G2) because the GLV endomorphism acts as a scalar only there.
// Canonical scalars may be any 256-bit integers (reduced mod r internally).
// Variable time: for public data (SRS points) and private scalars alike, as
// in every prover; do not use it where timing side channels matter.
#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

#include "arith/limbs.hpp"
#include "ec/bls12_381.hpp"
#include "ec/packed_affine.hpp"

namespace cuzk::msm {

struct Options {
  unsigned threads = 0;  // 0 = all threads of the current/automatic arena
  int window_bits = 0;   // 0 = cost model; otherwise 1..16
  // Bound on the per-pass scratch (the points in the kernels' layout and
  // their window digits); 0 = 64 MiB. Scalars beyond it are windowed in
  // further passes over the same buckets (each pass adds one addition per
  // filled bucket); with more than one thread and pass, two passes' scratch
  // is held, so that the next pass is prepared while the last task of the
  // one before runs. A one-shot process, whose every scratch page is a
  // fresh one, does better with less (formats::prove_zkey).
  size_t scratch_bytes = 0;
};

// The points of an MSM, read where they lie: an array of affine points, or
// packed ones (ec::PackedAffineSpan, e.g. a .zkey's sections as mapped).
template <class C>
class Points {
 public:
  using Aff = ec::Affine<C>;
  Points() = default;
  Points(std::span<const Aff> s) : affine_(s.data()), n_(s.size()) {}
  // Anything that converts to a span of affine points (vectors, arrays).
  template <class R>
  requires(std::is_convertible_v<const R&, std::span<const Aff>> && !std::is_same_v<R, std::span<const Aff>>)
      Points(const R& r)
      : Points(std::span<const Aff>(r)) {}
  Points(ec::PackedAffineSpan<C> p) : packed_(p), n_(p.size()), is_packed_(true) {}

  size_t size() const { return n_; }
  bool is_packed() const { return is_packed_; }
  const Aff* affine() const { return affine_; }                      // when !is_packed()
  const ec::PackedAffineSpan<C>& packed() const { return packed_; }  // when is_packed()

 private:
  const Aff* affine_ = nullptr;
  ec::PackedAffineSpan<C> packed_;
  size_t n_ = 0;
  bool is_packed_ = false;
};

template <class C>
ec::Jacobian<C> msm(Points<C> points, std::span<const ff::Fr> scalars, const Options& opt = {});

// One MSM over up to kMaxParts (points, scalars) parts, as if they were
// concatenated, without copying them: sum_p sum_i parts[p].scalars[i] *
// parts[p].points[i]. One large MSM costs less per point than several small
// ones (Pippenger's windows grow with n).
template <class C>
struct Part {
  Points<C> points;
  std::span<const ff::Fr> scalars;
};
inline constexpr size_t kMaxParts = 4;
template <class C>
ec::Jacobian<C> msm_parts(std::span<const Part<C>> parts, const Options& opt = {});

// Scalars as canonical (non-Montgomery) little-endian 4-limb integers.
template <class C>
ec::Jacobian<C> msm_canonical(std::span<const ec::Affine<C>> points, std::span<const arith::Limbs<4>> scalars,
                              const Options& opt = {});
// msm_parts with canonical scalars.
template <class C>
struct CanonicalPart {
  Points<C> points;
  std::span<const arith::Limbs<4>> scalars;
};
template <class C>
ec::Jacobian<C> msm_parts_canonical(std::span<const CanonicalPart<C>> parts, const Options& opt = {});

// ---- knobs for tests and benchmarks (not needed by callers) ----
namespace detail {

enum class Accumulator { Auto, BatchAffine, Xyzz };
// How batch-affine buckets are filled with the IFMA kernels: entries sorted
// by bucket and summed in trees, or scheduled straight into their buckets.
enum class Bucketing { Auto, Sorted, Scheduled };

struct Tuning {
  Accumulator accumulator = Accumulator::Auto;
  bool glv = true;         // split scalars with the endomorphism
  bool split_ones = true;  // sum scalar-1 points apart (batch-affine tree)
  size_t super_chunk = 0;  // scalars per super-chunk (0 = default by memory)
  size_t mini_chunk = 0;   // entries per accumulation round set (0 = default)
  size_t batch = 0;        // affine additions per shared inversion (0 = default)
  bool ifma = true;        // the AVX-512 IFMA kernels where the CPU has them
  Bucketing bucketing = Bucketing::Auto;
  int windows = 0;  // that many balanced windows (cost_model.hpp), 0 = cost model
};

// What the planner chose (for benchmarks and tests).
struct Plan {
  // zeros: scalars 0; big: scalars >= 2 (points at infinity are counted with
  // their scalar's class and dropped where the points are loaded).
  size_t n = 0, zeros = 0, ones = 0, big = 0;
  unsigned scalar_bits = 0;  // bits of the (half) scalars windowed
  bool glv = false;
  bool ifma = false;                 // the eight-lane IFMA kernels ran the affine additions
  bool scheduled = false;            // the buckets were filled by direct scheduling
  int window_bits = 0, windows = 0;  // the widest window, and how many
  std::vector<int> window_widths;    // bottom to top (the top one holds the bits left)
  Accumulator accumulator = Accumulator::Auto;
  unsigned threads = 0;
  double model_cost = 0;  // cost-model estimate, in G1 base-field multiplications
  // Wall time of the stages, milliseconds. With several threads the stages
  // of the big scalars overlap: ms_split is their recoding's thread time
  // divided by the threads, ms_accumulate the rest (the bucket reductions
  // included).
  double ms_classify = 0, ms_ones = 0, ms_split = 0, ms_accumulate = 0;
};

template <class C>
ec::Jacobian<C> msm_tuned(std::span<const ec::Affine<C>> points, std::span<const arith::Limbs<4>> scalars,
                          const Options& opt, const Tuning& tuning, Plan* plan = nullptr);
template <class C>
ec::Jacobian<C> msm_tuned(std::span<const ec::Affine<C>> points, std::span<const ff::Fr> scalars,
                          const Options& opt, const Tuning& tuning, Plan* plan = nullptr);

}  // namespace detail

}  // namespace cuzk::msm
