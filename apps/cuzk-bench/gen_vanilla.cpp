// cuzk-bench gen-vanilla porep|winning-post|window-post|snap: seals a test sector (PreCommit + commit
// phase 1) and writes the C1 output as Curio / lotus-bench do, the
// {"SectorNum", "Phase1Out", "SectorSize"} wrapper (or the raw c1.json with
// --raw); or the PoSt / SnapDeals vanilla proofs of sealed sectors as Curio
// keeps them. Defaults are fixed so that the output is reproducible.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>

#include "commands.hpp"
#include "filecoin/common/domain.hpp"
#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/post/prove.hpp"
#include "filecoin/sdr/challenges.hpp"
#include "filecoin/snap/update.hpp"
#include "filecoin/tree/fr32.hpp"
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
  if (!size)
    throw std::runtime_error("--sector-size: '" + o.sector_size + "' is not a size (2KiB, 8MiB, ...)");
  std::optional<fc::PorepConfig> cfg = o.registered_proof < 0
                                           ? fc::porep_config_for_size(*size)
                                           : fc::porep_config(uint64_t(o.registered_proof));
  if (!cfg) throw std::runtime_error("no registered PoRep proof for sector size " + o.sector_size);
  if (cfg->sector_size != *size)
    throw std::runtime_error("--registered-proof " + std::to_string(o.registered_proof) + " (" +
                             std::string(cfg->name) + ") is not a " + o.sector_size + " proof");
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
  const fc::Domain seed = domain_opt(o.seed, "seed");
  // Upstream's C2 refuses an all-zero seed in every mode (NI-PoRep included).
  if (seed == fc::Domain{}) throw std::runtime_error("--seed: all zero; C2 refuses such a C1");
  std::fprintf(stderr, "sealing a %s sector (%s, %s data)\n", fc::format_sector_size(*size).c_str(),
               std::string(cfg->name).c_str(), o.data.empty() ? "all-zero" : o.data.c_str());
  fc::SealedSector s = fc::seal_precommit(in);
  std::fprintf(stderr, "  precommit done in %.2f s\n", lap());
  fc::C1Wrapper w;
  w.sector_num = int64_t(o.sector_num);
  w.sector_size = cfg->sector_size;
  w.phase1 = fc::seal_commit_phase1(s, seed);
  std::string how = cfg->mode == fc::ChallengeMode::Interactive ? "interactive challenges"
                    : cfg->mode == fc::ChallengeMode::NonInteractive
                        ? "non-interactive challenges (from comm_r)"
                        : "synthetic challenges selected by the seed from a set of " +
                              std::to_string(fc::SyntheticChallenges::default_count(cfg->nodes));
  std::fprintf(stderr, "  commit phase 1 done in %.2f s: %zu partition(s) of %zu, %s\n", lap(),
               cfg->partitions, cfg->challenges_per_partition, how.c_str());
  std::string text = o.raw ? fc::write_c1(w.phase1) : fc::write_c1_wrapper(w);
  std::ofstream f(o.out, std::ios::binary);
  if (!f.write(text.data(), std::streamsize(text.size()))) throw std::runtime_error("cannot write " + o.out);
  std::printf("comm_d:     %s\ncomm_r:     %s\nreplica_id: %s\nwrote %s (%zu bytes, %s)\n",
              platform::to_hex(s.comm_d).c_str(), platform::to_hex(s.comm_r).c_str(),
              platform::to_hex(s.replica_id).c_str(), o.out.c_str(), text.size(),
              o.raw ? "c1.json" : "C1 wrapper");
}

// WinningPoSt / WindowPoSt vanilla proofs of freshly sealed test sectors,
// written as Curio keeps them: a JSON array of base64 bincode buffers.
struct PostVanillaOpts {
  std::string sector_size = "2KiB", randomness = std::string(62, '3') + "0a", out;
  int64_t registered_proof = -1;  // -1: the size's Winning (V1) or Window (V1_1) proof
  uint64_t sectors = 2, first_sector = 1, miner_id = 1000;
  uint32_t partition = 0;
};

