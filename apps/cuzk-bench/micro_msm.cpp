// cuzk-bench micro msm: multi-scalar multiplication throughput over G1/G2,
// reported with the machine-independent "normalized cost" =
// (time per point) / (Fp multiplication latency), the latency measured in the
// same process right before (dependent chain, as in `micro field`).
//
//   cuzk-bench micro msm --group g1 --log-n 16 18 --threads 1 2
//       --scalars uniform filecoin --reps 3 --json [--compare-naive-xyzz] [--compare-scalar]
//
// Inputs (micro_msm_inputs.hpp): points on a random arithmetic progression;
// scalars uniform in Fr or Filecoin-like (45% zero, 45% one, 10% uniform).
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <tuple>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "ec/bls12_381.hpp"
#include "micro_common.hpp"
#include "micro_msm_inputs.hpp"
#include "msm/msm.hpp"
#include "platform/large_vector.hpp"

namespace cuzk::bench_cli {
namespace {

struct MsmOpts {
  std::vector<std::string> groups{"g1"};
  std::vector<int> log_n{16};
  std::vector<unsigned> threads{1};
  std::vector<std::string> scalars{"uniform"};
  std::vector<int> windows{0};
  int reps = 3;
  bool json = false;
  bool compare_xyzz = false;
  bool compare_scalar = false;
  bool no_glv = false;
  bool canonical = false;
};

// Dependent-chain latency of one Fp multiplication (as `micro field`): a
// warm-up (the clock may still be ramping up after point generation), then
// the median of 7 chains.
double fp_mul_latency_ns() {
  std::mt19937_64 rng(99);
  ff::Fp a = ff::Fp::random(rng), b = ff::Fp::random(rng);
  for (int i = 0; i < 1000000; i++) a = a * b;  // warm-up, ~50 ms
  std::vector<double> v;
  for (int r = 0; r < 7; r++) {
    const size_t iters = 300000;
    auto t0 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < iters; i++) a = a * b;
    auto t1 = std::chrono::steady_clock::now();
    do_not_optimize(a);
    v.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / double(iters));
  }
  return stats_of(v).median;
}

// Medians of the default variant, for the ratio lines printed at the end.
struct Key {
  std::string group, scalars;
  int log_n;
  unsigned threads;
  int window;
  bool operator<(const Key& o) const {
    return std::tie(group, scalars, log_n, threads, window) <
           std::tie(o.group, o.scalars, o.log_n, o.threads, o.window);
  }
};
std::map<Key, double>& results() {
  static std::map<Key, double> r;
  return r;
}
// The plan's additions (additions_model) of each configuration.
std::map<Key, double>& planned_additions() {
  static std::map<Key, double> r;
  return r;
}
// Each repetition's time where thread counts were timed round-robin (see
// run_group), for the speed-up as a median of paired ratios.
std::map<Key, std::vector<double>>& rep_times() {
  static std::map<Key, std::vector<double>> r;
  return r;
}

const char* acc_name(msm::detail::Accumulator a) {
  switch (a) {
    case msm::detail::Accumulator::BatchAffine: return "batch_affine";
    case msm::detail::Accumulator::Xyzz: return "xyzz";
    default: return "auto";
  }
}

// "14" for uniform windows, "15/14" where the windows below the top differ.
std::string widths_label(const msm::detail::Plan& plan) {
  int lo = plan.window_bits;
  for (size_t w = 0; w + 1 < plan.window_widths.size(); w++) lo = std::min(lo, plan.window_widths[w]);
  return lo == plan.window_bits ? std::to_string(lo)
                                : std::to_string(plan.window_bits) + "/" + std::to_string(lo);
}

// The affine additions the plan implies, as a model: every entry (a big
// scalar's point, and phi(P) under GLV) once per window, about two per bucket
// in the reductions (2^(w-1) buckets of a w-bit signed window), one per
// scalar-1 point. Filecoin-like and uniform MSMs cost about the same per
// addition, so the ratio of their counts is the floor of their time ratio.
double additions_model(const msm::detail::Plan& plan) {
  const double entries = double(plan.big) * (plan.glv ? 2 : 1);
  double adds = double(plan.ones);
  for (int w : plan.window_widths) adds += entries + 2 * std::ldexp(1.0, w - 1);
  return adds;
}

