#pragma once
// A synthetic benchmark circuit with a controllable size: a chain of rounds
//   y_{i+1} = (y_i + k_i)^3      (two constraints per round)
// with public inputs x (the start) and the final y, plus `extra_inputs`
// public inputs bound to the chain (each enforced equal to a running value)
// so the input count can be varied. Round constants k_i are fixed by a seed.
// Used by the engine's generic-R1CS demo, tests and benchmarks.
#include <cstdint>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace cuzk::circuits {

class CubeChain final : public r1cs::Circuit {
 public:
  struct Shape {
    uint32_t rounds = 1024;
    uint32_t extra_inputs = 0;
    uint64_t constants_seed = 1;
  };
  // Without a witness (x absent): shape only, for setup and counting.
  explicit CubeChain(Shape s) : shape_(s), k_(constants(s)) {}
  CubeChain(Shape s, r1cs::Fr x) : shape_(s), k_(constants(s)), x_(x), has_x_(true) {}

  void synthesize(r1cs::ConstraintSystem& cs) const override;

  // Constraints before Groth16's per-input constraints.
  static uint64_t constraints(const Shape& s) { return 2ull * s.rounds + s.extra_inputs; }
  // The public inputs (without ONE) for start value x.
  static std::vector<r1cs::Fr> public_inputs(const Shape& s, const r1cs::Fr& x);

 private:
  static std::vector<r1cs::Fr> constants(const Shape& s);
  Shape shape_;
  std::vector<r1cs::Fr> k_;
  r1cs::Fr x_;
  bool has_x_ = false;
};

}  // namespace cuzk::circuits
