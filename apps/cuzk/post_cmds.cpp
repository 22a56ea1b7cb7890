#include "post_cmds.hpp"

#include <cstdio>
#include <filesystem>
#include <iterator>

#include "filecoin/common/domain.hpp"
#include "filecoin/post/prove.hpp"
#include "formats/snarkjs_json.hpp"
#include "groth16/io.hpp"

namespace cuzk::cli {

namespace fs = std::filesystem;
namespace fc = cuzk::filecoin;
namespace g16 = cuzk::groth16;

namespace {

fc::PostConfig post_config_arg(uint64_t id) {
  auto c = fc::post_config(id);
  if (!c)
    throw std::runtime_error("--registered-proof " + std::to_string(id) + " is not a PoSt proof (0-14)");
  return *c;
}

fc::Domain randomness_arg(const std::string& hex) {
  auto d = fc::domain_from_hex(hex);
  if (!d) throw std::runtime_error("--randomness: expected 64 hex digits");
  return *d;
}

std::vector<fc::FallbackPoStSectorProof> read_vanilla(const std::string& path) {
  std::vector<fc::FallbackPoStSectorProof> out;
  auto blobs = fc::vanilla_proofs_from_json(cuzk::formats::read_text_file(path));
  for (size_t i = 0; i < blobs.size(); i++)
    out.push_back(fc::read_post_sector_proof(
        std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(blobs[i].data()), blobs[i].size()),
        path + " [" + std::to_string(i) + "]"));
  return out;
}

std::string param_file(const std::string& dir, const fc::PostConfig& c, const char* ext) {
  return (fs::path(dir) / (fc::post_parameter_stem(c) + ext)).string();
}

int post_prove(const PostCommands& o, Progress& pr) {
  const fc::PostConfig c = post_config_arg(o.registered_proof);
  const fc::Domain rnd = randomness_arg(o.randomness);
  auto proofs = read_vanilla(o.vanilla);
  const uint64_t first = c.kind == fc::PostKind::Winning ? 0 : uint64_t(o.partition) * c.sector_count;
  pr.step("checking " + std::to_string(proofs.size()) + " vanilla proof(s) of " + std::string(c.name));
  fc::verify_post_vanilla(c, rnd, proofs, first);
  const std::string params = param_file(o.param_dir, c, ".params");
  pr.step("loading " + params);
  g16::Parameters P = g16::read_parameters_file(params, ec::Check::SkipSubgroup);
  pr.step("proving " + fc::post_circuit_id(c));
  auto bytes = fc::prove_post_partition(c, proofs, P);
  g16::write_file(o.proof, bytes);
  pr.step("wrote " + o.proof + " (" + std::to_string(bytes.size()) + " bytes)");
  return 0;
}

int verify_post(const PostCommands& o, Progress& pr) {
  const fc::PostConfig c = post_config_arg(o.registered_proof);
  const fc::Domain rnd = randomness_arg(o.randomness);
  std::vector<fc::PostPublicSector> pub;
  if (!o.vanilla.empty())
    for (const auto& p : read_vanilla(o.vanilla)) pub.push_back({p.sector_id, p.comm_r});
  for (const auto& s : o.sectors) {
    size_t colon = s.find(':');
    auto comm_r = colon == std::string::npos ? std::nullopt : fc::domain_from_hex(s.substr(colon + 1));
    if (!comm_r) throw std::runtime_error("--sector '" + s + "': expected ID:COMM_R_HEX");
    pub.push_back({std::stoull(s.substr(0, colon)), *comm_r});
  }
  if (pub.empty())
    throw std::runtime_error("give the proved sectors: --vanilla FILE or --sector ID:COMM_R (repeat)");
  const std::string vk_path = o.vk.empty() ? param_file(o.param_dir, c, ".vk") : o.vk;
  auto pvk = g16::prepare_verifying_key(g16::read_verifying_key_file(vk_path));
  auto proof = cuzk::formats::read_text_file(o.proof);
  // --vanilla/--sector list this partition's sectors: index them from partition·sector_count.
  std::vector<fc::PostPublicSector> all(
      c.kind == fc::PostKind::Winning ? 0 : size_t(o.partition) * c.sector_count, pub.front());
  all.insert(all.end(), pub.begin(), pub.end());
  bool ok = fc::verify_post_partition(
      c, pvk, rnd, all, c.kind == fc::PostKind::Winning ? 0 : o.partition,
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(proof.data()), proof.size()));
  std::printf("%s\n", ok ? "OK: PoSt proof verifies" : "INVALID: PoSt proof does not verify");
  pr.step(std::string(c.name) + ", " + std::to_string(pub.size()) + " sector(s), against " + vk_path);
  return ok ? 0 : 1;
}

}  // namespace

void PostCommands::add(CLI::App& app) {
  prove =
      app.add_subcommand("post-prove", "WinningPoSt / WindowPoSt: prove one partition from vanilla proofs");
  verify =
      app.add_subcommand("verify-post", "verify a WinningPoSt / WindowPoSt proof; exit status 0 iff valid");
  for (CLI::App* c : {prove, verify}) {
    c->add_option("--registered-proof", registered_proof, "0-4 Winning, 5-9 Window V1, 10-14 Window V1_1")
        ->required();
    c->add_option("--randomness", randomness, "32 bytes hex, byte 31 masked with 0x3f")->required();
    c->add_option("--partition", partition, "WindowPoSt partition index");
    c->add_option("--param-dir", param_dir, "directory with the v28-proof-of-spacetime-fallback-* files");
    c->add_option("--proof", proof, "the 192-byte proof")->required();
  }
  prove
      ->add_option("--vanilla", vanilla,
                   "JSON array of base64 bincode FallbackPoStSectorProof (Curio's file)")
      ->required();
  verify->add_option("--vanilla", vanilla, "take the sectors (id, comm_r) from this vanilla proofs file");
  verify->add_option("--sector", sectors, "a proved sector as ID:COMM_R_HEX (repeat, in order)");
  verify->add_option("--vk", vk, "verifying key file (instead of --param-dir)");
}

int PostCommands::run(Progress& pr) {
  if (prove && *prove) return post_prove(*this, pr);
  if (verify && *verify) return verify_post(*this, pr);
  return -1;
}

}  // namespace cuzk::cli
