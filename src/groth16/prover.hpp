#pragma once
// The Groth16 prover, split the way the proving pipeline runs it
// (docs/FILECOIN.md §1.5, bellperson prover/native.rs):
//
//   synthesize(circuit)        CPU: witness + a = A·w, b = B·w, c = C·w
//   prove_start(assignment)    device part: H via NTTs, then the G1 MSMs
//                              (H, L, A, B in G1); releases a, b, c early
//   prove_finish(pending)      CPU tail: the B-in-G2 MSM and the assembly
//
//   A = α + Σ w·A_query + r·δ₁          B = β₂ + Σ w·B_query₂ + s·δ₂
//   C = s·ΣwA + r·ΣwB₁ + r·s·δ₁ + s·α₁ + r·β₁ + Σ h_j·H_j + Σ_aux w·L
//
// The A/B queries are multiexp'ed only over the variables of the densities
// recorded at synthesis, matching the filtered parameter queries.
//
// The NTTs and MSMs go through a device (device/backend.hpp): prove_start
// takes the parameters as that device holds them (a DeviceKey: uploaded
// once per circuit and device); the overloads taking Parameters prove on the
// CPU backend.
#include <memory>
#include <span>
#include <vector>

#include "device/backend.hpp"
#include "groth16/params.hpp"
#include "msm/msm.hpp"
#include "ntt/ntt.hpp"
#include "r1cs/proving_assignment.hpp"

namespace cuzk::groth16 {

using Assignment = r1cs::ProvingAssignment;
using Scalar = arith::Limbs<4>;  // canonical (non-Montgomery) Fr, as the MSM takes it

// Wall time per prover phase in seconds, accumulated (+=) by compute_h,
// prove_start and prove_finish when ProverOptions::times is set; for
// benchmarks (bench/groth16). Costs a few clock reads per proof.
struct PhaseTimes {
  double check = 0;        // parameter/assignment checks
  double ntt_coset = 0;    // the domain, then a, b, c: iNTT, coset scaling, NTT (groth16/qap.hpp)
  double ntt_combine = 0;  // a·b - c on the coset (pointwise)
  double ntt_back = 0;     // iNTT, 1/Z scaling, bit reversal
  double h_scalars = 0;    // h to canonical form
  double scalars = 0;      // witness to canonical, density-filtered A/B scalars
  double msm_h = 0, msm_l = 0, msm_a = 0, msm_b_g1 = 0;
  double assemble_g1 = 0;  // A and C from the G1 sums (a few scalar mults)
  double msm_b_g2 = 0;     // the G2 tail (prove_finish): B-in-G2 MSM ...
  double assemble_g2 = 0;  // ... and B, affine conversion
  double ntt() const { return ntt_coset + ntt_back; }
  double msm() const { return msm_h + msm_l + msm_a + msm_b_g1 + msm_b_g2; }
  double total() const {
    return check + ntt_coset + ntt_combine + ntt_back + h_scalars + scalars + msm() + assemble_g1 +
           assemble_g2;
  }
};

struct ProverOptions {
  msm::Options msm;  // threads and scratch of the CPU backend
  ntt::Options ntt;
  PhaseTimes* times = nullptr;  // optional per-phase timing
};

// The parameters' query points as one device holds them, with the host
// parameters (the verifying key's points enter the proof on the host).
// Copies share the handles.
struct DeviceKey {
  const Parameters* params = nullptr;
  device::Backend* backend = nullptr;
  std::shared_ptr<device::Backend> owned;  // when the key made its own (the CPU overloads)
  std::shared_ptr<const device::G1Bases> h, l, a, b_g1;
  std::shared_ptr<const device::G2Bases> b_g2;
  uint64_t device_bytes() const;  // held in device memory (0 on the CPU)
};
// Uploads the query points of `params` (which must outlive the key) to `backend`.
DeviceKey upload(const Parameters& params, device::Backend& backend);

// Appends input·0 = 0 for every input (bellperson's synthesize_circuits_batch
// and generator); an assignment built another way (e.g. r1cs::evaluate on an
// R1cs without R1cs::add_input_constraints) needs it before prove_start.
void add_input_constraints(Assignment& pa);
// Runs the circuit on a ProvingAssignment, then add_input_constraints.
Assignment synthesize(const r1cs::Circuit& circuit);
// One assignment per circuit, synthesized in parallel.
std::vector<Assignment> synthesize_batch(std::span<const r1cs::Circuit* const> circuits);

// Coefficients h_0..h_{m-2} of (a·b - c)/Z, canonical; consumes pa.a/b/c.
// The QAP step is device::qap's (bellperson's coset g = 7), shared with
// the .zkey prover (formats/zkey_prove.cpp). On the CPU backend.
std::vector<Scalar> compute_h(Assignment& pa, const ProverOptions& opts = {});

// State between prove_start and prove_finish: the key (whose parameters must
// outlive it) and the B query's scalars, held by the device for the G2 tail.
struct Pending {
  DeviceKey key;
  Fr r, s;
  std::unique_ptr<device::Scalars> b_scalars;  // inputs and aux in B
  ec::G1Jacobian g_a, g_c;                     // final A and C (only B is missing)
};

// Throws std::invalid_argument if the parameters do not fit the assignment or
// the assignment does not end with the input constraints.
Pending prove_start(Assignment&& pa, const DeviceKey& key, const Fr& r, const Fr& s,
                    const ProverOptions& opts = {});
Proof prove_finish(Pending&& pending, const ProverOptions& opts = {});
// On the CPU backend (with opts' threads).
Pending prove_start(Assignment&& pa, const Parameters& params, const Fr& r, const Fr& s,
                    const ProverOptions& opts = {});

// r and s drawn from `rng` (use SecureRng in production), then the above.
template <class Rng>
Pending prove_start(Assignment&& pa, const DeviceKey& key, Rng& rng, const ProverOptions& opts = {}) {
  Fr r = Fr::random(rng), s = Fr::random(rng);
  return prove_start(std::move(pa), key, r, s, opts);
}
template <class Rng>
Pending prove_start(Assignment&& pa, const Parameters& params, Rng& rng, const ProverOptions& opts = {}) {
  Fr r = Fr::random(rng), s = Fr::random(rng);
  return prove_start(std::move(pa), params, r, s, opts);
}

template <class Rng>
Proof prove(const r1cs::Circuit& circuit, const Parameters& params, Rng& rng,
            const ProverOptions& opts = {}) {
  return prove_finish(prove_start(synthesize(circuit), params, rng, opts), opts);
}

// Several circuits sharing one parameter set: parallel synthesis, then each
// proof in turn (every MSM and NTT is itself multi-threaded).
template <class Rng>
std::vector<Proof> prove_batch(std::span<const r1cs::Circuit* const> circuits, const Parameters& params,
                               Rng& rng, const ProverOptions& opts = {}) {
  std::vector<Assignment> as = synthesize_batch(circuits);
  std::vector<Proof> out;
  for (auto& a : as) out.push_back(prove_finish(prove_start(std::move(a), params, rng, opts), opts));
  return out;
}

}  // namespace cuzk::groth16
