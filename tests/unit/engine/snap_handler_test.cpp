// SNAP_DEALS_UPDATE through the engine: the real 2 KiB EmptySectorUpdate
// circuit with development parameters (generated once per build tree in
// test-cache/, shared with the filecoin suite), a CC sector sealed and
// updated here, the partition proofs in Curio's bincode, a proof the
// independent verifier accepts, and every bad input refused at submission
// with INVALID_ARGUMENT naming the partition and field, the engine proving
// the next job after each; the next proof of the circuit through its
// pre-compiled constraints. 8 MiB (four partitions) with CUZK_SLOW_TESTS=1.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <mutex>
#include <random>
#include <thread>

#include "dev_params.hpp"
#include "engine/engine.hpp"
#include "engine/kinds/snap_update/handler.hpp"
#include "filecoin/snap/prove.hpp"
#include "filecoin/snap/update.hpp"
#include "filecoin/tree/fr32.hpp"
#include "groth16/io.hpp"
#include "groth16/rng.hpp"
#include "groth16/setup.hpp"
#include "r1cs/counting_cs.hpp"
#include "slow.hpp"
#include "refusal.hpp"

using namespace cuzk;
using namespace cuzk::engine;
namespace fs = std::filesystem;
namespace fc = cuzk::filecoin;
using Code = ServiceError::Code;

namespace {

// The update of a freshly sealed CC sector with seeded random data.
fc::SnapUpdate make_update(const fc::SnapConfig& c, uint64_t seed) {
  fc::SealInputs in;
  in.config = *fc::porep_config_for_size(c.sector_size);
  in.sector_num = seed;
  in.ticket.fill(uint8_t(seed));
  fc::SealedSector s = fc::seal_precommit(in);
  std::mt19937_64 g(seed);
  std::vector<uint8_t> raw(c.sector_size / 128 * 127);
  for (auto& b : raw) b = uint8_t(g());
  return fc::encode_sector_update(c, s, fc::fr32_pad(raw));
}

// Development parameters as the filecoin suite caches them, written into
// `dir` under the published names (the .params as a link to the cache).
void install_parameters(const fc::SnapConfig& c, const fs::path& dir) {
  r1cs::CountingCS counts;
  fc::EmptySectorUpdateCircuit(c).synthesize(counts);
  const fs::path cache = cuzk_test_params::cached_dev_parameters_file(
      "snap-" + std::to_string(c.nodes) + "n-" + std::to_string(counts.num_constraints()) + "c-dev.params",
      fc::EmptySectorUpdateCircuit(c));
  auto params = groth16::read_parameters_file(cache.string(), ec::Check::SkipSubgroup);
  const std::string stem = fc::snap_parameter_stem(c);
  fs::create_symlink(fs::absolute(cache), dir / (stem + ".params"));
  groth16::write_file((dir / (stem + ".vk")).string(), groth16::encode_verifying_key(params.vk));
}

struct SnapEngine : ::testing::Test {
  static inline fs::path dir;
  static inline std::optional<fc::SnapUpdate> update;
  std::unique_ptr<Engine> engine;
  std::mutex tl_mu;
  std::vector<std::string> tl_lines;

  size_t timeline_count(const std::string& needle) {
    std::lock_guard lk(tl_mu);
    size_t n = 0;
    for (const auto& l : tl_lines) n += l.find(needle) != std::string::npos;
    return n;
  }

