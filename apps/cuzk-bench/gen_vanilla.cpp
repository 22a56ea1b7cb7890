// cuzk-bench gen-vanilla porep: seals a test sector (PreCommit + commit
// phase 1) and writes the C1 output as Curio / lotus-bench do, the
// {"SectorNum", "Phase1Out", "SectorSize"} wrapper (or the raw c1.json with
// --raw). Defaults are fixed so that the output is reproducible.
#include <chrono>
#include <cstdio>
#include <fstream>

#include "commands.hpp"
#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/tree/domain.hpp"
#include "platform/hex.hpp"

namespace cuzk::bench_cli {
namespace {

namespace fc = cuzk::filecoin;

struct VanillaOpts {
  std::string sector_size = "2KiB";
  int64_t registered_proof = -1;  // -1: the size's V1_1 proof
  std::string data, out;
  std::string seed = std::string(64, '2'), ticket = std::string(64, '1');
  uint64_t sector_num = 1, miner_id = 1000;
  bool raw = false;
};

fc::Domain domain_opt(const std::string& hex, const char* what) {
  auto d = fc::domain_from_hex(hex);
  if (!d) throw std::runtime_error(std::string("--") + what + ": expected 64 hex digits");
  return *d;
}

void run_gen_vanilla_porep(const VanillaOpts& o) {
  auto size = fc::parse_sector_size(o.sector_size);
  if (!size) throw std::runtime_error("--sector-size: '" + o.sector_size + "' is not a size (2KiB, 8MiB, ...)");
  std::optional<fc::PorepConfig> cfg =
      o.registered_proof < 0 ? fc::porep_config_for_size(*size) : fc::porep_config(uint64_t(o.registered_proof));
  if (!cfg) throw std::runtime_error("no registered PoRep proof for sector size " + o.sector_size);
  if (cfg->sector_size != *size)
    throw std::runtime_error("--registered-proof " + std::to_string(o.registered_proof) + " (" +
                             std::string(cfg->name) + ") is not a " + o.sector_size + " proof");
  if (cfg->mode != fc::ChallengeMode::Interactive)
    throw std::runtime_error(std::string(cfg->name) + ": only interactive PoRep (ids 0-9) is generated");
  if (cfg->sector_size > (uint64_t(512) << 20))
    throw std::runtime_error("gen-vanilla seals in memory: sectors up to 512MiB");

  auto t0 = std::chrono::steady_clock::now();
  auto lap = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  fc::SealInputs in;
  in.config = *cfg;
  in.miner_id = o.miner_id;
  in.sector_num = o.sector_num;
  in.ticket = domain_opt(o.ticket, "ticket");
  if (!o.data.empty()) in.padded_data = fc::load_sector_data(*cfg, o.data);
  std::fprintf(stderr, "sealing a %s sector (%s, %s data)\n", fc::format_sector_size(*size).c_str(),
               std::string(cfg->name).c_str(), o.data.empty() ? "all-zero" : o.data.c_str());
  fc::SealedSector s = fc::seal_precommit(in);
  std::fprintf(stderr, "  precommit done in %.2f s\n", lap());
  fc::C1Wrapper w;
  w.sector_num = int64_t(o.sector_num);
  w.sector_size = cfg->sector_size;
  w.phase1 = fc::seal_commit_phase1(s, domain_opt(o.seed, "seed"));
  std::fprintf(stderr, "  commit phase 1 done in %.2f s\n", lap());
  std::string text = o.raw ? fc::write_c1(w.phase1) : fc::write_c1_wrapper(w);
  std::ofstream f(o.out, std::ios::binary);
  if (!f.write(text.data(), std::streamsize(text.size()))) throw std::runtime_error("cannot write " + o.out);
  std::printf("comm_d:     %s\ncomm_r:     %s\nreplica_id: %s\nwrote %s (%zu bytes, %s)\n",
              platform::to_hex(s.comm_d).c_str(), platform::to_hex(s.comm_r).c_str(),
              platform::to_hex(s.replica_id).c_str(), o.out.c_str(), text.size(), o.raw ? "c1.json" : "C1 wrapper");
}

void register_gen_vanilla(CLI::App& app) {
  auto o = std::make_shared<VanillaOpts>();
  auto* gv = app.add_subcommand("gen-vanilla", "test inputs: seal a sector and write its vanilla proofs");
  gv->require_subcommand(1);
  auto* p = gv->add_subcommand("porep", "PoRep C1 output (c1.json in the Curio/lotus-bench wrapper)");
  p->add_option("--sector-size", o->sector_size, "2KiB, 8MiB, 512MiB")->capture_default_str();
  p->add_option("--registered-proof", o->registered_proof, "registered seal proof id (default: the size's V1_1)");
  p->add_option("--data", o->data, "sector data: unpadded (size*127/128 bytes) or fr32-padded; default zeros");
  p->add_option("--seed", o->seed, "interactive seed, 64 hex digits")->capture_default_str();
  p->add_option("--ticket", o->ticket, "ticket, 64 hex digits")->capture_default_str();
  p->add_option("--sector-num", o->sector_num, "sector number")->capture_default_str();
  p->add_option("--miner-id", o->miner_id, "miner actor id (f0<N>)")->capture_default_str();
  p->add_flag("--raw", o->raw, "write the bare c1.json instead of the wrapper");
  p->add_option("-o,--out", o->out, "output file")->required();
  p->callback([o] { run_gen_vanilla_porep(*o); });
}

RegisterCommand reg(61, register_gen_vanilla);

}  // namespace
}  // namespace cuzk::bench_cli