void run_gen_vanilla_post(const PostVanillaOpts& o, bool winning) {
  auto size = fc::parse_sector_size(o.sector_size);
  if (!size)
    throw std::runtime_error("--sector-size: '" + o.sector_size + "' is not a size (2KiB, 8MiB, ...)");
  uint64_t id = uint64_t(o.registered_proof);
  if (o.registered_proof < 0)
    for (uint64_t p = winning ? 0 : 10; p < (winning ? 5 : 15); p++)
      if (fc::post_config(p)->sector_size == *size) id = p;
  auto c = fc::post_config(id);
  if (!c || c->sector_size != *size || (c->kind == fc::PostKind::Winning) != winning)
    throw std::runtime_error("no " + std::string(winning ? "WinningPoSt" : "WindowPoSt") + " proof " +
                             std::to_string(o.registered_proof) + " for sector size " + o.sector_size);
  if (c->sector_size > (uint64_t(512) << 20))
    throw std::runtime_error("gen-vanilla seals in memory: sectors up to 512MiB");
  const uint64_t count = winning ? 1 : o.sectors;
  if (count == 0 || count > c->sector_count)
    throw std::runtime_error("--sectors: 1.." + std::to_string(c->sector_count) + " per partition");
  const fc::Domain rnd = domain_opt(o.randomness, "randomness");
  if (rnd[31] & 0xc0) throw std::runtime_error("--randomness: byte 31 must be masked with 0x3f");
  std::vector<std::string> blobs;
  std::string listing;
  for (uint64_t i = 0; i < count; i++) {
    fc::SealInputs in;
    in.config = *fc::porep_config_for_size(*size);
    in.miner_id = o.miner_id;
    in.sector_num = o.first_sector + i;
    in.ticket.fill(uint8_t(in.sector_num));
    fc::SealedSector s = fc::seal_precommit(in);
    const uint64_t index = winning ? 0 : uint64_t(o.partition) * c->sector_count + i;
    blobs.push_back(fc::write_post_sector_proof(fc::post_vanilla_proof(*c, s, rnd, index)));
    listing += "  sector " + std::to_string(s.sector_num) + " comm_r " + platform::to_hex(s.comm_r) + "\n";
  }
  std::string text = fc::vanilla_proofs_to_json(blobs);
  std::ofstream f(o.out, std::ios::binary);
  if (!f.write(text.data(), std::streamsize(text.size()))) throw std::runtime_error("cannot write " + o.out);
  std::printf("%s (registered_proof %llu), randomness %s\n%swrote %s (%zu vanilla proof(s), %zu bytes)\n",
              std::string(c->name).c_str(), (unsigned long long)c->id, o.randomness.c_str(), listing.c_str(),
              o.out.c_str(), blobs.size(), text.size());
}

// SnapDeals: a sealed CC sector updated with new data (a file, or seeded
// random bytes), its partition proofs as Curio keeps them (a JSON array of
// base64 bincode PartitionProof) and the three commitments to send with them.
struct SnapVanillaOpts {
  std::string sector_size = "2KiB", data, out;
  int64_t registered_proof = -1;  // -1: the size's update proof
  uint64_t data_seed = 1, sector_num = 1, miner_id = 1000;
};

void run_gen_vanilla_snap(const SnapVanillaOpts& o) {
  auto size = fc::parse_sector_size(o.sector_size);
  if (!size)
    throw std::runtime_error("--sector-size: '" + o.sector_size + "' is not a size (2KiB, 8MiB, ...)");
  std::optional<fc::SnapConfig> c;
  for (uint64_t p = 0; p < 5; p++)
    if (fc::snap_config(p)->sector_size == *size) c = fc::snap_config(p);
  if (o.registered_proof >= 0) c = fc::snap_config(uint64_t(o.registered_proof));
  if (!c || c->sector_size != *size)
    throw std::runtime_error("no update proof " + std::to_string(o.registered_proof) + " for sector size " +
                             o.sector_size);
  if (c->sector_size > (uint64_t(512) << 20))
    throw std::runtime_error("gen-vanilla seals in memory: sectors up to 512MiB");
  auto t0 = std::chrono::steady_clock::now();
  auto lap = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  fc::SealInputs in;
  in.config = *fc::porep_config_for_size(*size);
  in.miner_id = o.miner_id;
  in.sector_num = o.sector_num;
  in.ticket.fill(uint8_t(o.sector_num));
  fc::SealedSector s = fc::seal_precommit(in);
  std::fprintf(stderr, "sealed a %s CC sector in %.2f s\n", o.sector_size.c_str(), lap());
  std::vector<uint8_t> data;
  if (!o.data.empty()) {
    data = fc::load_sector_data(in.config, o.data);
  } else {
    std::mt19937_64 g(o.data_seed);
    std::vector<uint8_t> raw(c->sector_size / 128 * 127);
    for (auto& b : raw) b = uint8_t(g());
    data = fc::fr32_pad(raw);
  }
  fc::SnapUpdate u = fc::encode_sector_update(*c, s, data);
  std::vector<std::string> blobs;
  for (size_t k = 0; k < c->partitions; k++)
    blobs.push_back(fc::write_snap_partition_proof(fc::snap_partition_proof(u, k)));
  std::fprintf(stderr, "encoded the update, vanilla proofs of %zu partition(s), in %.2f s\n", blobs.size(),
               lap());
  std::string text = fc::vanilla_proofs_to_json(blobs);
  std::ofstream f(o.out, std::ios::binary);
  if (!f.write(text.data(), std::streamsize(text.size()))) throw std::runtime_error("cannot write " + o.out);
  const fc::SnapPublic pub = u.public_inputs();
  std::printf(
      "%s (registered_proof %llu), %zu partition(s)\ncomm_r_old: %s\ncomm_r_new: %s\ncomm_d_new: %s\n"
      "wrote %s (%zu bytes)\n",
      std::string(c->name).c_str(), (unsigned long long)c->id, c->partitions,
      platform::to_hex(pub.comm_r_old).c_str(), platform::to_hex(pub.comm_r_new).c_str(),
      platform::to_hex(pub.comm_d_new).c_str(), o.out.c_str(), text.size());
}

