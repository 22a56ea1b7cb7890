#include "circuits/cube_chain.hpp"

#include <random>

namespace cuzk::circuits {

using r1cs::AssignmentMissing;
using r1cs::Fr;
using r1cs::LinearCombination;
using r1cs::Variable;

std::vector<Fr> CubeChain::constants(const Shape& s) {
  std::mt19937_64 rng(s.constants_seed);
  std::vector<Fr> k(s.rounds);
  for (auto& x : k) x = Fr::random(rng);
  return k;
}

// Where the extra inputs tap the chain: evenly spaced rounds.
static uint32_t tap_round(uint32_t j, uint32_t taps, uint32_t rounds) {
  uint32_t r = uint32_t((uint64_t(j) + 1) * rounds / (uint64_t(taps) + 1));
  return r ? r : 1;
}

std::vector<Fr> CubeChain::public_inputs(const Shape& s, const Fr& x) {
  auto k = constants(s);
  std::vector<Fr> ys{x};
  Fr y = x;
  for (uint32_t i = 0; i < s.rounds; i++) {
    Fr t = y + k[i];
    y = t.square() * t;
    ys.push_back(y);
  }
  std::vector<Fr> out{x, y};
  for (uint32_t j = 0; j < s.extra_inputs; j++) out.push_back(ys[tap_round(j, s.extra_inputs, s.rounds)]);
  return out;
}

void CubeChain::synthesize(r1cs::ConstraintSystem& cs) const {
  auto need = [&]() -> const Fr& {
    if (!has_x_) throw AssignmentMissing();
    return x_;
  };
  // Values are computed alongside allocation (only when a witness exists).
  std::vector<Fr> ys;
  if (has_x_) {
    ys.reserve(shape_.rounds + 1);
    ys.push_back(x_);
    for (uint32_t i = 0; i < shape_.rounds; i++) {
      Fr t = ys.back() + k_[i];
      ys.push_back(t.square() * t);
    }
  }
  auto y_at = [&](size_t i) -> Fr {
    if (!has_x_) throw AssignmentMissing();
    return ys[i];
  };
  Variable x = cs.alloc_input("x", [&] { return need(); });
  Variable y_out = cs.alloc_input("y", [&] { return y_at(shape_.rounds); });
  std::vector<Variable> taps;
  for (uint32_t j = 0; j < shape_.extra_inputs; j++)
    taps.push_back(cs.alloc_input([&] { return "tap " + std::to_string(j); },
                                  [&] { return y_at(tap_round(j, shape_.extra_inputs, shape_.rounds)); }));

  Variable y = x;
  uint32_t next_tap = 0;
  for (uint32_t i = 0; i < shape_.rounds; i++) {
    r1cs::Namespace ns(cs, [&] { return "round " + std::to_string(i); });
    // t = y + k_i;  s = t^2;  y' = s * t
    LinearCombination t = LinearCombination(y) + LinearCombination().add(k_[i], Variable::one());
    Variable s = cs.alloc("s", [&] {
      Fr tv = y_at(i) + k_[i];
      return tv.square();
    });
    cs.enforce("square", t, t, s);
    const bool last = i + 1 == shape_.rounds;
    Variable y_next = last ? y_out : cs.alloc("y", [&] { return y_at(i + 1); });
    cs.enforce("cube", s, t, y_next);
    y = y_next;
    while (next_tap < taps.size() && tap_round(next_tap, shape_.extra_inputs, shape_.rounds) == i + 1) {
      cs.enforce([&] { return "tap " + std::to_string(next_tap); }, LinearCombination(y),
                 LinearCombination(Variable::one()), LinearCombination(taps[next_tap]));
      next_tap++;
    }
  }
}

}  // namespace cuzk::circuits
