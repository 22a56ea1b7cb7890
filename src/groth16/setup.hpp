#pragma once
// Development key generation: Groth16 parameters for any circuit from
// toxic waste (τ, α, β, γ, δ) drawn here. This is NOT a trusted-setup
// ceremony: whoever runs it knows the trapdoor and can forge proofs. Use it
// for tests, benchmarks and circuits without published parameters only.
#include <functional>
#include <string_view>

#include "groth16/params.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/shape.hpp"

namespace cuzk::groth16 {

struct ToxicWaste {
  Fr tau, alpha, beta, gamma, delta;

  template <class Rng>
  static ToxicWaste random(Rng& rng) {
    auto nz = [&] {
      for (;;)
        if (Fr x = Fr::random(rng); !x.is_zero()) return x;
    };
    ToxicWaste t;
    t.tau = nz();
    t.alpha = nz();
    t.beta = nz();
    t.gamma = nz();
    t.delta = nz();
    return t;
  }
};

struct SetupOptions {
  unsigned threads = 0;  // 0: all cores
  // Called (serialised, from worker threads) as work completes:
  // stage is one of "evaluate", "h", "l", "a", "b_g1", "b_g2", "ic".
  std::function<void(std::string_view stage, size_t done, size_t total)> progress;
};

// The circuit is synthesized into a ShapeRecorder (no witness needed).
Parameters generate_parameters(const r1cs::Circuit& circuit, const ToxicWaste& tw,
                               const SetupOptions& opts = {});
// `shape` as recorded from the circuit, without the input constraints (they
// are added here, as bellperson's generator does).
Parameters generate_parameters(r1cs::R1cs shape, const ToxicWaste& tw, const SetupOptions& opts = {});

}  // namespace cuzk::groth16
