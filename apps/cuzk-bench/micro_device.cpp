// cuzk-bench micro device-phase: the device phase of one Groth16 partition
// (groth16::prove_start: H on the coset, then the H, L, A and B-in-G1 MSMs)
// and its G2 tail (prove_finish) on a device backend — the CPU, a CUDA GPU
// or the emulated CUDA device — at the shape of a real circuit (its counts:
// inputs, aux, densities, domain) or a generic one, with synthetic data:
// parameter points repeat a set of random points, the witness is Filecoin-
// like (45% 0, 45% 1, 10% uniform), a, b, c are random. Timing needs the
// shape, not a valid SRS. The parameters are uploaded once (the HOT tier)
// before the timed repetitions; one JSON line per figure.
#include <tbb/parallel_for.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "commands.hpp"
#include "device/cpu_backend.hpp"
#include "engine/config.hpp"
#include "engine/devices.hpp"
#include "ff/arbitrary.hpp"
#include "groth16/domain.hpp"
#include "groth16/prover.hpp"
#include "micro_common.hpp"
#include "r1cs/counting_cs.hpp"

namespace cuzk::bench_cli {

// Defined in circuit_info.cpp: the blank circuit of a Filecoin circuit id.
std::pair<std::unique_ptr<r1cs::Circuit>, std::string> blank_filecoin_circuit(const std::string& id);

namespace {

struct DeviceShape {
  std::string name;
  size_t inputs = 2, aux = 0, rows = 0;  // rows: Groth16's (input constraints included)
  size_t a_aux = 0, b_in = 0, b_aux = 0;
};

// A Filecoin circuit's counts (CountingCS, as circuit-info), or a generic
// shape of 2^k rows: aux = rows, A dense, B over a quarter of the aux.
DeviceShape device_shape_of(const std::string& s) {
  DeviceShape sh;
  sh.name = s;
  if (s.rfind("log:", 0) == 0) {
    const unsigned k = unsigned(std::stoul(s.substr(4)));
    if (k < 2 || k > 30) throw std::invalid_argument("--shape log:K needs 2 <= K <= 30");
    sh.rows = (size_t(1) << k) - 1;
    sh.inputs = 2;
    sh.aux = sh.rows;
    sh.a_aux = sh.aux;
    sh.b_in = 1;
    sh.b_aux = sh.aux / 4;
    return sh;
  }
  auto [circuit, proof] = blank_filecoin_circuit(s);
  r1cs::CountingCS cs;
  circuit->synthesize(cs);
  sh.inputs = cs.num_inputs();
  sh.aux = cs.num_aux();
  sh.rows = cs.num_constraints() + cs.num_inputs();
  sh.a_aux = cs.a_aux_density.total();
  sh.b_in = cs.b_input_density.total();
  sh.b_aux = cs.b_aux_density.total();
  return sh;
}

void fill_xorshift(std::vector<ff::Fr>& v, size_t n, uint64_t seed) {
  v.resize(n);
  constexpr size_t kPiece = size_t(1) << 16;
  tbb::parallel_for(size_t(0), (n + kPiece - 1) / kPiece, [&](size_t k) {
    const size_t lo = k * kPiece;
    ff::fill_arbitrary(std::span<ff::Fr>(v).subspan(lo, std::min(kPiece, n - lo)), seed * 1000003 + k);
  });
}

// `count` random points (multiples of the generator by arbitrary scalars),
// computed in parallel: the point sets of a shape repeat them.
template <class C>
std::vector<ec::Affine<C>> random_pattern(size_t count, uint64_t seed) {
  std::vector<ff::Fr> k;
  fill_xorshift(k, count, seed);
  std::vector<ec::Affine<C>> pattern(count);
  const auto g = ec::Jacobian<C>::from_affine(C::generator());
  tbb::parallel_for(size_t(0), count, [&](size_t i) { pattern[i] = ec::mul_vartime(g, k[i]).to_affine(); });
  return pattern;
}

// n points repeating the pattern from `offset` (each set of the parameters
// starts elsewhere, so no two sets are equal).
template <class C>
std::vector<ec::Affine<C>> repeated_points(size_t n, const std::vector<ec::Affine<C>>& pattern,
                                           size_t offset) {
  std::vector<ec::Affine<C>> v(n);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, n, 1 << 16), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i < r.end(); i++) v[i] = pattern[(i + offset) % pattern.size()];
  });
  return v;
}

// The first `total` of n bits set, spread evenly.
r1cs::Density spread_density(size_t n, size_t total) {
  r1cs::Density d;
  d.resize(n);
  for (size_t k = 0; k < total; k++) d.inc(total == n ? k : size_t((unsigned __int128)k * n / total));
  return d;
}

struct DevicePhaseOpts {
  std::string shape = "log:16", backend = "cpu";
  int reps = 3;
  size_t distinct_points = 1 << 14;
};

