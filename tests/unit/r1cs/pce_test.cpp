// Pre-compiled constraints on small circuits: packing keeps every
// coefficient (1 and -1 at table indices 0 and 1), witness-only synthesis
// numbers variables as full synthesis does, and the packed evaluation gives
// the full ProvingAssignment, densities included.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <random>
#include <vector>

#include <oneapi/tbb/task_arena.h>

#include "platform/large_vector.hpp"
#include "r1cs/pce.hpp"
#include "r1cs/witness_cs.hpp"
#include "unit/r1cs/test_circuits.hpp"

using namespace cuzk;
using namespace cuzk::r1cs;
using cuzk::test::ChainCircuit;
using cuzk::test::CubicCircuit;
using cuzk::test::ManyInputsCircuit;
using cuzk::test::MaybeWitnessed;
using cuzk::test::MixedCircuit;
using cuzk::test::PartsCircuit;

namespace {

void expect_pce_matches(const Circuit& blank, const Circuit& witnessed) {
  const auto pce = PrecompiledCircuit::record(blank);
  ProvingAssignment full;
  witnessed.synthesize(full);
  const ProvingAssignment pre = pce.synthesize(witnessed);
  EXPECT_TRUE(pre == full);
  EXPECT_EQ(pce.num_constraints(), full.num_constraints());
}

// Rows of 1 to 6 terms whose coefficients are small integers (the integer
// sums of PackedCsr::eval_row), ±1, powers of two or arbitrary, over values
// that are 0, 1 or anything else, with B a bit or ONE: c = a·b is allocated,
// so the circuit is satisfied and the PCE's a∘b must equal full synthesis.
struct SmallRowsCircuit : MaybeWitnessed {
  using MaybeWitnessed::MaybeWitnessed;
  void synthesize(ConstraintSystem& cs) const override {
    std::mt19937_64 rng(11);
    std::vector<Variable> vars;
    std::vector<Fr> vals;
    alloc_values(
        cs, 64,
        [&] {
          const uint64_t kind = rng() % 3;
          return kind == 0 ? Fr::zero() : kind == 1 ? Fr::one() : Fr::from_u64(rng());
        },
        vars, vals);
    for (int row = 0; row < 2000; row++) {
      LC a;
      Fr va = Fr::zero();
      const size_t terms = 1 + rng() % 6;
      for (size_t k = 0; k < terms; k++) {
        const uint64_t pick = rng() % 4;
        const int64_t small = int64_t(rng() % 9) - 4;
        const Fr coeff = pick == 0
                             ? (small < 0 ? -Fr::from_u64(uint64_t(-small)) : Fr::from_u64(uint64_t(small)))
                         : pick == 1 ? (rng() & 1 ? Fr::one() : -Fr::one())
                         : pick == 2 ? Fr::from_u64(uint64_t(1) << (rng() % 60))
                                     : Fr::from_u64(rng());
        const size_t j = rng() % vars.size();
        a.add(coeff, vars[j]);
        va += coeff * vals[j];
      }
      // B: ONE, or one of the 0/1 values.
      size_t j = rng() % vars.size();
      while (!(vals[j].is_zero() || vals[j].is_one())) j = rng() % vars.size();
      const bool by_one = rng() & 1;
      const Fr vb = by_one ? Fr::one() : vals[j];
      const Fr vc = va * vb;
      const Variable c = cs.alloc("c", [&] { return value(vc); });
      cs.enforce("row", std::move(a), by_one ? LC(cs.one()) : LC(vars[j]), LC(c));
    }
  }
};

// Packings as MultiEq makes them: Σ 2^i·bit_i · ONE = packed, a long A row
// against a one-term C row (the PCE evaluates such an a from C), between
// rows whose B is not ONE.
struct PackingCircuit : MaybeWitnessed {
  using MaybeWitnessed::MaybeWitnessed;
  void synthesize(ConstraintSystem& cs) const override {
    std::mt19937_64 rng(12);
    for (int row = 0; row < 300; row++) {
      LC sum;
      uint64_t packed = 0;
      Variable last{};
      for (unsigned i = 0; i < 12; i++) {
        const bool bit = rng() & 1;
        packed |= uint64_t(bit) << i;
        last = cs.alloc("bit", [&] { return value(bit ? Fr::one() : Fr::zero()); });
        sum.add(Fr::from_u64(uint64_t(1) << i), last);
      }
      const Variable p = cs.alloc("packed", [&] { return value(Fr::from_u64(packed)); });
      if (row % 3 == 2) {  // B a bit, not ONE: evaluated from A
        const bool top = (packed >> 11) & 1;
        const Variable c = cs.alloc("c", [&] { return value(top ? Fr::from_u64(packed) : Fr::zero()); });
        cs.enforce("product", std::move(sum), LC(last), LC(c));
      } else {
        cs.enforce("packing", std::move(sum), LC(cs.one()), LC(p));
      }
    }
  }
};

// Bits packed into numbers, Σ 2^k·bit_k, as long A rows against a bit in B
// (so evaluated term by term: PackedCsr::packed_bits gathers such rows'
// bits), of 16 to 254 terms around the limb boundaries; and rows it must
// leave to the general sum: 255 terms (the sum may exceed r), one
// coefficient not a power of two, one value not a bit, two coefficients out
// of order.
struct BitPackingCircuit : MaybeWitnessed {
  using MaybeWitnessed::MaybeWitnessed;
  void synthesize(ConstraintSystem& cs) const override {
    std::mt19937_64 rng(13);
    const Variable one_bit = cs.alloc("one", [&] { return value(Fr::one()); });
    enum Kind { kPlain, kOddCoeff, kNotBit, kOutOfOrder };
    for (unsigned n : {16u, 17u, 63u, 64u, 65u, 127u, 128u, 129u, 200u, 253u, 254u, 255u})
      for (int kind = kPlain; kind <= kOutOfOrder; kind++)
        for (int rep = 0; rep < 3; rep++) {
          std::vector<Fr> coeffs, vals;
          Fr pow = Fr::one();
          for (unsigned k = 0; k < n; k++, pow = pow + pow) {
            coeffs.push_back(kind == kOddCoeff && k == n - 1 ? pow + Fr::one() : pow);
            vals.push_back(kind == kNotBit && k == n / 2 ? Fr::from_u64(2 + rng() % 1000)
                                                         : Fr::from_u64(rng() & 1));
          }
          if (kind == kOutOfOrder) std::swap(coeffs[3], coeffs[4]);
          LC sum;
          Fr packed = Fr::zero();
          for (unsigned k = 0; k < n; k++) {
            sum.add(coeffs[k], cs.alloc("bit", [&] { return value(vals[k]); }));
            packed += coeffs[k] * vals[k];
          }
          const Variable c = cs.alloc("c", [&] { return value(packed); });
          cs.enforce("packed", std::move(sum), LC(one_bit), LC(c));
        }
  }
};

}  // namespace

