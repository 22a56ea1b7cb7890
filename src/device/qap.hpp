#pragma once
// The QAP step of Groth16, shared by both key layouts: from the evaluations of
// A·w, B·w, C·w on the domain <ω> to the scalars of the H multiexp.
//
//   bellperson (.params, the daemon): H_i = τ^i·Z(τ)/δ, so the scalars are the
//     coefficients of h = (a·b − c)/Z. Computed on the coset g·<ω>, g = 7,
//     where Z(x) = x^n − 1 is the constant g^n − 1.
//   snarkjs (.zkey, `cuzk prove --zkey`): H_i = L_{2i+1}(τ)/δ, the Lagrange
//     basis of the 2n-th roots at the odd ones inc·ω^i (inc a primitive 2n-th
//     root). a·b − c vanishes on <ω>, the even points, so its values on the
//     odd coset are the scalars: no division by Z.
//
// Both: three transforms to the coset (iNTT, scale by shift^j/n, NTT; no bit
// reversal, ntt.hpp), one after the other with every thread, then a·b − c
// pointwise; bellperson's convention adds the way back to coefficients
// (iNTT, scale by shift^-j/(n·Z), one bit reversal).
#include <cstdint>
#include <span>

#include "ff/bls12_381.hpp"
#include "ntt/ntt.hpp"

namespace cuzk::device::qap {

using ff::Fr;

// Where a·b − c is evaluated, and what the H query of the key expects.
struct Coset {
  enum class Output : uint8_t {
    h_coefficients,  // h = (a·b − c)/Z, coefficients h_0..h_{n-1} (h_{n-1} = 0 when satisfied)
    coset_values,    // a·b − c at shift·ω^i, i = 0..n-1
  };
  Fr shift;  // the coset shift·<ω>; shift^n != 1 (not a domain point)
  Output output;
};

// bellperson / blstrs: g = 7 (Fr's multiplicative generator), coefficients.
Coset bellperson_coset();
// snarkjs / ffjavascript: shift = the primitive 2n-th root derived from the
// 2^32-th root `root_2_32` (5^((r-1)/2^32) in ffjavascript), values.
Coset odd_coset(unsigned log_n, const Fr& root_2_32);

// Seconds per step, accumulated (+=) when Options::times is set.
struct Times {
  double to_coset = 0;    // the three transforms to the coset
  double combine = 0;     // a·b − c
  double from_coset = 0;  // h_coefficients only: iNTT, 1/Z scaling, bit reversal
};

struct Options {
  ntt::Options ntt;  // threads of every transform and pointwise pass
  Times* times = nullptr;
};

// a, b, c: evaluations at ω^i (natural order of d), each d.size() long. All
// three are overwritten; the result (see Coset::Output) is left in a, natural
// order. Throws std::invalid_argument on a size mismatch or a shift with
// shift^n = 1.
void compute_h(std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, const ntt::Domain& d, const Coset& coset,
               const Options& o = {});

}  // namespace cuzk::device::qap
