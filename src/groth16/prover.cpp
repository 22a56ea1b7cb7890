#include "groth16/prover.hpp"

#include <tbb/parallel_for.h>

#include <stdexcept>
#include <string>

#include "groth16/domain.hpp"
#include "groth16/lap.hpp"
#include "groth16/qap.hpp"
#include "platform/large_vector.hpp"

namespace cuzk::groth16 {

namespace {

template <class F>
void parallel_range(size_t n, F&& f) {
  constexpr size_t kGrain = 1 << 14;
  tbb::parallel_for(tbb::blocked_range<size_t>(0, n, kGrain), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i < r.end(); i++) f(i);
  });
}

std::vector<Scalar> to_canonical(const std::vector<Fr>& v) {
  std::vector<Scalar> out = platform::large_vector<Scalar>(v.size());
  parallel_range(v.size(), [&](size_t i) { out[i] = v[i].to_canonical(); });
  return out;
}

void check_size(const char* what, size_t have, size_t want) {
  if (have != want)
    throw std::invalid_argument(std::string("parameters do not match the circuit: ") + what + " has " +
                                std::to_string(have) + " points, the assignment needs " +
                                std::to_string(want));
}

void check_params(const Assignment& pa, const Parameters& p) {
  const size_t n_in = pa.num_inputs(), rows = pa.num_constraints();
  bool has_input_rows = rows >= n_in;
  for (size_t i = 0; has_input_rows && i < n_in; i++) {
    const size_t k = rows - n_in + i;
    has_input_rows = pa.a[k] == pa.input_assignment[i] && pa.b[k].is_zero() && pa.c[k].is_zero();
  }
  if (!has_input_rows)
    throw std::invalid_argument("assignment does not end with the input constraints (add_input_constraints)");
  const size_t m = size_t(1) << domain_log_size(pa.num_constraints());
  check_size("vk.ic", p.vk.ic.size(), pa.num_inputs());
  check_size("h", p.h.size(), m - 1);
  check_size("l", p.l.size(), pa.num_aux());
  check_size("a", p.a.size(), pa.num_inputs() + pa.a_aux_density.total());
  const size_t nb = pa.b_input_density.total() + pa.b_aux_density.total();
  check_size("b_g1", p.b_g1.size(), nb);
  check_size("b_g2", p.b_g2.size(), nb);
  // An identity δ would let anyone forge proofs (subversion of the CRS).
  if (p.vk.delta_g1.is_identity() || p.vk.delta_g2.is_identity())
    throw std::invalid_argument("parameters: delta is the identity");
}

template <class C>
ec::Jacobian<C> msm_of(const std::vector<ec::Affine<C>>& bases, const std::vector<Scalar>& k,
                       const ProverOptions& o) {
  return msm::msm_canonical<C>(std::span<const ec::Affine<C>>(bases), std::span<const Scalar>(k), o.msm);
}

}  // namespace

void add_input_constraints(Assignment& pa) {
  for (size_t i = 0; i < pa.num_inputs(); i++)
    pa.enforce("", r1cs::Variable::input(i), r1cs::LC(), r1cs::LC());
}

Assignment synthesize(const r1cs::Circuit& circuit) {
  Assignment pa;
  circuit.synthesize(pa);
  add_input_constraints(pa);
  return pa;
}

std::vector<Assignment> synthesize_batch(std::span<const r1cs::Circuit* const> circuits) {
  std::vector<Assignment> out(circuits.size());
  tbb::parallel_for(size_t(0), circuits.size(), [&](size_t i) { out[i] = synthesize(*circuits[i]); });
  return out;
}

std::vector<Scalar> compute_h(Assignment& pa, const ProverOptions& opts) {
  const unsigned log_m = domain_log_size(pa.num_constraints());
  const size_t m = size_t(1) << log_m;
  Lap lap(opts.times);
  const ntt::Domain dom(log_m);
  for (std::vector<Fr>* v : {&pa.a, &pa.b, &pa.c}) v->resize(m, Fr::zero());
  lap(&PhaseTimes::ntt_coset);
  qap::Times qt;
  qap::compute_h(pa.a, pa.b, pa.c, dom, qap::bellperson_coset(), {opts.ntt, opts.times ? &qt : nullptr});
  // Freed for reuse by the next synthesis (platform/large_vector.hpp).
  platform::recycle_large(pa.b);
  platform::recycle_large(pa.c);
  if (PhaseTimes* t = opts.times) {
    t->ntt_coset += qt.to_coset;
    t->ntt_combine += qt.combine;
    t->ntt_back += qt.from_coset;
  }
  lap = Lap(opts.times);  // qap::compute_h timed itself
  // deg h <= m - 2: the top coefficient is zero for a satisfied circuit.
  std::vector<Scalar> h = platform::large_vector<Scalar>(m - 1);
  parallel_range(m - 1, [&](size_t i) { h[i] = pa.a[i].to_canonical(); });
  platform::recycle_large(pa.a);
  lap(&PhaseTimes::h_scalars);
  return h;
}