void register_gen_vanilla(CLI::App& app) {
  auto o = std::make_shared<VanillaOpts>();
  auto* gv = app.add_subcommand("gen-vanilla", "test inputs: seal a sector and write its vanilla proofs");
  gv->require_subcommand(1);
  auto* p = gv->add_subcommand("porep", "PoRep C1 output (c1.json in the Curio/lotus-bench wrapper)");
  p->add_option("--sector-size", o->sector_size, "2KiB, 8MiB, 512MiB")->capture_default_str();
  p->add_option("--registered-proof", o->registered_proof,
                "registered seal proof id: 0-9 interactive, 10-14 synthetic, 15-19 NI-PoRep (default: the "
                "size's V1_1)");
  p->add_option("--data", o->data,
                "sector data: unpadded (size*127/128 bytes) or fr32-padded; default zeros");
  p->add_option("--seed", o->seed,
                "interactive seed, 64 hex digits, not all zero (NI-PoRep carries it unused)")
      ->capture_default_str();
  p->add_option("--ticket", o->ticket, "ticket, 64 hex digits")->capture_default_str();
  p->add_option("--sector-num", o->sector_num, "sector number")->capture_default_str();
  p->add_option("--miner-id", o->miner_id, "miner actor id (f0<N>)")->capture_default_str();
  p->add_flag("--raw", o->raw, "write the bare c1.json instead of the wrapper");
  p->add_option("-o,--out", o->out, "output file")->required();
  p->callback([o] { run_gen_vanilla_porep(*o); });

  for (bool winning : {true, false}) {
    auto po = std::make_shared<PostVanillaOpts>();
    auto* sc =
        gv->add_subcommand(winning ? "winning-post" : "window-post",
                           winning ? "WinningPoSt vanilla proof of one sealed test sector (66 openings)"
                                   : "WindowPoSt vanilla proofs of sealed test sectors (one partition)");
    sc->add_option("--sector-size", po->sector_size, "2KiB, 8MiB, 512MiB")->capture_default_str();
    sc->add_option("--registered-proof", po->registered_proof,
                   winning ? "0-4 (default: the size's)" : "5-14 (default: the size's V1_1, 10-14)");
    sc->add_option("--randomness", po->randomness, "32 bytes hex, byte 31 masked")->capture_default_str();
    if (!winning) {
      sc->add_option("--sectors", po->sectors, "sectors in the partition")->capture_default_str();
      sc->add_option("--partition", po->partition, "partition index (V1 challenges depend on it)");
    }
    sc->add_option("--first-sector", po->first_sector, "number of the first sector")->capture_default_str();
    sc->add_option("--miner-id", po->miner_id, "miner actor id (f0<N>)")->capture_default_str();
    sc->add_option("-o,--out", po->out, "output: JSON array of base64 vanilla proofs")->required();
    sc->callback([po, winning] { run_gen_vanilla_post(*po, winning); });
  }

  auto so = std::make_shared<SnapVanillaOpts>();
  auto* sn =
      gv->add_subcommand("snap", "SnapDeals partition proofs of a sealed CC sector updated with new data");
  sn->add_option("--sector-size", so->sector_size, "2KiB, 8MiB, 512MiB")->capture_default_str();
  sn->add_option("--registered-proof", so->registered_proof, "update proof 0-4 (default: the size's)");
  sn->add_option("--data", so->data,
                 "new data: unpadded (size*127/128 bytes) or fr32-padded; default seeded random");
  sn->add_option("--data-seed", so->data_seed, "seed of the random new data")->capture_default_str();
  sn->add_option("--sector-num", so->sector_num, "sector number")->capture_default_str();
  sn->add_option("--miner-id", so->miner_id, "miner actor id (f0<N>)")->capture_default_str();
  sn->add_option("-o,--out", so->out, "output: JSON array of base64 partition proofs")->required();
  sn->callback([so] { run_gen_vanilla_snap(*so); });
}

RegisterCommand reg_gen_vanilla(61, register_gen_vanilla);

}  // namespace
}  // namespace cuzk::bench_cli
