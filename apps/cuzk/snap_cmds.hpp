#pragma once
// cuzk subcommands for SnapDeals (EmptySectorUpdate): update-prove (every
// partition from Curio's file of vanilla partition proofs) and
// verify-update. Development parameters come from `cuzk setup --circuit
// snap-2k|snap-8m|...` (porep_cmds.cpp).
#include <CLI/CLI.hpp>

#include "progress.hpp"

namespace cuzk::cli {

struct SnapCommands {
  CLI::App* prove = nullptr;
  CLI::App* verify = nullptr;
  std::string param_dir = "/var/tmp/filecoin-proof-parameters", vanilla, proof, vk;
  std::string comm_r_old, comm_r_new, comm_d_new;
  uint64_t registered_proof = 0;

  void add(CLI::App& app);
  // Exit status of the selected command, or -1 when none was selected.
  int run(Progress& pr);
};

}  // namespace cuzk::cli
