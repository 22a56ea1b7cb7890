#include "snap_cmds.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iterator>

#include "filecoin/common/domain.hpp"
#include "filecoin/post/vanilla.hpp"
#include "filecoin/snap/prove.hpp"
#include "formats/snarkjs_json.hpp"
#include "groth16/io.hpp"
#include "groth16/prover.hpp"
#include "groth16/rng.hpp"

namespace cuzk::cli {

namespace fs = std::filesystem;
namespace fc = cuzk::filecoin;
namespace g16 = cuzk::groth16;

namespace {

fc::SnapConfig snap_config_arg(uint64_t id) {
  auto c = fc::snap_config(id);
  if (!c)
    throw std::runtime_error("--registered-proof " + std::to_string(id) + " is not an update proof (0-4)");
  return *c;
}

fc::SnapPublic public_args(const SnapCommands& o) {
  auto d = [](const std::string& hex, const char* what) {
    auto v = fc::domain_from_hex(hex);
    if (!v) throw std::runtime_error(std::string("--") + what + ": expected 64 hex digits");
    return *v;
  };
  return {d(o.comm_r_old, "comm-r-old"), d(o.comm_d_new, "comm-d-new"), d(o.comm_r_new, "comm-r-new")};
}

std::string param_file(const std::string& dir, const fc::SnapConfig& c, const char* ext) {
  return (fs::path(dir) / (fc::snap_parameter_stem(c) + ext)).string();
}

int update_prove(const SnapCommands& o, Progress& pr) {
  const fc::SnapConfig c = snap_config_arg(o.registered_proof);
  const fc::SnapPublic pub = public_args(o);
  auto blobs = fc::vanilla_proofs_from_json(cuzk::formats::read_text_file(o.vanilla));
  if (blobs.size() != c.partitions)
    throw std::runtime_error(o.vanilla + ": " + std::to_string(blobs.size()) + " partition proofs, " +
                             std::string(c.name) + " has " + std::to_string(c.partitions));
  std::vector<fc::SnapPartitionProof> parts;
  for (size_t k = 0; k < blobs.size(); k++) {
    parts.push_back(fc::read_snap_partition_proof(
        std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(blobs[k].data()), blobs[k].size()),
        o.vanilla + " [" + std::to_string(k) + "]"));
    fc::verify_snap_vanilla(c, pub, parts.back(), k);
  }
  pr.step("checked " + std::to_string(parts.size()) + " partition proof(s) of " + std::string(c.name));
  const std::string params = param_file(o.param_dir, c, ".params");
  pr.step("loading " + params);
  g16::Parameters P = g16::read_parameters_file(params, ec::Check::SkipSubgroup);
  g16::SecureRng rng;
  std::vector<g16::Proof> proofs;
  for (size_t k = 0; k < parts.size(); k++) {
    const std::string part = "partition " + std::to_string(k + 1) + "/" + std::to_string(parts.size());
    pr.step(part + ": synthesis");
    auto t0 = std::chrono::steady_clock::now();
    auto a = g16::synthesize(fc::EmptySectorUpdateCircuit(c, k, pub, parts[k]));
    const double synth = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    pr.step(part + ": prove (" + std::to_string(a.num_constraints()) + " rows, synthesis " +
            std::to_string(synth).substr(0, 5) + " s)");
    proofs.push_back(g16::prove_finish(g16::prove_start(std::move(a), P, rng)));
  }
  auto bytes = g16::encode_proofs(proofs);
  g16::write_file(o.proof, bytes);
  pr.step("wrote " + o.proof + " (" + std::to_string(bytes.size()) + " bytes)");
  return 0;
}

int verify_update(const SnapCommands& o, Progress& pr) {
  const fc::SnapConfig c = snap_config_arg(o.registered_proof);
  const fc::SnapPublic pub = public_args(o);
  const std::string vk_path = o.vk.empty() ? param_file(o.param_dir, c, ".vk") : o.vk;
  auto pvk = g16::prepare_verifying_key(g16::read_verifying_key_file(vk_path));
  const std::string proof = cuzk::formats::read_text_file(o.proof);
  const bool ok = fc::verify_empty_sector_update(
      c, pvk, pub, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(proof.data()), proof.size()));
  std::printf("%s\n", ok ? "OK: update proof verifies" : "INVALID: update proof does not verify");
  pr.step(std::string(c.name) + ", " + std::to_string(proof.size()) + "-byte proof against " + vk_path);
  return ok ? 0 : 1;
}

}  // namespace

void SnapCommands::add(CLI::App& app) {
  prove = app.add_subcommand("update-prove", "SnapDeals: prove every partition of a sector update");
  verify = app.add_subcommand("verify-update", "verify a SnapDeals update proof; exit status 0 iff valid");
  for (CLI::App* c : {prove, verify}) {
    c->add_option("--registered-proof", registered_proof, "0-4: update 2KiB, 8MiB, 512MiB, 32GiB, 64GiB")
        ->required();
    c->add_option("--comm-r-old", comm_r_old, "hex")->required();
    c->add_option("--comm-r-new", comm_r_new, "hex")->required();
    c->add_option("--comm-d-new", comm_d_new, "hex")->required();
    c->add_option("--param-dir", param_dir, "directory with the v28-empty-sector-update-* files");
    c->add_option("--proof", proof, "partitions x 192 bytes")->required();
  }
  prove->add_option("--vanilla", vanilla, "JSON array of base64 bincode PartitionProof, one per partition")
      ->required();
  verify->add_option("--vk", vk, "verifying key file (instead of --param-dir)");
}

int SnapCommands::run(Progress& pr) {
  if (prove && *prove) return update_prove(*this, pr);
  if (verify && *verify) return verify_update(*this, pr);
  return -1;
}

}  // namespace cuzk::cli
