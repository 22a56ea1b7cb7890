// cuzk-bench micro kernel: throughput of the MSM's eight-lane batch-affine
// addition kernel (src/msm/ifma_kernels.*), in ns per addition, the way the
// bucket accumulation calls it: batches of independent additions whose
// operands are read at random from a pool of points (the buckets and entries)
// and whose results go to a separate arena.
//
//   cuzk-bench micro kernel --group g1 g2 --batch 4096 --pool 65536 --reps 9
//
// The operands are random field elements, not curve points: the addition
// formula does not look at the curve equation, so the work is the same.
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "ff/bls12_381.hpp"
#include "micro_common.hpp"
#include "msm/ifma_kernels.hpp"
#include "platform/cpu_features.hpp"

namespace cuzk::bench_cli {
namespace {

struct KernelOpts {
  std::vector<std::string> groups{"g1", "g2"};
  size_t batch = 4096;
  size_t pool = 65536;
  int reps = 21;
  bool json = false;
};

Stats run_one(bool g2, const KernelOpts& o) {
  const size_t limbs = g2 ? 24 : 12;  // x then y, six 64-bit limbs per Fp
  std::mt19937_64 rng(7);
  std::vector<uint64_t> pool(o.pool * limbs), out(o.batch * limbs);
  for (size_t i = 0; i < o.pool * limbs / 6; i++) {
    const ff::Fp v = ff::Fp::random(rng);
    std::copy(v.v.begin(), v.v.end(), pool.begin() + 6 * i);
  }
  msm::ifma::points_to_domain(pool.data(), o.pool, g2 ? 4 : 2);
  msm::ifma::JobList jobs;
  std::vector<uint32_t> special(o.batch);
  std::uniform_int_distribution<size_t> pick(0, o.pool - 1);
  const int rounds = int(std::max<size_t>(1, (size_t(1) << 18) / o.batch));
  std::vector<double> ns;
  for (int r = 0; r < o.reps + 1; r++) {  // the first repetition warms up
    double total = 0;
    for (int k = 0; k < rounds; k++) {
      jobs.clear();
      for (size_t i = 0; i < o.batch; i++)
        jobs.push(pool.data() + pick(rng) * limbs, pool.data() + pick(rng) * limbs, out.data() + i * limbs,
                  uint8_t(rng() & (msm::ifma::NEG_A | msm::ifma::NEG_B)));
      jobs.pad();
      auto t0 = std::chrono::steady_clock::now();
      size_t ns_special = g2 ? msm::ifma::g2_add_batch(jobs, 0, jobs.size(), special.data())
                             : msm::ifma::g1_add_batch(jobs, 0, jobs.size(), special.data());
      total += std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
      do_not_optimize(ns_special);
    }
    if (r) ns.push_back(total / double(rounds * o.batch));
  }
  do_not_optimize(out);
  return stats_of(ns);
}

void run_kernel(const KernelOpts& o) {
  if (!platform::use_ifma()) {
    std::fprintf(stderr, "micro kernel: this CPU has no AVX-512 IFMA (or CUZK_NO_IFMA is set)\n");
    return;
  }
  if (o.batch == 0 || o.pool < 2) throw std::invalid_argument("micro kernel: --batch > 0 and --pool >= 2");
  for (const auto& g : o.groups) {
    if (g != "g1" && g != "g2") throw std::invalid_argument("micro kernel: --group is g1 or g2");
    const Stats st = run_one(g == "g2", o);
    if (o.json) {
      nlohmann::json j = {{"bench", "kernel"},       {"group", g},
                          {"batch", o.batch},        {"pool", o.pool},
                          {"ns_per_add", st.median}, {"ns_per_add_min", st.min},
                          {"reps", o.reps}};
      std::printf("%s\n", j.dump().c_str());
    } else {
      std::printf("%s affine add (IFMA, batch %zu, pool %zu): median %.1f ns, min %.1f ns per addition\n",
                  g.c_str(), o.batch, o.pool, st.median, st.min);
    }
    std::fflush(stdout);
  }
}

void register_micro_kernel(CLI::App& app) {
  auto* micro = micro_command(app);
  auto ko = std::make_shared<KernelOpts>();
  auto* cmd = micro->add_subcommand("kernel", "the MSM's eight-lane affine addition kernel (IFMA)");
  cmd->add_option("--group", ko->groups, "g1 and/or g2");
  cmd->add_option("--batch", ko->batch, "additions per shared inversion");
  cmd->add_option("--pool", ko->pool, "points the operands are drawn from");
  cmd->add_option("--reps", ko->reps, "repetitions of ~2^18 additions (median and min reported)");
  cmd->add_flag("--json", ko->json, "one JSON object per line");
  cmd->callback([ko] { run_kernel(*ko); });
}

RegisterCommand reg_micro_kernel(25, register_micro_kernel);

}  // namespace
}  // namespace cuzk::bench_cli