void run_device_phase(const DevicePhaseOpts& o) {
  const auto t_shape = std::chrono::steady_clock::now();
  const DeviceShape sh = device_shape_of(o.shape);
  const unsigned log_m = groth16::domain_log_size(sh.rows);
  // Parameters of the shape.
  groth16::Parameters p;
  // No more distinct points than the largest set (H's) holds.
  const size_t distinct = std::max<size_t>(2, std::min(o.distinct_points, size_t(1) << log_m));
  const auto pattern_g1 = random_pattern<ec::G1Curve>(distinct, 17);
  const auto pattern_g2 = random_pattern<ec::G2Curve>(distinct, 19);
  size_t offset = 0;
  auto g1 = [&](size_t n) { return repeated_points<ec::G1Curve>(n, pattern_g1, offset += 7919); };
  p.vk.alpha_g1 = g1(1)[0];
  p.vk.beta_g1 = g1(1)[0];
  p.vk.delta_g1 = g1(1)[0];
  p.vk.beta_g2 = pattern_g2[0];
  p.vk.gamma_g2 = p.vk.beta_g2;
  p.vk.delta_g2 = pattern_g2[1];
  p.vk.ic = g1(sh.inputs);
  p.h = g1((size_t(1) << log_m) - 1);
  p.l = g1(sh.aux);
  p.a = g1(sh.inputs + sh.a_aux);
  p.b_g1 = g1(sh.b_in + sh.b_aux);
  p.b_g2 = repeated_points<ec::G2Curve>(sh.b_in + sh.b_aux, pattern_g2, 2);
  // The assignment: random rows, then input·0 = 0 per input; a Filecoin-like witness.
  groth16::Assignment pa;
  fill_xorshift(pa.input_assignment, sh.inputs, 3);
  pa.input_assignment[0] = ff::Fr::one();
  fill_xorshift(pa.aux_assignment, sh.aux, 5);
  tbb::parallel_for(size_t(0), sh.aux, [&](size_t i) {
    ff::Fr& x = pa.aux_assignment[i];
    const unsigned pick = unsigned(x.v[0] % 20);  // 45% 0, 45% 1, 10% arbitrary
    if (pick < 18) x = pick < 9 ? ff::Fr::zero() : ff::Fr::one();
  });
  const size_t body = sh.rows - sh.inputs;
  fill_xorshift(pa.a, body, 7);
  fill_xorshift(pa.b, body, 11);
  fill_xorshift(pa.c, body, 13);
  for (size_t i = 0; i < sh.inputs; i++) {
    pa.a.push_back(pa.input_assignment[i]);
    pa.b.push_back(ff::Fr::zero());
    pa.c.push_back(ff::Fr::zero());
  }
  pa.a_aux_density = spread_density(sh.aux, sh.a_aux);
  pa.b_input_density = spread_density(sh.inputs, sh.b_in);
  pa.b_aux_density = spread_density(sh.aux, sh.b_aux);
  const double setup_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_shape).count();

  engine::EngineConfig cfg;
  cfg.device_backend = o.backend;
  auto devices = engine::make_devices(cfg);
  engine::Device& dev = *devices.front();
  double upload_ms = 0;
  groth16::DeviceKey key;
  dev.arena().execute([&] {
    const auto t = std::chrono::steady_clock::now();
    key = groth16::upload(p, dev.backend());
    upload_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  });
  std::vector<double> start_ms, finish_ms;
  groth16::PhaseTimes last;
  for (int r = 0; r < std::max(o.reps, 1); r++) {
    groth16::Assignment copy = pa;
    groth16::PhaseTimes t;
    groth16::ProverOptions po;
    po.times = &t;
    dev.arena().execute([&] {
      const auto t0 = std::chrono::steady_clock::now();
      auto pending = groth16::prove_start(std::move(copy), key, ff::Fr::from_u64(3), ff::Fr::from_u64(5), po);
      const auto t1 = std::chrono::steady_clock::now();
      auto proof = groth16::prove_finish(std::move(pending), po);
      const auto t2 = std::chrono::steady_clock::now();
      do_not_optimize(proof);
      start_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      finish_ms.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
    });
    last = t;
  }
  const Stats s = stats_of(start_ms), f = stats_of(finish_ms);
  nlohmann::ordered_json j{{"bench", "device_phase"},
                           {"shape", sh.name},
                           {"backend", o.backend},
                           {"device", dev.name()},
                           {"rows", sh.rows},
                           {"log_domain", log_m},
                           {"aux", sh.aux},
                           {"reps", start_ms.size()},
                           {"device_phase_ms", s.median},
                           {"device_phase_min_ms", s.min},
                           {"g2_tail_ms", f.median},
                           {"upload_ms", upload_ms},
                           {"device_bytes", key.device_bytes()},
                           {"setup_s", setup_s},
                           {"last_h_ms", 1000 * (last.ntt() + last.ntt_combine + last.h_scalars)},
                           {"last_msm_g1_ms", 1000 * (last.msm_h + last.msm_l + last.msm_a + last.msm_b_g1)},
                           {"last_scalars_ms", 1000 * last.scalars}};
  std::printf("%s\n", j.dump().c_str());
}

void register_micro_device(CLI::App& app) {
  auto* micro = micro_command(app);
  auto o = std::make_shared<DevicePhaseOpts>();
  auto* cmd =
      micro->add_subcommand("device-phase", "one Groth16 partition's device phase on a device backend");
  cmd->add_option("--shape", o->shape, "a Filecoin circuit id (porep-32g, ...) or log:K (a generic 2^K rows)")
      ->capture_default_str();
  cmd->add_option("--backend", o->backend, "cpu, cuda or cuda-emulated")->capture_default_str();
  cmd->add_option("--reps", o->reps, "timed repetitions (median reported)")->capture_default_str();
  cmd->add_option("--distinct-points", o->distinct_points, "distinct parameter points (repeated to size)")
      ->capture_default_str();
  cmd->callback([o] { run_device_phase(*o); });
}

RegisterCommand reg_micro_device(36, register_micro_device);

}  // namespace
}  // namespace cuzk::bench_cli
