// The engine's pre-compiled constraints: the first synthesis of a circuit
// goes through the gadgets and starts a background extraction (file written,
// PCE_EXTRACT events); later ones go through the PCE with the same
// assignment. A new store maps the file before its first synthesis, which
// then goes through it (PCE_LOAD); stale, damaged or mismatched files are
// rebuilt, never used; the budget bounds what stays in memory and reclaim
// evicts idle PCEs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <mutex>

#include "engine/pce_store.hpp"
#include "groth16/prover.hpp"
#include "unit/r1cs/test_circuits.hpp"

using namespace cuzk;
using namespace cuzk::engine;
using cuzk::test::ChainCircuit;

namespace {

struct PceStoreTest : ::testing::Test {
  std::filesystem::path dir;
  std::mutex mu;
  std::vector<std::string> lines;
  TimelineEmitter tl{[this](const std::string& l) {
    std::lock_guard lk(mu);
    lines.push_back(l);
  }};
  MemoryBudget budget{uint64_t(1) << 30};

  void SetUp() override {
    dir = std::filesystem::temp_directory_path() /
          ("cuzk-pce-store-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir);
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  static ChainCircuit chain(size_t len, uint64_t x0) {
    ChainCircuit c;
    c.len = len;
    c.x0 = ff::Fr::from_u64(x0);
    return c;
  }
  static Synthesizer::BlankCircuit blank(size_t len) {
    return [len] {
      auto c = std::make_unique<ChainCircuit>();
      c->len = len;
      return c;
    };
  }
  // Synthesizes through the store and checks the assignment against the gadgets.
  bool synth(PceStore& s, const std::string& job, size_t len, uint64_t x0, const std::string& id = "chain") {
    const ChainCircuit c = chain(len, x0);
    auto r = s.synthesize(job, id, c, blank(len));
    EXPECT_TRUE(r.assignment == groth16::synthesize(c)) << job;
    return r.via_pce;
  }
  size_t count(const std::string& needle) {
    std::lock_guard lk(mu);
    size_t n = 0;
    for (const auto& l : lines) n += l.find(needle) != std::string::npos;
    return n;
  }
  std::string state(const PceStore& s, const std::string& id = "chain") {
    for (const auto& i : s.list())
      if (i.circuit_id == id) return i.state;
    return "none";
  }
};

}  // namespace

TEST_F(PceStoreTest, ExtractsAfterTheFirstSynthesisThenUsesIt) {
  PceStore s({true, dir.string()}, budget, tl);
  EXPECT_FALSE(synth(s, "job-1", 40, 3));  // cold: the gadgets
  s.drain();
  EXPECT_EQ(state(s), "ready");
  EXPECT_TRUE(std::filesystem::exists(s.path_of("chain")));
  EXPECT_EQ(count("PCE_EXTRACT_START,job-1,circuit=chain,reason=missing"), 1u);
  EXPECT_EQ(count("PCE_EXTRACT_END,job-1,circuit=chain,reason=missing,ms="), 1u);
  EXPECT_GT(budget.used(), 0u);
  EXPECT_TRUE(synth(s, "job-2", 40, 5));
  EXPECT_TRUE(synth(s, "job-2", 40, 6));
  EXPECT_EQ(s.list().at(0).proofs, 2u);
  EXPECT_EQ(count("PCE_EXTRACT_START"), 1u);  // once per circuit
}

TEST_F(PceStoreTest, ANewStoreLoadsTheFile) {
  {
    PceStore s({true, dir.string()}, budget, tl);
    synth(s, "job-1", 30, 2);
    s.drain();
  }
  PceStore s({true, dir.string()}, budget, tl);
  EXPECT_TRUE(synth(s, "job-3", 30, 4));  // the file mapped first
  s.drain();
  EXPECT_EQ(count("PCE_LOAD_START,job-3,circuit=chain"), 1u);
  EXPECT_EQ(count("PCE_LOAD_END,job-3,circuit=chain,ms="), 1u);
  EXPECT_EQ(count("error="), 0u);
  EXPECT_TRUE(synth(s, "job-4", 30, 7));
}

TEST_F(PceStoreTest, StaleOrDamagedFilesAreRebuilt) {
  {
    PceStore s({true, dir.string()}, budget, tl);
    synth(s, "job-1", 20, 2);
    s.drain();
  }
  const std::string path = (dir / "chain.pce").string();
  // Recorded by "other circuit code": the digest differs.
  r1cs::write_pce_file(path, r1cs::PrecompiledCircuit::record(*blank(20)()), r1cs::PceDigest{});
  {
    PceStore s({true, dir.string()}, budget, tl);
    EXPECT_FALSE(synth(s, "job-2", 20, 3));
    s.drain();
    EXPECT_EQ(count("PCE_EXTRACT_START,job-2,circuit=chain,reason=stale"), 1u);
    EXPECT_TRUE(synth(s, "job-2", 20, 4));
  }
  // One byte flipped in the middle.
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(std::streamoff(std::filesystem::file_size(path) / 2));
  f.put('\x7f');
  f.close();
  PceStore s({true, dir.string()}, budget, tl);
  EXPECT_FALSE(synth(s, "job-5", 20, 3));
  s.drain();
  EXPECT_EQ(count("PCE_EXTRACT_START,job-5,circuit=chain,reason=corrupt"), 1u);
  EXPECT_TRUE(synth(s, "job-6", 20, 8));
  // The rebuilt file loads cleanly.
  EXPECT_NO_THROW(r1cs::read_pce_file(path, PceStore::circuit_digest("chain")));
}

TEST_F(PceStoreTest, AMismatchedCircuitFallsBackAndIsRebuilt) {
  PceStore s({true, dir.string()}, budget, tl);
  synth(s, "job-1", 20, 2);
  s.drain();
  ASSERT_EQ(state(s), "ready");
  // The same id now synthesizes a longer chain (as after a code change the
  // digest missed): the PCE refuses, the gadgets answer, the file goes.
  EXPECT_FALSE(synth(s, "job-2", 21, 2));
  EXPECT_FALSE(std::filesystem::exists(s.path_of("chain")));
  EXPECT_FALSE(synth(s, "job-3", 21, 2));  // schedules the rebuild
  s.drain();
  EXPECT_TRUE(synth(s, "job-4", 21, 9));
}

TEST_F(PceStoreTest, TheBudgetBoundsMemoryAndReclaimEvicts) {
  MemoryBudget tiny(1000);
  {
    PceStore s({true, ""}, tiny, tl);  // memory only
    synth(s, "job-1", 40, 2);
    s.drain();
    EXPECT_EQ(state(s), "failed");  // larger than the whole budget: never retried
    EXPECT_EQ(tiny.used(), 0u);
    EXPECT_FALSE(synth(s, "job-2", 40, 3));
    s.drain();
    EXPECT_EQ(count("error=over budget"), 1u);
    EXPECT_EQ(count("PCE_EXTRACT_START"), 1u);
  }
  PceStore s({true, dir.string()}, budget, tl);
  synth(s, "job-1", 40, 2);
  s.drain();
  const uint64_t used = budget.used();
  EXPECT_GT(s.reclaim(1), 0u);
  EXPECT_EQ(state(s), "evicted");
  EXPECT_LT(budget.used(), used);
  EXPECT_TRUE(synth(s, "job-2", 40, 3));  // mapped again from the file
  s.drain();
  EXPECT_EQ(count("PCE_LOAD_END,job-2"), 1u);
  EXPECT_TRUE(synth(s, "job-3", 40, 4));
}

TEST_F(PceStoreTest, DisabledOrWithoutABlankItNeverRecords) {
  PceStore off({false, dir.string()}, budget, tl);
  EXPECT_FALSE(synth(off, "job-1", 10, 2));
  off.drain();
  PceStore on({true, dir.string()}, budget, tl);
  const ChainCircuit c = chain(10, 2);
  EXPECT_FALSE(on.synthesize("job-2", "chain", c, nullptr).via_pce);
  on.drain();
  EXPECT_TRUE(off.list().empty());
  EXPECT_TRUE(on.list().empty());
  EXPECT_FALSE(std::filesystem::exists(dir / "chain.pce"));
  EXPECT_EQ(count("PCE_"), 0u);
}
