// The streaming extractor: a circuit recorded straight into a .pce file in
// small buffers gives byte for byte the file that write_pce_file writes for
// the in-memory recording (whatever the buffer size, so every array is cut
// at many places, rows across buffers), and the mapped file synthesizes
// exactly as full synthesis; evaluation by ranges of rows gives the
// assignment of synthesize(); a failed extraction leaves no file, and the
// temporary file of a killed one is removed by the next.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include <unistd.h>

#include "r1cs/pce_extract.hpp"
#include "r1cs/pce_file.hpp"
#include "unit/r1cs/test_circuits.hpp"

using namespace cuzk;
using namespace cuzk::r1cs;
using cuzk::test::ChainCircuit;
using cuzk::test::ManyInputsCircuit;
using cuzk::test::MixedCircuit;
using cuzk::test::PartsCircuit;

namespace {

struct PceExtractTest : ::testing::Test {
  std::filesystem::path dir;
  PceDigest digest{};
  void SetUp() override {
    dir = std::filesystem::temp_directory_path() /
          ("cuzk-pce-extract-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir);
    for (size_t i = 0; i < digest.size(); i++) digest[i] = uint8_t(i * 5 + 3);
  }
  void TearDown() override { std::filesystem::remove_all(dir); }
  static std::vector<char> bytes_of(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  // The extractor's file for every buffer size equals write_pce_file's.
  void expect_same_file(const Circuit& blank, const char* name) {
    const auto ref = dir / (std::string(name) + ".ref.pce");
    write_pce_file(ref, PrecompiledCircuit::record(blank), digest);
    const auto want = bytes_of(ref);
    for (size_t buffer : {1, 2, 3, 7, 64, 1 << 20}) {
      const auto path = dir / (std::string(name) + ".pce");
      const PceExtractReport rep = extract_pce_file(path, blank, digest, {buffer});
      EXPECT_EQ(rep.file_bytes, want.size()) << name << " buffer " << buffer;
      EXPECT_TRUE(bytes_of(path) == want) << name << " buffer " << buffer;
    }
  }
};

// A circuit of long and short rows over many variables (a few thousand
// rows, coefficients 1, -1 and arbitrary), inputs interleaved.
struct WideRowsCircuit : Circuit {
  bool with_witness = false;
  void synthesize(ConstraintSystem& cs) const override {
    std::mt19937_64 rng(3);
    std::vector<Variable> vars;
    for (int i = 0; i < 300; i++) {
      const auto value = [&] {
        if (!with_witness) throw AssignmentMissing();
        return Fr::from_u64(uint64_t(i));
      };
      vars.push_back(i % 37 == 0 ? cs.alloc_input("x", value) : cs.alloc("v", value));
    }
    for (int row = 0; row < 3000; row++) {
      LC lc[3];
      for (auto& l : lc) {
        const size_t terms = rng() % 4 == 0 ? 20 + rng() % 30 : rng() % 3;
        for (size_t t = 0; t < terms; t++) {
          const uint64_t pick = rng() % 3;
          const Fr k = pick == 0 ? Fr::one() : pick == 1 ? -Fr::one() : Fr::from_u64(rng() % 50 + 2);
          l = l + k * vars[rng() % vars.size()];
        }
      }
      cs.enforce("row", lc[0], lc[1], lc[2]);
    }
  }
};

}  // namespace

TEST_F(PceExtractTest, SameFileAsTheInMemoryRecordingForAnyBuffer) {
  ChainCircuit chain;
  chain.len = 100;
  expect_same_file(chain, "chain");
  expect_same_file(MixedCircuit(), "mixed");
  ManyInputsCircuit inputs;
  inputs.with_witness = false;
  expect_same_file(inputs, "inputs");
  expect_same_file(PartsCircuit(), "parts");
  expect_same_file(WideRowsCircuit(), "wide");
}

TEST_F(PceExtractTest, TheMappedFileSynthesizesAsFullSynthesis) {
  const PartsCircuit blank, witnessed(Fr::from_u64(3));
  const auto path = dir / "parts.pce";
  const PceExtractReport rep = extract_pce_file(path, blank, digest, {5});
  const PrecompiledCircuit pce = read_pce_file(path, digest);
  EXPECT_EQ(rep.rows, pce.num_constraints());
  EXPECT_EQ(rep.nnz[0] + rep.nnz[1] + rep.nnz[2], pce.nnz());
  ProvingAssignment full;
  witnessed.synthesize(full);
  EXPECT_TRUE(pce.synthesize(witnessed) == full);
}

TEST_F(PceExtractTest, RowRangesGiveTheAssignmentOfSynthesize) {
  ChainCircuit blank, chain;
  blank.len = chain.len = 77;
  chain.x0 = Fr::from_u64(9);
  const auto pce = PrecompiledCircuit::record(blank);
  const ProvingAssignment whole = pce.synthesize(chain);
  const std::vector<Fr> w = pce.witness(chain);
  ASSERT_EQ(w.size(), pce.num_aux() + pce.num_inputs());
  const size_t rows = pce.num_constraints();
  for (size_t chunk : {1, 5, 16, 1000}) {
    std::vector<Fr> a(chunk), b(chunk), c(chunk);
    for (size_t first = 0; first < rows; first += chunk) {
      const size_t n = std::min(chunk, rows - first);
      pce.evaluate_rows(w, first, n, a.data(), b.data(), c.data());
      for (size_t i = 0; i < n; i++) {
        ASSERT_EQ(a[i], whole.a[first + i]) << "row " << first + i;
        ASSERT_EQ(b[i], whole.b[first + i]) << "row " << first + i;
        ASSERT_EQ(c[i], whole.c[first + i]) << "row " << first + i;
      }
    }
  }
  std::vector<Fr> a(2), b(2), c(2);
  EXPECT_THROW(pce.evaluate_rows(w, rows - 1, 2, a.data(), b.data(), c.data()), SynthesisError);
}

// A circuit whose second synthesis adds a constraint: the extractor refuses
// it and leaves nothing behind.
TEST_F(PceExtractTest, ACircuitThatChangesBetweenPassesLeavesNoFile) {
  struct Growing : Circuit {
    mutable int runs = 0;
    void synthesize(ConstraintSystem& cs) const override {
      Variable x = cs.alloc("x", [] { return Fr::one(); });
      for (int i = 0; i <= runs; i++) cs.enforce("sq", x, x, x);
      runs++;
    }
  };
  const auto path = dir / "growing.pce";
  EXPECT_THROW(extract_pce_file(path, Growing(), digest, {1}), SynthesisError);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 0);
}

// The temporary file of an extraction whose process is gone (killed) is
// removed by the next extraction into the same path; a live one's is not.
TEST_F(PceExtractTest, AKilledExtractionsFileIsRemovedByTheNext) {
  const auto path = dir / "chain.pce";
  const auto orphan = dir / "chain.pce.tmp.2147483646";  // no such process
  const auto live = dir / ("chain.pce.tmp." + std::to_string(::getppid()));
  std::ofstream(orphan) << "partial";
  std::ofstream(live) << "in progress";
  ChainCircuit chain;
  extract_pce_file(path, chain, digest, {});
  EXPECT_FALSE(std::filesystem::exists(orphan));
  EXPECT_TRUE(std::filesystem::exists(live));
  EXPECT_TRUE(std::filesystem::exists(path));
}