  static void SetUpTestSuite() {
    dir = fs::temp_directory_path() / ("cuzk-snap-engine-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    install_parameters(*fc::snap_config(0), dir);
    update.emplace(make_update(*fc::snap_config(0), 21));
  }
  static void TearDownTestSuite() {
    update.reset();
    fs::remove_all(dir);
  }

  void SetUp() override {
    EngineConfig cfg;
    cfg.param_cache = dir.string();
    cfg.total_budget_bytes = 12ull << 30;
    cfg.synthesis_threads = 1;
    cfg.gpu_threads = 2;
    std::vector<std::unique_ptr<KindHandler>> hs;
    hs.push_back(std::make_unique<SnapHandler>(cfg.param_cache));
    engine = std::make_unique<Engine>(cfg, std::move(hs), [this](const std::string& l) {
      std::lock_guard lk(tl_mu);
      tl_lines.push_back(l);
    });
  }

  // The request Curio sends for `u`: one bincode PartitionProof per partition.
  static ProofRequest request(const fc::SnapUpdate& u) {
    ProofRequest r;
    r.kind = ProofKind::SnapDealsUpdate;
    r.registered_proof = u.cfg.id;
    const fc::SnapPublic pub = u.public_inputs();
    r.comm_r_old.assign(pub.comm_r_old.begin(), pub.comm_r_old.end());
    r.comm_r_new.assign(pub.comm_r_new.begin(), pub.comm_r_new.end());
    r.comm_d_new.assign(pub.comm_d_new.begin(), pub.comm_d_new.end());
    for (size_t k = 0; k < u.cfg.partitions; k++)
      r.vanilla_proofs.push_back(fc::write_snap_partition_proof(fc::snap_partition_proof(u, k)));
    return r;
  }

  // Proves `r` through the engine and verifies the proof independently.
  void proves(ProofRequest r, const fc::SnapUpdate& u) {
    auto sub = engine->submit(std::move(r));
    auto res = engine->await(sub.job_id, std::nullopt);
    ASSERT_EQ(res.status, JobStatus::Completed) << res.error_message;
    ASSERT_EQ(res.proof.size(), 192 * u.cfg.partitions);
    auto vk = groth16::read_verifying_key_file((dir / (fc::snap_parameter_stem(u.cfg) + ".vk")).string());
    const auto* bytes = reinterpret_cast<const uint8_t*>(res.proof.data());
    EXPECT_TRUE(fc::verify_empty_sector_update(u.cfg, groth16::prepare_verifying_key(vk), u.public_inputs(),
                                               std::span<const uint8_t>(bytes, res.proof.size())));
  }

  std::pair<Code, std::string> refusal(ProofRequest r) {
    return cuzk::engine::test::refusal(*engine, std::move(r));
  }
};

}  // namespace

TEST_F(SnapEngine, UpdateProofVerifies) { proves(request(*update), *update); }

// The first proof of the circuit is synthesized by the gadgets and leaves
// the circuit's pre-compiled constraints behind (recorded), or, when an
// earlier engine of this suite wrote the .pce file, goes through it (mapped
// first); the next one goes through them and still verifies.
TEST_F(SnapEngine, TheNextProofGoesThroughPrecompiledConstraints) {
  const bool had_file = fs::exists(dir / (fc::snap_circuit_id(update->cfg) + ".pce"));
  proves(request(*update), *update);
  EXPECT_EQ(timeline_count("pce=1"), had_file ? 1u : 0u);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  while (timeline_count("PCE_EXTRACT_END") + timeline_count("PCE_LOAD_END") == 0 &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_EQ(timeline_count("PCE_EXTRACT_END") + timeline_count("PCE_LOAD_END"), 1u);
  EXPECT_EQ(timeline_count("error="), 0u);
  EXPECT_TRUE(fs::exists(dir / (fc::snap_circuit_id(update->cfg) + ".pce")));
  proves(request(*update), *update);
  EXPECT_EQ(timeline_count("pce=1"), had_file ? 2u : 1u);
  const auto status = nlohmann::json::parse(engine->status_json());
  const auto& pce = status["allocations"]["pce"];
  ASSERT_EQ(pce.size(), 1u) << status.dump();
  EXPECT_EQ(pce[0]["state"], "ready");
  EXPECT_EQ(pce[0]["proofs"], had_file ? 2 : 1);
  EXPECT_GT(pce[0]["size_bytes"].get<uint64_t>(), 0u);
}

TEST_F(SnapEngine, BadInputIsRefusedNamingPartitionAndField) {
  const fc::SnapUpdate& u = *update;
  auto with_proof = [&](void (*damage)(fc::SnapPartitionProof&)) {
    ProofRequest r = request(u);
    fc::SnapPartitionProof p = fc::snap_partition_proof(u, 0);
    damage(p);
    r.vanilla_proofs[0] = fc::write_snap_partition_proof(p);
    return r;
  };
  struct Case {
    std::string name, expect;
    ProofRequest r;
  };
  std::vector<Case> cases;
  {
    ProofRequest r = request(u);
    r.vanilla_proofs.push_back(r.vanilla_proofs[0]);
    cases.push_back({"partition count", "vanilla_proofs: 2 partition proofs, StackedDrg2KiBV1 has 1", r});
  }
  {
    ProofRequest r = request(u);
    r.vanilla_proofs[0].resize(r.vanilla_proofs[0].size() - 100);
    cases.push_back({"truncated bincode", "vanilla_proofs[0] (partition 0)", r});
  }
  cases.push_back(
      {"apex leaf", "partition 0 apex_leafs", with_proof([](auto& p) { p.apex_leafs[2][7] ^= 1; })});
  cases.push_back({"TreeD path", "partition 0 challenge_proofs[1].proof_d_new",
                   with_proof([](auto& p) { p.challenge_proofs[1].proof_d_new.base[2].hashes[0][0] ^= 1; })});
  cases.push_back({"TreeROld path", "partition 0 challenge_proofs[8].proof_r_old",
                   with_proof([](auto& p) { p.challenge_proofs[8].proof_r_old.base[0].hashes[3][1] ^= 1; })});
  {
    ProofRequest r = request(u);
    std::swap(r.comm_r_old, r.comm_r_new);
    cases.push_back({"swapped commitments", "partition 0 comm_r_old", r});
  }
  {
    ProofRequest r = request(u);
    r.comm_d_new.resize(31);
    cases.push_back({"comm_d_new length", "comm_d_new must be 32 bytes", r});
  }
  {
    ProofRequest r = request(u);
    r.registered_proof = 7;
    cases.push_back({"registered_proof", "not a registered update proof", r});
  }
  {
    ProofRequest r = request(u);
    r.sector_size = 8 << 20;
    cases.push_back({"sector_size", "sector_size 8388608", r});
  }
  for (auto& c : cases) {
    auto [code, msg] = refusal(std::move(c.r));
    EXPECT_EQ(code, Code::InvalidArgument) << c.name << ": " << msg;
    EXPECT_NE(msg.find(c.expect), std::string::npos) << c.name << ": " << msg;
  }
  proves(request(u), u);  // still serving
}

// Random single-byte changes of a valid partition proof: every byte is a
// commitment, a path element, an index, a length or a variant, so each
// mutant is refused at admission as INVALID_ARGUMENT (never an internal
// error, never admitted). Fixed seed: reproducible.
TEST_F(SnapEngine, EveryMutatedByteIsRefused) {
  SnapHandler h(dir.string());
  const ProofRequest good = request(*update);
  const std::string& bytes = good.vanilla_proofs[0];
  std::mt19937_64 rng(17);
  for (int i = 0; i < 300; i++) {
    ProofRequest r = good;
    const size_t at = rng() % bytes.size();
    r.vanilla_proofs[0][at] = char(uint8_t(bytes[at]) ^ uint8_t(1 + rng() % 255));
    try {
      h.prepare(r);
      ADD_FAILURE() << "byte " << at << " changed and admitted";
    } catch (const ServiceError& e) {
      EXPECT_EQ(e.code(), Code::InvalidArgument) << "byte " << at << ": " << e.what();
    }
  }
}

TEST_F(SnapEngine, CircuitIdsAndMissingParameters) {
  SnapHandler h(dir.string());
  EXPECT_EQ(h.list_circuits(), std::vector<std::string>{"snap-2k"});
  EXPECT_NE(
      h.param_path("snap-32g").find("v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-3b7f44a9"),
      std::string::npos);
  EXPECT_THROW(h.param_path("snap-4k"), ServiceError);
  SnapHandler empty((dir / "nothing-here").string());
  ProofRequest r = request(*update);
  try {
    empty.prepare(r);
    ADD_FAILURE() << "prepared without parameters";
  } catch (const ServiceError& e) {
    EXPECT_EQ(e.code(), Code::NotFound);
    EXPECT_NE(std::string(e.what()).find("cuzk setup --circuit snap-2k"), std::string::npos) << e.what();
  }
}

// Four partitions of 10 M constraints each through the pipeline.
TEST_F(SnapEngine, FourPartitions8MiBSlow) {
  CUZK_SLOW_TEST("8 MiB: parameters and four 10 M-constraint partitions");
  const fc::SnapConfig c = *fc::snap_config(1);
  install_parameters(c, dir);
  fc::SnapUpdate u = make_update(c, 22);
  proves(request(u), u);
}
