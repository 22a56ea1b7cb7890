// cuzk-bench micro ntt: time of one NTT over Fr and its butterfly ratio,
//   butterfly_ratio = ms / ((n/2) * log2(n) * fr_mul_ns),
// with fr_mul_ns the dependent-chain Fr multiplication latency measured in the
// same process (as `micro field` does), interleaved with the NTT repetitions so
// both see the same machine load.
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "ff/bls12_381.hpp"
#include "micro_common.hpp"
#include "ntt/ntt.hpp"
#include "platform/cpu_features.hpp"

namespace cuzk::bench_cli {
namespace {

struct NttOpts {
  unsigned log_n = 20;
  unsigned threads = 1;
  int reps = 3;
  bool coset = false;
  bool json = false;
  bool short_tables = false;
  bool compare_scalar = false;
  std::string op = "forward";
};

double fr_mul_chain_ns(size_t iters) {
  std::mt19937_64 rng(1);
  ff::Fr a = ff::Fr::random(rng), b = ff::Fr::random(rng);
  auto t0 = std::chrono::steady_clock::now();
  for (size_t i = 0; i < iters; i++) a = a * b;
  auto t1 = std::chrono::steady_clock::now();
  do_not_optimize(a);
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / double(iters);
}

void run_ntt(const NttOpts& o) {
  using ntt::Direction;
  if (o.log_n > 30) {
    std::fprintf(stderr, "micro ntt: --log-n %u is too large for this benchmark\n", o.log_n);
    set_exit_code(2);
    return;
  }
  ntt::DomainConfig cfg;
  if (o.short_tables) cfg.max_table_bytes = 0;
  const ntt::Domain d(o.log_n, cfg);
  const size_t n = d.size();
  std::vector<ff::Fr> a(n);
  std::mt19937_64 rng(42);
  for (auto& x : a) x = ff::Fr::random(rng);
  const ntt::Options opt{o.threads};

  std::string op = o.op;
  if (o.coset) op = op == "inverse" ? "coset_inverse" : "coset_forward";
  auto step = [&] {
    if (op == "forward") ntt::forward(a, d, opt);
    else if (op == "inverse") ntt::inverse(a, d, opt);
    else if (op == "coset_forward") ntt::coset_forward(a, d, opt);
    else if (op == "coset_inverse") ntt::coset_inverse(a, d, opt);
    else if (op == "nr") ntt::ntt_nr(a, d, Direction::forward, opt);
    else if (op == "rn") ntt::ntt_rn(a, d, Direction::forward, opt);
    else if (op == "bit_reverse") ntt::bit_reverse(a, opt);
    else throw std::invalid_argument("micro ntt: unknown --op " + op);
  };
  auto timed = [&] {
    auto t0 = std::chrono::steady_clock::now();
    step();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  step();  // warm-up: page faults, TBB start-up
  std::vector<double> ms, mul, scalar_ms;
  const bool ifma = platform::use_ifma();
  for (int r = 0; r < o.reps; r++) {
    mul.push_back(fr_mul_chain_ns(1000000));
    ms.push_back(timed());
    if (o.compare_scalar) {  // the scalar kernels, alternating with the default
      platform::set_use_ifma(false);
      scalar_ms.push_back(timed());
      platform::set_use_ifma(ifma);
    }
  }
  mul.push_back(fr_mul_chain_ns(1000000));
  do_not_optimize(a[0]);
  const Stats s = stats_of(ms), m = stats_of(mul);
  const double butterflies = double(n) / 2 * double(o.log_n);
  const double ratio = butterflies > 0 ? s.median * 1e6 / (butterflies * m.median) : 0.0;
  const char* tables = d.full_twiddles() ? "full" : "short";
  if (o.json) {
    nlohmann::json j = {{"bench", "ntt"},
                        {"op", op},
                        {"n", n},
                        {"log_n", o.log_n},
                        {"threads", o.threads},
                        {"reps", o.reps},
                        {"ms", s.median},
                        {"ms_min", s.min},
                        {"fr_mul_ns", m.median},
                        {"butterfly_ratio", ratio},
                        {"tables", tables}};
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf(
        "ntt %-13s n=2^%-2u threads=%u tables=%s  median %9.2f ms  min %9.2f ms  "
        "fr_mul %6.2f ns  butterfly_ratio %.3f\n",
        op.c_str(), o.log_n, o.threads, tables, s.median, s.min, m.median, ratio);
  }
  if (o.compare_scalar) {
    const Stats sc = stats_of(scalar_ms);
    if (o.json) {
      nlohmann::json j = {{"bench", "ntt_ratio"},   {"what", "ifma_speedup"},       {"op", op},
                          {"log_n", o.log_n},       {"threads", o.threads},         {"ifma", ifma},
                          {"scalar_ms", sc.median}, {"ratio", sc.median / s.median}};
      std::printf("%s\n", j.dump().c_str());
    } else {
      std::printf("ntt %-13s n=2^%-2u threads=%u scalar kernels median %9.2f ms: ifma_speedup %.3f%s\n",
                  op.c_str(), o.log_n, o.threads, sc.median, sc.median / s.median,
                  ifma ? "" : " (IFMA not in use)");
    }
  }
  std::fflush(stdout);
}

void register_micro_ntt(CLI::App& app) {
  auto* micro = micro_command(app);
  auto o = std::make_shared<NttOpts>();
  auto* cmd = micro->add_subcommand("ntt", "NTT over Fr: time and butterfly ratio");
  cmd->add_option("--log-n", o->log_n, "domain size 2^log_n")->capture_default_str();
  cmd->add_option("--threads", o->threads, "worker threads (0 = all)")->capture_default_str();
  cmd->add_option("--reps", o->reps, "timed repetitions (median reported)")->capture_default_str();
  cmd->add_option("--op", o->op, "forward | inverse | nr (natural->bit-reversed only) | rn | bit_reverse")
      ->capture_default_str();
  cmd->add_flag("--coset", o->coset, "coset variant (generator 7) of forward/inverse");
  cmd->add_flag("--short-tables", o->short_tables, "force the short-twiddle-table (four-step twist) path");
  cmd->add_flag("--compare-scalar", o->compare_scalar,
                "also time the scalar kernels (no AVX-512 IFMA), alternating, and report the speed-up");
  cmd->add_flag("--json", o->json, "one JSON object per line");
  cmd->callback([o] { run_ntt(*o); });
}

RegisterCommand reg_micro_ntt(30, register_micro_ntt);

}  // namespace
}  // namespace cuzk::bench_cli
