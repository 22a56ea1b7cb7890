#include "groth16/prover.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include "device/cpu_backend.hpp"
#include "groth16/domain.hpp"
#include "platform/lap.hpp"
#include "platform/large_vector.hpp"

namespace cuzk::groth16 {

namespace {

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

device::CpuBackend::Options cpu_options(const ProverOptions& o) { return {o.msm, o.ntt, "cpu"}; }

// H on the device: the evaluations padded to the domain, bellperson's coset.
std::unique_ptr<device::Scalars> device_h(Assignment& pa, device::Backend& backend,
                                          const ProverOptions& opts) {
  const unsigned log_m = domain_log_size(pa.num_constraints());
  const size_t m = size_t(1) << log_m;
  platform::Lap lap(opts.times);
  for (std::vector<Fr>* v : {&pa.a, &pa.b, &pa.c}) v->resize(m, Fr::zero());
  lap(&PhaseTimes::ntt_coset);
  device::qap::Times qt;
  const auto t0 = std::chrono::steady_clock::now();
  auto h = backend.compute_h(
      pa.a, pa.b, pa.c, {log_m, Fr::zero(), device::qap::bellperson_coset(), opts.times ? &qt : nullptr});
  // Freed for reuse by the next synthesis (platform/large_vector.hpp).
  platform::recycle_large(pa.b);
  platform::recycle_large(pa.c);
  platform::recycle_large(pa.a);
  if (PhaseTimes* t = opts.times) {
    t->ntt_coset += qt.to_coset;
    t->ntt_combine += qt.combine;
    t->ntt_back += qt.from_coset;
    // What the QAP step did not time: the device's conversion to canonical
    // integers (and on a GPU, the copies).
    const double all = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    t->h_scalars += std::max(0.0, all - qt.to_coset - qt.combine - qt.from_coset);
  }
  return h;
}

}  // namespace

uint64_t DeviceKey::device_bytes() const {
  uint64_t n = 0;
  for (const device::G1Bases* b : {h.get(), l.get(), a.get(), b_g1.get()})
    if (b) n += b->device_bytes();
  return n + (b_g2 ? b_g2->device_bytes() : 0);
}

DeviceKey upload(const Parameters& p, device::Backend& backend) {
  DeviceKey k;
  k.params = &p;
  k.backend = &backend;
  k.h = backend.upload(msm::Points<ec::G1Curve>(p.h));
  k.l = backend.upload(msm::Points<ec::G1Curve>(p.l));
  k.a = backend.upload(msm::Points<ec::G1Curve>(p.a));
  k.b_g1 = backend.upload(msm::Points<ec::G1Curve>(p.b_g1));
  k.b_g2 = backend.upload(msm::Points<ec::G2Curve>(p.b_g2));
  return k;
}

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
  device::CpuBackend cpu(cpu_options(opts));
  auto h = device_h(pa, cpu, opts);
  auto v = device::CpuBackend::canonical(*h);
  return {v.begin(), v.end()};
}

Pending prove_start(Assignment&& pa_in, const Parameters& params, const Fr& r, const Fr& s,
                    const ProverOptions& opts) {
  auto cpu = std::make_shared<device::CpuBackend>(cpu_options(opts));
  DeviceKey key = upload(params, *cpu);
  key.owned = cpu;
  return prove_start(std::move(pa_in), key, r, s, opts);
}

Pending prove_start(Assignment&& pa_in, const DeviceKey& key, const Fr& r, const Fr& s,
                    const ProverOptions& opts) {
  if (!key.params || !key.backend) throw std::invalid_argument("prove_start: empty device key");
  const Parameters& params = *key.params;
  device::Backend& dev = *key.backend;
  platform::Lap lap(opts.times);
  Assignment pa = std::move(pa_in);
  check_params(pa, params);
  lap(&PhaseTimes::check);
  const auto h = device_h(pa, dev, opts);
  lap = platform::Lap(opts.times);  // device_h timed itself

  const auto inputs = dev.load_scalars(pa.input_assignment);
  auto aux = dev.load_scalars(pa.aux_assignment);
  platform::recycle_large(pa.aux_assignment);
  using device::Run;
  const Run all_inputs = device::all_of(*inputs), all_aux = device::all_of(*aux);
  const Run a_runs[] = {all_inputs, {aux.get(), 0, aux->size(), &pa.a_aux_density}};
  const Run b_runs[] = {{inputs.get(), 0, inputs->size(), &pa.b_input_density},
                        {aux.get(), 0, aux->size(), &pa.b_aux_density}};
  auto b = dev.select(b_runs);
  lap(&PhaseTimes::scalars);

  const auto& vk = params.vk;
  using J1 = ec::G1Jacobian;
  // H and L (and r·B1, which only enters C) could be one MSM, as in
  // formats/zkey_prove.cpp. Measured on the CPU (2 cores): 9-15% less H+L
  // time with full-size scalars at 2^17-2^18, neutral on a 0/1-heavy
  // witness, but 20-30% more at 2^16, where one 2^17-point MSM costs more
  // than two of 2^16; so they stay apart until the MSM's window choice
  // covers that.
  const J1 h_acc = dev.msm(*key.h, device::all_of(*h));
  lap(&PhaseTimes::msm_h);
  const J1 l_acc = dev.msm(*key.l, all_aux);
  lap(&PhaseTimes::msm_l);
  const device::Term<ec::G1Curve> a_term[] = {{key.a.get(), a_runs}};
  const J1 a_acc = dev.msm(std::span<const device::Term<ec::G1Curve>>(a_term));
  lap(&PhaseTimes::msm_a);
  const J1 b1_acc = dev.msm(*key.b_g1, device::all_of(*b));
  lap(&PhaseTimes::msm_b_g1);

  const J1 delta1 = J1::from_affine(vk.delta_g1);
  Pending p;
  p.key = key;
  p.r = r;
  p.s = s;
  p.b_scalars = std::move(b);
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
  if (!p.key.params || !p.b_scalars) throw std::invalid_argument("prove_finish: empty Pending");
  platform::Lap lap(opts.times);
  const auto& vk = p.key.params->vk;
  using J2 = ec::G2Jacobian;
  const J2 b2_acc = p.key.backend->msm(*p.key.b_g2, device::all_of(*p.b_scalars));
  p.b_scalars.reset();
  lap(&PhaseTimes::msm_b_g2);
  const J2 g_b =
      J2::from_affine(vk.beta_g2).add(b2_acc).add(ec::mul_vartime(J2::from_affine(vk.delta_g2), p.s));
  Proof proof{p.g_a.to_affine(), g_b.to_affine(), p.g_c.to_affine()};
  lap(&PhaseTimes::assemble_g2);
  return proof;
}

}  // namespace cuzk::groth16