Pending prove_start(Assignment&& pa_in, const Parameters& params, const Fr& r, const Fr& s,
                    const ProverOptions& opts) {
  Lap lap(opts.times);
  Assignment pa = std::move(pa_in);
  check_params(pa, params);
  lap(&PhaseTimes::check);
  std::vector<Scalar> h = compute_h(pa, opts);
  lap = Lap(opts.times);  // compute_h timed itself

  const std::vector<Scalar> inputs = to_canonical(pa.input_assignment);
  std::vector<Scalar> aux = to_canonical(pa.aux_assignment);
  platform::recycle_large(pa.aux_assignment);
  std::vector<Scalar> a_k, b_k;
  platform::reserve_large(a_k, params.a.size());
  platform::reserve_large(b_k, params.b_g1.size());
  a_k.assign(inputs.begin(), inputs.end());
  for (size_t i = 0; i < inputs.size(); i++)
    if (pa.b_input_density.get(i)) b_k.push_back(inputs[i]);
  for (size_t j = 0; j < aux.size(); j++) {
    if (pa.a_aux_density.get(j)) a_k.push_back(aux[j]);
    if (pa.b_aux_density.get(j)) b_k.push_back(aux[j]);
  }
  lap(&PhaseTimes::scalars);

  const auto& vk = params.vk;
  using J1 = ec::G1Jacobian;
  // H and L (and r·B1, which only enters C) could be one msm_parts MSM, as
  // in formats/zkey_prove.cpp. Measured (2 cores): 9-15% less H+L time with
  // full-size scalars at 2^17-2^18, neutral on a 0/1-heavy witness, but
  // 20-30% more at 2^16, where one 2^17-point MSM costs more than two of
  // 2^16; so they stay apart until the MSM's window choice covers that.
  const J1 h_acc = msm_of(params.h, h, opts);
  platform::recycle_large(h);  // for the next proof's (platform/large_vector.hpp)
  lap(&PhaseTimes::msm_h);
  const J1 l_acc = msm_of(params.l, aux, opts);
  platform::recycle_large(aux);
  lap(&PhaseTimes::msm_l);
  const J1 a_acc = msm_of(params.a, a_k, opts);
  platform::recycle_large(a_k);
  lap(&PhaseTimes::msm_a);
  const J1 b1_acc = msm_of(params.b_g1, b_k, opts);
  lap(&PhaseTimes::msm_b_g1);

  const J1 delta1 = J1::from_affine(vk.delta_g1);
  Pending p;
  p.params = &params;
  p.r = r;
  p.s = s;
  p.b_scalars = std::move(b_k);
  p.g_a = J1::from_affine(vk.alpha_g1).add(a_acc).add(ec::mul_vartime(delta1, r));
  p.g_c = ec::mul_vartime(a_acc, s)
              .add(ec::mul_vartime(b1_acc, r))
              .add(ec::mul_vartime(delta1, r * s))
              .add(ec::mul_vartime(J1::from_affine(vk.alpha_g1), s))
              .add(ec::mul_vartime(J1::from_affine(vk.beta_g1), r))
              .add(h_acc)
              .add(l_acc);
  lap(&PhaseTimes::assemble_g1);
  return p;
}

Proof prove_finish(Pending&& p, const ProverOptions& opts) {
  if (!p.params) throw std::invalid_argument("prove_finish: empty Pending");
  Lap lap(opts.times);
  const auto& vk = p.params->vk;
  using J2 = ec::G2Jacobian;
  const J2 b2_acc = msm_of(p.params->b_g2, p.b_scalars, opts);
  platform::recycle_large(p.b_scalars);
  lap(&PhaseTimes::msm_b_g2);
  const J2 g_b =
      J2::from_affine(vk.beta_g2).add(b2_acc).add(ec::mul_vartime(J2::from_affine(vk.delta_g2), p.s));
  Proof proof{p.g_a.to_affine(), g_b.to_affine(), p.g_c.to_affine()};
  lap(&PhaseTimes::assemble_g2);
  return proof;
}

}  // namespace cuzk::groth16
