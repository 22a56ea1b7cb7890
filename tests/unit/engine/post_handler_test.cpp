// WINNING_POST and WINDOW_POST_PARTITION through the engine: real 2 KiB
// fallback PoSt circuits with development parameters made here (seconds),
// vanilla proofs of sealed test sectors in Curio's bincode, proofs that the
// independent verifier accepts, and every bad input refused at submission
// with INVALID_ARGUMENT naming the sector and field, the engine proving the
// next job after each.
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/engine.hpp"
#include "engine/kinds/post/handler.hpp"
#include "filecoin/post/prove.hpp"
#include "groth16/io.hpp"
#include "groth16/rng.hpp"
#include "groth16/setup.hpp"
#include "refusal.hpp"

using namespace cuzk;
using namespace cuzk::engine;
namespace fs = std::filesystem;
namespace fc = cuzk::filecoin;
using Code = ServiceError::Code;

namespace {

fc::SealedSector sealed(uint64_t n) {
  fc::SealInputs in;
  in.config = *fc::porep_config(5);
  in.sector_num = n;
  in.ticket.fill(uint8_t(n));
  return fc::seal_precommit(in);
}

struct PostEngine : ::testing::Test {
  static inline fs::path dir;
  static inline std::vector<fc::SealedSector> sectors;
  static inline fc::Domain randomness;
  std::unique_ptr<Engine> engine;

  static void SetUpTestSuite() {
    dir = fs::temp_directory_path() / ("cuzk-post-engine-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    groth16::SecureRng rng;
    for (uint64_t id : {0ull, 5ull}) {  // winning-post-2k, window-post-2k
      auto c = *fc::post_config(id);
      auto p = groth16::generate_parameters(fc::FallbackPostCircuit(c), groth16::ToxicWaste::random(rng));
      groth16::write_file((dir / (fc::post_parameter_stem(c) + ".params")).string(),
                          groth16::encode_parameters(p));
      groth16::write_file((dir / (fc::post_parameter_stem(c) + ".vk")).string(),
                          groth16::encode_verifying_key(p.vk));
    }
    for (uint64_t n : {11ull, 12ull, 13ull}) sectors.push_back(sealed(n));
    randomness.fill(0x5a);
    randomness[31] &= 0x3f;
  }
  static void TearDownTestSuite() { fs::remove_all(dir); }

  void SetUp() override {
    EngineConfig cfg;
    cfg.param_cache = dir.string();
    cfg.total_budget_bytes = 2ull << 30;
    cfg.synthesis_threads = 1;
    cfg.gpu_threads = 2;
    std::vector<std::unique_ptr<KindHandler>> hs;
    hs.push_back(std::make_unique<PostHandler>(ProofKind::WinningPost, cfg.param_cache));
    hs.push_back(std::make_unique<PostHandler>(ProofKind::WindowPostPartition, cfg.param_cache));
    engine = std::make_unique<Engine>(cfg, std::move(hs), [](const std::string&) {});
  }

  // A request for sectors[first..first+count) as Curio would send it.
  static ProofRequest request(uint64_t registered_proof, size_t first, size_t count, uint32_t partition = 0) {
    auto c = *fc::post_config(registered_proof);
    ProofRequest r;
    r.kind = c.kind == fc::PostKind::Winning ? ProofKind::WinningPost : ProofKind::WindowPostPartition;
    r.registered_proof = registered_proof;
    r.partition_index = partition;
    r.randomness.assign(randomness.begin(), randomness.end());
    for (size_t i = 0; i < count; i++)
      r.vanilla_proofs.push_back(fc::write_post_sector_proof(fc::post_vanilla_proof(
          c, sectors[first + i], randomness, uint64_t(partition) * c.sector_count + i)));
    return r;
  }

  // Proves `r` through the engine and verifies the proof independently.
  void proves(ProofRequest r, size_t first, size_t count) {
    const auto c = *fc::post_config(r.registered_proof);
    const uint32_t partition = r.partition_index;
    auto sub = engine->submit(std::move(r));
    auto res = engine->await(sub.job_id, std::nullopt);
    ASSERT_EQ(res.status, JobStatus::Completed) << res.error_message;
    ASSERT_EQ(res.proof.size(), 192u);
    std::vector<fc::PostPublicSector> all(
        c.kind == fc::PostKind::Winning ? 0 : size_t(partition) * c.sector_count,
        fc::PostPublicSector{sectors[first].sector_num, sectors[first].comm_r});
    for (size_t i = 0; i < count; i++)
      all.push_back({sectors[first + i].sector_num, sectors[first + i].comm_r});
    auto vk = groth16::read_verifying_key_file((dir / (fc::post_parameter_stem(c) + ".vk")).string());
    EXPECT_TRUE(fc::verify_post_partition(
        c, groth16::prepare_verifying_key(vk), randomness, all,
        c.kind == fc::PostKind::Winning ? 0 : partition,
        std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(res.proof.data()), 192)))
        << c.name;
  }

