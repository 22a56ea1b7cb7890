#pragma once
// snarkjs's Groth16 proving key (.zkey, iden3 binfile "zkey", version 1),
// BLS12-381 only:
//   1  protocol: u32 (1 = groth16)
//   2  header: u32 n8q, q, u32 n8r, r, u32 nVars, u32 nPublic, u32 domainSize,
//      alpha1, beta1 (G1), beta2, gamma2 (G2), delta1 (G1), delta2 (G2)
//   3  IC: nPublic+1 G1                      4  coefficients (see below)
//   5  A: nVars G1    6  B1: nVars G1    7  B2: nVars G2
//   8  C: nVars-nPublic-1 G1 (private signals only)
//   9  H: domainSize G1                      10 MPC contributions (ignored)
// Points are affine (x, y) with every Fp coordinate in Montgomery form
// (R = 2^384), little-endian; G2 coordinates are (c0, c1); (0, 0) is the
// point at infinity. Coefficients: u32 count, then (u32 matrix 0=A/1=B,
// u32 constraint, u32 signal, 32-byte value) with value = coef·R² mod r
// (R = 2^256), so that a Montgomery product with a canonical witness value
// yields the Montgomery form of coef·w. The constraint list includes
// snarkjs's extra rows nConstraints+i: A[signal i] = 1 for i = 0..nPublic.
//
// snarkjs's H query differs from bellperson's: H[i] = L_i-weighted odd
// powers, so the prover evaluates a·b - c on the "odd" coset
// {inc·ω^i} (inc a primitive 2n-th root, ω = inc²) instead of dividing by Z
// on bellperson's coset 7·ω^i. Roots follow ffjavascript: the 2^32-th root
// is nqr^t with nqr = 5 the smallest quadratic non-residue (not 7).
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "device/backend.hpp"
#include "ec/encoding.hpp"
#include "ec/packed_affine.hpp"
#include "formats/binfile.hpp"
#include "groth16/params.hpp"
#include "platform/raw_array.hpp"

namespace cuzk::formats {

struct ZkeyCoef {
  uint32_t matrix;      // 0 = A, 1 = B
  uint32_t constraint;  // row < domainSize
  uint32_t signal;      // < nVars
  ff::Fr value;         // the plain coefficient
};

// The coefficients section where it lies (44 bytes each, any alignment),
// checked while parsing: no decoded copy (16 MB of fresh pages at 2^16).
class ZkeyCoefs {
 public:
  static constexpr size_t kBytes = 44;
  ZkeyCoefs() = default;
  ZkeyCoefs(const uint8_t* bytes, size_t count) : p_(bytes), n_(count) {}
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  uint32_t matrix(size_t i) const { return u32(i, 0); }
  uint32_t constraint(size_t i) const { return u32(i, 4); }
  uint32_t signal(size_t i) const { return u32(i, 8); }
  // The stored value taken as a Montgomery form: the element coef·R
  // (R = 2^256), one multiplication by R^-1 from the coefficient. A sum
  // of value_times_r(i)·w over a row is R times the row's value.
  ff::Fr value_times_r(size_t i) const {
    ff::Fr v;
    std::memcpy(static_cast<void*>(&v), p_ + i * kBytes + 12, sizeof(v));
    return v;
  }
  ZkeyCoef operator[](size_t i) const;
  // R^-1 (R = 2^256): value_times_r(i) · r_inv() is coefficient i.
  static ff::Fr r_inv() { return ff::Fr::from_mont(arith::from_u64<4>(1)); }

