// The POREP_SEAL_COMMIT handler's admission: every bad C1 input or missing
// parameter file is refused with the right status and a message naming the
// problem, before any partition is scheduled. (Proving itself needs the
// 2 KiB parameters, minutes to generate: tests/unit/filecoin's slow test and
// the main job cover it.)
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "engine/kinds/porep_c2/handler.hpp"
#include "filecoin/common/param_names.hpp"
#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/seal.hpp"

using namespace cuzk;
using namespace cuzk::engine;
namespace fs = std::filesystem;
using Code = ServiceError::Code;

namespace {

struct PorepHandlerTest : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("cuzk-porep-handler-" + std::to_string(::getpid()));
  std::string c1_wrapper;
  filecoin::C1Wrapper c1;

  void SetUp() override {
    fs::create_directories(dir);
    filecoin::SealInputs in;
    in.config = *filecoin::porep_config(5);
    auto sealed = filecoin::seal_precommit(in);
    filecoin::Domain seed;
    seed.fill(2);
    c1.sector_num = 1;
    c1.sector_size = 2048;
    c1.phase1 = filecoin::seal_commit_phase1(sealed, seed);
    c1_wrapper = filecoin::write_c1_wrapper(c1);
  }
  void TearDown() override { fs::remove_all(dir); }

  ProofRequest request(std::string vanilla) const {
    ProofRequest r;
    r.kind = ProofKind::PorepSealCommit;
    r.vanilla_proof = std::move(vanilla);
    return r;
  }
  // The status and message prepare() fails with.
  std::pair<Code, std::string> refusal(ProofRequest r) {
    PorepHandler h(dir.string());
    try {
      h.prepare(r);
    } catch (const ServiceError& e) {
      return {e.code(), e.what()};
    }
    ADD_FAILURE() << "prepare() accepted the request";
    return {Code::Internal, ""};
  }
  std::string params_file() const {
    return (dir / (filecoin::porep_parameter_stem(*filecoin::porep_config(5)) + ".params")).string();
  }
};

}  // namespace

TEST_F(PorepHandlerTest, MissingParametersAreNotFoundAndNameTheFile) {
  auto [code, msg] = refusal(request(c1_wrapper));
  EXPECT_EQ(code, Code::NotFound);
  EXPECT_NE(msg.find(fs::path(params_file()).filename().string()), std::string::npos) << msg;
  EXPECT_NE(msg.find("cuzk setup --circuit porep-2k"), std::string::npos) << msg;
}