TEST(PrecompiledCircuit, PackingRowsOverOneAsFullSynthesis) {
  expect_pce_matches(PackingCircuit(false), PackingCircuit(true));
}

TEST(PrecompiledCircuit, BitsPackedIntoNumbersAsFullSynthesis) {
  expect_pce_matches(BitPackingCircuit(false), BitPackingCircuit(true));
}

TEST(PrecompiledCircuit, ShortRowsOfSmallIntegersAndAnyValues) {
  expect_pce_matches(SmallRowsCircuit(false), SmallRowsCircuit(true));
}

// Large circuits write a, b and c with streaming stores, 32 bytes at a time
// into 32-byte aligned arrays (two rows at a time from a 64-byte line on)
// and 8 at a time otherwise: the same rows as plain stores (streaming_rows
// lowered to reach them on a small circuit).
TEST(PrecompiledCircuit, StreamingStoresWriteTheSameRows) {
  const SmallRowsCircuit blank(false), witnessed(true);
  const auto pce = PrecompiledCircuit::record(blank);
  ProvingAssignment full;
  witnessed.synthesize(full);
  const std::vector<Fr> w = pce.witness(witnessed);
  const size_t rows = pce.num_constraints(), first = 7, n = rows - 9;
  const size_t saved = PrecompiledCircuit::streaming_rows;
  PrecompiledCircuit::streaming_rows = 0;
  for (const uintptr_t misalign : {0, 32, 8}) {
    std::vector<uint64_t> raw(4 * 3 * n + 16, 0xdead);
    const uintptr_t at = (reinterpret_cast<uintptr_t>(raw.data()) + 63) / 64 * 64 + misalign;
    Fr* a = reinterpret_cast<Fr*>(at);
    pce.evaluate_rows(w, first, n, a, a + n, a + 2 * n);
    for (size_t i = 0; i < n; i++) {
      ASSERT_EQ(a[i], full.a[first + i]) << misalign << " row " << first + i;
      ASSERT_EQ(a[n + i], full.b[first + i]) << misalign << " row " << first + i;
      ASSERT_EQ(a[2 * n + i], full.c[first + i]) << misalign << " row " << first + i;
    }
  }
  PrecompiledCircuit::streaming_rows = saved;
}

