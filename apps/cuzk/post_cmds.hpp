#pragma once
// cuzk subcommands for Filecoin PoSt: post-prove (one partition of
// WinningPoSt / WindowPoSt from Curio's vanilla proofs file) and
// verify-post. Development parameters come from `cuzk setup --circuit
// winning-post-2k|window-post-2k|...` (porep_cmds.cpp).
#include <CLI/CLI.hpp>

#include "progress.hpp"

namespace cuzk::cli {

struct PostCommands {
  CLI::App* prove = nullptr;
  CLI::App* verify = nullptr;
  std::string param_dir = "/var/tmp/filecoin-proof-parameters", vanilla, proof, vk, randomness;
  std::vector<std::string> sectors;  // id:comm_r_hex
  uint64_t registered_proof = 0;
  uint32_t partition = 0;

  void add(CLI::App& app);
  // Exit status of the selected command, or -1 when none was selected.
  int run(Progress& pr);
};

}  // namespace cuzk::cli
