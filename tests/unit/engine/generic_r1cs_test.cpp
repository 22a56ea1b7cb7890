// GENERIC_R1CS jobs end to end through the Engine: real circuit files and
// parameters in a parameter directory, real Groth16 proofs that verify,
// and each kind of bad input giving a clear error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "circuits/install.hpp"
#include "engine/engine.hpp"
#include "engine/kinds/generic_r1cs/handler.hpp"
#include "groth16/io.hpp"
#include "groth16/verifier.hpp"
#include "platform/recycle_pool.hpp"

using namespace cuzk;
using namespace cuzk::engine;
using namespace std::chrono_literals;

namespace {

namespace fs = std::filesystem;

const circuits::CubeChain::Shape kShape{300, 3, 7};  // 603 constraints + 6 inputs -> domain 1024

struct GenericFixture {
  fs::path dir = fs::temp_directory_path() / ("cuzk-generic-" + std::to_string(::getpid()));
  circuits::CubeChain::Shape shape;
  std::string id;
  std::unique_ptr<Engine> engine;
  std::vector<std::string> timeline;
  std::mutex mu;

  explicit GenericFixture(circuits::CubeChain::Shape s = kShape) : shape(s) {
    fs::create_directories(dir);
    id = circuits::install_cube_chain(dir.string(), shape).id;
  }
  void start(EngineConfig cfg = {}) {
    cfg.param_cache = dir.string();
    cfg.total_budget_bytes = 1ull << 30;
    cfg.synthesis_threads = 1;
    cfg.gpu_threads = 2;
    cfg.max_parallel_synthesis = 2;
    std::vector<std::unique_ptr<KindHandler>> hs;
    hs.push_back(std::make_unique<GenericR1csHandler>(dir.string()));
    engine = std::make_unique<Engine>(cfg, std::move(hs), [this](const std::string& l) {
      std::lock_guard lk(mu);
      timeline.push_back(l);
    });
  }
  ~GenericFixture() {
    engine.reset();
    fs::remove_all(dir);
  }
  ProofRequest request(std::vector<uint64_t> xs, std::string rid = "") {
    ProofRequest r;
    r.request_id = std::move(rid);
    r.kind = ProofKind::GenericR1cs;
    r.circuit_id = id;
    for (uint64_t x : xs) r.vanilla_proofs.push_back(circuits::cube_chain_witness(shape, x));
    return r;
  }
};

}  // namespace

TEST(GenericR1cs, ProvesPartitionsThatVerifyIndependently) {
  GenericFixture f;
  f.start();
  auto sub = f.engine->submit(f.request({11, 22, 33}, "g1"));
  auto res = f.engine->await(sub.job_id, std::nullopt);
  ASSERT_EQ(res.status, JobStatus::Completed) << res.error_message;
  ASSERT_EQ(res.proof.size(), 3 * groth16::kProofBytes);
  // Verify outside the engine with the .vk file and independently computed inputs.
  auto vk = groth16::read_verifying_key_file((f.dir / (f.id + ".vk")).string());
  auto pvk = groth16::prepare_verifying_key(vk);
  auto proofs = groth16::decode_proofs(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(res.proof.data()), res.proof.size()));
  uint64_t xs[] = {11, 22, 33};
  for (int p = 0; p < 3; p++) {
    auto pub = circuits::CubeChain::public_inputs(kShape, ff::Fr::from_u64(xs[p]));
    EXPECT_TRUE(groth16::verify_proof(pvk, proofs[p], pub)) << p;
    // Partition order matters: partition p's proof fails for another x.
    auto other = circuits::CubeChain::public_inputs(kShape, ff::Fr::from_u64(xs[(p + 1) % 3]));
    EXPECT_FALSE(groth16::verify_proof(pvk, proofs[p], other)) << p;
  }
  EXPECT_GT(res.gpu_compute_ms + res.synthesis_ms, 0u);
}