TEST(PackedCsr, KeepsEveryCoefficient) {
  ShapeRecorder rec;
  MixedCircuit().synthesize(rec);
  ChainCircuit ch;
  ch.len = 5;
  ch.synthesize(rec);
  const R1cs r = rec.finish();
  for (const CsrMatrix* m : {&r.a, &r.b, &r.c}) {
    const PackedCsr p = PackedCsr::pack(*m, r.num_inputs, r.num_aux);
    ASSERT_TRUE(std::equal(p.row_ptr.begin(), p.row_ptr.end(), m->row_ptr.begin(), m->row_ptr.end()));
    // Columns move from z = (inputs, aux) to w = (aux, inputs) order.
    ASSERT_EQ(p.col.size(), m->col.size());
    for (size_t k = 0; k < m->nnz(); k++) {
      const size_t j = m->col[k];
      EXPECT_EQ(p.col[k], j < r.num_inputs ? r.num_aux + j : j - r.num_inputs) << k;
    }
    EXPECT_EQ(p.table[0], Fr::one());
    EXPECT_EQ(p.table[1], -Fr::one());
    for (size_t k = 0; k < m->nnz(); k++) EXPECT_EQ(p.table[p.coeff[k]], m->val[k]) << k;
    // Each distinct coefficient once.
    for (size_t i = 0; i < p.table.size(); i++)
      for (size_t j = i + 1; j < p.table.size(); j++) EXPECT_NE(p.table[i], p.table[j]);
  }
}

TEST(WitnessCS, NumbersVariablesAsFullSynthesis) {
  ManyInputsCircuit c;
  WitnessCS w;
  c.synthesize(w);
  ProvingAssignment full;
  c.synthesize(full);
  EXPECT_EQ(w.inputs(), full.input_assignment);
  EXPECT_EQ(std::vector<Fr>(w.aux().begin(), w.aux().end()), full.aux_assignment);
  EXPECT_EQ(w.num_constraints(), full.num_constraints());
}

TEST(PrecompiledCircuit, SameAssignmentAsFullSynthesis) {
  CubicCircuit cubic_blank, cubic;
  cubic.x = Fr::from_u64(3);
  expect_pce_matches(cubic_blank, cubic);
  expect_pce_matches(MixedCircuit(), MixedCircuit());
  ManyInputsCircuit many_blank;
  many_blank.with_witness = false;
  expect_pce_matches(many_blank, ManyInputsCircuit());
  ChainCircuit chain_blank, chain;
  chain_blank.len = chain.len = 300;
  chain.x0 = Fr::from_u64(7);
  expect_pce_matches(chain_blank, chain);
}

