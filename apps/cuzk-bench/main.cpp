// cuzk-bench: benchmarks, test-input generation and timeline analysis.
#include <algorithm>
#include <exception>
#include <iostream>

#include <CLI/CLI.hpp>

#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"cuzk-bench: benchmark and analysis tool for the cuzk proving engine"};
  app.require_subcommand(1);
  auto& reg = cuzk::bench_cli::registry();
  std::stable_sort(reg.begin(), reg.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [order, fn] : reg) fn(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "cuzk-bench: error: " << e.what() << "\n";
    return 1;
  }
  return cuzk::bench_cli::exit_code();
}