TEST_F(PorepHandlerTest, BadC1InputIsInvalidArgument) {
  struct Case {
    std::string name, input, expect;
  } cases[] = {
      {"empty", "", "vanilla_proof"},
      {"not json", "hello", "C1 input"},
      {"truncated wrapper", c1_wrapper.substr(0, c1_wrapper.size() / 2), "C1 input"},
      {"truncated c1", filecoin::write_c1(c1.phase1).substr(0, 5000), "C1 input"},
  };
  for (const auto& c : cases) {
    auto [code, msg] = refusal(request(c.input));
    EXPECT_EQ(code, Code::InvalidArgument) << c.name;
    EXPECT_NE(msg.find(c.expect), std::string::npos) << c.name << ": " << msg;
  }
  // Wrong wrapper sector size.
  auto w = c1;
  w.sector_size = 8 << 20;
  auto [code, msg] = refusal(request(filecoin::write_c1_wrapper(w)));
  EXPECT_EQ(code, Code::InvalidArgument);
  // A request that says another sector size.
  auto r = request(c1_wrapper);
  r.sector_size = 32ull << 30;
  std::tie(code, msg) = refusal(r);
  EXPECT_EQ(code, Code::InvalidArgument);
  EXPECT_NE(msg.find("StackedDrg2KiBV1_1"), std::string::npos) << msg;
  // A request whose registered_proof is another sector's (8 = 32 GiB V1_1).
  r = request(c1_wrapper);
  r.registered_proof = 8;
  std::tie(code, msg) = refusal(r);
  EXPECT_EQ(code, Code::InvalidArgument);
  EXPECT_NE(msg.find("registered_proof 8 (StackedDrg32GiBV1_1)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("5 (StackedDrg2KiBV1_1)"), std::string::npos) << msg;
}

// Random single-byte changes of a valid c1.json: each is refused at
// admission, or parses to the same proof inputs (a change in whitespace, in
// the ticket C2 does not read, ...). A mutant that is admitted with other
// inputs would only fail after a full proof. Fixed seed: reproducible.
TEST_F(PorepHandlerTest, MutatedC1IsRefusedOrHarmless) {
  std::ofstream(params_file()) << "present";  // prepare() only looks the file up
  const std::string text = filecoin::write_c1(c1.phase1);
  auto proof_inputs = [](filecoin::SealCommitPhase1Output p) {
    p.ticket = {};
    return filecoin::write_c1(p);
  };
  const std::string want = proof_inputs(c1.phase1);
  std::mt19937_64 rng(150);
  int refused = 0, harmless = 0;
  for (int i = 0; i < 150; i++) {
    std::string m = text;
    size_t at = rng() % m.size();
    char was = m[at];
    do m[at] = char(rng() & 0xff);
    while (m[at] == was);
    PorepHandler h(dir.string());
    ProofRequest r = request(m);
    try {
      h.prepare(r);
    } catch (const ServiceError& e) {
      EXPECT_EQ(e.code(), Code::InvalidArgument) << "byte " << at << ": " << e.what();
      refused++;
      continue;
    }
    EXPECT_EQ(proof_inputs(filecoin::parse_c1_any(m).phase1), want)
        << "byte " << at << " ('" << was << "' -> '" << m[at] << "') admitted with other proof inputs";
    harmless++;
  }
  std::printf("150 mutants: %d refused, %d harmless\n", refused, harmless);
  EXPECT_GT(refused, 100);
}

// Each cryptographic field of the vanilla proof, damaged in the parsed form
// (so the JSON stays valid), is named in the refusal.
TEST_F(PorepHandlerTest, DamagedVanillaProofNamesPartitionChallengeAndField) {
  std::ofstream(params_file()) << "present";
  struct Case {
    const char* expect;
    void (*damage)(filecoin::StackedProof&);
  } cases[] = {
      {"vanilla_proofs[0][1].comm_d_proofs",
       [](filecoin::StackedProof& p) { p.comm_d_proofs.base[2].hashes[0][3] ^= 1; }},
      {"vanilla_proofs[0][1].comm_r_last_proof",
       [](filecoin::StackedProof& p) { p.comm_r_last_proof.base[0].hashes[1][0] ^= 1; }},
      {"vanilla_proofs[0][1].replica_column_proofs.exp_parents[3].inclusion_proof",
       [](filecoin::StackedProof& p) {
         p.replica_column_proofs.exp_parents[3].inclusion_proof.base[0].hashes[0][5] ^= 1;
       }},
  };
  for (const auto& c : cases) {
    auto w = c1;
    c.damage(w.phase1.vanilla_proofs[0][1]);
    auto [code, msg] = refusal(request(filecoin::write_c1_wrapper(w)));
    EXPECT_EQ(code, Code::InvalidArgument) << c.expect;
    EXPECT_NE(msg.find(c.expect), std::string::npos) << msg;
  }
}

TEST_F(PorepHandlerTest, ChallengesForAnotherSeedAreRefused) {
  auto w = c1;
  w.phase1.seed[0] ^= 1;
  auto [code, msg] = refusal(request(filecoin::write_c1_wrapper(w)));
  EXPECT_EQ(code, Code::InvalidArgument);
  EXPECT_NE(msg.find("the seed selects"), std::string::npos) << msg;
}

TEST_F(PorepHandlerTest, CircuitIdsAndParameterFiles) {
  PorepHandler h(dir.string());
  EXPECT_TRUE(h.list_circuits().empty());
  EXPECT_EQ(h.param_path("porep-2k"), params_file());
  try {
    h.param_path("porep-3k");
    ADD_FAILURE();
  } catch (const ServiceError& e) {
    EXPECT_EQ(e.code(), Code::NotFound);
  }
  std::ofstream(params_file()) << "not parameters";
  EXPECT_EQ(h.list_circuits(), std::vector<std::string>{"porep-2k"});
  // With a (corrupt) file present, prepare() gets past the lookup ...
  auto ok = request(c1_wrapper);
  EXPECT_NO_THROW(h.prepare(ok));
  // ... and loading it fails with a message naming the file.
  std::string junk = "not parameters";
  try {
    h.load("porep-2k", std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(junk.data()), junk.size()));
    ADD_FAILURE() << "garbage parameters loaded";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("032d3138"), std::string::npos) << e.what();
  }
}