TEST(PrecompiledCircuit, RefusesAnotherShapeAndBadWitnesses) {
  ChainCircuit blank, other;
  blank.len = 10;
  other.len = 11;
  other.x0 = Fr::one();
  const auto pce = PrecompiledCircuit::record(blank);
  EXPECT_THROW(pce.synthesize(other), SynthesisError);
  std::vector<Fr> z(pce.num_inputs() + pce.num_aux(), Fr::one());
  z[0] = Fr::from_u64(2);
  EXPECT_THROW(pce.evaluate(z), SynthesisError);  // ONE must be 1
  z.pop_back();
  EXPECT_THROW(pce.evaluate(z), SynthesisError);  // wrong length
}

// Per proof, c is a·b (exact for a satisfying witness); evaluate() keeps
// C·z, so an unsatisfied witness shows the difference.
TEST(PrecompiledCircuit, SynthesizeTakesCFromAB) {
  struct Square : Circuit {
    uint64_t y = 9;
    void synthesize(ConstraintSystem& cs) const override {
      Variable x = cs.alloc("x", [] { return Fr::from_u64(3); });
      Variable yv = cs.alloc("y", [&] { return Fr::from_u64(y); });
      cs.enforce("x*x = y", x, x, yv);
    }
  };
  Square good, bad;
  bad.y = 10;
  const auto pce = PrecompiledCircuit::record(good);
  ProvingAssignment full_bad;
  bad.synthesize(full_bad);
  const ProvingAssignment fast = pce.synthesize(bad);
  EXPECT_EQ(fast.c[0], Fr::from_u64(9));
  EXPECT_EQ(full_bad.c[0], Fr::from_u64(10));
  std::vector<Fr> z{Fr::one(), Fr::from_u64(3), Fr::from_u64(10)};
  EXPECT_TRUE(pce.evaluate(z) == full_bad);
  ProvingAssignment full_good;
  good.synthesize(full_good);
  EXPECT_TRUE(pce.synthesize(good) == full_good);
}

// The densities derived from packed columns (as a .pce file is loaded) are
// those of the recorded shape.
TEST(PrecompiledCircuit, FromPackedMatricesGivesTheSameAssignment) {
  ChainCircuit blank, chain;
  blank.len = chain.len = 50;
  chain.x0 = Fr::from_u64(11);
  const auto pce = PrecompiledCircuit::record(blank);
  const PrecompiledCircuit parts(pce.num_inputs(), pce.num_aux(), pce.a(), pce.b(), pce.c());
  EXPECT_EQ(parts.bytes(), pce.bytes());
  EXPECT_TRUE(parts.synthesize(chain) == pce.synthesize(chain));
  ProvingAssignment full;
  chain.synthesize(full);
  EXPECT_TRUE(parts.synthesize(chain) == full);
}

// The recorded part marks, and the parts' witnesses computed in parallel
// (each part on a system of its own, at its recorded places, its bits
// allocated at once): the same assignment as full synthesis.
TEST(PrecompiledCircuit, RunsRecordedPartsInParallel) {
  const PartsCircuit blank, parts(Fr::from_u64(3));
  const auto pce = PrecompiledCircuit::record(blank);
  ASSERT_EQ(pce.parts().size(), blank.lens.size() + 1);
  SynthesisCounts want{1, 1, 0};  // x; ONE
  for (size_t i = 0; i < blank.lens.size(); i++) {
    EXPECT_EQ(pce.parts()[i], want) << i;
    want.aux += blank.lens[i] + 1 + blank.bits[i];
    want.inputs += 1;
    want.constraints += blank.lens[i] + 2 + blank.bits[i];
  }
  EXPECT_EQ(pce.parts().back(), want);
  ProvingAssignment full;
  parts.synthesize(full);
  EXPECT_EQ(parts.parts_on_own_system, 0u);  // full synthesis runs them in order
  tbb::task_arena arena(2);                  // parts run at once even on one core
  for (int rep = 0; rep < 20; rep++) {
    ProvingAssignment pre;
    arena.execute([&] { pre = pce.synthesize(parts); });
    ASSERT_TRUE(pre == full) << rep;
  }
  EXPECT_EQ(parts.parts_on_own_system, 20 * parts.lens.size());
  // Without the marks (sequential), the same.
  const PrecompiledCircuit no_parts(pce.num_inputs(), pce.num_aux(), pce.a(), pce.b(), pce.c());
  EXPECT_TRUE(no_parts.synthesize(parts) == full);
}

