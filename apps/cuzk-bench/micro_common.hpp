#pragma once
// Shared helpers of the micro benchmarks: statistics, an optimization barrier
// and the shared `micro` subcommand.
#include <algorithm>
#include <vector>

#include <CLI/CLI.hpp>

namespace cuzk::bench_cli {

struct Stats {
  double median = 0, min = 0, max = 0;
};

inline Stats stats_of(std::vector<double> v) {
  Stats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  return s;
}

template <class T>
inline void do_not_optimize(const T& x) {
  asm volatile("" : : "r"(&x) : "memory");
}

// The `micro` subcommand, created by whichever micro benchmark registers first.
inline CLI::App* micro_command(CLI::App& app) {
  for (auto* sub : app.get_subcommands([](CLI::App* a) { return a->get_name() == "micro"; })) return sub;
  auto* micro = app.add_subcommand("micro", "micro benchmarks of the arithmetic layer");
  micro->require_subcommand(1);
  return micro;
}

}  // namespace cuzk::bench_cli
