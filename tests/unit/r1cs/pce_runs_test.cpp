// Stretches of rows of one shape (PrecompiledCircuit::RowRun), which the
// satisfied-witness loop takes by loops of their own: found where they are,
// and evaluated as full synthesis evaluates them, whatever their values and
// wherever a range of rows starts or ends inside one.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include <oneapi/tbb/task_arena.h>

#include "r1cs/pce.hpp"
#include "r1cs/witness_cs.hpp"
#include "unit/r1cs/test_circuits.hpp"

using namespace cuzk;
using namespace cuzk::r1cs;
using cuzk::test::MaybeWitnessed;

namespace {

// Stretches of 1 to 60 rows, each of one shape of A: one term of
// coefficient 1, one of another coefficient, two, three or four small terms,
// or (between them) a long row of arbitrary coefficients. B is one term of
// coefficient 1 (a bit, ONE, or now and then a value that is not a bit); A's
// values are bits, with a few that are not. c = a·b is allocated, so the
// witness satisfies the circuit and the PCE's a∘b must equal full
// synthesis's.
struct StretchesCircuit : MaybeWitnessed {
  using MaybeWitnessed::MaybeWitnessed;
  void synthesize(ConstraintSystem& cs) const override {
    std::mt19937_64 rng(21);
    std::vector<Variable> vars;
    std::vector<Fr> vals;
    alloc_values(
        cs, 200, [&] { return rng() % 16 == 0 ? Fr::from_u64(rng()) : Fr::from_u64(rng() & 1); }, vars, vals);
    const auto pick = [&] { return rng() % vars.size(); };
    const auto small = [&] {
      const int64_t k = int64_t(rng() % 9) - 4;
      return k < 0 ? -Fr::from_u64(uint64_t(-k)) : Fr::from_u64(uint64_t(k == 0 ? 2 : k));
    };
    for (int stretch = 0; stretch < 250; stretch++) {
      const uint64_t shape = rng() % 4, len = shape == 3 ? 1 : 1 + rng() % 60, n = 2 + rng() % 3;
      for (uint64_t r = 0; r < len; r++) {
        LC a;
        Fr va = Fr::zero();
        const auto term = [&](const Fr& coeff) {
          const size_t j = pick();
          a.add(coeff, vars[j]);
          va += coeff * vals[j];
        };
        if (shape == 0) term(Fr::one());
        else if (shape == 1) term(rng() % 4 == 0 ? Fr::from_u64(rng()) : small());
        else if (shape == 2)
          for (uint64_t k = 0; k < n; k++) term(rng() % 8 == 0 ? Fr::from_u64(rng()) : small());
        else
          for (int k = 0; k < 7; k++) term(Fr::from_u64(rng()));
        const bool by_one = rng() % 5 == 0;
        const size_t jb = pick();
        const Fr vb = by_one ? Fr::one() : vals[jb];
        const Variable c = cs.alloc("c", [&] { return value(va * vb); });
        cs.enforce("row", std::move(a), by_one ? LC(cs.one()) : LC(vars[jb]), LC(c));
      }
    }
  }
};

}  // namespace

TEST(PrecompiledCircuit, FindsStretchesOfOneShape) {
  const auto pce = PrecompiledCircuit::record(StretchesCircuit(false));
  const auto& runs = pce.row_runs();
  size_t kinds[5] = {0, 0, 0, 0, 0};
  uint32_t prev_end = 0;
  for (const auto& r : runs) {
    ASSERT_GE(r.begin, prev_end);
    ASSERT_GE(r.end - r.begin, PrecompiledCircuit::kMinRun);
    ASSERT_LE(r.a_kind, PackedCsr::kSmallTerms);
    kinds[r.a_kind]++;
    prev_end = r.end;
    for (uint32_t i = r.begin; i < r.end; i++) {
      const PackedCsr &a = pce.a(), &b = pce.b();
      ASSERT_EQ(b.row_ptr[i + 1] - b.row_ptr[i], 1u) << i;
      ASSERT_EQ(b.coeff[b.row_ptr[i]], 0u) << i;
      const uint32_t n = a.row_ptr[i + 1] - a.row_ptr[i];
      if (r.a_kind >= 2) {
        ASSERT_EQ(n, r.a_kind) << i;
      } else {
        ASSERT_EQ(n, 1u) << i;
        ASSERT_EQ(a.coeff[a.row_ptr[i]] == 0, r.a_kind == 0) << i;
      }
    }
  }
  for (int k = 0; k < 5; k++) EXPECT_GT(kinds[k], 2u) << "kind " << k;
}

TEST(PrecompiledCircuit, StretchesEvaluateAsFullSynthesis) {
  const StretchesCircuit blank(false), witnessed(true);
  const auto pce = PrecompiledCircuit::record(blank);
  ProvingAssignment full;
  witnessed.synthesize(full);
  EXPECT_TRUE(pce.synthesize(witnessed) == full);
  // Ranges that start and end inside stretches, with bit tags, with plain
  // and streaming stores (two rows at a time where a's line allows), on one
  // thread and on two.
  std::vector<uint8_t> tags;
  const std::vector<Fr> w = pce.witness(witnessed, &tags);
  const size_t rows = pce.num_constraints();
  ASSERT_GT(pce.row_runs().size(), 20u);
  const size_t saved = PrecompiledCircuit::streaming_rows;
  for (const size_t streaming : {size_t(0), saved}) {
    PrecompiledCircuit::streaming_rows = streaming;
    for (const int threads : {1, 2}) {
      tbb::task_arena arena(threads);
      for (size_t r = 0; r < 20; r += 5) {
        const auto& run = pce.row_runs()[r];
        const size_t first = run.begin + 5, n = std::min(rows - first, size_t(3000) + 977 * r);
        // a, b and c from a 64-byte line, or from its middle (32-byte aligned).
        const uintptr_t misalign = r % 2 ? 32 : 0;
        std::vector<uint64_t> raw(4 * 3 * n + 16, 0xdead);
        Fr* const a =
            reinterpret_cast<Fr*>((reinterpret_cast<uintptr_t>(raw.data()) + 63) / 64 * 64 + misalign);
        Fr *const b = a + n, *const c = b + n;
        arena.execute([&] { pce.evaluate_rows(w, first, n, a, b, c, tags); });
        for (size_t i = 0; i < n; i++) {
          ASSERT_EQ(a[i], full.a[first + i]) << "row " << first + i;
          ASSERT_EQ(b[i], full.b[first + i]) << "row " << first + i;
          ASSERT_EQ(c[i], full.c[first + i]) << "row " << first + i;
        }
      }
    }
  }
  PrecompiledCircuit::streaming_rows = saved;
}