// One timed MSM on `th` threads.
template <class C>
double time_msm(std::span<const ec::Affine<C>> ps, const std::vector<arith::Limbs<4>>& can,
                const std::vector<ff::Fr>& ks, const MsmOpts& o, unsigned th, int wb,
                msm::detail::Accumulator acc, bool ifma, msm::detail::Plan& plan) {
  msm::detail::Tuning tu;
  tu.accumulator = acc;
  tu.glv = !o.no_glv;
  tu.ifma = ifma;
  const msm::Options opt{th, wb};
  auto t0 = std::chrono::steady_clock::now();
  ec::Jacobian<C> res = o.canonical ? msm::detail::msm_tuned<C>(ps, can, opt, tu, &plan)
                                    : msm::detail::msm_tuned<C>(ps, ks, opt, tu, &plan);
  auto t1 = std::chrono::steady_clock::now();
  do_not_optimize(res);
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

template <class C>
void run_group(const MsmOpts& o, const char* gname) {
  int max_log = 0;
  for (int l : o.log_n) max_log = std::max(max_log, l);
  const size_t nmax = size_t(1) << max_log;
  auto pts = make_msm_points<C>(nmax, 1234);
  for (int log_n : o.log_n) {
    const size_t n = size_t(1) << log_n;
    std::span<const ec::Affine<C>> ps(pts.data(), n);
    for (const auto& sk : o.scalars) {
      auto ks = make_msm_scalars(n, sk, 5678 + log_n);
      auto can = platform::large_vector<arith::Limbs<4>>(n);
      for (size_t i = 0; i < n; i++) can[i] = ks[i].to_canonical();
      for (int wb : o.windows) {
        // Several thread counts are timed round-robin, a repetition of each
        // in turn, so that all see the same spells of a shared machine (its
        // speed drifts by tens of percent over a minute); the speed-up is
        // then the median of each repetition's ratio.
        std::map<unsigned, std::vector<double>> rr;
        std::map<unsigned, msm::detail::Plan> rr_plan;
        const bool round_robin = o.threads.size() > 1 && !o.compare_scalar;
        for (int r = 0; round_robin && r < o.reps; r++)
          for (unsigned th : o.threads)
            rr[th].push_back(
                time_msm<C>(ps, can, ks, o, th, wb, msm::detail::Accumulator::Auto, true, rr_plan[th]));
        for (unsigned th : o.threads) {
          auto once = [&](msm::detail::Accumulator acc, bool ifma, msm::detail::Plan& plan) {
            return time_msm<C>(ps, can, ks, o, th, wb, acc, ifma, plan);
          };
          auto measure = [&](msm::detail::Accumulator acc, msm::detail::Plan& plan) {
            std::vector<double> ms;
            for (int r = 0; r < o.reps; r++) ms.push_back(once(acc, true, plan));
            return stats_of(ms);
          };
          auto report = [&](const char* variant, const Stats& s, double fp_ns, const msm::detail::Plan& plan,
                            double gain) {
            double per_point_ns = s.median * 1e6 / double(n);
            const double adds = additions_model(plan);
            nlohmann::json j = {{"bench", "msm"},
                                {"group", gname},
                                {"n", n},
                                {"log_n", log_n},
                                {"threads", th},
                                {"scalars", sk},
                                {"variant", variant},
                                {"ms", s.median},
                                {"ms_min", s.min},
                                {"reps", o.reps},
                                {"points_per_sec", double(n) / (s.median / 1e3)},
                                {"fp_mul_ns", fp_ns},
                                {"normalized_cost", per_point_ns / fp_ns},
                                {"window_bits", plan.window_bits},
                                {"windows", plan.windows},
                                {"window_widths", plan.window_widths},
                                {"glv", plan.glv},
                                {"ifma", plan.ifma},
                                {"accumulator", acc_name(plan.accumulator)},
                                {"ones", plan.ones},
                                {"zeros", plan.zeros},
                                {"additions_model", adds},
                                {"ns_per_addition", s.median * 1e6 / adds},
                                // Stages of the last repetition (reductions within accumulate).
                                {"stage_ms",
                                 {{"classify", plan.ms_classify},
                                  {"ones", plan.ms_ones},
                                  {"split", plan.ms_split},
                                  {"accumulate", plan.ms_accumulate}}}};
            if (gain > 0) j["gain_vs_xyzz"] = gain;
            if (o.json) {
              std::printf("%s\n", j.dump().c_str());
            } else {
              std::printf(
                  "msm %s n=2^%d threads=%u scalars=%-8s %-12s%s c=%-5s W=%2d  %9.1f ms  %8.0f pts/s  "
                  "%.3f M additions (%.1f ns each)  norm %.1f (fp_mul %.1f ns)%s\n",
                  gname, log_n, th, sk.c_str(), variant, plan.ifma ? " ifma" : "", widths_label(plan).c_str(),
                  plan.windows, s.median, double(n) / (s.median / 1e3), adds / 1e6, s.median * 1e6 / adds,
                  per_point_ns / fp_ns, fp_ns,
                  gain > 0 ? (" gain vs xyzz " + std::to_string(gain)).c_str() : "");
            }
            std::fflush(stdout);
          };
          msm::detail::Plan plan, xplan, splan;
          double fp_ns = fp_mul_latency_ns();
          Stats s;
          if (o.compare_scalar) {
            // Default (IFMA where available) and scalar kernels alternate, so
            // both see the same machine; the ratio is of the two medians.
            std::vector<double> a, b;
            for (int r = 0; r < o.reps; r++) {
              a.push_back(once(msm::detail::Accumulator::Auto, true, plan));
              b.push_back(once(msm::detail::Accumulator::Auto, false, splan));
            }
            s = stats_of(a);
            const Stats sb = stats_of(b);
            report("scalar", sb, fp_ns, splan, 0);
            if (o.json) {
              nlohmann::json j = {{"bench", "msm_ratio"}, {"what", "ifma_speedup"},
                                  {"group", gname},       {"log_n", log_n},
                                  {"threads", th},        {"scalars", sk},
                                  {"ifma", plan.ifma},    {"ratio", sb.median / s.median}};
              std::printf("%s\n", j.dump().c_str());
            } else {
              std::printf("ratio %-18s %s n=2^%d threads=%u scalars=%s: %.3f%s\n", "ifma_speedup", gname,
                          log_n, th, sk.c_str(), sb.median / s.median, plan.ifma ? "" : " (IFMA not in use)");
            }
          } else if (round_robin) {
            s = stats_of(rr[th]);
            plan = rr_plan[th];
            rep_times()[Key{gname, sk, log_n, th, wb}] = rr[th];
          } else {
            s = measure(msm::detail::Accumulator::Auto, plan);
          }
          double gain = 0;
          if (o.compare_xyzz) {
            double fp2 = fp_mul_latency_ns();
            Stats sx = measure(msm::detail::Accumulator::Xyzz, xplan);
            gain = sx.median / s.median;
            report("xyzz", sx, fp2, xplan, 0);
          }
          report("default", s, fp_ns, plan, gain);
          results()[Key{gname, sk, log_n, th, wb}] = s.median;
          planned_additions()[Key{gname, sk, log_n, th, wb}] = additions_model(plan);
        }
      }
    }
  }
}

// Ratios the performance targets are stated in, from the medians above:
// g2 / g1 time, filecoin / uniform time, speed-up of t threads over 1.
void print_ratios(const MsmOpts& o) {
  auto& r = results();
  auto line = [&](const char* what, const Key& k, double num, double den, const char* note,
                  double additions_ratio = 0) {
    nlohmann::json j = {{"bench", "msm_ratio"}, {"what", what},         {"group", k.group},
                        {"log_n", k.log_n},     {"threads", k.threads}, {"scalars", k.scalars},
                        {"ratio", num / den}};
    if (additions_ratio > 0) j["additions_ratio"] = additions_ratio;
    if (o.json) std::printf("%s\n", j.dump().c_str());
    else
      std::printf("ratio %-18s %s n=2^%d threads=%u scalars=%s: %.3f%s\n", what, k.group.c_str(), k.log_n,
                  k.threads, k.scalars.c_str(), num / den, note);
  };
  for (const auto& [k, ms] : r) {
    if (k.group == "g2") {
      Key g1 = k;
      g1.group = "g1";
      if (r.count(g1)) line("g2_over_g1", k, ms, r[g1], " (target <= 2.8)");
    }
    if (k.scalars == "filecoin") {
      Key u = k;
      u.scalars = "uniform";
      if (r.count(u)) {
        auto& pa = planned_additions();
        const std::string note = " (target <= 0.12; their additions' ratio " +
                                 std::to_string(pa[k] / pa[u]).substr(0, 5) +
                                 ", the time ratio at equal cost per addition)";
        line("filecoin_over_uniform", k, ms, r[u], note.c_str(), pa[k] / pa[u]);
      }
    }
    if (k.threads > 1) {
      Key one = k;
      one.threads = 1;
      auto& rt = rep_times();
      if (rt.count(k) && rt.count(one) && rt[k].size() == rt[one].size()) {
        std::vector<double> ratios;
        for (size_t i = 0; i < rt[k].size(); i++) ratios.push_back(rt[one][i] / rt[k][i]);
        const double med = stats_of(ratios).median;
        line("speedup_vs_1_thread", k, med, 1.0,
             " (median of the repetitions' paired ratios; target >= 1.9 at 2 threads)");
      } else if (r.count(one)) {
        line("speedup_vs_1_thread", k, r[one], ms, " (target >= 1.9 at 2 threads)");
      }
    }
  }
}

void run_msm(const MsmOpts& o) {
  results().clear();
  rep_times().clear();
  planned_additions().clear();
  // As the daemon does (engine.cpp): an MSM's scratch is reused by the next.
  platform::set_recycle_limit(size_t(1) << 30);
  for (const auto& g : o.groups) {
    if (g == "g1") run_group<ec::G1Curve>(o, "g1");
    else if (g == "g2") run_group<ec::G2Curve>(o, "g2");
    else throw CLI::ValidationError("--group", "expected g1 or g2");
  }
  print_ratios(o);
}

void register_micro_msm(CLI::App& app) {
  auto* micro = micro_command(app);
  auto o = std::make_shared<MsmOpts>();
  auto* cmd = micro->add_subcommand("msm", "multi-scalar multiplication (Pippenger) over G1/G2");
  cmd->add_option("--group", o->groups, "g1 and/or g2")->check(CLI::IsMember({"g1", "g2"}));
  cmd->add_option("--log-n", o->log_n, "log2 of the number of points (one or more)")
      ->check(CLI::Range(0, 26));
  cmd->add_option("--threads", o->threads,
                  "thread counts (one or more; several are timed round-robin, a repetition of each in turn)");
  cmd->add_option("--scalars", o->scalars, "uniform and/or filecoin (45% 0, 45% 1, 10% uniform)")
      ->check(CLI::IsMember({"uniform", "filecoin"}));
  cmd->add_option("--window", o->windows, "forced window bits (0 = cost model; one or more)")
      ->check(CLI::Range(0, 16));
  cmd->add_option("--reps", o->reps, "repetitions (median reported)")->check(CLI::PositiveNumber);
  cmd->add_flag("--json", o->json, "one JSON object per line and configuration");
  cmd->add_flag("--compare-scalar", o->compare_scalar,
                "also time the scalar kernels (no AVX-512 IFMA), alternating with the default, and report "
                "the speed-up");
  cmd->add_flag("--compare-naive-xyzz", o->compare_xyzz,
                "also time the XYZZ-bucket accumulator (no batch-affine) and report the gain");
  cmd->add_flag("--no-glv", o->no_glv, "disable the GLV scalar split");
  cmd->add_flag("--canonical", o->canonical, "pass canonical integer scalars (msm_canonical)");
  cmd->callback([o] { run_msm(*o); });
}

RegisterCommand reg_micro_msm(20, register_micro_msm);

}  // namespace
}  // namespace cuzk::bench_cli
