// PoRep C2 end to end on the real 2 KiB circuit (and the 8 MiB circuit
// satisfied on a sealed 8 MiB sector): development parameters (generated
// once per build tree, minutes on 2 cores, then read from test-cache/), a
// Groth16 proof of our own sealed sector, verify_seal from public data only,
// and the rejections: other public data, a flipped byte, a proof for another
// sector.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/c2.hpp"
#include "filecoin/porep/seal.hpp"
#include "porep_dev_params.hpp"
#include "filecoin/tree/fr32.hpp"
#include "groth16/io.hpp"
#include "groth16/rng.hpp"
#include "groth16/setup.hpp"
#include "r1cs/proving_assignment.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;
namespace fs = std::filesystem;

namespace {

groth16::Parameters cached_dev_parameters(const PorepConfig& cfg) {
  return cuzk_test_params::porep_dev_parameters(cfg);
}

}  // namespace

TEST(PorepProve, ProveAndVerifySeal2KiB) {
  const PorepConfig cfg = *porep_config(5);
  groth16::Parameters params = cached_dev_parameters(cfg);
  auto pvk = groth16::prepare_verifying_key(params.vk);

  auto seal = [&](uint64_t sector, uint64_t data_seed) {
    SealInputs in;
    in.config = cfg;
    in.sector_num = sector;
    in.ticket.fill(uint8_t(sector));
    std::mt19937_64 g(data_seed);
    std::vector<uint8_t> raw(2032);
    for (auto& b : raw) b = uint8_t(g());
    in.padded_data = fr32_pad(raw);
    return seal_precommit(in);
  };
  Domain seed;
  seed.fill(7);
  SealedSector a = seal(1, 1), b = seal(2, 2);
  auto c1a = seal_commit_phase1(a, seed), c1b = seal_commit_phase1(b, seed);
  std::vector<uint8_t> pa = seal_commit_phase2(c1a, params), pb = seal_commit_phase2(c1b, params);
  ASSERT_EQ(pa.size(), 192u);

  EXPECT_TRUE(verify_seal(cfg, pvk, a.comm_r, a.comm_d, a.replica_id, seed, pa));
  EXPECT_TRUE(verify_seal(cfg, pvk, a.comm_r, a.comm_d, 1000, 1, a.ticket, seed, pa));  // replica_id derived
  EXPECT_TRUE(verify_seal(cfg, pvk, b.comm_r, b.comm_d, b.replica_id, seed, pb));
  // Different public data.
  Domain other_seed = seed;
  other_seed[0] ^= 1;
  EXPECT_FALSE(verify_seal(cfg, pvk, a.comm_r, a.comm_d, a.replica_id, other_seed, pa));
  EXPECT_FALSE(verify_seal(cfg, pvk, b.comm_r, a.comm_d, a.replica_id, seed, pa));
  EXPECT_FALSE(verify_seal(cfg, pvk, a.comm_r, a.comm_d, 1000, 2, a.ticket, seed, pa));
  // Another sector's proof.
  EXPECT_FALSE(verify_seal(cfg, pvk, a.comm_r, a.comm_d, a.replica_id, seed, pb));
  // A flipped byte in each of A, B and C; a truncated proof.
  for (size_t at : {10, 100, 170}) {
    auto bad = pa;
    bad[at] ^= 0x04;
    EXPECT_FALSE(verify_seal(cfg, pvk, a.comm_r, a.comm_d, a.replica_id, seed, bad)) << "byte " << at;
  }
  EXPECT_FALSE(verify_seal(cfg, pvk, a.comm_r, a.comm_d, a.replica_id, seed,
                           std::span<const uint8_t>(pa.data(), 191)));
}

