// Pre-compiled constraints (r1cs/pce.hpp) on the real circuits: the packed
// R1CS evaluated on a witness-only synthesis gives exactly the assignment of
// full synthesis (a, b, c, inputs, aux and the A/B densities), for the PoRep,
// WinningPoSt and SnapDeals circuits; a PCE of another circuit is refused.
#include <gtest/gtest.h>

#include <random>

#include "filecoin/porep/c2.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/post/circuit.hpp"
#include "filecoin/post/prove.hpp"
#include "filecoin/snap/circuit.hpp"
#include "filecoin/snap/update.hpp"
#include "filecoin/tree/fr32.hpp"
#include "r1cs/pce.hpp"
#include "r1cs/proving_assignment.hpp"
#include "slow.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

SealedSector sealed(uint64_t registered_proof, uint64_t seed, bool cc = false) {
  SealInputs in;
  in.config = *porep_config(registered_proof);
  in.sector_num = seed;
  in.ticket.fill(uint8_t(seed));
  if (!cc) {
    std::mt19937_64 g(seed);
    std::vector<uint8_t> raw(in.config.sector_size / 128 * 127);
    for (auto& b : raw) b = uint8_t(g());
    in.padded_data = fr32_pad(raw);
  }
  return seal_precommit(in);
}

void expect_same_assignment(const r1cs::Circuit& blank, const r1cs::Circuit& witnessed) {
  const auto pce = r1cs::PrecompiledCircuit::record(blank);
  r1cs::ProvingAssignment full;
  witnessed.synthesize(full);
  const r1cs::ProvingAssignment pre = pce.synthesize(witnessed);
  ASSERT_EQ(pre.num_constraints(), full.num_constraints());
  ASSERT_EQ(pre.num_aux(), full.num_aux());
  for (size_t i = 0; i < full.num_constraints(); i++) {
    ASSERT_EQ(pre.a[i], full.a[i]) << "a, row " << i;
    ASSERT_EQ(pre.b[i], full.b[i]) << "b, row " << i;
    ASSERT_EQ(pre.c[i], full.c[i]) << "c, row " << i;
  }
  EXPECT_TRUE(pre == full);  // and inputs, aux, densities
  // Packed: 8 bytes per term and 4 per row offset instead of 36 and 8, so
  // well under half of the plain CSR.
  const size_t plain = 36 * pce.nnz() + 3 * 8 * (pce.num_constraints() + 1);
  EXPECT_LT(2 * pce.bytes(), plain) << pce.bytes() << " bytes packed, " << plain << " plain";
}

void porep(uint64_t id) {
  const PorepConfig cfg = *porep_config(id);
  Domain seed;
  seed.fill(9);
  const auto c1 = seal_commit_phase1(sealed(id, 4), seed);
  expect_same_assignment(porep_blank_circuit(cfg), porep_partition_circuit(c1, cfg, 0));
}

}  // namespace

TEST(Pce, PorepSameAssignmentAsGadgets2KiB) { porep(5); }

TEST(Pce, PorepSameAssignmentAsGadgets8MiBSlow) {
  CUZK_SLOW_TEST("seals an 8 MiB sector and records 3.8 M constraints");
  porep(6);
}

TEST(Pce, WinningPostSameAssignmentAsGadgets) {
  const PostConfig c = *post_config(0);
  Domain rnd;
  rnd.fill(3);
  const auto proof = post_vanilla_proof(c, sealed(5, 2), rnd, 0);
  expect_same_assignment(FallbackPostCircuit(c), FallbackPostCircuit(c, std::span(&proof, 1)));
}

TEST(Pce, SnapSameAssignmentAsGadgets) {
  const SnapConfig c = *snap_config(0);
  std::mt19937_64 g(6);
  std::vector<uint8_t> raw(2032);
  for (auto& b : raw) b = uint8_t(g());
  const SnapUpdate u = encode_sector_update(c, sealed(5, 3, true), fr32_pad(raw));
  expect_same_assignment(EmptySectorUpdateCircuit(c),
                         EmptySectorUpdateCircuit(c, 0, u.public_inputs(), snap_partition_proof(u, 0)));
}

TEST(Pce, AnotherCircuitsPceIsRefused) {
  const auto pce = r1cs::PrecompiledCircuit::record(FallbackPostCircuit(*post_config(5)));  // WindowPoSt
  const PostConfig win = *post_config(0);
  Domain rnd;
  rnd.fill(3);
  const auto proof = post_vanilla_proof(win, sealed(5, 2), rnd, 0);
  try {
    pce.synthesize(FallbackPostCircuit(win, std::span(&proof, 1)));
    FAIL() << "a WindowPoSt PCE evaluated a WinningPoSt witness";
  } catch (const r1cs::SynthesisError& e) {
    EXPECT_NE(std::string(e.what()).find("pre-compiled circuit does not match"), std::string::npos)
        << e.what();
  }
}
