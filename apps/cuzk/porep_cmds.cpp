#include "porep_cmds.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "filecoin/common/domain.hpp"
#include "filecoin/common/param_names.hpp"
#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/c2.hpp"
#include "filecoin/porep/circuit.hpp"
#include "filecoin/post/circuit.hpp"
#include "filecoin/sdr/replica_id.hpp"
#include "filecoin/snap/circuit.hpp"
#include "groth16/io.hpp"
#include "groth16/prover.hpp"
#include "groth16/rng.hpp"
#include "groth16/setup.hpp"
#include "platform/hex.hpp"

namespace cuzk::cli {

namespace fs = std::filesystem;
namespace fc = cuzk::filecoin;
namespace g16 = cuzk::groth16;

namespace {

fc::Domain domain_arg(const std::string& hex, const char* what) {
  auto d = fc::domain_from_hex(hex);
  if (!d) throw std::runtime_error(std::string("--") + what + ": expected 64 hex digits");
  return *d;
}

std::string param_file(const std::string& dir, const fc::PorepConfig& cfg, const char* ext) {
  return (fs::path(dir) / (fc::porep_parameter_stem(cfg) + ext)).string();
}

int setup_circuit(const std::string& id, const std::string& dir, Progress& pr) {
  auto cfg = fc::porep_config_for_circuit_id(id);
  auto post = fc::post_config_for_circuit_id(id);
  auto snap = fc::snap_config_for_circuit_id(id);
  if (!cfg && !post && !snap)
    throw std::runtime_error("unknown circuit '" + id +
                             "' (porep-, winning-post-, window-post-, snap- with 2k, 8m, 512m, 32g or 64g)");
  fs::create_directories(dir);
  pr.step("synthesizing the blank " + id + " circuit, generating DEVELOPMENT parameters (not a ceremony)");
  g16::SecureRng rng;
  auto tw = g16::ToxicWaste::random(rng);
  g16::SetupOptions so;
  so.progress = [&](std::string_view st, size_t d, size_t t) { pr.stage(st, d, t); };
  g16::Parameters P = cfg    ? g16::generate_parameters(fc::porep_blank_circuit(*cfg), tw, so)
                      : post ? g16::generate_parameters(fc::FallbackPostCircuit(*post), tw, so)
                             : g16::generate_parameters(fc::EmptySectorUpdateCircuit(*snap), tw, so);
  const std::string stem = cfg    ? fc::porep_parameter_stem(*cfg)
                           : post ? fc::post_parameter_stem(*post)
                                  : fc::snap_parameter_stem(*snap);
  const std::string params = (fs::path(dir) / (stem + ".params")).string(),
                    vk = (fs::path(dir) / (stem + ".vk")).string();
  // Write next to the target and rename, so a daemon never maps half a file.
  g16::write_file(params + ".tmp", g16::encode_parameters(P));
  fs::rename(params + ".tmp", params);
  g16::write_file(vk, g16::encode_verifying_key(P.vk));
  pr.step("wrote " + params + " and " + vk);
  return 0;
}

int porep_prove(const PorepCommands& o, Progress& pr) {
  pr.step("reading " + o.c1);
  fc::C1Wrapper w = fc::load_c1_file(o.c1);
  fc::validate_c1_wrapper(w);
  auto cfg = *fc::porep_config(uint64_t(w.phase1.registered_proof));
  fc::check_c1_challenges(w.phase1, cfg);
  const std::string params = param_file(o.param_dir, cfg, ".params");
  pr.step("loading " + params);
  g16::Parameters P = g16::read_parameters_file(params, ec::Check::SkipSubgroup);
  g16::SecureRng rng;
  std::vector<g16::Proof> proofs;
  for (size_t k = 0; k < cfg.partitions; k++) {
    const std::string part = "partition " + std::to_string(k + 1) + "/" + std::to_string(cfg.partitions);
    pr.step(part + ": synthesis");
    auto t0 = std::chrono::steady_clock::now();
    auto a = g16::synthesize(fc::porep_partition_circuit(w.phase1, cfg, k));
    double synth = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    pr.step(part + ": prove (" + std::to_string(a.num_constraints()) + " rows)");
    g16::PhaseTimes t;
    g16::ProverOptions opts;
    opts.times = &t;
    proofs.push_back(g16::prove_finish(g16::prove_start(std::move(a), P, rng, opts), opts));
    if (!pr.quiet)
      std::fprintf(
          stderr,
          "  %s phases (s): synthesis %.2f | NTT %.2f (+%.2f a*b-c) | MSM H %.2f, L %.2f, A %.2f, "
          "B1 %.2f, B2 %.2f | checks %.2f, h to canonical %.2f, witness scalars %.2f, assembly %.2f | "
          "prove %.2f\n",
          part.c_str(), synth, t.ntt(), t.ntt_combine, t.msm_h, t.msm_l, t.msm_a, t.msm_b_g1, t.msm_b_g2,
          t.check, t.h_scalars, t.scalars, t.assemble_g1 + t.assemble_g2, t.total());
  }
  auto bytes = g16::encode_proofs(proofs);
  g16::write_file(o.proof, bytes);
  pr.step("wrote " + o.proof + " (" + std::to_string(bytes.size()) + " bytes)");
  return 0;
}

// The registered proof's config, or upstream's lower-level one when
// --porep-id / --api-version are given (fc::porep_config_with_id).
fc::PorepConfig with_explicit_id(const fc::PorepConfig& proof, const PorepCommands& o) {
  if (o.porep_id.empty() && o.api_version.empty()) return proof;
  fc::PorepId id = proof.porep_id();
  if (!o.porep_id.empty()) {
    auto bytes = platform::from_hex(o.porep_id);
    if (!bytes)
      throw std::runtime_error("--porep-id: '" + o.porep_id + "' is not hex (64 hex digits, 32 bytes)");
    if (bytes->size() != id.size())
      throw std::runtime_error("--porep-id: " + std::to_string(bytes->size()) +
                               " bytes, a porep_id has 32 (64 hex digits)");
    std::copy(bytes->begin(), bytes->end(), id.begin());
  }
  fc::ApiVersion api = proof.api;
  if (!o.api_version.empty()) {
    auto v = fc::parse_api_version(o.api_version);
    if (!v)
      throw std::runtime_error("--api-version: '" + o.api_version +
                               "' is not an API version (1.0, 1.1 or 1.2, optionally with .0)");
    api = *v;
  }
  try {
    return fc::porep_config_with_id(proof, id, api);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("--porep-id/--api-version: ") + e.what());
  }
}

int verify_seal(const PorepCommands& o, Progress& pr) {
  fc::PorepConfig cfg;
  fc::Domain comm_r, comm_d, replica_id, seed;
  if (!o.c1.empty()) {
    fc::C1Wrapper w = fc::load_c1_file(o.c1);
    cfg = with_explicit_id(*fc::porep_config(uint64_t(w.phase1.registered_proof)), o);
    comm_r = w.phase1.comm_r, comm_d = w.phase1.comm_d, replica_id = w.phase1.replica_id,
    seed = w.phase1.seed;
  } else {
    auto c = fc::porep_config(o.registered_proof);
    if (!c)
      throw std::runtime_error("--registered-proof " + std::to_string(o.registered_proof) +
                               " is not a PoRep id");
    cfg = with_explicit_id(*c, o);
    comm_r = domain_arg(o.comm_r, "comm-r");
    comm_d = domain_arg(o.comm_d, "comm-d");
    seed = domain_arg(o.seed, "seed");
    if (!o.replica_id.empty()) replica_id = domain_arg(o.replica_id, "replica-id");
    else
      replica_id = fc::replica_id(fc::prover_id_from_actor_id(o.miner_id), o.sector_num,
                                  domain_arg(o.ticket, "ticket"), comm_d, cfg.porep_id());
  }
  const std::string vk_path = o.vk.empty() ? param_file(o.param_dir, cfg, ".vk") : o.vk;
  auto vk = g16::read_verifying_key_file(vk_path);
  std::ifstream f(o.proof, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + o.proof);
  std::vector<uint8_t> proof((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  bool ok = fc::verify_seal(cfg, g16::prepare_verifying_key(vk), comm_r, comm_d, replica_id, seed, proof);
  std::printf("%s\n", ok ? "OK: seal proof verifies" : "INVALID: seal proof does not verify");
  pr.step(std::string(cfg.name) + " (porep_id " + platform::to_hex(cfg.porep_id()) + ", API " +
          std::string(fc::api_version_text(cfg.api)) + "), " + std::to_string(proof.size()) +
          "-byte proof against " + vk_path);
  return ok ? 0 : 1;
}

}  // namespace

void PorepCommands::add(CLI::App& app, CLI::App* setup_cmd) {
  setup = setup_cmd;
  setup->add_option(
      "--circuit", circuit,
      "built-in circuit: porep-, winning-post-, window-post- or snap- with 2k, 8m, 512m, 32g, 64g");
  setup->add_option("--param-dir", param_dir, "where --circuit parameters go (Filecoin file names)");

  prove =
      app.add_subcommand("porep-prove", "PoRep C2: prove every partition of a c1.json (or Curio wrapper)");
  prove->add_option("--c1", c1, "c1.json or the {SectorNum, Phase1Out, SectorSize} wrapper")->required();
  prove->add_option("--param-dir", param_dir,
                    "directory with the v28-stacked-proof-of-replication-* parameters");
  prove->add_option("--proof", proof, "output: partitions x 192 bytes")->required();

  verify = app.add_subcommand("verify-seal", "verify a PoRep proof; exit status 0 iff valid");
  verify->add_option("--proof", proof, "partitions x 192 bytes")->required();
  verify->add_option("--param-dir", param_dir, "directory with the .vk (Filecoin file name)");
  verify->add_option("--vk", vk, "verifying key file (instead of --param-dir)");
  verify->add_option("--c1", c1, "take comm_r, comm_d, replica_id, seed and the proof type from a c1");
  verify->add_option("--registered-proof", registered_proof,
                     "registered seal proof id (default 5: 2KiB V1_1)");
  verify->add_option("--comm-r", comm_r, "hex");
  verify->add_option("--comm-d", comm_d, "hex");
  verify->add_option("--seed", seed, "hex (carried but unused by NI-PoRep)");
  verify->add_option("--replica-id", replica_id, "hex (or --miner-id, --sector-num, --ticket)");
  verify->add_option("--miner-id", miner_id, "actor id of f0<N>");
  verify->add_option("--sector-num", sector_num, "sector number");
  verify->add_option("--ticket", ticket, "hex");
  verify->add_option(
      "--porep-id", porep_id,
      "32 bytes hex: verify for this porep_id instead of the registered proof's (test "
      "networks, other implementations); the proof type still gives size, partitions and mode");
  verify->add_option("--api-version", api_version,
                     "1.0, 1.1 or 1.2: the SDR graph's version instead of the registered proof's");
}

int PorepCommands::run(Progress& pr) {
  if (setup && *setup && !circuit.empty()) return setup_circuit(circuit, param_dir, pr);
  if (prove && *prove) return porep_prove(*this, pr);
  if (verify && *verify) return verify_seal(*this, pr);
  return -1;
}

}  // namespace cuzk::cli