// Parts of other sizes than recorded are refused, even with the same totals
// (their values would land at other parts' places).
TEST(PrecompiledCircuit, RefusesPartsOfOtherSizes) {
  const auto pce = PrecompiledCircuit::record(PartsCircuit());
  const Fr x = Fr::from_u64(5);
  EXPECT_THROW(pce.synthesize(PartsCircuit(x, {5, 9, 4, 6})), PceMismatch);                // same totals
  EXPECT_THROW(pce.synthesize(PartsCircuit(x, {5, 10, 3, 7})), PceMismatch);               // past its place
  EXPECT_THROW(pce.synthesize(PartsCircuit(x, {5, 9, 3, 7}, {2, 1, 3, 1})), PceMismatch);  // bits past it
  EXPECT_THROW(pce.synthesize(PartsCircuit(x, {5, 9, 3})), PceMismatch);
}

// a, b and c come from recycled buffers without being zeroed first
// (platform::size_large): every row is written over whatever they held,
// the zero ones too (bits of 0, 1 - 1, empty rows).
TEST(PrecompiledCircuit, WritesEveryRowOverRecycledBuffers) {
  struct Bits : Circuit {
    bool witness = true;
    void synthesize(ConstraintSystem& cs) const override {
      for (uint64_t k = 0; k < 200000; k++) {
        Variable b = cs.alloc("b", [&] {
          if (!witness) throw AssignmentMissing();
          return k % 3 ? Fr::zero() : Fr::one();
        });
        cs.enforce("boolean", LC(cs.one()) - b, b, LC());  // (1 - b)·b = 0
        if (k % 1000 == 0) cs.enforce("empty", LC(), LC(), LC());
      }
    }
  };
  Bits blank, bits;
  blank.witness = false;
  const auto pce = PrecompiledCircuit::record(blank);
  ProvingAssignment full;
  bits.synthesize(full);
  const size_t cap = std::bit_ceil(pce.num_constraints());  // 2^18 rows: 8 MiB, recycled
  const platform::ScopedRecycleLimit recycling(size_t(1) << 30);
  platform::drop_recycled<Fr>();
  std::vector<const Fr*> stale;
  for (int k = 0; k < 4; k++) {  // a, b, c and the witness (whose values are written anyway)
    std::vector<Fr> junk(cap, Fr::from_u64(0xdead + k));  // no row of the assignment is this
    stale.push_back(junk.data());
    platform::recycle_large(junk);
  }
  const ProvingAssignment pre = pce.synthesize(bits);
  for (const std::vector<Fr>* v : {&pre.a, &pre.b, &pre.c})
    EXPECT_NE(std::find(stale.begin(), stale.end(), v->data()), stale.end()) << "not a recycled buffer";
  EXPECT_TRUE(pre == full);
  platform::drop_recycled<Fr>();
}

