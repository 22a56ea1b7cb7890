// cuzk-bench micro field: latency of Fp/Fr multiplication, squaring and
// inversion (dependent chains), assembly or portable kernels.
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "ff/bls12_381.hpp"
#include "micro_common.hpp"
#include "platform/cpu_features.hpp"

namespace cuzk::bench_cli {
namespace {

struct FieldOpts {
  int reps = 7;
  bool json = false;
  bool portable = false;
};

template <class F, class Step>
double chain_ns(size_t iters, uint64_t seed, Step step) {
  std::mt19937_64 rng(seed);
  F a = F::random(rng), b = F::random(rng);
  auto t0 = std::chrono::steady_clock::now();
  for (size_t i = 0; i < iters; i++) a = step(a, b);
  auto t1 = std::chrono::steady_clock::now();
  do_not_optimize(a);
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / double(iters);
}

template <class F>
double mul_ns(size_t n) {
  return chain_ns<F>(n, 1, [](const F& a, const F& b) { return a * b; });
}
template <class F>
double sqr_ns(size_t n) {
  return chain_ns<F>(n, 2, [](const F& a, const F&) { return a.square(); });
}
template <class F>
double add_ns(size_t n) {
  return chain_ns<F>(n, 3, [](const F& a, const F& b) { return a + b; });
}
template <class F>
double inv_ns(size_t n) {
  return chain_ns<F>(n, 4, [](const F& a, const F& b) { return a.inverse() + b; });
}
template <class F>
double inv_vartime_ns(size_t n) {
  return chain_ns<F>(n, 5, [](const F& a, const F& b) { return a.inverse_vartime() + b; });
}

void run_field(const FieldOpts& o) {
  platform::set_use_adx(!o.portable);
  const char* path = platform::use_adx() ? "adx" : "portable";
  struct Row {
    const char* op;
    double (*fn)(size_t);
    size_t iters;
  };
  const Row rows[] = {
      {"fp_mul", mul_ns<ff::Fp>, 2000000},
      {"fp_sqr", sqr_ns<ff::Fp>, 2000000},
      {"fp_add", add_ns<ff::Fp>, 4000000},
      {"fr_mul", mul_ns<ff::Fr>, 4000000},
      {"fr_sqr", sqr_ns<ff::Fr>, 4000000},
      {"fr_add", add_ns<ff::Fr>, 8000000},
      {"fp_inv", inv_ns<ff::Fp>, 2000},
      {"fr_inv", inv_ns<ff::Fr>, 4000},
      {"fp_inv_vartime", inv_vartime_ns<ff::Fp>, 20000},
      {"fr_inv_vartime", inv_vartime_ns<ff::Fr>, 40000},
  };
  for (const auto& r : rows) {
    std::vector<double> ns;
    for (int i = 0; i < o.reps; i++) ns.push_back(r.fn(r.iters));
    Stats s = stats_of(ns);
    if (o.json) {
      nlohmann::json j = {{"bench", "field"},      {"op", r.op},      {"path", path},
                          {"ns_median", s.median}, {"ns_min", s.min}, {"reps", o.reps}};
      std::printf("%s\n", j.dump().c_str());
    } else {
      std::printf("%-14s %-9s median %9.2f ns   min %9.2f ns\n", r.op, path, s.median, s.min);
    }
    std::fflush(stdout);
  }
}

void register_micro_field(CLI::App& app) {
  auto* micro = micro_command(app);
  auto fo = std::make_shared<FieldOpts>();
  auto* field = micro->add_subcommand("field", "Fp/Fr mul, square, add, inverse latency");
  field->add_option("--reps", fo->reps, "repetitions (median reported)");
  field->add_flag("--json", fo->json, "one JSON object per line");
  field->add_flag("--portable", fo->portable, "force the portable (no-asm) kernels");
  field->callback([fo] { run_field(*fo); });
}

RegisterCommand reg_micro_field(10, register_micro_field);

}  // namespace
}  // namespace cuzk::bench_cli
