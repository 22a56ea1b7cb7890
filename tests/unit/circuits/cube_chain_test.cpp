// The cube-chain benchmark circuit: satisfiable with its witness, exact
// counts, and the pre-compiled evaluation path (CSR matrices + witness file)
// reproduces the circuit's own synthesis exactly.
#include <gtest/gtest.h>

#include <random>

#include "circuits/cube_chain.hpp"
#include "r1cs/counting_cs.hpp"
#include "r1cs/evaluate.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/r1cs_file.hpp"
#include "r1cs/shape.hpp"
#include "r1cs/test_cs.hpp"

using namespace cuzk;
using circuits::CubeChain;
using r1cs::Fr;

TEST(CubeChain, SatisfiedWithExactCounts) {
  for (uint32_t extra : {0u, 1u, 7u}) {
    CubeChain::Shape s{50, extra, 3};
    r1cs::TestConstraintSystem cs;
    CubeChain(s, Fr::from_u64(5)).synthesize(cs);
    EXPECT_TRUE(cs.is_satisfied());
    EXPECT_EQ(cs.num_constraints(), CubeChain::constraints(s));
    EXPECT_EQ(cs.num_inputs(), 3u + extra);
    EXPECT_EQ(cs.num_aux(), 2u * 50 - 1);
    auto pub = CubeChain::public_inputs(s, Fr::from_u64(5));
    ASSERT_EQ(pub.size(), 2u + extra);
    auto inputs = cs.input_values();
    for (size_t i = 0; i < pub.size(); i++) EXPECT_EQ(inputs[i + 1], pub[i]) << i;
    r1cs::CountingCS cc;
    CubeChain(s).synthesize(cc);
    EXPECT_EQ(cc.num_constraints(), CubeChain::constraints(s));
  }
}

TEST(CubeChain, WrongWitnessIsUnsatisfied) {
  CubeChain::Shape s{20, 2, 3};
  r1cs::ShapeRecorder rec;
  CubeChain(s).synthesize(rec);
  r1cs::R1cs shape = rec.finish();
  r1cs::ProvingAssignment pa;
  CubeChain(s, Fr::from_u64(9)).synthesize(pa);
  std::vector<Fr> z = pa.input_assignment;
  z.insert(z.end(), pa.aux_assignment.begin(), pa.aux_assignment.end());
  EXPECT_TRUE(shape.is_satisfied(z));
  z[1] += Fr::one();
  EXPECT_FALSE(shape.is_satisfied(z));
}

TEST(Evaluate, MatchesCircuitSynthesisThroughFiles) {
  CubeChain::Shape s{300, 4, 11};
  r1cs::ShapeRecorder rec;
  CubeChain(s).synthesize(rec);
  r1cs::R1cs shape = rec.finish();
  std::string bytes = r1cs::serialize_r1cs(shape);
  auto span = std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  r1cs::R1cs back = r1cs::parse_r1cs(span, "mem.cuzk-r1cs");
  EXPECT_EQ(back.hash(), shape.hash());
  EXPECT_EQ(r1cs::serialize_r1cs(back), bytes);

  r1cs::ProvingAssignment direct;
  CubeChain(s, Fr::from_u64(123)).synthesize(direct);
  std::vector<Fr> z = direct.input_assignment;
  z.insert(z.end(), direct.aux_assignment.begin(), direct.aux_assignment.end());
  std::string w = r1cs::serialize_witness(z);
  auto z2 = r1cs::parse_witness(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(w.data()), w.size()), "w");
  ASSERT_EQ(z2, z);
  auto evaluated = r1cs::evaluate(back, r1cs::ShapeDensities::of(back), z2);
  EXPECT_TRUE(evaluated == direct);
  // Wrong length is refused with a message.
  z2.pop_back();
  EXPECT_THROW(r1cs::evaluate(back, r1cs::ShapeDensities::of(back), z2), r1cs::SynthesisError);
}

TEST(R1csFile, CorruptedFilesGiveClearErrors) {
  CubeChain::Shape s{10, 1, 1};
  r1cs::ShapeRecorder rec;
  CubeChain(s).synthesize(rec);
  std::string good = r1cs::serialize_r1cs(rec.finish());
  auto parse = [](const std::string& b) {
    r1cs::parse_r1cs(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(b.data()), b.size()),
                     "c.cuzk-r1cs");
  };
  auto expect_error = [&](const std::string& b, const std::string& needle) {
    try {
      parse(b);
      ADD_FAILURE() << "accepted a corrupted file (" << needle << ")";
    } catch (const r1cs::FormatError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("c.cuzk-r1cs"), std::string::npos);
    }
  };
  expect_error(good.substr(0, good.size() - 1), "truncated");
  expect_error(good.substr(0, 5), "truncated");
  std::string bad_magic = good;
  bad_magic[0] = 'X';
  expect_error(bad_magic, "bad magic");
  std::string bad_version = good;
  bad_version[8] = 9;
  expect_error(bad_version, "version");
  expect_error(good + "x", "trailing");
  // A coefficient >= r: set the last value's top byte to 0xff.
  std::string bad_fr = good;
  bad_fr[bad_fr.size() - 1] = char(0xff);
  expect_error(bad_fr, "not canonical");
  // A column index out of range: first column entry of A.
  std::string bad_col = good;
  size_t rows = CubeChain::constraints(s);
  size_t col_off = 8 + 8 + 24 + 8 + 8 * (rows + 1);
  bad_col[col_off + 3] = char(0x7f);
  expect_error(bad_col, "column index");
  // Witness: wrong count and bad ONE.
  std::vector<Fr> z = {Fr::from_u64(2)};
  std::string w = r1cs::serialize_witness(z);
  EXPECT_THROW(r1cs::parse_witness(
                   std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(w.data()), w.size()), "w"),
               r1cs::FormatError);
  std::string w2 = r1cs::serialize_witness(std::vector<Fr>{Fr::one()});
  w2.resize(w2.size() - 3);
  EXPECT_THROW(r1cs::parse_witness(
                   std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(w2.data()), w2.size()), "w"),
               r1cs::FormatError);
}