// The provers' spent buffers (MSM scratch, scalars) go to the recycling pool
// charged to the engine's budget: every pooled byte is accounted for, none
// stays pledged once the partitions are done, a second job proves with them,
// and the engine frees the pool when it goes.
TEST(GenericR1cs, SpentBuffersArePooledWithinTheBudget) {
  // 4,203 constraints, domain 2^13: the scalar arrays (256 KiB) are large
  // enough for the pool on every code path, the portable one included (the
  // 603-constraint shape pools nothing there).
  GenericFixture f({2100, 3, 7});
  f.start();
  for (const char* rid : {"first", "second"}) {
    auto sub = f.engine->submit(f.request({5, 6, 7}, rid));
    auto res = f.engine->await(sub.job_id, std::nullopt);
    ASSERT_EQ(res.status, JobStatus::Completed) << res.error_message;
    const MemoryBudget& b = f.engine->budget();
    // The last frees may still run on the deallocator's thread: wait until
    // the two counts agree three times in a row.
    for (int i = 0, agreed = 0; i < 200 && agreed < 3; i++) {
      agreed = b.pooled() == platform::recycled_bytes() ? agreed + 1 : 0;
      std::this_thread::sleep_for(10ms);
    }
    EXPECT_GT(b.pooled(), 0u) << rid;
    EXPECT_EQ(b.pledged(), 0u) << rid;
    EXPECT_EQ(b.pooled(), platform::recycled_bytes()) << rid;
    EXPECT_LE(b.pooled(), b.used()) << rid;
  }
  f.engine.reset();
  EXPECT_EQ(platform::recycled_bytes(), 0u);
}

TEST(GenericR1cs, BadInputsAreRefusedClearly) {
  GenericFixture f;
  f.start();
  auto code_of = [&](ProofRequest r) {
    try {
      f.engine->submit(r);
    } catch (const ServiceError& e) {
      return std::make_pair(e.code(), std::string(e.what()));
    }
    return std::make_pair(ServiceError::Code::Internal, std::string("accepted"));
  };
  auto r = f.request({1});
  r.circuit_id = "no-such-circuit";
  EXPECT_EQ(code_of(r).first, ServiceError::Code::NotFound);
  r.circuit_id = "../etc/passwd";
  EXPECT_EQ(code_of(r).first, ServiceError::Code::InvalidArgument);
  r = f.request({1, 2});
  r.vanilla_proofs[1].resize(r.vanilla_proofs[1].size() - 32);
  auto [code, msg] = code_of(r);
  EXPECT_EQ(code, ServiceError::Code::InvalidArgument);
  EXPECT_NE(msg.find("partition 1"), std::string::npos) << msg;
  r = f.request({1});
  r.vanilla_proofs[0] = "garbage";
  EXPECT_EQ(code_of(r).first, ServiceError::Code::InvalidArgument);
  r = f.request({});
  EXPECT_EQ(code_of(r).first, ServiceError::Code::InvalidArgument);
}

TEST(GenericR1cs, UnsatisfiedWitnessFailsSelfCheckNamingThePartition) {
  GenericFixture f;
  f.start();
  auto r = f.request({5, 6}, "bad-witness");
  // Flip the low bit of partition 1's last aux value (stays canonical): the
  // witness no longer satisfies the circuit, so its proof cannot verify.
  std::string& w = r.vanilla_proofs[1];
  w[w.size() - 32] ^= 1;
  f.engine->submit(r);
  auto res = f.engine->await("bad-witness", std::nullopt);
  EXPECT_EQ(res.status, JobStatus::Failed);
  EXPECT_NE(res.error_message.find("partition 1"), std::string::npos) << res.error_message;
  // The engine keeps serving.
  f.engine->submit(f.request({7}, "after"));
  EXPECT_EQ(f.engine->await("after", std::nullopt).status, JobStatus::Completed);
}

TEST(GenericR1cs, CorruptedParametersFailTheJobNotTheDaemon) {
  GenericFixture f;
  circuits::CubeChain::Shape other{40, 0, 9};
  auto good_id = circuits::install_cube_chain(f.dir.string(), other).id;
  // Truncate the first circuit's parameters.
  auto pp = f.dir / (f.id + ".params");
  fs::resize_file(pp, fs::file_size(pp) - 100);
  f.start();
  f.engine->submit(f.request({3}, "corrupt"));
  auto res = f.engine->await("corrupt", std::nullopt);
  EXPECT_EQ(res.status, JobStatus::Failed);
  EXPECT_NE(res.error_message.find(".params"), std::string::npos) << res.error_message;
  ProofRequest ok;
  ok.kind = ProofKind::GenericR1cs;
  ok.circuit_id = good_id;
  ok.vanilla_proofs = {circuits::cube_chain_witness(other, 4)};
  auto sub = f.engine->submit(ok);
  EXPECT_EQ(f.engine->await(sub.job_id, std::nullopt).status, JobStatus::Completed);
  // Status lists both circuits with their tiers.
  auto st = f.engine->status();
  int seen = 0;
  for (auto& s : st.loaded_srs) seen += s.circuit_id == good_id || s.circuit_id == f.id;
  EXPECT_EQ(seen, 2);
}