// The witness goes into a recycled buffer as it is, junk and all
// (WitnessCS): every value is written over it, with the recorded parts in
// parallel and in order, and nothing past the aux values comes through.
TEST(PrecompiledCircuit, WitnessOverARecycledBuffer) {
  const std::vector<size_t> lens = {40000, 50000, 30000, 20000}, bits = {2000, 0, 3000, 1};
  const PartsCircuit blank({}, lens, bits), parts(Fr::from_u64(3), lens, bits);
  const auto pce = PrecompiledCircuit::record(blank);
  const PrecompiledCircuit no_parts(pce.num_inputs(), pce.num_aux(), pce.a(), pce.b(), pce.c());
  ProvingAssignment full;
  parts.synthesize(full);
  const size_t n = pce.num_aux() + pce.num_inputs();  // 145,014 values: 4.4 MiB, recycled
  const platform::ScopedRecycleLimit recycling(size_t(1) << 30);
  tbb::task_arena arena(2);
  for (const PrecompiledCircuit* p : {&pce, &no_parts}) {
    platform::drop_recycled<Fr>();
    std::vector<Fr> junk(n, Fr::from_u64(0xdead));  // no value of the witness is this
    const Fr* stale = junk.data();
    platform::recycle_large(junk);
    ProvingAssignment pre;
    arena.execute([&] { pre = p->synthesize(parts); });
    EXPECT_EQ(pre.aux_assignment.data(), stale) << "not the recycled buffer";
    EXPECT_TRUE(pre == full) << (p == &pce ? "parts" : "in order");
  }
  platform::drop_recycled<Fr>();
}

// The witness's bit tags (witness_cs.hpp) say of every value whether it is
// 0, 1 or neither, with the parts in parallel and in order; evaluating rows
// with them gives the rows without them, and tags that claim nothing (all 2)
// do too.
TEST(PrecompiledCircuit, BitTagsDescribeTheWitnessAndGiveTheSameRows) {
  const std::vector<size_t> lens = {4000, 5000, 3000}, bits = {200, 0, 300};
  const PartsCircuit blank({}, lens, bits), parts(Fr::from_u64(3), lens, bits);
  const SmallRowsCircuit small_blank(false), small(true);
  const auto parts_pce = PrecompiledCircuit::record(blank);
  const PrecompiledCircuit in_order(parts_pce.num_inputs(), parts_pce.num_aux(), parts_pce.a(), parts_pce.b(),
                                    parts_pce.c());
  const auto small_pce = PrecompiledCircuit::record(small_blank);
  tbb::task_arena arena(2);
  const std::vector<std::pair<const PrecompiledCircuit*, const Circuit*>> cases = {
      {&parts_pce, &parts}, {&in_order, &parts}, {&small_pce, &small}};
  for (const auto& one_case : cases) {
    const PrecompiledCircuit* pce =
        one_case.first;  // (a lambda cannot capture a structured binding in clang 14)
    const Circuit* circuit = one_case.second;
    ProvingAssignment full;
    circuit->synthesize(full);
    std::vector<uint8_t> tags;
    std::vector<Fr> w;
    arena.execute([&] { w = pce->witness(*circuit, &tags); });
    ASSERT_EQ(tags.size(), w.size());
    size_t nbits = 0;
    for (size_t j = 0; j < w.size(); j++) {
      ASSERT_EQ(tags[j], bit_tag(w[j])) << "value " << j;
      nbits += tags[j] <= 1;
    }
    EXPECT_GT(nbits, 0u);
    EXPECT_LT(nbits, w.size());
    const size_t rows = pce->num_constraints();
    const std::vector<uint8_t> none(w.size(), 2);
    for (const std::vector<uint8_t>* t : std::vector<const std::vector<uint8_t>*>{&tags, &none}) {
      std::vector<Fr> a(rows), b(rows), c(rows);
      arena.execute([&] { pce->evaluate_rows(w, 0, rows, a.data(), b.data(), c.data(), *t); });
      for (size_t i = 0; i < rows; i++) {
        ASSERT_EQ(a[i], full.a[i]) << "row " << i;
        ASSERT_EQ(b[i], full.b[i]) << "row " << i;
        ASSERT_EQ(c[i], full.c[i]) << "row " << i;
      }
    }
    std::vector<Fr> a(rows), b(rows), c(rows);
    const std::vector<uint8_t> short_tags(w.size() - 1, 2);
    EXPECT_THROW(pce->evaluate_rows(w, 0, rows, a.data(), b.data(), c.data(), short_tags), SynthesisError);
  }
}