  std::pair<Code, std::string> refusal(ProofRequest r) {
    return cuzk::engine::test::refusal(*engine, std::move(r));
  }
};

}  // namespace

TEST_F(PostEngine, WinningAndWindowProofsVerify) {
  proves(request(0, 0, 1), 0, 1);     // WinningPoSt, CRITICAL by default
  proves(request(10, 0, 2), 0, 2);    // WindowPoSt V1_1, two sectors
  proves(request(5, 1, 1), 1, 1);     // WindowPoSt V1, one sector padded to two
  proves(request(5, 1, 2, 3), 1, 2);  // partition 3: V1 challenges depend on it
}

TEST_F(PostEngine, BadInputIsRefusedNamingSectorAndField) {
  struct Case {
    std::string name, expect;
    ProofRequest r;
  };
  std::vector<Case> cases;
  auto add = [&](std::string name, std::string expect, ProofRequest r) {
    cases.push_back({std::move(name), std::move(expect), std::move(r)});
  };
  {
    auto r = request(0, 0, 1);
    r.vanilla_proofs.push_back(r.vanilla_proofs[0]);
    add("two sectors for winning", "WinningPoSt proves one sector", r);
  }
  add("too many sectors", "at most 2", request(10, 0, 3));
  {
    auto r = request(10, 0, 2);
    r.vanilla_proofs[1].resize(r.vanilla_proofs[1].size() - 100);
    add("truncated bincode", "vanilla_proofs[1]", r);
  }
  {
    auto r = request(10, 0, 2);
    r.vanilla_proofs[1][8] ^= 1;  // comm_r of the second sector
    add("comm_r", "(sector 12) comm_r", r);
  }
  {
    auto c = *fc::post_config(10);
    auto p = fc::post_vanilla_proof(c, sectors[0], randomness, 0);
    p.sectors[0].inclusion_proofs[4].base.pop_back();  // a path of the wrong shape
    auto r = request(10, 0, 1);
    r.vanilla_proofs[0] = fc::write_post_sector_proof(p);
    add("path shape", "(sector 11) inclusion_proofs[4]", r);
  }
  {
    auto r = request(10, 0, 1);
    r.randomness.resize(31);
    add("randomness length", "randomness must be 32 bytes", r);
  }
  {
    auto r = request(10, 0, 1);
    r.randomness[31] = char(0xff);
    add("randomness mask", "randomness[31]", r);
  }
  {
    auto r = request(10, 0, 1);
    r.registered_proof = 2;  // a Winning id on a Window request
    add("registered_proof", "not a WindowPoSt proof", r);
  }
  {
    auto r = request(10, 0, 1);
    r.sector_size = 8 << 20;
    add("sector_size", "sector_size 8388608", r);
  }
  for (auto& c : cases) {
    auto [code, msg] = refusal(std::move(c.r));
    EXPECT_EQ(code, Code::InvalidArgument) << c.name << ": " << msg;
    EXPECT_NE(msg.find(c.expect), std::string::npos) << c.name << ": " << msg;
  }
  proves(request(10, 0, 2), 0, 2);  // still serving
}
