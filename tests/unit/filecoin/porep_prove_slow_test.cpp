// PoRep C2 end to end on the real 2 KiB circuit: development parameters
// (minutes on 2 cores: labelled slow, CUZK_SLOW_TESTS=1), a Groth16 proof of
// our own sealed sector, verify_seal from public data only, and the
// rejections: other public data, a flipped byte, a proof for another sector.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "filecoin/porep/c2.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/tree/fr32.hpp"
#include "groth16/rng.hpp"
#include "groth16/setup.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

TEST(PorepProveSlow, ProveAndVerifySeal2KiB) {
  if (!std::getenv("CUZK_SLOW_TESTS")) GTEST_SKIP() << "set CUZK_SLOW_TESTS=1 (parameter generation takes minutes)";
  const PorepConfig cfg = *porep_config(5);
  groth16::SecureRng rng;
  groth16::Parameters params = groth16::generate_parameters(porep_blank_circuit(cfg), groth16::ToxicWaste::random(rng));
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
