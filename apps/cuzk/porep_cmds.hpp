#pragma once
// cuzk subcommands for Filecoin PoRep: development parameters under the
// official file names, C2 proving from a c1.json, and verify_seal.
#include <CLI/CLI.hpp>

#include "progress.hpp"

namespace cuzk::cli {

// Registers `setup --circuit` options on the existing setup command and the
// porep-prove / verify-seal subcommands; run_porep_commands returns -1 when
// none of them was selected.
struct PorepCommands {
  CLI::App* setup = nullptr;
  CLI::App* prove = nullptr;
  CLI::App* verify = nullptr;
  std::string circuit, param_dir = "/var/tmp/filecoin-proof-parameters", c1, proof, vk;
  std::string comm_r, comm_d, replica_id, seed, ticket, porep_id, api_version;
  uint64_t registered_proof = 5, miner_id = 0, sector_num = 0;

  void add(CLI::App& app, CLI::App* setup_cmd);
  // Exit status of the selected command, or -1 when none was selected.
  int run(Progress& pr);
};

}  // namespace cuzk::cli