// Upstream's lower-level PoRepConfig: a sector sealed and proved for a
// porep_id no registered proof has (test networks use [127; 32]) and API
// version 1.0 (the other DRG parent placement and Feistel truncation, so
// other public inputs) verifies only with that porep_id and version.
TEST(PorepProve, ExplicitPorepIdAndApiVersion2KiB) {
  PorepId test_id;
  test_id.fill(127);
  const PorepConfig registered = *porep_config(5);
  const PorepConfig cfg = porep_config_with_id(registered, test_id, ApiVersion::V1_0_0);
  groth16::Parameters params = cached_dev_parameters(cfg);  // the same file as every 2 KiB proof
  auto pvk = groth16::prepare_verifying_key(params.vk);
  SealInputs in;
  in.config = cfg;
  in.sector_num = 3;
  in.ticket.fill(3);
  SealedSector s = seal_precommit(in);
  Domain seed;
  seed.fill(5);
  auto c1 = seal_commit_phase1(s, seed);
  // The same sector under the registered porep_id has another replica_id.
  SealInputs reg_in = in;
  reg_in.config = registered;
  EXPECT_NE(seal_precommit(reg_in).replica_id, s.replica_id);
  std::vector<uint8_t> proof = seal_commit_phase2(c1, cfg, params);
  EXPECT_TRUE(verify_seal(cfg, pvk, s.comm_r, s.comm_d, s.replica_id, seed, proof));
  EXPECT_TRUE(verify_seal(cfg, pvk, s.comm_r, s.comm_d, 1000, 3, in.ticket, seed, proof));
  // The registered proof's own porep_id and version: other graph, other replica_id.
  EXPECT_FALSE(verify_seal(registered, pvk, s.comm_r, s.comm_d, s.replica_id, seed, proof));
  EXPECT_FALSE(verify_seal(registered, pvk, s.comm_r, s.comm_d, 1000, 3, in.ticket, seed, proof));
  // The right porep_id with version 1.1: other parents, other public inputs.
  EXPECT_FALSE(verify_seal(porep_config_with_id(registered, test_id, ApiVersion::V1_1_0), pvk, s.comm_r,
                           s.comm_d, s.replica_id, seed, proof));
  // Its c1 checks under its own config only: the registered graph names other parents.
  EXPECT_NO_THROW(verify_c1_vanilla(c1, cfg));
  EXPECT_THROW(verify_c1_vanilla(c1, registered), C1ValidationError);
  // seal_commit_phase2 takes a config of the c1's own registered proof only.
  EXPECT_THROW(seal_commit_phase2(c1, *porep_config(10), params), std::invalid_argument);
}

// The 8 MiB circuit (3,844,929 constraints) on a sealed 8 MiB sector of
// random data: satisfied, with the public inputs verify_seal recomputes.
TEST(PorepProve, Satisfied8MiB) {
  const PorepConfig cfg = *porep_config(6);
  SealInputs in;
  in.config = cfg;
  std::mt19937_64 g(8);
  std::vector<uint8_t> raw(cfg.sector_size / 128 * 127);
  for (auto& b : raw) b = uint8_t(g());
  in.padded_data = fr32_pad(raw);
  SealedSector s = seal_precommit(in);
  Domain seed;
  seed.fill(0x5a);
  auto c1 = seal_commit_phase1(s, seed);
  r1cs::ProvingAssignment pa;
  porep_partition_circuit(c1, cfg, 0).synthesize(pa);
  EXPECT_EQ(pa.num_constraints(), 3844929u);
  EXPECT_EQ(pa.num_aux(), 3842449u);
  for (size_t i = 0; i < pa.num_constraints(); i++)
    ASSERT_EQ(pa.a[i] * pa.b[i], pa.c[i]) << "constraint " << i;
  auto inputs = porep_public_inputs(cfg, s.replica_id, s.comm_d, s.comm_r, seed, 0);
  ASSERT_EQ(inputs.size() + 1, pa.input_assignment.size());
  for (size_t i = 0; i < inputs.size(); i++) EXPECT_EQ(inputs[i], pa.input_assignment[i + 1]) << i;
}
