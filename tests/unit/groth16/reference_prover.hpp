#pragma once
// A slow, independent Groth16 prover for tests: O(m^2) interpolation and
// polynomial division instead of NTTs, double-and-add sums instead of MSMs.
// It checks the setup (its proofs must verify) and the real prover (equal
// proofs for equal r, s).
#include <stdexcept>
#include <vector>

#include "groth16/domain.hpp"
#include "groth16/params.hpp"
#include "r1cs/proving_assignment.hpp"

namespace cuzk::test {

using groth16::Fr;

// Synthesis plus bellperson's input·0 = 0 constraints.
inline r1cs::ProvingAssignment reference_synthesize(const r1cs::Circuit& c) {
  r1cs::ProvingAssignment pa;
  c.synthesize(pa);
  for (size_t i = 0; i < pa.num_inputs(); i++)
    pa.enforce("", r1cs::Variable::input(i), r1cs::LC(), r1cs::LC());
  return pa;
}

// Coefficients of h = (a·b - c)/(X^m - 1), a, b, c interpolated on the domain.
inline std::vector<Fr> reference_h(const r1cs::ProvingAssignment& pa) {
  const unsigned log_m = groth16::domain_log_size(pa.num_constraints());
  const size_t m = size_t(1) << log_m;
  const Fr omega_inv = groth16::domain_root_of_unity(log_m).inverse();
  const Fr m_inv = Fr::from_u64(m).inverse();
  auto interpolate = [&](const std::vector<Fr>& ev) {
    std::vector<Fr> co(m);
    for (size_t k = 0; k < m; k++) {
      Fr acc = Fr::zero(), wk = omega_inv.pow_vartime(uint64_t(k)), w = Fr::one();
      for (size_t i = 0; i < ev.size(); i++, w *= wk) acc += ev[i] * w;
      co[k] = acc * m_inv;
    }
    return co;
  };
  auto a = interpolate(pa.a), b = interpolate(pa.b), c = interpolate(pa.c);
  std::vector<Fr> p(2 * m - 1);
  for (size_t i = 0; i < m; i++)
    for (size_t j = 0; j < m; j++) p[i + j] += a[i] * b[j];
  for (size_t i = 0; i < m; i++) p[i] -= c[i];
  std::vector<Fr> q(m - 1);
  for (size_t k = p.size(); k-- > m;) {
    q[k - m] = p[k];
    p[k - m] += p[k];
  }
  for (size_t k = 0; k < m; k++)
    if (!p[k].is_zero()) throw std::logic_error("reference_h: a·b - c not divisible by Z");
  return q;
}

template <class C>
ec::Jacobian<C> naive_msm(const std::vector<ec::Affine<C>>& bases, const std::vector<Fr>& k) {
  if (bases.size() != k.size()) throw std::logic_error("naive_msm: size mismatch");
  ec::Jacobian<C> acc = ec::Jacobian<C>::identity();
  for (size_t i = 0; i < k.size(); i++)
    acc = acc.add(ec::mul_vartime(ec::Jacobian<C>::from_affine(bases[i]), k[i]));
  return acc;
}

inline groth16::Proof reference_prove(const groth16::Parameters& p, const r1cs::ProvingAssignment& pa,
                                      const Fr& r, const Fr& s) {
  std::vector<Fr> a_s = pa.input_assignment, b_s;
  for (size_t j = 0; j < pa.num_aux(); j++)
    if (pa.a_aux_density.get(j)) a_s.push_back(pa.aux_assignment[j]);
  for (size_t i = 0; i < pa.num_inputs(); i++)
    if (pa.b_input_density.get(i)) b_s.push_back(pa.input_assignment[i]);
  for (size_t j = 0; j < pa.num_aux(); j++)
    if (pa.b_aux_density.get(j)) b_s.push_back(pa.aux_assignment[j]);
  const auto& vk = p.vk;
  using J1 = ec::G1Jacobian;
  using J2 = ec::G2Jacobian;
  auto j1 = [](const ec::G1Affine& x) { return J1::from_affine(x); };
  J1 a_ans = naive_msm(p.a, a_s), b1_ans = naive_msm(p.b_g1, b_s);
  J2 b2_ans = naive_msm(p.b_g2, b_s);
  J1 h_ans = naive_msm(p.h, reference_h(pa)), l_ans = naive_msm(p.l, pa.aux_assignment);
  J1 g_a = j1(vk.alpha_g1).add(a_ans).add(ec::mul_vartime(j1(vk.delta_g1), r));
  J2 g_b = J2::from_affine(vk.beta_g2).add(b2_ans).add(ec::mul_vartime(J2::from_affine(vk.delta_g2), s));
  J1 g_c = ec::mul_vartime(a_ans, s)
               .add(ec::mul_vartime(b1_ans, r))
               .add(ec::mul_vartime(j1(vk.delta_g1), r * s))
               .add(ec::mul_vartime(j1(vk.alpha_g1), s))
               .add(ec::mul_vartime(j1(vk.beta_g1), r))
               .add(h_ans)
               .add(l_ans);
  return {g_a.to_affine(), g_b.to_affine(), g_c.to_affine()};
}

}  // namespace cuzk::test
