// .pce files: a written file loads back to the same pre-compiled circuit; a
// file for other circuit code or another format version is Stale; a damaged
// file (any byte flipped, truncated, extended) is Corrupt, never loaded.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "r1cs/pce_file.hpp"
#include "unit/r1cs/test_circuits.hpp"

using namespace cuzk;
using namespace cuzk::r1cs;
using cuzk::test::ChainCircuit;
using cuzk::test::MixedCircuit;
using cuzk::test::PartsCircuit;

namespace {

struct PceFileTest : ::testing::Test {
  std::filesystem::path dir;
  PceDigest digest{};
  void SetUp() override {
    dir = std::filesystem::temp_directory_path() /
          ("cuzk-pce-file-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir);
    for (size_t i = 0; i < digest.size(); i++) digest[i] = uint8_t(i * 7 + 1);
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  std::vector<char> read(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  void write(const std::filesystem::path& p, const std::vector<char>& b) {
    std::ofstream(p, std::ios::binary).write(b.data(), std::streamsize(b.size()));
  }
  PceFileError::Kind error_of(const std::filesystem::path& p, const PceDigest& d) {
    try {
      read_pce_file(p, d);
    } catch (const PceFileError& e) {
      EXPECT_NE(std::string(e.what()).find(p.string()), std::string::npos) << e.what();
      return e.kind;
    }
    ADD_FAILURE() << "loaded " << p;
    return PceFileError::Kind::Missing;
  }
};

}  // namespace

TEST_F(PceFileTest, RoundTripsToTheSameAssignment) {
  ChainCircuit blank, chain;
  blank.len = chain.len = 40;
  chain.x0 = Fr::from_u64(5);
  const auto pce = PrecompiledCircuit::record(blank);
  const auto path = dir / "chain.pce";
  write_pce_file(path, pce, digest);
  EXPECT_EQ(std::filesystem::file_size(path), pce_file_bytes(pce));
  const auto back = read_pce_file(path, digest);
  EXPECT_EQ(back.num_inputs(), pce.num_inputs());
  EXPECT_EQ(back.num_aux(), pce.num_aux());
  EXPECT_TRUE(std::ranges::equal(back.a().col, pce.a().col));
  EXPECT_EQ(back.c().table, pce.c().table);
  ProvingAssignment full;
  chain.synthesize(full);
  EXPECT_TRUE(back.synthesize(chain) == full);
  // No temporary file is left behind.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
}

TEST_F(PceFileTest, KeepsThePartMarks) {
  const PartsCircuit blank, parts(Fr::from_u64(2));
  const auto pce = PrecompiledCircuit::record(blank);
  ASSERT_FALSE(pce.parts().empty());
  const auto path = dir / "parts.pce";
  write_pce_file(path, pce, digest);
  EXPECT_EQ(std::filesystem::file_size(path), pce_file_bytes(pce));
  const auto back = read_pce_file(path, digest);
  EXPECT_EQ(back.parts(), pce.parts());
  ProvingAssignment full;
  parts.synthesize(full);
  EXPECT_TRUE(back.synthesize(parts) == full);
}

TEST_F(PceFileTest, OtherCircuitCodeOrVersionIsStale) {
  const auto path = dir / "mixed.pce";
  write_pce_file(path, PrecompiledCircuit::record(MixedCircuit()), digest);
  PceDigest other = digest;
  other[31] ^= 1;
  EXPECT_TRUE(pce_file_is_current(path, digest));
  EXPECT_FALSE(pce_file_is_current(path, other));
  EXPECT_FALSE(pce_file_is_current(dir / "absent.pce", digest));
  EXPECT_EQ(error_of(path, other), PceFileError::Kind::Stale);
  auto bytes = read(path);
  bytes[8] = 1;  // version 1, before the part marks
  write(path, bytes);
  EXPECT_FALSE(pce_file_is_current(path, digest));
  EXPECT_EQ(error_of(path, digest), PceFileError::Kind::Stale);
  EXPECT_EQ(error_of(dir / "absent.pce", digest), PceFileError::Kind::Missing);
}

TEST_F(PceFileTest, EveryDamagedByteIsRefused) {
  const auto path = dir / "mixed.pce", bad = dir / "bad.pce";
  write_pce_file(path, PrecompiledCircuit::record(MixedCircuit()), digest);
  const auto good = read(path);
  for (size_t i = 0; i < good.size(); i++) {
    auto b = good;
    b[i] ^= char(0x5a);
    write(bad, b);
    const auto kind = error_of(bad, digest);
    // The version and digest fields read as another circuit's file.
    const bool header = i >= 8 && i < 12 + 4 + 32 && !(i >= 12 && i < 16);
    EXPECT_EQ(kind, header ? PceFileError::Kind::Stale : PceFileError::Kind::Corrupt) << "byte " << i;
  }
  auto shorter = good;
  shorter.pop_back();
  write(bad, shorter);
  EXPECT_EQ(error_of(bad, digest), PceFileError::Kind::Corrupt);
  auto longer = good;
  longer.push_back(0);
  write(bad, longer);
  EXPECT_EQ(error_of(bad, digest), PceFileError::Kind::Corrupt);
}