 private:
  uint32_t u32(size_t i, size_t at) const {
    uint32_t v;
    std::memcpy(&v, p_ + i * kBytes + at, 4);
    return v;  // little-endian, as on every machine this builds for (ec/packed_affine.hpp)
  }
  const uint8_t* p_ = nullptr;
  size_t n_ = 0;
};

struct Zkey {
  uint32_t n_vars = 0, n_public = 0, domain_size = 0;
  groth16::VerifyingKey vk;  // alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2, ic
  ZkeyCoefs coeffs;
  // The A, B1, C, H and B2 sections (and the coefficients) where they lie (the file's layout is
  // ec::PackedAffineSpan's), checked while parsing; `storage` keeps their
  // bytes alive (the mapped file, or a copy). A decoded copy would be 8%
  // larger and, in a one-shot prover, all fresh pages.
  ec::PackedAffineSpan<ec::G1Curve> a, b1, c, h;
  ec::PackedAffineSpan<ec::G2Curve> b2;
  std::shared_ptr<const void> storage;
};

struct ZkeyReadOptions {
  // Full: every point on the curve and in the subgroup (parallel). Skip the
  // subgroup checks only for keys you trust.
  // (SkipSubgroup: on-curve checks only; None: no point checks, for `info`.)
  ec::Check check = ec::Check::Full;
  // Stop after the header and IC: the verifying key only (coefficients and
  // the A/B1/B2/C/H sections are neither read nor checked; vectors stay empty).
  bool vk_only = false;
};

// Keeps a copy of `bytes` for the point sections (none for vk_only).
Zkey parse_zkey(std::span<const uint8_t> bytes, std::string_view source = "zkey",
                const ZkeyReadOptions& = {});
// Views the point sections in `bytes`, which `owner` keeps alive (it is
// stored in Zkey::storage).
Zkey parse_zkey_in_place(std::shared_ptr<const void> owner, std::span<const uint8_t> bytes,
                         std::string_view source = "zkey", const ZkeyReadOptions& = {});
Zkey read_zkey_file(const std::string& path, const ZkeyReadOptions& = {});

// ---- proving with a zkey (the snarkjs way) ----
// Wall time of each stage, in milliseconds (they run one after the other).
struct ZkeyProveTimes {
  double h_scalars_ms = 0;  // a, b on the domain, a·b, six NTTs, a·b − c
  double msm_a_ms = 0, msm_b1_ms = 0, msm_b2_ms = 0;
  double msm_ch_ms = 0;    // C and H in one MSM, with B1 folded in when b1_merged
  bool b1_merged = false;  // r·B1 went into the C/H MSM (witness not 0/1-heavy)
  double total_ms = 0;
};

struct ZkeyProveOptions {
  // progress(stage, done, total): "h scalars", "msm A", "msm B2", "msm B1"
  // (only when not folded), "msm C+H"; done = 0 at a stage's start, total at its end.
  // With overlap_stages, called from several threads at once.
  std::function<void(std::string_view stage, size_t done, size_t total)> progress;
  ZkeyProveTimes* times = nullptr;  // filled when set
  // Whether r·B1 joins the C/H MSM: Auto decides by the witness (not when
  // many B1 scalars are 1). The proof is the same either way (tests force both).
  enum class FoldB1 : uint8_t { Auto, Never, Always };
  FoldB1 fold_b1 = FoldB1::Auto;
  // A and B2 run beside the h scalars and C+H (their times then overlap);
  // false runs the stages one after the other, so their times add up.
  bool overlap_stages = true;
  // The device of the NTTs and MSMs (device/backend.hpp); null: the CPU,
  // with 32 MiB of MSM scratch per pass.
  device::Backend* backend = nullptr;
};

// Evaluations on the odd coset of (A·w)(B·w) - (A·w∘B·w interpolated), i.e.
// the scalars of the H multiexp, in Montgomery form (on the CPU backend).
// Exposed for tests.
platform::RawArray<ff::Fr> zkey_h_scalars(const Zkey& zk, std::span<const ff::Fr> witness);

// Throws std::invalid_argument if the witness length does not match nVars or
// witness[0] != 1. (The zkey holds no C matrix, so an unsatisfying witness is
// not detected here: it yields a proof that does not verify, as in snarkjs.)
groth16::Proof prove_zkey(const Zkey& zk, std::span<const ff::Fr> witness, const ff::Fr& r, const ff::Fr& s,
                          const ZkeyProveOptions& = {});

template <class Rng>
groth16::Proof prove_zkey(const Zkey& zk, std::span<const ff::Fr> witness, Rng& rng,
                          const ZkeyProveOptions& o = {}) {
  ff::Fr r = ff::Fr::random(rng), s = ff::Fr::random(rng);
  return prove_zkey(zk, witness, r, s, o);
}

// The public signals (witness[1..=nPublic]).
std::vector<ff::Fr> zkey_public_signals(const Zkey& zk, std::span<const ff::Fr> witness);

}  // namespace cuzk::formats
